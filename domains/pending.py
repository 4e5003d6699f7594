"""What a specialist does with a caller turn while its own question waits for an answer.

The specialist has asked something: a read-back ("To confirm: ... Shall I go ahead?", held by
its `ActionGate`) or a slot question ("which plan?"). The caller's next words are read as a
move about that question (domains/frame.py) before anything else:

- a read-back's own moves (a yes or no, a question about the action, "is it done yet?", a
  pause, a cancel) go to the action's tool, whose gate answers them from the action's facts;
- a slot question's moves are answered here: a cancel leaves the task and says so, "has that
  gone through?" hears that nothing has been done, a pause is waited for;
- a digression to a need that a read-only lookup answers (the balance, the service status)
  is answered at once and the pending question asked once more;
- another need that acts, said while a read-back waits ("change my email to ..."), is queued:
  the caller hears it is next, the read-back is asked once more, and the front desk routes it
  as soon as the read-back is answered; said while a slot question waits, the task leaves,
  says what it left, and the front desk routes the new need;
- the same need said again ("i still can't log in") hears that this is the action being
  asked about, not "I need a yes or a no".
"""

from __future__ import annotations

import logging
import re
from enum import Enum
from typing import TYPE_CHECKING, Any, Protocol

from callcenter.llm import templates as t
from callcenter.llm.language import SUPPORTED_REPLY, detect_language
from callcenter.routing.discourse import farewell_after, follow_up_kind, is_thanks_only, puts_off
from callcenter.routing.segment import RETRACTION
from callcenter.spoken import normalise
from domains import frame
from domains.base import LeaveReason, asks_for_need, caller_wants_out, leaving_reason
from domains.frame import Move
from domains.glossary_words import IN_ENGLISH, gloss, glossaries
from domains.intent import (
    approval_wait,
    firm_no,
    is_question,
    no_at_the_end,
    without_aside,
    yes_or_no,
)
from domains.lookup_run import run_lookup
from domains.results import DomainResult
from domains.state import Hop

if TYPE_CHECKING:
    from callcenter.routing import Intent
    from domains.intent import ActionGate
    from domains.state import CallState


class SpecialistLike(Protocol):
    """The specialist task that calls in: what this module reads of it. It is
    domains.specialist.SpecialistTask, which imports this module, so it is described here rather
    than imported back (no circle between the rooms of domains/); the hooks' defaults are there."""

    state: CallState
    gate: ActionGate | None
    last_question: str
    called: str
    questions: set[str]
    then_answer: tuple[str | None, str] | None
    result_type: Any
    slot_why: str | None
    slot_where: str | None

    @property
    def id(self) -> str: ...
    @property
    def label(self) -> str: ...
    def other_need(self, latest: str, *, by_domain: bool = False) -> Intent | None: ...
    def finish(self, result: Any) -> None: ...
    def corrects(self, words: str) -> bool: ...
    def names_answer(self, words: str) -> bool: ...
    def names_slot(self, words: str) -> bool: ...
    def slot_options(self) -> str | None: ...

log = logging.getLogger("callcenter.domains")



def declines(latest: str) -> bool:
    """"no thank you" to "Shall I go ahead?": a polite no to the read-back, not the end of
    the call (a farewell in it, "no thanks, bye", still ends it)."""
    return yes_or_no(latest) is False and is_thanks_only(latest)


# A question about the pending action by pronoun: "is that going back to my card?", "will it show today?"
_ASKS_OF_IT = re.compile(
    r"^\W*(?:(?:hang\s+on|hold\s+on|wait|so|and|ok|okay|um|uh|oh|sorry|sorry\s+but|quick\s+question)\W+)*"
    r"(?:is|will|would|does|did|can|could|should)\s+(?:that|it|this)\b[^?]*(?:\?\W*)?$", re.I)  # a recogniser writes no "?"

_ANSWER_FORMS = frozenset({"customer_id", "zip_code", "birth_date", "email", "phone", "request_id"})


class Next(Enum):
    """What the specialist does next when the move is not answered here."""

    CONTINUE = "continue"  # as before: leave on goodbye/person/new need, else act or ask
    TO_TOOL = "to_tool"  # the action's own gate answers this turn: run the tool, no topic change
    LEAVE = "leave"  # the caller says no to our question and goodbye: the call ends


def says_no_and_bye(latest: str, answers: bool) -> bool:
    """"nope, don't lock, bye" to "which one should change?": a no (or a put-off) and a farewell, with no value
    of the kind asked for (`answers`). At a read-back a yes or no before "bye" is the answer and
    is read first (`caller_wants_out`); at a value's question a no answers nothing: the call ends."""
    before = farewell_after(latest)
    # "ok i think about it, not now. thank you, bye": a put-off is a no to the question; "ugh i
    # dont have it handy. bye": the value not to hand is no answer either
    return before is not None and (yes_or_no(before) is False or puts_off(before) or bool(_NOT_TO_HAND.search(before))) and not answers


# The value asked for, not known or not to hand: "i don't have it handy", "can't remember it".
_NOT_TO_HAND = re.compile(
    r"\b(?:i|we)\s+(?:don'?t|dont|do\s+not|can'?t|cant|cannot)\s+(?:have|got|know|remember|find|recall)\b"
    r"|\b(?:i|we)\s+(?:haven'?t|havent)\s+got\b|\bnot\s+(?:on|with)\s+me\b", re.I)


async def handle(task: SpecialistLike, latest: str) -> str | Next | None:
    """A reply to speak, None when the task finished, or what to do next."""
    gate = task.gate
    readback = gate is not None and gate.pending
    latest = without_aside(latest)  # "yes unlock it, why would i be calling otherwise": no question of its own
    if readback and yes_then_need(task, latest):
        return Next.TO_TOOL  # "yep do it, and then i want a person": the yes first, the rest kept
    if leaving_reason(task.state, latest) is not None and not (readback and declines(latest)):
        # goodbye and a person win over everything: a turn the line reads as a goodbye leaves
        # the read-back even with a yes-like word in it (tried: acting on those filed requests
        # the blind parts' callers never confirmed, session 18)
        return Next.CONTINUE
    # "customer number c1004, zip 30301. how much do i owe?": the answer, with the question it was
    # asked for. Only values whose form is the answer: a plan or an amount named in a question
    # asks about it ("whats the price gap between starter and enterprise")
    answers = not readback and bool(set(task.state.slots.read(normalise(latest)).as_dict()) & _ANSWER_FORMS)
    if not readback and says_no_and_bye(latest, answers):
        return Next.LEAVE
    if (glossed := await foreign_aside(task, latest)) is not None:
        return glossed
    if readback and (dropped := drops_another(task, latest)) is not None:
        return dropped
    if readback and task.corrects(latest):
        # "forget it, make it twenty": a take-back that names the action's new value changes it
        return Next.TO_TOOL
    if readback and (taken := frame.taken_back(latest)) is not None and _names_own(task, taken):
        if gate.names_new_value(task, latest):
            # "actually scratch that make it enterprise" to the Pro read-back: what is taken back is
            # the value read, and the new one said in so many words is read back in its place
            return Next.TO_TOOL
        # "forget the email" to the email change's read-back, "scratch the refund" to the refund's:
        # this very need taken back, not said again; nothing is done and the request stops
        return gate.cancel(task, latest=latest, stopped=True)
    if readback and yes_then_asks(task, latest):
        return Next.TO_TOOL
    if readback and task.corrects(latest):
        return Next.TO_TOOL  # "oh wait, just thirty five then": the action changed, read back anew
    if not readback and task.names_answer(latest):
        return Next.TO_TOOL  # "ok and how should i handle retries" to "is it about webhooks, ...?": named
    # "ah wait, drop it, i just found my backup codes": beside a cancel, words of this very need
    # that tell it is solved are why it is dropped, no need raised again
    reading = frame.read(latest, lambda words: raises_need(task, words) and not (_SOLVED.search(words) and restates(task, words)))
    # A question that names nothing of its own ("what does that mean?") is about our question;
    # one that could be another need ("what's my balance?") is checked for that first.
    specific = reading is not None and (reading.move is not Move.ASK or reading.ask is not None)
    answer = gate.assent(task, latest) if readback else None
    if specific and reading is not None and reading.move in (Move.STATUS, Move.ASK) and answer is not True:
        # "is that incident fixed yet, by the way?" asks about another department's matter, not
        # whether ours is done: a lookup answers it. Only another department: "how long does the
        # refund take?" during a refund's read-back is about ours, not a refund-status lookup.
        aside = task.other_need(latest)
        # a comparison the action's own facts lay out ("would that make my rate limit go down?" to a
        # plan change) is about ours, however much its words sound like the API errors
        # (a task with no gate, identity's, asks nothing to compare)
        compared = reading.ask is frame.Ask.COMPARE and gate is not None and gate.facts is not None and gate.facts.compare is not None
        ours = (readback and (reading.ask is frame.Ask.NEXT or compared or about_ours(latest, gate.facts)
                              or frame.asks_why_amount(reading, gate.facts, latest))) or (
            reading.ask is frame.Ask.WHERE and task.slot_where is not None)
        if aside is not None and aside.domain != task.id.split(".", 1)[0] and not ours:
            answered = await answer_by_lookup(task, aside)
            if answered is not None:
                back = _asked_again(task)
                return f"{answered} {frame.back_to(back)}".strip()
    if (earlier := earlier_answer(task, latest)) is not None and not (readback and about_ours(latest, gate.facts)):
        # "so what do i do about the too many requests bit" while the new email is asked for, "and
        # the rate thing what do i do about it again" at a refund's read-back: the answer given
        # before this question, followed up (not a question about ours), then ours once more
        return f"{earlier} {frame.back_to(_asked_again(task) if readback else task.last_question)}".strip()
    # "wait, what's the difference again?" opens like a no, but only a firm no refuses
    unanswered = answer is None or (answer is False and not firm_no(latest))
    if readback and specific and reading is not None and reading.move is Move.ASK and reading.ask is not None and unanswered:
        said = gate.answer_question(task, reading, latest)
        if said is not None:
            task.questions.add(latest)
            return said
    if readback and answer is False and no_at_the_end(latest) and task.other_need(latest) is None:
        # "sixty a minute is way too little, so no": a no, whatever plan or figure its reason names
        return gate.cancel(task, latest=latest)
    refused = readback and answer is False and firm_no(latest)
    if refused and not gate.names_new_value(task, latest):
        # "nah forget it, too pricey": a no, whatever value its reason sounds like ("down"); the
        # reason may sound like this very need, but no other
        own = frame.read(latest, lambda words: raises_need(task, words) and not restates(task, words))
        if own is not None and own.move is Move.CANCEL:
            return gate.cancel(task, latest=latest, stopped=frame.stops(latest))
        # "no forget that, what's my balance": the no refuses this read-back (nothing done) and
        # the question is answered, not lost with it
        other = task.other_need(latest)
        if other is not None and not restates(task, latest) and (answered := await answer_by_lookup(task, other)) is not None:
            return gate.cancel(task, then=answered, latest=latest)
    if readback and answer is not True and (asides := await asides_answered(task, latest)) is not None:
        return asides
    # "wait, what's my balance?" opens like a no but raises something else: that is checked first.
    if readback and (specific or answer is True or refused):
        return Next.TO_TOOL
    if (not readback and not answers and reading is not None and reading.move in (Move.ASK, Move.STATUS)
            and task.names_slot(latest)):
        # "is that the email my invoices get sent to?" while the new email is asked for: a question
        # about the very value asked for, however much its words sound like another need
        return slot_reply(task, frame.Reading(Move.ASK, frame.Ask.WHAT))
    why = task.slot_why
    if not readback and not answers and why and _ASKS_OF_IT.search(latest):
        # "is this gonna log me out of the dashboard?" while the new email is asked for: a question
        # about the change asked for, answered with what the change is (not another need's answer)
        return f"{why} {task.last_question}".strip()
    if not readback and specific and reading is not None and yes_or_no(latest) is not True and not answers:
        if reading.move is Move.CANCEL:
            task.finish(task.result_type(status="cancelled", summary=frame.CANCELLED.format(what=task.called)))  # type: ignore[arg-type]
            return None
        return slot_reply(task, reading)
    intent = task.other_need(latest)
    if intent is None and readback and reading is not None and reading.move is Move.ASK and not about_ours(latest, gate.facts):
        # "hmm actually, before that, is the api even up right now? we had some failures": a
        # question of another department, sure of the department if not of the specialist;
        # answered only by a read-only lookup, then ours is asked again (nothing queued on it)
        aside = task.other_need(latest, by_domain=True)
        answered = await answer_by_lookup(task, aside) if aside is not None else None
        if answered is not None:
            return f"{answered} {frame.back_to(_asked_again(task))}".strip()
    if readback and _ASKS_OF_IT.search(latest) and (intent is None or intent.domain == task.id.split(".", 1)[0]):
        # "hang on, is that going back to my card or as credit?": a question whose subject is
        # the pending action, however much its words sound like another need of ours (the
        # refund's status): the read-back says it in full
        said = gate.answer_question(task, frame.Reading(Move.ASK, frame.Ask.WHAT), latest)
        if said is not None:
            task.questions.add(latest)
            return said
    if intent is not None:
        answered = await answer_by_lookup(task, intent)
        if answered is None:
            if readback and gate.facts and not RETRACTION.search(latest):
                return queue_need(task, latest, intent, gate.facts)
            return Next.CONTINUE  # a need that asks or acts: the task leaves and it is routed
        back = _asked_again(task)
        return f"{answered} {frame.back_to(back)}".strip()
    if readback and gate.facts and restates(task, latest):
        if gate.brings_new_value(task, latest):
            return Next.TO_TOOL  # "wait no, pro not starter": the action changed, read back anew
        if is_question(latest) and gate.read_back:
            # "is that going back on the same card?": the read-back itself says how, in full
            return f"Yes: {gate.read_back}. {frame.reask(gate.facts)}"
        return f"{frame.SAME_NEED} {frame.reask(gate.facts)}"
    if (reading is not None or answer is not None) and not answers:  # a question about ours in words of its own, or a plain "wait"
        return Next.TO_TOOL if readback else slot_reply(task, reading)  # type: ignore[arg-type]
    return Next.CONTINUE


_CLEAR_YES = re.compile(r"\b(?:yes+|yeah|yep|yup|go ahead|do it|please do|confirm(?:ed)?|proceed|absolutely|definitely)\b", re.I)
# The questions a yes may carry that still mean something once the action is done.
_AFTER_YES = {frame.Ask.HOW_LONG: "how_long", frame.Ask.COST: None, frame.Ask.UNDO: None}


def yes_then_asks(task: SpecialistLike, latest: str) -> bool:
    """"yes, and how long until someone approves it?": the yes answers the read-back, and the
    question is answered after the action, from its result or its facts (never lost, never a
    reason to ask for the yes again)."""
    gate = task.gate
    # "ok and how long till it shows up" acknowledges and asks: only a yes said as one
    # ("yes", "yeah go ahead", "do it") agrees before the question
    split = frame.yes_then_question(
        latest, lambda words: bool(_CLEAR_YES.search(words)) and gate.assent(task, words) is True)
    if split is None or gate.facts is None:
        return False
    yes, question = split
    reading = frame.read(question)
    aside = task.other_need(question)  # "how long does the refund take" is ours; another department's is not
    theirs = aside is not None and aside.domain != task.id.split(".", 1)[0] and not about_ours(question, gate.facts)
    if reading is None or reading.ask not in _AFTER_YES or theirs:
        return False
    fact = frame.fact(reading.ask, gate.facts, approval_wait(task.state))
    if reading.ask is frame.Ask.HOW_LONG and not (gate.facts.how_long or gate.facts.approval):
        fact = ""  # "it's done as soon as you say yes": the result says it is done
    task.then_answer = (_AFTER_YES[reading.ask], fact)
    gate.hear_as(latest, yes)
    return True


# Words about the approval or the action itself, whichever department they sound like:
# "before somebody signs off on it" is no sign-in question, "charged during the lock" no balance.
_OURS = re.compile(r"\b(?:approv\w*|sign(?:s|ed)?\s+off|review\w*|supervisor|decid\w*|go(?:es)?\s+through|during\s+(?:the|that|it))\b", re.I)
_GENERIC = frozenset("your account with request that this from number plan".split())


def about_ours(words: str, facts: frame.ActionFacts | None) -> bool:
    """The question names the pending action ("charged during the lock" to a lock's read-back)
    or its approval: it is about ours, not another department's matter."""
    if _OURS.search(words):
        return True
    if facts is None:
        return False
    own = {w[:4] for w in re.findall(r"[a-z]+", facts.what.lower()) if len(w) >= 4 and w not in _GENERIC}
    return any(w[:4] in own for w in re.findall(r"[a-z]+", words.lower()) if len(w) >= 4 and w not in _GENERIC)


def drops_another(task: SpecialistLike, latest: str) -> Next | None:
    """"actually forget the two factor part, i'll sort that myself. the closing, yes.": one part
    takes back another need (dropped from the front desk's queue), the rest says yes (or no)
    to ours."""
    parts = [p.strip() for p in _PARTS.split(latest) if p.strip()]
    if len(parts) < 2:
        return None
    own = task.label
    router = task.state.router
    dropped: set[str] = set()
    # "ok forget the ticket. the two factor reset, yes, do it": a need already answered this call,
    # let go of, is nothing to drop and no need of its own
    answered = {f"{r.domain}/{r.specialist}" for r in task.state.caller.results if r.specialist}
    let_go = False
    kept: list[str] = []
    for part in parts:
        if frame.takes_back(part):
            named = {i.label for i in router.detect(part) if i.in_scope and "/" in i.label and not i.label.startswith("meta/")
                     and i.label != own and router.domain_confidence(i) >= router.threshold}
            if named & (task.state.waiting_needs | answered):
                dropped |= named & task.state.waiting_needs
                let_go = True
                continue
        kept.append(part)
    rest = ". ".join(kept)
    if not let_go or not kept or task.gate.assent(task, rest) is None:
        return None  # the rest must answer ours, yes or no
    task.state.dropped_needs |= dropped
    task.gate.hear_as(latest, rest)
    return Next.TO_TOOL


_PARTS = re.compile(r"[.;!?]\s+|,\s+(?=(?:the|and|but|so|ok|okay|yes|yeah)\b)")


# After a yes, words that hold it back or make it wait on something ("yes but first ...", "yes,
# if it's free ..."), take something back, or say no: the yes is not said plainly.
_HELD_AFTER_YES = re.compile(
    r"\b(?:but|before|first|wait|hold|hang\s+on|if|unless|once|until|instead|rather|actually|cancel|stop|don'?t|do\s+not"
    r"|scratch|forget|never\s*mind|no|nope|not\s+yet)\b", re.I)


# "file it", "and just do it then": a verb on the pending action, the yes said again.
_DOES_IT = re.compile(r"^\W*(?:(?:and|so|then|just|please|now|ok|okay)\W+)*\w+\s+(?:it|that|this|them)"
                      r"(?:\s+(?:then|now|please|through|in|off|already|for\s+(?:me|us)))*\W*$", re.I)
_NEED_WORDS = 3  # another need takes a few words ("is the api down", "get me a person")


def yes_then_need(task: SpecialistLike, latest: str) -> bool:
    """"yep go ahead, and also is the api down", "yes and then i want a person": the yes answers
    the read-back, and the other need (or the person) is kept and taken once the action is done,
    as a need said while the read-back waits is (never lost, never a reason to ask again)."""
    gate = task.gate
    if gate.facts is None:
        return False
    split = frame.yes_then_rest(latest, lambda words: bool(_CLEAR_YES.search(words)) and gate.assent(task, words) is True)
    if split is None:
        return False
    yes, rest = split
    if _DOES_IT.match(rest) or len(rest.split()) < _NEED_WORDS or _CLEAR_YES.search(rest) or gate.assent(task, rest) is not None:
        return False  # "ok yes, file it", "yep, go ahead and do it": the yes said twice, no other need
    if _HELD_AFTER_YES.search(rest) or about_ours(rest, gate.facts) or restates(task, rest):
        return False  # "yes, and how long does the refund take": ours, for `yes_then_asks`
    wants = caller_wants_out(rest)
    reading = frame.read(rest)
    if wants is LeaveReason.GOODBYE or farewell_after(rest) is not None or wants is None and (
            task.other_need(rest) is None or reading is not None and reading.move is Move.CANCEL):
        return False  # "yes. thanks, bye" leaves as ever (read first, before any action)
    gate.hear_as(latest, yes)
    _keep_for_later(task.state, rest)
    return True


# Words of a follow-up question that name no answer ("what", "about", "that").
_ASKING = frozenset("what about that this with then have does should would could thing bit part there they them when where "
                    "which your mine into from again".split())
_STEM = 5


def earlier_answer(task: SpecialistLike, latest: str) -> str | None:
    """A follow-up about an answer the caller heard before this task's question, named by a word
    of it ("the too many requests bit" after the 429s), answered from that answer's follow-ups."""
    kind = follow_up_kind(latest, named=True)
    if kind is None:
        return None
    words = {w[:_STEM] for w in re.findall(r"[a-z]+", latest.lower()) if len(w) >= 4 and w not in _ASKING}
    for result in reversed(task.state.caller.results):
        if result.result is None or result.status not in ("info", "done", "needs_approval"):
            continue
        if words & {w[:_STEM] for w in re.findall(r"[a-z]+", result.summary.lower()) if len(w) >= 4}:
            return result.result.follow_ups.get(kind)
    return None


def slot_reply(task: SpecialistLike, reading: frame.Reading | None) -> str:
    """A move while a slot question waits. A general question ("what plans are there?") is
    answered with the choices' facts when the task has them (`slot_options`), then asked again."""
    why = task.slot_why
    if reading is not None and reading.move is Move.ASK and reading.ask is frame.Ask.WHY and why:
        return f"{why} {task.last_question}".strip()  # "hm why do you need my zip"
    where = task.slot_where
    if reading is not None and reading.move is Move.ASK and reading.ask is frame.Ask.WHERE and where:
        return f"{where} {task.last_question}".strip()  # "where do i even find that? the customer number?"
    # "what plans are there?", "how much is pro again?", "what's the difference?": the choices' facts answer them
    if reading is not None and reading.move is Move.ASK and reading.ask in (None, frame.Ask.WHAT, frame.Ask.COST, frame.Ask.COMPARE):
        facts = task.slot_options()
        if facts:
            return f"{facts} {task.last_question}".strip()
    return frame.slot_answer(reading, task.last_question)  # type: ignore[arg-type]


def queue_need(task: SpecialistLike, latest: str, intent: Intent, facts: frame.ActionFacts) -> str:
    """Another need that acts, said while our read-back waits: it is kept, not lost, and routed
    by the front desk as soon as this action is answered (yes or no); the caller hears both."""
    _keep_for_later(task.state, latest)
    return frame.queued(_spoken_name(intent), facts)


def _keep_for_later(state: CallState, words: str) -> None:
    """Words of another need, kept for the front desk to route once this task is answered."""
    state.follow_up = f"{state.follow_up}. {words}" if state.follow_up else words


# The trouble told as over: "i just found my backup codes", "i got my phone back", "it's working again".
_SOLVED = re.compile(
    r"\b(?:i|we)\s+(?:just\s+|actually\s+|finally\s+)?(?:found|got\s+(?:it|my|our)\b|sorted|fixed|figured|remembered|managed|worked\s+(?:it\s+)?out)\b"
    r"|\b(?:it'?s|it\s+is|its)\s+(?:working|fine|sorted|fixed|back)\b", re.I)


def raises_need(task: SpecialistLike, words: str) -> bool:
    """The words ask for something of their own: a department's need the router is sure of."""
    return asks_for_need(task.state, words)


def _names_own(task: SpecialistLike, words: str) -> bool:
    """The router's first reading of the words is this task's need, or its own department's
    with the need's own word in them ("forget the refund" reads as the refund's status as often
    as the refund; "forget the plan change" at the refund's read-back is another need)."""
    first = next(iter(task.state.router.detect(words)), None)
    own_word = task.label.rsplit("/", 1)[-1].split("_")[0]
    return first is not None and (first.label == task.label or restates(task, words) or (
        first.domain == task.id.split(".", 1)[0] and re.search(rf"\b{re.escape(own_word)}", words) is not None))


def restates(task: SpecialistLike, latest: str) -> bool:
    """The caller says this very need again ("i still can't log in") instead of yes or no."""
    own = task.label
    router = task.state.router
    return any(i.label == own and i.confidence >= router.threshold for i in router.detect(latest))


def _spoken_name(intent: Intent) -> str:
    from domains import registry  # the shipped departments; imported here: they import this package

    domain = next((d for d in registry.DOMAINS if d.name == intent.domain), None)
    spec = domain.specialist(intent.name) if domain is not None else None
    return spec.spoken_name if spec is not None else (domain.topic if domain is not None else "that")


async def foreign_aside(task: SpecialistLike, latest: str) -> str | None:
    """"und gab es verdächtige Anmeldungen?" while a read-back waits: a read-only question in
    another language, glossed and answered in English by its lookup, then our question again.
    Only a lookup: a yes, a no or a value is heard in English only (nothing acts on a gloss)."""
    if detect_language(latest, weak=True) is None:
        return None
    from domains import registry  # the shipped departments; imported here: they import this package

    english = gloss(latest, glossaries(registry.DOMAINS))
    intent = task.other_need(english) if english else None
    answered = await answer_by_lookup(task, intent) if intent is not None else None
    gate = task.gate
    if answered is None and gate is not None and gate.pending and (code := detect_language(latest)) is not None and (
            gate.assent(task, latest) is None and not task.corrects(latest)):
        # "wer muss das genehmigen", "e quanto costa lo starter" at a read-back: asked in another
        # language, which no reading here may take as a yes or a new value ("starter", kept out
        # of what the tool reads): the language's notice, then ours asked again in English
        task.questions.add(latest)
        native = SUPPORTED_REPLY.get(code)
        return f"{native + ' ' if native else ''}{t.ENGLISH_ONLY} {frame.back_to(_asked_again(task))}".strip()
    if answered is None:
        return None
    return f"{IN_ENGLISH} {answered} {frame.back_to(_asked_again(task))}".strip()


def _asked_again(task: SpecialistLike) -> str:
    """Our question once more after a digression: the pending read-back, else the last question."""
    gate = task.gate
    return frame.reask(gate.facts) if gate is not None and gate.pending and gate.facts else task.last_question


def _lookup_of(task: SpecialistLike, intent: Intent) -> tuple[Any, Any] | None:
    """The department and specialist whose read-only lookup answers the need for this caller
    now, or None (no lookup, or one that needs a caller not yet verified)."""
    from domains import registry  # the shipped departments; imported here: they import this package

    domain = next((d for d in registry.DOMAINS if d.name == intent.domain), None)
    spec = domain.specialist(intent.name) if domain is not None else None
    if domain is None or spec is None or spec.lookup is None or not spec.looks_up(intent.text):
        return None
    if not spec.looks_up_for(task.state.caller.verified):  # the prices answer anyone
        return None
    return domain, spec


async def asides_answered(task: SpecialistLike, latest: str) -> str | None:
    """Two or more questions asked aside at a read-back ("hang on, also my key is dead and what do
    i owe right now"): each answered by its lookup, then ours asked again. Each must be sure of
    its department, none may be ours (its words name the pending action), and every one must be
    read-only: an action among them is left to the front desk's queue (`queue_need`)."""
    gate = task.gate
    router = task.state.router
    asides = [i for i in router.detect(latest) if i.in_scope and i.domain != "meta" and i.label != task.label
              and router.domain_confidence(i) >= router.threshold and not about_ours(i.text, gate.facts if gate else None)]
    if len(asides) < 2 or not all(_lookup_of(task, i) for i in asides):
        return None
    answers = [await answer_by_lookup(task, i) for i in asides]
    said = " ".join(a for a in answers if a)
    return f"{said} {frame.back_to(_asked_again(task))}".strip() if said else None


async def answer_by_lookup(task: SpecialistLike, intent: Intent) -> str | None:
    """Answer a read-only digression with its specialist's lookup; None if it has none (or fails)."""
    state = task.state
    found = _lookup_of(task, intent)
    if found is None:
        return None
    domain, spec = found
    agent = f"{domain.name}.{spec.name}"
    run = await run_lookup(state, agent, spec.lookup, intent.text, state.settings.fanout_timeout_s)
    if run.result is None:
        return None  # the front desk routes it as a task, with its own retries and call back
    result, seconds = run.result, run.seconds
    confidence = round(intent.confidence, 4)
    state.log.direct_hops += [
        (Hop(task.id, agent, "fast", confidence, seconds), "ok"),
        (Hop(agent, task.id, "return", None, 0.0), "ok"),
    ]
    state.caller.results.append(
        DomainResult(domain=domain.name, specialist=spec.name, status=result.status, summary=result.summary, result=result))
    return result.summary
