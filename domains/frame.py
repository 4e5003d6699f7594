"""A pending question is a frame, not a trap.

While the line waits for the caller's answer to a read-back ("To confirm: ... Shall I go
ahead?") or to a slot question ("which plan?"), the caller may answer it, but may also
cancel, ask about it, ask whether it has happened, ask us to wait, or raise something else
(a digression). As in Rasa CALM's conversation patterns (cancel_flow, chitchat, clarification,
continue_interrupted), each of those moves is recognised and handled, and the pending
question is asked once more in a short form: never the identical read-back again and again.

This module only *reads* the caller's move and *words* the answer; the specialist task
(domains/specialist.py) and the action gate (domains/intent.py) act on it. The patterns are
small closed classes of question frames, matched only while a question is pending.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from callcenter.routing.discourse import is_vague


class Move(Enum):
    CANCEL = "cancel"  # "never mind", "forget it": leave the task, say so
    STATUS = "status"  # "is it done yet?": it has not been done; ask again
    HOLD = "hold"  # "hang on, let me find my card": wait; ask again
    ASK = "ask"  # a question about the pending action: answered from its facts; ask again


class Ask(Enum):
    HOW_LONG = "how_long"
    SKIP = "skip"  # "can't you skip the approval?"
    WHY = "why"
    COST = "cost"  # "is there a fee?", "how much more a month is that?"
    WHAT = "what"  # "what does that mean?", "which card?"
    UNDO = "undo"
    NEXT = "next"  # "do i need to do anything after?": what is left for the caller
    WHERE = "where"  # "where do i even find that?": where the asked-for value is written
    COMPARE = "compare"  # "what's the difference between starter and pro again?": the choice laid side by side
    PAUSE = "pause"  # "can i just pause it instead?": a milder way the line may not have


@dataclass(frozen=True, slots=True)
class Reading:
    move: Move
    ask: Ask | None = None


# "never mind", "forget it", "scrap that": the request let go (a cancel, and a stop, `_STOPS`)
_LET_GO = (r"never ?mind|(?<!\bi )(?<!\bwe )forget (?:it|that|about it|about that|the whole thing)|scratch that|scrap (?:it|that|this|the whole thing)"
           # "drop the enterprise idea": the request named as an idea let go
           r"|(?:drop|ditch|scrap|scratch|forget|shelve|bin) (?:the|that|this|my|our) (?:\w+ )?(?:idea|thought|plan for now)"
           # the same in the languages callers switch to: "olvídalo", "laisse tomber", "lascia perdere"
           r"|olv[ií]dalo|d[ée]jalo|d[ée]jelo|laiss?e[sz]? tomber|oublie[sz]?[- ]le|lascia(?:mo)? (?:perdere|stare)|vergiss es|lass es"
           r"|esque[cç]a|esquece|deixa (?:pra|para) l[aá]|deixa estar")
_CANCEL = re.compile(
    rf"\b({_LET_GO}|cancel (?:it|that|this|the whole thing)"
    r"|don'?t bother|leave (?:it|that|things)(?: as (?:it |they )?(?:is|are)| like (?:that|it is|this)| alone| be| there| open| on| active| running)?(?: for now)?|drop it|skip it"
    # the decision put off: "let's hold off", "let's park it", "i'll decide next week"
    r"|hold off(?: on (?:it|that|this))?(?: for now)?|park (?:it|that|this)|put (?:it|that|this) on hold"
    r"|(?:i'?ll|i will|we'?ll|let me|lemme) decide (?:later|next \w+|tomorrow|another time|after)"
    # "dont close it", "don't do that": the action itself turned down
    r"|(?:do ?n'?t|do not) (?:do|close|cancel|change|lock|unlock|refund|switch|reset|touch|go ahead with) (?:it|that|this|anything)\b"
    r"|i(?:'ve| have)? changed my mind|i don'?t (?:want|need) (?:it|that|to) any ?more"
    r"|not any ?more|no thanks|no thank you|let'?s not|stop (?:it|that|this)|i'?ll pass|pass"
    r"|(?:i|we)'?(?:ll| will) (?:just )?(?:do|sort|handle|deal with|try|look at|check) (?:it|that|this)(?: \w+)? (?:later|another time|some other time|myself|online|tomorrow)"
    r"|not (?:right )?now|not yet|(?:some )?other time|another time|maybe later"
    # the decision put off: "not yet, i'll think about it", "let me sleep on it"
    r"|(?:i'?ll|i will|let me|lemme|i need to|i have to|i want to|gonna|i'?m gonna) (?:have a )?(?:think|sleep|mull)(?: about| on| over)? (?:it|that|this)(?: over)?"
    r"|actually,? (?:don'?t|do not)(?: do (?:it|that))?|don'?t do (?:it|that|anything))\b",
    re.I,
)
_HOLD = re.compile(
    r"\b(hold on|hang on|(?:one|a) (?:sec|second|moment|minute|mo)\b(?=\W*$)|one (?:sec|second|moment|minute)|just a (?:sec|second|moment|minute)"
    r"|(?:give me|gimme|gi'?me) a (?:sec|second|moment|minute|mo)|wait a (?:sec|second|moment|minute)"
    # "let me dig out my card", "lemme ask my cofounder": the caller goes to get the answer
    # ("let me think about it" put off is a cancel, read first; "let me know ..." asks)
    r"|(?:let me|lemme|let'?s see,? let me) (?!know\b)[a-z]+"
    # "i need to check with my boss": the decision is someone else's, and they are asked now
    r"|(?:i|we) (?:need|have|got|gotta|'?ve got) to (?:check|ask|confirm|run (?:it|this|that) by)(?: with)? (?:my|our|the) \w+"
    r"|bear with me"
    # "wait wait wait" said alone: a pause, not a no ("wait, no" is one: _HOLD_THEN_NO)
    r"|^(?:(?:oh|um|uh|er|hmm|ok|okay|sorry)\W+)*wait(?:\W+wait)*(?=\W*$))\b",
    re.I,
)
_DIGIT_WORDS = re.compile(r"\b(?:zero|oh|one|two|three|four|five|six|seven|eight|nine|\d)\b|\d")
# "wait no", "hold on, don't": a no, not a pause.
_HOLD_THEN_NO = re.compile(r"\b(hold on|hang on|wait)\W+(no|don'?t|do not|stop|cancel)\b", re.I)
_QUESTION_OPENER = re.compile(
    r"^\W*(?:(?:uh|um|er|ugh|ah|so|well|ok|okay|and|but|or|oh|wait|sorry|hm+|look|listen|yeah|hey|honestly|right|hang\s+on|hold\s+on|one\s+sec|just|also|plus|actually)\W+)*"
    r"(?:if (?:we|i) (?:do|did|go ahead with|say yes to) (?:that|it|this)\W+"
    # "before i say yes how long till it lands back on the card": the answer put off for a question
    r"|(?:(?:one|a|quick)\s+(?:quick\s+)?question\s+)?before\s+(?:i|we)\s+(?:say\s+yes|agree|confirm|decide|commit|go\s+ahead)(?:\s+(?:to\s+)?(?:that|it|this))?\W+"
    # "if it turns out too pricey can i go back later": the condition, then the question
    r"|if\s+(?:it|that|this|things?|we|i)\s+[^,?.]{1,40}?[,\s]+)?"
    # "remind me what they all cost first", "tell me again how much pro is": a question put as asked for
    r"(?:(?:remind|tell|show)\s+(?:me|us)(?:\s+again)?\s+(?=(?:what|how|which|when|why|where)\b))?"
    r"(is|are|am|was|were|has|have|had|did|does|do(?!\s+(?:it|that|this|so)\b)|can|can'?t|cannot|could|couldn'?t|would|will|won'?t"
    r"|should|how|how'?s|hows|what|what'?s|whats|why|when|where'?s|wheres|which|who)\b"
    # what was understood, said back to be checked, its question mark lost: "wait so it doesn't
    # change right now", "so you're saying nothing happens till someone calls"
    r"|^\W*(?:(?:uh|um|ok|okay|oh|wait|hang\s+on|hold\s+on|hm+|right)\W+)*so\s+(?:you'?re\s+saying\s+|you\s+mean\s+)?"
    r"(?:it|that|this|nothing|i|we|you|the\s+\w+)\s+(?:is(?:n'?t)?|are(?:n'?t)?|does(?:n'?t)?|do(?:n'?t)?|wo(?:n'?t)|will|ca(?:n'?t)|can|has(?:n'?t)?|happens|changes|gets)\b",
    re.I,
)
_STATUS = re.compile(
    r"\b(done|gone through|go through|went through|processed|finished|complete|completed|sorted|happened|issued|"
    r"paid|filed|submitted|sent|switched|changed|reset|locked|closed|taken care of|through|over with)\b"
    r"|\b(yet|already)\W*$",
    re.I,
)
# A question whether it has happened: a perfect or past question with "already" or "yet".
_ALREADY = re.compile(
    r"(?:^|[,.;]\s*|\b(?:so|and|but|wait)\s+)(?:did|has|have|is|was|were|had)\b(?:\s+\S+){0,6}?\s+(?:already|yet)\b")
# A question about the action's effect, put as a condition: "if it's locked", "once that's done".
_IF_DONE = re.compile(r"\b(?:if|once|when|after)\s+(?:it'?s|it\s+is|that'?s|that\s+is|it\s+gets|i\s+do\s+(?:it|that)|we\s+do\s+(?:it|that))\b")
# A figure as said or written: "two hundred", "200", "$200"
_FIGURE = r"(?:\$?\d[\d,.]*|one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|a\s+hundred|hundred)"
_ASKS: tuple[tuple[Ask, re.Pattern[str]], ...] = (
    (Ask.COMPARE, re.compile(
        r"\b(difference|differences|differ|compare[sd]?|comparison|versus|vs"
        r"|what (?:does|do|would|will) (?:the )?\w+(?: plan| one)? (?:have|get|give|include|come with|offer)"
        r"|what (?:do|would|will) (?:i|we) (?:get|lose|miss|gain|give up)|(?:lose|miss out on|give up) anything"
        # what the plan gives, asked of the change: "would that make my rate limit go down too?"
        r"|rate[- ]?limits?|requests? (?:a|per|each) (?:minute|min|second)|(?:calls|requests) (?:would|will) (?:i|we) get"
        r"|limits? (?:on|of|for|with) (?:starter|pro|enterprise|it|that|the \w+))\b", re.I)),
    (Ask.SKIP, re.compile(
        r"\b(skip|bypass|waive|get around|avoid|without|jump)\b.{0,30}\b(approv\w*|review\w*|supervisor|manager|wait\w*|queue)\b"
        r"|\b(approv\w*|review|supervisor)\b.{0,25}\b(skip\w*|bypass\w*|necessary|needed|required|really)\b"
        r"|\b(need|needs|have to|has to|got to)\b.{0,15}\b(approv\w*|a supervisor|reviewed)\b"
        r"|\b(can'?t|cannot|could(?:n'?t)?|can) you (just )?(do|approve|push|rush|speed) (it|that|this|them)?\b", re.I)),
    (Ask.NEXT, re.compile(
        r"\b(?:(?:do|will|would|should|must) (?:i|we) (?:need|have|got) to do (?:anything|something)"
        r"|(?:anything|something) (?:else )?(?:i|we) (?:need|have|should|must|got) (?:to )?do"
        r"|what (?:do|should|must|will) (?:i|we) (?:have to |need to )?do (?:after|afterwards|next|then|once)"
        r"|what happens (?:next|after|afterwards|then)|what(?:'s| is) next|then what)\b", re.I)),
    (Ask.PAUSE, re.compile(
        r"\b(?:pause|freeze|suspend|hibernate|deactivate (?:it |the account |my account )?(?:for now|for a while|temporarily)"
        r"|put (?:it|that|the account|my account|things) on (?:hold|ice)|(?:close|shut) (?:it )?(?:down )?(?:temporarily|for a while|for now))\w*\b",
        re.I)),
    (Ask.WHERE, re.compile(
        r"\bwhere(?:'?s| is| are| do| does| can| would| will| should)? (?:i |we |you |one )?(?:even |actually )?"
        r"(?:find|get|see|look|locate|check|it|that|this|those|they)\b"
        r"|\b(?:don'?t|do not) know (?:it|that|what it is|where (?:it is|to find it))", re.I)),
    (Ask.HOW_LONG, re.compile(
        r"\b(how (long|soon|many days)|when (will|would|do|does|can|is|should)|by when|what time|how quickly"
        r"|who (approves|reviews|decides|signs off|looks at|checks)|and when(?=\W*$)"
        r"|right away|straight away|immediately|instantly|today|tonight|tomorrow)\b", re.I)),
    (Ask.COST, re.compile(
        r"\b(fees?|costs?|price|pricing|how much (?:more|less|extra|is (?:it|that|this)|does (?:it|that|this)|will (?:it|that|this)|would (?:it|that|this))"
        r"|(?:more|less|extra|cheaper|dearer) (?:a|per|each) month|charge (?:me|us) (?:for|anything)|pay (?:more|less|extra)"
        r"|(?:still )?(?:get |be )?(?:billed|charged) (?:while|when|during|for)|(?:still|keep) (?:paying|being billed|being charged)"
        r"|(?:pay|paying|charged|billed) (?:twice|double|for both))\b", re.I)),
    (Ask.UNDO, re.compile(
        # (not where money goes: "does it go back to my debit card")
        r"\b(undo|undone|reversed?|reversible|revert|change my mind|change (it|that) back|cancel (it|that) later|take (it|that) back|go back(?!\s*[,.!]|\s+(?:a\s+(?:sec|second|bit|step)|to\s+what|what|(?:on)?to\s+(?:my|the|your|our|a)\s+(?:\w+\s+)?(?:card|account|bank|visa|mastercard|amex|debit|credit)))|switch back|move back"
        r"|unlock\w* (?:it |that |me )?(?:again|later)|turn (?:it|that) back on|one[- ]way|permanent\w*|for good"
        # "how do i get back in afterwards": in again once it is done
        r"|(?:get|sign|log|come) back (?:in|into|on)"
        # "can i come back to pro later": the old choice again, afterwards
        r"|(?:come|go|get|change|move) back to \w+(?: \w+)? (?:later|afterwards|after|again|some\s?time|if))\b", re.I)),
    (Ask.WHY, re.compile(
        r"\b(why|how come|what for|what'?s the reason"
        # how it is confirmed: "will you call the old number or the new one?"
        r"|(?:which|what) number|(?:call|ring|phone) (?:me )?(?:on |at )?(?:the )?(?:old|new|which|what)|old (?:number|one) or)\b"
        # disbelief put as a question: "only about $200? we pay you a grand a month", "that's it?"
        r"|^\W*(?:(?:oh|hmm+|wait|so|um|uh|what|huh|hold\s+on|hang\s+on)\W+)*(?:(?:only|just)\s+(?:about\s+|like\s+|around\s+|roughly\s+)?"
        rf"{_FIGURE}|that'?s\s+(?:it|all)|is\s+that\s+(?:it|all))[^?.!]{{0,40}}\?", re.I)),
    (Ask.WHAT, re.compile(
        r"\b(how much|what (does|will|would|is) (that|it|this) (cost|mean|do|involve)|which (card|account|charge|plan|one)"
        r"|what (?:happens|will happen|would happen|'ll happen)|what (is|'s) (that|this)|what do you mean|meaning)\b", re.I)),
)


def back_to(question: str) -> str:
    """The pending question asked once more after an answer (a digression, a question about it)."""
    if question[:2] not in ("I ", "I'"):
        question = question[:1].lower() + question[1:]
    return f"Now, back to where we were: {question}"


# The words around a cancel that add no need of their own: "ugh actually just forget it then".
_AROUND_CANCEL = frozenset(
    "uh um ugh er eh ah meh hm mm oh ok okay well actually so no nah nope hmm just you know what i said then please yeah yes "
    "look like right alright fine and but sorry all that this whole thing about it wait hang hold on "
    # when it is put off to: "not right now, maybe next month"
    "maybe perhaps probably next week month year tomorrow later today for now "
    # where they will do it themselves: "ugh forget it, i'll do it later on the website myself"
    "i'll i will we'll we do it on in the website site portal online app dashboard myself ourselves".split()
)


def _no_topic(text: str) -> bool:
    words = re.findall(r"[a-z']+", text)
    return is_vague(" ".join(w for w in words if w not in _AROUND_CANCEL))


def _is_question(text: str) -> bool:
    """A question mark, or a clause opening like a question ("hmm i dont know, is pro worth it")."""
    return "?" in text or any(_QUESTION_OPENER.search(part) for part in re.split(r"[,.;]", text))


# Where a yes may end and a question begin: "yes, and how long until someone approves it?",
# "yes go ahead. will it be on this month's bill".
_YES_THEN = re.compile(r"[,.;!?]+\s*|\s+(?=(?:and|but|so|also)\b)")


def yes_then_rest(text: str, is_yes: Callable[[str], bool]) -> tuple[str, str] | None:
    """(the yes, what follows it) when the words say yes first and then say more."""
    for cut in _YES_THEN.finditer(text):
        first, rest = text[: cut.start()].strip(), text[cut.end():].strip()
        if first and rest and is_yes(first):
            if _HOLD.match(rest) or re.match(r"\W*(?:wait|but)\b", rest, re.I):
                return None  # "yeah yeah fine, hang on, how long does that take": held back, not agreed yet
            return first, rest
    return None


def yes_then_question(text: str, is_yes: Callable[[str], bool]) -> tuple[str, str] | None:
    """(the yes, the question) when the words say yes first and then ask about the action."""
    split = yes_then_rest(text, is_yes)
    if split is None:
        return None
    reading = read(split[1])
    # the yes is found; what follows may be no question about it
    return split if reading is not None and reading.move in (Move.ASK, Move.STATUS) else None


# The words that stop a request rather than answer its question with a no: "never mind, forget
# it", "i'll do it later" (told "I've stopped ..."); "no", "actually don't" are a no ("I won't go
# ahead with ...").
_STOPS = re.compile(rf"\b(?:{_LET_GO}|drop it|skip it"
                    r"|(?:i'?ll|i will|we'?ll) (?:just )?(?:do|sort|handle|deal with) (?:it|that|this)(?: \w+)? (?:later|another time|some other time))\b", re.I)


_OPENS_WITH_NO = re.compile(r"^\W*(?:(?:uh+|um+|oh|well|ok|okay|hmm+|ah|so)\W+)*(?:no|nope|nah|don'?t|do\s+not)\b", re.I)


def stops(text: str) -> bool:
    """The words stop the request ("never mind, forget it"), not only say no to it ("nope,
    forget about it, too expensive" is a no first)."""
    return bool(_STOPS.search(text)) and not _OPENS_WITH_NO.match(text)


def takes_back(text: str) -> bool:
    """The words take something back ("forget the two factor part", "scratch the refund")."""
    return bool(_CANCEL.search(text.lower()) or _TAKE_BACK.search(text.lower()))


_TAKE_BACK = re.compile(r"\b(?:forget|scratch|skip|drop|leave)\b(?:\s+(?:about|the|that|my|our))+\s+\w+")


def taken_back(text: str) -> str | None:
    """The words that take something back and what they name ("forget the email", "scratch the
    refund bit"), if the turn is no more than that and words around a cancel; else None."""
    low = text.strip().lower()
    found = _TAKE_BACK.search(low)
    if found is None or _is_question(low):
        return None
    before, after = low[: found.start()], low[found.end():].split()
    for more in range(min(3, len(after)) + 1):  # "scratch the email change actually": the thing may be two words
        if _no_topic(f"{before} {' '.join(after[more:])}"):
            return " ".join([found.group(0), *after[:more]])
    return None


# A cancel's words asked as a question of the line: "you cannot skip it?", "can't you just drop it?"
_ASKED_OF = re.compile(r"\b(?:can(?:not|'t|t)?|could(?:n'?t)?|would(?:n'?t)?|why|is there)\b")
# A milder way asked about, not the decision put off ("can we put it on hold for now" is one).
_A_WAY = re.compile(r"\b(?:is there (?:a|any|some) way|any way|possible|an option|instead|rather than)\b")


def _sentence_before(low: str, at: int) -> str:
    """The words of the sentence ``at`` is in, up to ``at``."""
    return low[max(low.rfind("?", 0, at), low.rfind(".", 0, at)) + 1:at]


def read(text: str, raises_need: Callable[[str], bool] | None = None) -> Reading | None:
    """The caller's move about a pending question, or None: an answer (or something else).

    `raises_need` (the line's router) says whether words around a cancel ask for something
    of their own; without it, any topic word counts as one."""
    low = text.strip().lower()
    if not low:
        return None
    cancel = _CANCEL.search(low)
    if cancel and _ASKED_OF.search(_sentence_before(low, cancel.start())) and low[cancel.end():].lstrip().startswith("?"):
        cancel = None  # "you cannot skip it?", "can't you just drop it?": asked whether, not let go
    if cancel and cancel.group(0) in ("skip it", "drop it") and low.endswith("?") and not low[: cancel.start()].strip(" ,.") \
            and not low[cancel.end():].strip(" ?"):
        # "skip it?" said alone as a question (after "why approval"): whether it can be skipped,
        # asked, not the request let go
        return Reading(Move.ASK, Ask.SKIP if cancel.group(0) == "skip it" else None)
    if cancel and re.search(r"\bor\W*$", low[: cancel.start()]) and _is_question(low):
        cancel = None  # "wait is that already happening or not yet": one side of a question, asked
    # "never mind that, i want to close my account instead" takes the question back *and*
    # raises a new need: that is a retraction, routed as a topic change, not a bare cancel;
    # "never mind i'll do it online" only gives a reason.
    # Every cancel phrase is taken out, not only the first: "never mind forget it" leaves nothing.
    around = tuple(_CANCEL.sub("\x00", low).split("\x00")) if cancel else ()
    if cancel and _is_question(low) and _A_WAY.search(low) and dict(_ASKS)[Ask.PAUSE].search(low):
        # "is there a way to just put it on hold instead": a milder way asked about, not the
        # request put off
        return Reading(Move.ASK, Ask.PAUSE)
    if cancel and all(_no_topic(part) or (raises_need is not None and not raises_need(part)) for part in around):
        return Reading(Move.CANCEL)
    if cancel and len(around) > 1 and _no_topic(around[-1]) and all(_no_topic(p) or _is_question(p) for p in around[:-1]):
        # "hmm will i still get billed this month? you know what, forget it": the question was
        # about the action, and the caller then dropped it: the cancel said last stands
        return Reading(Move.CANCEL)
    holds = list(_HOLD.finditer(low))
    if holds and not _HOLD_THEN_NO.search(low):
        # "hold on, is the api down too?" asks; "hang on, let me find my zip... ok nine four one
        # oh seven" answers: only a pause with nothing after it waits
        rest = low[holds[-1].end():]
        if not (_is_question(rest) or len(_DIGIT_WORDS.findall(rest)) >= 3):
            return Reading(Move.HOLD)
    if not _is_question(low):
        return None
    if _ALREADY.search(low):
        return Reading(Move.STATUS)  # "did the money already go back?": has it happened, not how to undo it
    if _IF_DONE.search(low) and not any(p.search(low) for _, p in _ASKS):
        # "will my api keys still work if it's locked": what the action would do, not whether it
        # is done ("locked" is no status here); the read-back says what it does, in full
        return Reading(Move.ASK, Ask.WHAT)
    for ask, pattern in _ASKS:
        if pattern.search(low):
            return Reading(Move.ASK, ask)
    if _STATUS.search(low):
        return Reading(Move.STATUS)
    return Reading(Move.ASK)  # some other question: never a yes or a no; answered with what it is


@dataclass(frozen=True, slots=True)
class ActionFacts:
    """What the line knows about an action waiting for the caller's yes, to answer questions about it.

    `what` names it in a re-ask ("the refund of $49.00 for charge CH-1001-D"); the rest are
    sentences for the questions callers ask about an action before agreeing to it. A fact
    left None gets an honest general answer.
    """

    what: str
    how_long: str | None = None
    approval: str | None = None  # why a person approves it first; None: it happens at the caller's yes
    undo: str | None = None
    cost: str | None = None  # what it costs the caller; None: nothing (no action here has a fee)
    amount: str | None = None  # why the amount is what it is ("why only twenty percent?"); None: not asked of it
    compare: str | None = None  # what is given and got, side by side ("what's the difference?"); None: nothing to compare
    pause: str | None = None  # what there is short of it ("can i just pause it instead?"); None: no milder way


SAME_NEED = "Yes, that's what I'm asking you about."
NOT_YET = "No, not yet: nothing has been done, because I'm waiting for your go-ahead."
NOT_YET_SLOT = "No, not yet: nothing has been done so far."
TAKE_YOUR_TIME = "Sure, take your time."
CANCELLED = "No problem, I've stopped {what}; nothing was changed."


def reask(facts: ActionFacts) -> str:
    return f"Shall I go ahead with {facts.what}? Please say yes or no."


def queued(need: str, facts: ActionFacts) -> str:
    """Another need raised while a read-back waits: it is next, and this one is asked once more."""
    return f"Sure, I'll help with {need} right after this. First: {reask(facts)[:1].lower()}{reask(facts)[1:]}"


def answer(reading: Reading, facts: ActionFacts, approval_wait: str, words: str = "") -> str:
    """The answer to a move about a pending read-back, then the short re-ask."""
    if reading.move is Move.STATUS:
        said = NOT_YET
    elif reading.move is Move.HOLD:
        return f"{TAKE_YOUR_TIME} When you're ready, just tell me: shall I go ahead with {facts.what}? Yes or no."
    else:
        said = fact(reading.ask, facts, approval_wait, words)
    return f"{said} {reask(facts)}"


# "why only twenty percent??", "how come it's so little": the amount asked about, not the approval.
_ABOUT_AMOUNT = re.compile(rf"\b(?:percent|per\s?cent|%|so\s+(?:little|low|small)|only|just\s+(?:about\s+|like\s+|around\s+)?{_FIGURE}|that'?s\s+(?:it|all)|is\s+that\s+(?:it|all)|full\s+amount|whole\s+(?:amount|thing)|all\s+of\s+it|that\s+much|more)\b", re.I)


def asks_why_amount(reading: Reading | None, facts: ActionFacts | None, said: str) -> bool:
    """"hold on, 199.80 out of 999, why so little": why the pending amount is what it is."""
    return (reading is not None and reading.ask is Ask.WHY and facts is not None and facts.amount is not None
            and bool(_ABOUT_AMOUNT.search(said)))


def fact(ask: Ask | None, facts: ActionFacts, approval_wait: str, said: str = "") -> str:
    """The sentence that answers a question about a pending action, from its facts."""
    if ask is Ask.SKIP:
        if facts.approval:
            return f"I can't skip that, I'm afraid: {facts.approval} {approval_wait}"
        return "There's nothing to skip: it doesn't need anyone's approval, so it's done as soon as you say yes."
    if ask is Ask.HOW_LONG:
        if facts.how_long:
            return facts.how_long
        if facts.approval:
            return f"It needs a supervisor's approval first. {approval_wait}"
        return "It's done as soon as you say yes."
    if ask is Ask.WHY and facts.amount and _ABOUT_AMOUNT.search(said):
        return facts.amount
    if ask is Ask.WHY and facts.approval:
        return facts.approval[:1].upper() + facts.approval[1:]
    if ask is Ask.COST:
        return facts.cost or "There's no fee for it."
    if ask is Ask.NEXT:
        after = facts.approval and approval_wait or facts.how_long or "It's done as soon as you say yes."
        return f"Nothing on your side. {after}"
    if ask is Ask.COMPARE and facts.compare:
        return facts.compare
    if ask is Ask.PAUSE:
        return facts.pause or "There's no way to pause it, I'm afraid: it's either done or left as it is."
    if ask is Ask.UNDO:
        return facts.undo or "Once it's done I can't undo it on this call, which is why I'm checking with you first."
    return f"It's {facts.what}, and nothing happens until you say yes."


def slot_answer(reading: Reading, question: str) -> str:
    """The answer to a move while a slot question waits (nothing to act on yet), then the question again."""
    if reading.move is Move.STATUS:
        said = NOT_YET_SLOT
    elif reading.move is Move.HOLD:
        said = TAKE_YOUR_TIME
    elif reading.ask is None:
        return question  # "what do you have?": the question itself says it
    else:
        said = "I'll tell you exactly what happens, and check with you, before anything changes."
    return f"{said} {question}".strip()
