"""Front-desk moves that are not a new need: what the line does with the caller's turn given
what was said before it.

- **An offer taken up** (meta/offers.py).
- **An identity statement with no request** (customer number and ZIP code as the first thing
  said) verifies the caller and asks what they need. It files nothing: no ticket, no request.
- **A follow-up** ("so what do I do?", "and when will that be fixed?") that names no topic of
  its own, or points back with "that" / "it", is answered from the last answer; one that names a topic ("what do I do about the api errors?") from the latest
  answer about that topic. The router's reading of the bare words never wins over them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from callcenter.llm import templates as t
from callcenter.llm.embedded import domain_confidence
from callcenter.routing import identity_words
from callcenter.routing.clauses import without_false_starts
from callcenter.routing.discourse import (
    FUNCTION_WORDS,
    FollowUp,
    asks_whether_of_it,
    beside_follow_up,
    follow_up_kind,
    is_closing,
    is_vague,
)
from callcenter.routing.frames import asks_for_person
from callcenter.routing.segment import only_presses
from callcenter.routing.slots import extract_slots
from callcenter.routing.topic_only import topic_only
from domains import frame
from domains.intent import yes_or_no
from domains.results import DomainResult
from meta import repair

if TYPE_CHECKING:
    from callcenter.routing import IntentRouter
    from callcenter.routing.intents import Intent

NO_THANKS = "No problem, nothing was changed."
ALREADY_DONE = "That's already done, I'm afraid. If you'd like it reversed, a colleague can call you back about it; just say 'a person'."
ALREADY_FILED = (
    "That's already with a supervisor, and nothing has been done yet. If you'd like it withdrawn, a colleague "
    "can call you back about it; just say 'a person'.")
ALREADY_VERIFIED = "Thanks, you're already verified on this call."
WHAT_CAN_I_DO = "What can I help you with today?"


# "what do you need that for": why the line asks who the caller is (frame.read hears "why").
_WHAT_FOR = re.compile(r"\bwhat\s+(?:do\s+you\s+need|is|'s)\s+(?:it|that|this|all\s+(?:that|this)|my\s+\w+(?:\s+\w+)?)\s+for\b|^\W*what\s+for\W*$", re.I)
WHO_ARE_YOU = "What's your customer number, and the ZIP code on the account?"


def holds_for_identity(text: str, last: str) -> bool:
    """"hang on, let me grab my card" to the line's question who the caller is: a pause, not a
    need (read as one, it got "that's not something I can help with")."""
    if not last.rstrip().endswith(WHO_ARE_YOU):
        return False
    reading = frame.read(text)
    return reading is not None and reading.move is frame.Move.HOLD


def asks_why_verify(text: str, heard: str, names_need: Callable[[str], bool]) -> bool:
    """"why do you need all that?" right after the line asked who the caller is: a question about
    that question (answered, then asked again), not small talk and no need of its own."""
    if "customer number" not in heard.lower() or names_need(text):
        return False
    reading = frame.read(text)
    return reading is not None and reading.move is frame.Move.ASK and (reading.ask is frame.Ask.WHY or bool(_WHAT_FOR.search(text)))


def then_goodbye(text: str) -> str:
    """An outcome for a caller who is leaving: "anything else?" gives way to the goodbye."""
    text = text.rstrip()
    if text.endswith(t.ANYTHING_ELSE):
        text = text[: -len(t.ANYTHING_ELSE)].rstrip()
    return text if text.lower().endswith("goodbye!") else f"{text} {t.GOODBYE}".strip()


def states_identity(text: str) -> bool:
    """The caller says who they are (a customer number or email on the account)."""
    slots = extract_slots(text).as_dict()
    return bool(slots.get("customer_id") or slots.get("email"))


_ZIP_NAMED = re.compile(r"\b(?:zip|postal|post\s*code|postcode|postleitzahl|plz|cap|cep|c[oó]digo\s+postal|code\s+postal|codice\s+postale)\b", re.I)


def states_half_identity(text: str) -> bool:
    """"zip's three oh three oh one": half of who the caller is (the ZIP code, named), and
    nothing else: verification starts, and asks for the rest."""
    slots = extract_slots(text).as_dict()
    return bool(slots.get("zip_code") and _ZIP_NAMED.search(text)) and not beyond_identity(text)


# What an identity statement is made of (greetings, fillers, "my customer number is", the
# digits and letters of an id said as words, ZIP, email): a turn of these words alone asks for
# nothing, whatever the router makes of "my number is ..." (a phone change, read as a need).
_IDENTITY_WORDS = frozenset(
    "hi hello hey um uh er erm yeah yes so ok okay well right this is it's its it my our the a an customer "
    "account number no id code zip postal postcode and is are c see sea cee zero oh o one two three four "
    "five six seven eight nine ten double triple email address at dot com sorry i mean wait actually "
    "i'm im calling name good morning afternoon evening here have got ready handy details info information right "
    "there you go that's thats that "
    # what opens it: "right so before anything, account c one zero zero five ..."
    "before anything else first of all start off begin with "
    # the hedges said with a number read off a letter: "i think", "if i remember right", "i'm not sure"
    "think guess believe suppose reckon sure not pretty hopefully remember if "
    # where the email is kept: "the email on the account is ...", "the one on file"
    "on file registered under "
    # the same statement in the languages the line hears ("cliente c uno zero zero tre cap sei zero
    # sei zero uno", "kunde c eins null null vier plz ..."): a number and a ZIP, named as they name them
    "cliente client kunde kundin kundennummer número numéro numero nummer code código codice postal postale "
    "postleitzahl plz cap cep mi mon ma meine mein il mio meu minha es est ist è é soy je suis ich bin sono sou "
    "hola bonjour hallo ciao olá buenos buenas días bon jour guten tag buongiorno bom dia de del di du please".split()
)
_CLAUSES = re.compile(r"[.;!?]+(?:\s+|$)|,\s*")  # not the dot inside an email address
_PLEASE = re.compile(r"\b(?:please|pls|plz)\b", re.I)


def only_identity(text: str) -> bool:
    """The turn says who the caller is and nothing else (see `_IDENTITY_WORDS`)."""
    # "the account number's c1005": a word's "'s" is "is", one of the statement's own words
    words = [w.strip(".,-").removesuffix("'s") for w in re.findall(r"[\w'@.+-]+", text.lower())]
    return any(words) and all(not w or w in _IDENTITY_WORDS or "@" in w or w.isdigit()
                              or re.fullmatch(r"c\d{3,6}", w) for w in words)


def beyond_identity(text: str) -> str:
    """The clauses of an identity statement that say more than who the caller is and what it
    is about ("60601. that's my zip. customer C1003" -> ""; "C1003 60601. i just want a human
    to call me back" -> "i just want a human to call me back"): what is left to route."""
    # the statement itself, and "this is ada"; "my phone on file is... hmm, no, ..." started nothing
    text = identity_words.without_identity(without_false_starts(text))
    # a bare "a person please" is no topic named in passing: it asks for one; nor is "my balance
    # please": a thing asked for with a please is the need ("C1003, it's about my bill" names one)
    rest = [c for c in _CLAUSES.split(text) if c.strip() and not only_identity(c)
            and not (topic_only(c) and not asks_for_person(c) and not _PLEASE.search(c))]
    said = ", ".join(c.strip() for c in rest)
    if only_presses(said):
        return ""  # "look, ..., let's just get this over with": impatience, no need
    # "..., now can we get on with it" beside a need: the need
    return ", ".join(c.strip() for c in rest if not only_presses(c))


# The words of a follow-up question itself; what is left once they are gone is its topic.
_FOLLOW_UP_WORDS = frozenset(
    "what do does did i should can could would must now then so next fix how come why long soon take takes taking when "
    "will is it the reason caused happened explain about that this there here me you we ok okay well and but yeah "
    "um uh hmm right alright just try happens happen a to be going get sort sorted done am are supposed meant "
    "fixed resolved repaired working again back up "
    # whether it has happened: "where is that at now?", "has it gone through yet"
    "from country city location place which were they "
    "where at has have gone go went through processed complete completed finished yet "
    # a caller who switches back: "ok, in english: what do i do now?"
    "in english sorry "
    # who tells whom: "and you'll tell us when it's fixed?" names no answer by "it's" or "tell"
    "it's its you'll we'll they'll tell let know us "
    # the exclamations a question opens with: "oh dear. what do i do then?", "ugh great, so now what"
    "dear gosh god jeez geez crap damn dang ugh man wow hmm huh eh great brilliant blimey heck "
    # "is there anything else you need from me?"
    "anything else need needs "
    # when: "how long until it's approved" ("before" stays a word of its own: "how long before
    # all my data is gone" after a closure was filed asks of the data, not the approval)
    "until till "
    # while it lasts: "so what do we do in the meantime", "what should we do till then"
    "meantime meanwhile while for "
    # the adverbs a question leans on: "why did that even happen", "when will i actually see it"
    "even actually really ever exactly see "
    # how long the trouble goes on: "how long will it last"
    "last lasts lasting".split()
)
_WORD = re.compile(r"[a-z']+")


# "how come, i barely send anything", "why? we hardly use it": the why, then the caller's own
# fact that seems to contradict the answer; its words are no topic, they dispute the answer.
_DISPUTES = re.compile(
    r"^\W*(?:(?:but|so|ok|okay|wait|hang\s+on|huh|really)\W+)*(?:how\s+come|why(?:\s+(?:is\s+that|though))?)\W+(?:(?:but|when|if)\s+)?"
    r"(?:i|we)(?:'?ve|'?m|'?re)?\s+(?:(?:barely|hardly|never|only|just|rarely|seldom|don'?t|didn'?t|haven'?t|do\s+not|did\s+not|have\s+not"
    r"|not|even|really)\s+)+\w+", re.I)


def about_last_answer(text: str) -> bool:
    """A follow-up question with no topic of its own: it can only be about the last answer."""
    if follow_up_kind(text) is None:
        return False
    if follow_up_kind(text) == "why" and _DISPUTES.match(text):
        return True
    rest = [w for w in _WORD.findall(text.lower()) if w not in _FOLLOW_UP_WORDS]
    return is_vague(" ".join(rest))


_ANSWERED = ("info", "done", "needs_approval", "queued", "refused", "failed")


def need_beside_follow_up(
    text: str, intents: list[Intent], results: list[DomainResult], router: IntentRouter,
) -> tuple[str, Intent] | None:
    """"right so how do we fix that, and which plan gives us more than sixty a minute": a
    follow-up of the last answer and, in a clause of its own, a need of another specialist that
    the router is sure of. The follow-up's words and that need (routed once the follow-up is
    answered); else None."""
    if _DISPUTES.match(text):
        return None  # "how come? we hardly send anything": the answer disputed, no need beside it
    answered = [r for r in results if r.status in _ANSWERED]
    if not answered:
        return None
    last = f"{answered[-1].domain}/{answered[-1].specialist}"
    for intent in intents:
        clause = intent.text.strip()
        rest = text.replace(clause, " ").strip(" ,.;!?")
        if (clause == text.strip() or intent.label == last or "/" not in intent.label or intent.label.startswith("meta/")
                or domain_confidence(intent) < router.threshold or intent.confidence < router.threshold):
            continue
        # the need said last: a follow-up after it ("..., my api key, why doesn't it work") asks of it
        said_last = text.strip(" .!?").lower().endswith(clause.strip(" .!?").lower())
        if said_last and follow_up_kind(clause) is None and follow_up_kind(rest) is not None:
            return rest, intent
    return None


def follow_up_answer(text: str, results: list[DomainResult], router: IntentRouter) -> str | None:
    """The answer to a follow-up from the result of the topic being discussed, or None."""
    if asks_for_person(text):  # "i'd rather a person explain it to me": a person is always booked
        return None
    answered = [r for r in results if r.status in _ANSWERED]
    # a longer question may follow up the last answer when it says a word of it ("why do i
    # have to wait for a call back, can't you just transfer me" after the call back was booked)
    kind = follow_up_kind(text) or (follow_up_kind(text, named=True) if answered and _says_of(text, answered[-1]) else None)
    if kind is None or not answered or _asks_if_it_causes_another(text, answered[-1], router):
        return None
    booked = _booked(answered)
    if booked and _CALLS_US.search(text):
        # "how long till they ring me" after a call back was booked (and an incident's answer,
        # whose "API calls" share the word): the booking is what is asked after
        return repair.answer_follow_up(kind, booked[-1])
    if about_last_answer(text):  # "so what now?"
        return repair.answer_follow_up(kind, _named(text, answered, kind))
    named = named_answer(text, answered, router)
    if named is not None:  # "so what do i actually do about the limit thing", after two answers
        return repair.answer_follow_up(kind, named)
    readings = [i for i in router.detect(text) if "/" in i.label]
    sure = [i for i in readings if i.confidence >= router.threshold]
    for intent in sure:
        domain, _, name = intent.label.partition("/")
        same = [r for r in answered if r.domain == domain and r.specialist == name]
        if same:  # "and when will that be fixed?" after the incident
            return repair.answer_follow_up(kind, same[-1])
    if len([i for i in sure if not i.label.startswith("meta/") and i.in_scope]) >= 2:
        # "and what's our balance, and when does the incident end" after a refund: two needs of
        # their own, none answered yet, not a question about the refund
        return None
    # a social reading of a follow-up question is none of another department ("any idea how long
    # that's going to last" is no goodbye for its "last")
    elsewhere = [i for i in readings if domain_confidence(i) >= router.threshold and not i.label.startswith("meta/")]
    if (elsewhere and all(i.domain != answered[-1].domain for i in elsewhere) and not definite_follow_up(text, answered)
            and not asks_only_of_last(text, answered, router)):
        # "and my api key, why doesn't it work" after the balance: "it" is the key, another
        # department's need ("and when will i see it on my card?" after a refund stays a follow-up)
        return None
    return repair.answer_follow_up(kind, _named(text, answered, kind))


def _booked(results: list[DomainResult]) -> list[DomainResult]:
    return [r for r in results if r.result is not None and "callback" in r.result.about]


def asks_of_booking(text: str, results: list[DomainResult]) -> bool:
    """"how long until you call me back" after a call back was booked: about the booking, whatever
    the words read as (a refund's status, a ticket's)."""
    return bool(_CALLS_US.search(text)) and bool(_booked([r for r in results if r.status in _ANSWERED]))


# Someone calling the caller: "till they ring me", "when will you call us back", "a call back"
_CALLS_US = re.compile(r"\b(?:they|you|someone|somebody|anyone|he|she|your\s+\w+)\s+(?:\w+\s+)?(?:call|ring|phone|buzz)\w*\s+(?:me|us)\b"
                       r"|\bcall\s*backs?\b", re.I)
# The words an answer is taken in with before the question ("good. and what happens next").
_TAKEN_IN = frozenset("good fine cool perfect nice lovely thanks thank cheers sure gotcha got understood noted".split())
# Words that name no matter: something arriving ("when does the next payment come out"), whose
# side it is on ("so what do i change on my side").
_NO_MATTER = frozenset("come comes coming came out hit hits land lands show shows arrive arrives arriving off "
                       "side end part "
                       # "when roughly should i expect them": the wait, said
                       "expect expecting roughly approximately exactly "
                       # "when will i hear back" after the ticket was opened: the reply waited for
                       "hear heard back reply response "
                       # when: "can they call sooner, like this afternoon"
                       "today tomorrow tonight morning afternoon evening sooner earlier later soon".split())


def asks_only_of_last(text: str, results: list[DomainResult], router: IntentRouter) -> bool:
    """A follow-up question whose words beside its own frame name no need but the last
    answer's ("what's the reference so i can tell my boss" after a call back was booked: "so i
    can tell my boss" is no balance, however the whole reads): it asks of that answer. The
    answer's own specialist, read surely, asks it again in full."""
    answered = [r for r in results if r.status in _ANSWERED]
    rest = beside_follow_up(text)
    if rest is None or not answered or asks_for_person(text):  # "i'd rather a person explain it to me"
        return False
    own = [w for w in _WORD.findall(rest) if w not in _TOPICLESS and w not in _TAKEN_IN]
    if not own or all(w in _NO_MATTER for w in own):  # "and when it's fixed", "good. and", "when will i hear back"
        return True
    # words of its own ask of the answer only when it says them, and can say it: "so when will i
    # actually see the money" after "i don't see any refunds" has no time to give; "how long
    # before all my data is gone" after the closure was filed asks of the data, not the approval
    kind = follow_up_kind(text)
    result = answered[-1].result
    if kind != "repeat" and (result is None or not result.follow_ups.get(kind)):  # type: ignore[arg-type]
        return False
    told = set(_WORD.findall(f"{answered[-1].summary} {result.follow_ups.get(kind, '') if result else ''}".lower()))  # type: ignore[arg-type]
    told |= result.about if result is not None else frozenset()
    if not all(any(t.startswith(w[:_STEM]) for t in told) for w in own if len(w) >= _MIN_TOPIC_WORD and w not in _NO_MATTER):
        return False
    last = f"{answered[-1].domain}/{answered[-1].specialist}"
    # and none of that answer's own either: "ok, in english: why i get 429 errors?" after the
    # 429s glossed asks it again, in full. Another need read in words the answer itself said is
    # a misreading of them: "until it's approved" after a request went for approval is no
    # refund's status.
    said_by_it = any(len(w) >= _STEM for w in own)
    return not any(i.in_scope and "/" in i.label and not i.label.startswith("meta/")
                   and ((i.label != last and not said_by_it) or (i.label == last and i.confidence >= router.threshold))
                   and domain_confidence(i) >= router.threshold for i in (router.detect(rest) if rest else []))


def _says_of(text: str, result: DomainResult) -> bool:
    """The text says a content word of the answer (its own words, not a follow-up's)."""
    words = {w for w in _WORD.findall(text.lower()) if len(w) >= _MIN_TOPIC_WORD + 1 and w not in _FOLLOW_UP_WORDS}
    return bool(words & (set(_WORD.findall(result.summary.lower())) | (result.result.about if result.result else frozenset())))


def whether_answer(text: str, results: list[DomainResult]) -> str | None:
    """A yes-or-no question about the last answer that no need reads ("is it revoked?" after
    the 401s' diagnosis): the explanation that answer carries, not "that's not something I can
    help with"."""
    answered = [r for r in results if r.status in _ANSWERED]
    if not answered or not asks_whether_of_it(text):
        return None
    return repair.answer_follow_up("why", _named(text, answered, "why"))


# "is that why our calls are failing?": whether the last answer causes a trouble of the caller's
# own, which is a need of its own (their errors' diagnosis says whether the incident is why).
_IS_THAT_WHY = re.compile(
    r"^\W*(?:(?:so|and|oh|ok|okay|hm+|wait)\W+)*(?:is|was|could)\s+(?:that|this|it)\s+(?:be\s+)?"
    r"(?:why|the\s+reason|what'?s\s+causing|causing)\b\W*(?P<rest>.*)$", re.I)


def _asks_if_it_causes_another(text: str, last: DomainResult, router: IntentRouter) -> bool:
    m = _IS_THAT_WHY.match(text.strip())
    if m is None or not m.group("rest").strip():
        return False
    # the trouble named alone, or the whole question as its department rereads it ("is that
    # why our stuff is breaking": "our stuff is breaking" alone sounds like the status board)
    readings = [next(iter(router.detect(words)), None) for words in (m.group("rest"), text)]
    return any(reading is not None and reading.in_scope and "/" in reading.label and reading.confidence >= router.threshold
               and reading.label != f"{last.domain}/{last.specialist}" for reading in readings)


def _named(text: str, answered: list[DomainResult], kind: FollowUp) -> DomainResult:
    """The answer a follow-up names by its words ("and the other thing, the key, what do i do"
    after the API errors and a refund's status: the API answer), else the latest that can
    answer its kind ("and when's that due" after a balance and a webhook answer: the balance,
    the only one with a date to give), else the last one."""
    said = {_SAME_AS.get(w, w) for w in _WORD.findall(text.lower())}
    words = {w for w in said if len(w) >= _MIN_TOPIC_WORD and w not in _TOPICLESS} | (said & _BEING_FIXED)
    able = [r for r in answered if r.result is not None and r.result.follow_ups.get(kind)]
    # "so what should we be doing" after the 500s and the balance: the answer with something to
    # do, not the one whose answer is that there is nothing to do
    doing = [r for r in able if r.result is not None and not _NOTHING_TO_DO.match(r.result.follow_ups[kind])]
    best, shared = (doing or able or answered)[-1], 0
    for result in reversed(answered):  # the latest wins a tie
        # its answer and what it would say next: "why is it taking so long to fix" names the
        # incident (whose next step says "once it's fixed"), not the balance said after it
        said = result.summary + " " + " ".join(result.result.follow_ups.values() if result.result is not None else ())
        theirs = set(_WORD.findall(said.lower()))
        n = sum(1 for w in words if any(r.startswith(w) for r in theirs))
        if n > shared:
            best, shared = result, n
    return best


_MIN_TOPIC_WORD = 3
# A caller's word for what an answer says in another ("any idea when they'll ring" after a call back
# was booked: "they'll call you ...")
_SAME_AS = {"ring": "call", "rang": "called", "phone": "call", "buzz": "call",
            # "and when does it end" after an incident and an invoice: a trouble's end is its fix
            "end": "resolved", "ends": "resolved", "ending": "resolved", "ended": "resolved", "over": "resolved",
            "finish": "resolved", "finished": "resolved"}
# A follow-up's answer that there is nothing to do ("Nothing: the next bill is charged automatically.").
_NOTHING_TO_DO = re.compile(r"\W*(?:nothing|no\s+need|you\s+don'?t\s+(?:need|have)\s+to)\b", re.I)
# Words that name no answer: a follow-up's own, and the function words ("how long is that outage
# gonna go on for" after the balance and the board: "for" is in the balance's answer too).
_TOPICLESS = _FOLLOW_UP_WORDS | FUNCTION_WORDS
_FIGURE = re.compile(r"(?<![\d.])\d{2,}(?![\d])")  # an amount or code said: "249" in "$249.00"
# A trouble being fixed: words of every follow-up, but only answers about a trouble say them
# ("why is it taking so long to fix" after an incident and a balance: the incident's)
_BEING_FIXED = frozenset("fix fixed fixing resolved repaired".split())
# Words that point at a matter without naming it ("the limit thing", "that whole part").
_PLACEHOLDERS = frozenset("thing things stuff part bit matter business question issue actually really even whole".split())
_STEM = 5  # "limit" names "rate limiting"


def named_answer(text: str, answered: list[DomainResult], router: IntentRouter) -> DomainResult | None:
    """The answer of this call a follow-up names by a word of it ("what do i actually do about
    the limit thing" after the balance and the 429s: the 429s), when nothing in it reads as a
    need not yet answered ("why was i charged twice" after the balance is the refund); or None.
    Naming the answer, the question may be as long as a continued one ("why is it overdue, i
    thought it was on autopay?" after the balance)."""
    if follow_up_kind(text, named=True) is None or not answered:
        return None
    words = {w for w in _WORD.findall(text.lower())
             if len(w) >= _MIN_TOPIC_WORD and w not in _TOPICLESS and w not in _PLACEHOLDERS}
    figures = set(_FIGURE.findall(text))  # "why 249, i figured it'd be less" names the $249.00 just said
    if not words and not figures:
        return None

    def names(result: DomainResult) -> bool:
        said = _WORD.findall(result.summary.lower())
        return (any(w == s or (len(w) >= _STEM and s.startswith(w[:_STEM])) for w in words for s in said)
                or bool(figures & set(_FIGURE.findall(result.summary))))

    sure = {i.label for i in router.detect(text)
            if i.in_scope and "/" in i.label and not i.label.startswith("meta/") and i.confidence >= router.threshold}
    unanswered = sure - {f"{r.domain}/{r.specialist}" for r in answered}
    # a figure of the last answer read as another department's need is a misreading of it ("why
    # 249" after an invoice is no 4xx); a need of the same department stays one ("why was i
    # charged 49 twice" after the balance is the refund)
    misread = bool(figures) and names(answered[-1]) and all(lab.split("/", 1)[0] != answered[-1].domain for lab in unanswered)
    if unanswered and not misread:
        return None

    named = next((r for r in reversed(answered) if names(r)), None)
    # the router reads it as that very need ("ok, in english: why i get 429 errors"): asked
    # again, answered in full, not a follow-up
    return None if named is None or f"{named.domain}/{named.specialist}" in sure else named


# "yes please review them", "can you check it again": the last answer's look asked for again,
# by a pronoun for what it looked at (no need of its own to route)
_LOOK_AGAIN = re.compile(
    r"^\W*(?:(?:yes|yeah|yep|ok|okay|sure|so|and|um|uh|please|can\s+you|could\s+you|would\s+you)\W+)*(?:please\s+)?"
    r"(?:review|check|recheck|re-check|look\s+(?:at|into|over)|go\s+(?:over|through)|double[-\s]?check)\s+(?:them|it|those|that|these)"
    r"(?:\s+(?:again|please|for\s+me|now))*\W*$", re.I)


def asks_to_look_again(text: str) -> bool:
    """"yes please review them" after the sign-ins were reviewed: the same look, again."""
    return bool(_LOOK_AGAIN.match(text.strip()))


def takes_back(text: str) -> bool:
    """"no wait, actually don't", "never mind": a retraction with nothing of its own, and no
    goodbye ("no thanks" to "anything else?" ends the call)."""
    reading = frame.read(text)
    return reading is not None and reading.move is frame.Move.CANCEL and not is_closing(text)


def taken_back(results: list[DomainResult]) -> str:
    """What a retraction with no question pending changes: nothing, or what was already done."""
    last = results[-1].status if results else None
    if last == "done" and results[-1].specialist is not None:
        return ALREADY_DONE
    if last in ("needs_approval", "queued"):
        return ALREADY_FILED
    return NO_THANKS


# "yes please open it" right after the ticket was opened: a yes to what is already done.
_DO_IT_AGAIN = re.compile(
    r"^\W*(?:(?:uh|um|oh|ok|okay|so|yes|yeah|yep|sure|please|great|perfect|and)\W+)+"
    r"(?:(?:go\s+ahead\s+and|can\s+you|could\s+you)\s+)?(?:open|do|file|send|lock|book|raise|submit|log|make)\s+(?:it|that|one|them)"
    r"(?:\W+(?:please|then|now|too))*\W*$", re.I)


def done_already(text: str, results: list[DomainResult], acts: Callable[[DomainResult], bool] | None = None) -> str | None:
    """A yes that asks again for what the last answer already did: say it is done, do it once.
    The last answer, or an action done just before it in the same reply ("I've opened ticket
    ... Then, a technical problem: ..." and "yes open it")."""
    if not results or not _DO_IT_AGAIN.match(text):
        return None
    last = results[-1]
    if last.status == "done" and last.specialist is not None:
        return f"That's done already: {last.summary}"
    if last.status in ("needs_approval", "queued") and last.specialist is not None and (acts is None or acts(last)):
        return f"That's filed already: {last.summary}"  # "ok. yes, file it now please" right after it was
    if acts is not None and last.status in ("info", "done"):
        earlier = next((r for r in reversed(results[-3:-1]) if r.status == "done" and r.specialist is not None and acts(r)), None)
        if earlier is not None:
            return f"That's done already: {earlier.summary}"
    return None


# "so is it done?", "has that gone through", "do i have my money back now": whether the action
# just answered has happened; its outcome said again ("Not yet: ... needs a supervisor's approval").
_ASKS_IF_DONE = re.compile(
    # ("did you get that, is it closed": whether it was heard, then whether it is done)
    r"^\W*(?:(?:so|and|ok|okay|um|uh|wait|right|hang\s+on|sorry|did\s+you\s+get\s+(?:that|it|all\s+that))\W+)*(?:(?:is|has|did|was)\s+(?:it|that|this|the\s+\w+)"
    r"\s+(?:all\s+)?(?:done|gone\s+through|go\s+through|went\s+through|through|sorted|finished|completed?|processed|happened|worked"
    r"|closed|locked|cancell?ed|refunded|approved|changed|updated|been\s+(?:closed|locked|refunded|approved|changed|done))"
    r"|(?:do|did)\s+i\s+(?:have|get|got)\s+(?:my|the)\s+money(?:\s+back)?)\b", re.I)


def asks_if_done(text: str, results: list[DomainResult], acts: Callable[[DomainResult], bool]) -> str | None:
    """The outcome of the action just answered, asked after ("so is it done?"): said again."""
    if not results or not _ASKS_IF_DONE.match(text) or not acts(results[-1]):
        return None
    last = results[-1]
    if last.status == "done":
        return f"Yes. {last.summary}"
    if last.status in ("needs_approval", "queued"):
        return f"Not yet. {last.summary}"
    return None


# "and that one's paid, right?", "so it's revoked?": a statement about the last answer checked
# back, with the word the answer itself said ("paid"). The answer's own clause confirms it; a
# word the answer did not say is no check of it and goes on to the router.
_CHECKS_BACK = re.compile(
    r"^\W*(?:(?:so|and|ok|okay|oh|um|uh|but|wait)\W+)*(?:that|it|this|the\s+\w+)(?:\s+one)?"
    r"(?:'s|s|\s+is|\s+was|\s+has\s+been|\s+got)\s+(?:already\s+|all\s+|been\s+|definitely\s+)?(?P<word>[a-z]{3,})"
    r"(?P<tag>\W*(?:right|correct|yeah|yes|yep|isn'?t\s+it|wasn'?t\s+it|no|then)?\W*)$", re.I)
# ... or asked as a question: "and was that paid already?", "is the key revoked then?"
_ASKS_BACK = re.compile(
    r"^\W*(?:(?:so|and|ok|okay|oh|um|uh|but|wait)\W+)*(?:was|is|has|were|are)\s+(?:that|it|this|the\s+\w+|they|those)(?:\s+one)?"
    r"\s+(?:already\s+|all\s+|been\s+|definitely\s+)*(?P<word>[a-z]{3,})(?:\s+(?:already|yet|then|too|now))*\W*$", re.I)
_CLAUSE = re.compile(r"(?<=[.;!?])\s+")


def checks_back(text: str, results: list[DomainResult]) -> str | None:
    """"and that one's paid, right?", "and was that paid already?" after the invoices: yes, in the answer's words."""
    m = _CHECKS_BACK.match(text.strip())
    asked = _ASKS_BACK.match(text.strip()) if m is None else None
    answered = [r for r in results if r.status in _ANSWERED]
    if asked is not None and answered:
        m = asked
    elif m is None or not answered or not ("?" in m.group("tag") or m.group("tag").strip(" ,.")):
        return None
    word = m.group("word").lower()
    for clause in _CLAUSE.split(answered[-1].summary):
        if _says_plainly(clause, word):
            said = clause.strip().rstrip(".;")
            return f"Yes: {said[0].lower()}{said[1:]}." if said[:4] in ("Your", "The ") else f"Yes: {said}."
    return None


_NEGATION_REACH = 3  # "isn't", "not", "never" up to two words before the word: "isn't yet fully locked"


def _says_plainly(clause: str, word: str) -> bool:
    """The clause says the word, not denied ("your account isn't locked" confirms no "it's
    locked, right?")."""
    words = _WORD.findall(clause.lower())
    return any(w == word and not any(v in ("not", "never", "no") or v.endswith("n't") for v in words[max(0, k - _NEGATION_REACH):k])
               for k, w in enumerate(words))


_ACTED = ("done", "needs_approval", "queued")


def recap_after_yes(text: str, results: list[DomainResult], acts: Callable[[DomainResult], bool]) -> str | None:
    """A bare yes to "anything else?" right after something was done ("I've opened ticket
    T-..."): callers often mean the thing just done ("yes, do that"), so what was done is
    said again, once, before asking what else; nothing is done twice. None otherwise (a yes
    after a looked-up answer is a yes to "anything else?")."""
    if not plain_yes(text) or not results or results[-1].status not in _ACTED or not acts(results[-1]):
        return None
    done = [results[-1]]
    for r in reversed(results[:-1]):  # "yes, that too" after two things done in one turn: both
        if r.status not in _ACTED or not acts(r) or len(done) == _RECAP_AT_MOST:
            break
        done.insert(0, r)
    return f"{RECAP} {' '.join(r.summary for r in done)}"


_RECAP_AT_MOST = 3
# "yes, that one too", "yeah both": a yes that counts what it agrees to, no request of its own
_YES_TOO = re.compile(
    r"^\W*(?:yes|yeah|yep|yup|sure|ok|okay)\W+(?:please\W+)?(?:(?:(?:do\s+)?(?:that|this|it)(?:\s+one)?|both(?:\s+of\s+them)?)"
    r"\W+(?:too|as\s+well|also)|(?:to\s+)?both(?:\s+of\s+them)?)\W*$", re.I)


def plain_yes(text: str) -> bool:
    """A yes and nothing else it asks for."""
    return yes_or_no(text) is True or bool(_YES_TOO.match(text))


RECAP = "Just to recap:"


# "ok and is there like an eta on the fix": a follow-up naming the matter with a definite noun
# instead of "it", about the answer just given when that answer can say it.
_DEFINITE = re.compile(r"\bthe\s+(?:fix|outage|incident|problem|issue|errors?|refund|request|change|reset|ticket|approval|review|call\s*back)\b"
                       r"|\bthe\s+(?:ticket\s+|reference\s+|case\s+)?number\s+(?:on|for|of)\s+(?:that|it|this)\b"
                       # "what number will they ring?": the colleagues a booked call back named
                       r"|\b(?:they|they'?ll|they\s+are|they'?re)\b(?:\s+\w+){0,3}\s+(?:call|ring|phone|get\s+back\s+to)\b")


def definite_follow_up(text: str, results: list[DomainResult]) -> bool:
    """A follow-up about the last answer that names its matter ("the fix") and no new need."""
    kind = follow_up_kind(text)
    if kind is None or not results or not _DEFINITE.search(text.lower()):
        return False
    last = results[-1]
    # said again is always the last answer's to give ("whats the number on that")
    return last.result is not None and (kind == "repeat" or bool(last.result.follow_ups.get(kind)))


# What a caller asks next of an answer, which that answer's lookup said again would not answer
# (what to do; a "when" may ask the lookup's own figure again: "and when is the next one" after
# the balance is the next bill, not how long a payment takes).
_ASKED_NEXT = ("next_step",)


def asks_next_of_same(text: str, results: list[DomainResult], router: IntentRouter) -> bool:
    """"so about the outage what should i do on my side" after the status board: a follow-up
    whose one need is an answer's of this call, sure. Looked up again, the same answer
    would come back; what it says next answers it (not a "why": "in english: why i get 429
    errors" after a glossed answer asks for it again, in full)."""
    kind = follow_up_kind(text)
    if kind not in _ASKED_NEXT:
        return False
    # lookups only: an action's specialist asked again knows what it filed ("how long before all
    # my data is gone" after a closure went for approval is the 30 days, not the approval's hour)
    able = {f"{r.domain}/{r.specialist}" for r in results
            if r.status == "info" and r.result is not None and r.result.follow_ups.get(kind)}  # type: ignore[arg-type]
    sure = [i for i in router.detect(text) if i.in_scope and i.confidence >= router.threshold and not i.label.startswith("meta/")]
    return len(sure) == 1 and sure[0].label in able


# "just the sign in thing", "only the billing part": a short pointer at a matter by name.
_POINTER = re.compile(
    r"^\W*(?:(?:just|only|so|and|but|um|uh|then|ok|okay)\W+)*"
    r"(?:(?:the|that|my)\s+(?P<name>[\w\s'-]{2,30}?)\s+(?:thing|part|bit|stuff|one|matter|question|issue)"
    # "just tell me about that sign in", "what about the logins": the matter named after "about"
    r"|(?:tell\s+me|talk|what|how)\s+about\s+(?:the|that|those|my)\s+(?P<about>[\w\s'-]{2,30}?))\W*$", re.I)
_GENERIC_NAMES = frozenset("other first second last new same whole".split())
_NAMED_AT_LEAST = 0.1  # a reading of the pointer this likely may name an answer of this call


def answered_by_name(text: str, answered: list[DomainResult], router: IntentRouter) -> DomainResult | None:
    """The answer of this call a short pointer names ("just the sign in thing" after the sign-in
    review), so a caller who keeps one of two needs hears it again instead of a new reading of
    two words ("sign in" read alone is a password reset)."""
    last = [c for c in re.split(r"[,.;]\s*", text) if c.strip()]
    m = _POINTER.match(last[-1].strip()) if last else None  # "you know what, only the logins part"
    if m is None:
        return None
    named = m.group("name") or m.group("about")
    names = {w for w in _WORD.findall(named.lower().replace("-", " ")) if w not in _GENERIC_NAMES}
    if not names:
        return None
    done = [r for r in answered if r.status in _ANSWERED]
    for result in reversed(done):
        if names <= set(_WORD.findall(result.summary.lower().replace("-", " "))):
            return result
    # named in other words ("the logins part" after the sign-in review): the router's readings
    # of the pointer, in order, against what this call answered
    for intent in router.detect(text):
        for label in (intent.label, *(lab for lab, p in intent.alternatives if p >= _NAMED_AT_LEAST)):
            match = next((r for r in reversed(done) if f"{r.domain}/{r.specialist}" == label), None)
            if match is not None:
                return match
    return None


# "actually yes, close it, go ahead", "hmm, lock it anyway": the action the last answer was about
# (stopped at its read-back, or offered in words: "if you'd like me to lock your account, just
# ask"), asked for now by a verb and a word pointing back at it. "cancel it" is no such request.
_DO_IT_NOW = re.compile(
    r"^\W*(?:(?:hmm+|ok|okay|actually|yes|yeah|yep|fine|alright|ugh|um|uh|so|well|right|then|no\s+wait|wait|on\s+second\s+thought"
    r"|you\s+know\s+what)\W+)*(?:(?:please|just|go\s+ahead\s+and|let'?s)\s+)?"
    r"(?:close|lock|open|file|do|reset|refund|switch|book|submit|raise|process|send)\s+(?:it|that|them|one|the\s+\w+\s+one)\b", re.I)


def asks_to_do_it(text: str) -> bool:
    return bool(_DO_IT_NOW.match(text.strip()))

