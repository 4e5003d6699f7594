"""Conversational frames that outrank a classifier's guess: closed classes, not phrasings.

A statistical reading of "i need to speak with a technician about the api" is torn between
specialists; the caller asked for a person, and that is always honoured. "how's your day
going" shares words with a status question; it is a social formula. "ok. that helps. bye."
has a farewell after sentences with no need in them. Each frame is a small closed class of
words and constructions (who callers ask for, the phatic questions, the farewells), matched
on the clause it covers, and used by ``IntentRouter.detect`` only when the router's own
reading of that clause is not a confident need and the router has the frame's label.
"""

from __future__ import annotations

import re

from callcenter.routing.discourse import is_closing

HUMAN = "meta/human"
SMALLTALK = "meta/smalltalk"
GOODBYE = "meta/goodbye"

# Who a caller asks for: people, not departments.
_PERSON = (
    r"(?:a\s+|an\s+|some\s+|the\s+|your\s+|one\s+of\s+your\s+)?(?:real\s+|actual\s+|live\s+|human\s+|proper\s+)?"
    r"(?:person|people|human(?:\s+being)?|agent|representative|rep|someone|somebody|anyone|anybody|operator|manager|supervisor"
    r"|technician|tech|engineer|specialist|advisor|adviser|colleague|staff(?:\s+member)?|customer\s+service|support\s+person)\b"
)
_ASK_FOR_PERSON = re.compile(
    rf"""\b(?:(?:speak|talk|chat)\s+(?:to|with)\s+{_PERSON}
    |(?:put|get|transfer|connect|send|pass|escalate|bump)\s+me\s+(?:through\s+|over\s+|on\s+|up\s+)?(?:to|with)\s+{_PERSON}
    |(?:get|give)\s+me\s+{_PERSON}
    |(?:i'?d|i\s+would|we'?d|we\s+would)\s+(?:rather|prefer)\s+(?:to\s+(?:speak|talk)\s+(?:to|with)\s+)?{_PERSON}
    |(?:sort|deal\s+with|handle|go\s+(?:over|through)|discuss|talk\s+(?:about|through))\s+(?:this|it|that|things|all\s+this)(?:\s+out)?\s+with\s+{_PERSON}
    |(?:talk|go|chat)\s+(?:this|it|that|things|all\s+this)\s+(?:over|through)\s+with\s+{_PERSON}
    |(?:i(?:\s+(?:want|need|would\s+like)|'d\s+like|\s*d\s+like)|can\s+i\s+(?:just\s+|please\s+)?(?:have|get))\s+{_PERSON}(?!\s+(?:to\s+)?(?:reset|change|fix|check|look|send|close|cancel))
    |^(?:(?:ok|okay|fine|alright|right|yes|yeah|so|um|uh|well|ugh|actually|look)\W+)*{_PERSON}(?:\s+(?:please|then|thanks|thank\s+you|instead|real|now))*\W*$)""",
    re.IGNORECASE | re.VERBOSE,
)

# Phatic questions and remarks: about the agent's well-being, the day, the weather, the
# agent itself. Matched only on clauses made of this closed vocabulary.
_PHATIC_CUE = re.compile(
    r"""\b(?:how(?:'?s|\s+is|\s+are|\s+has|\s+have|\s+was)?\s+(?:it|things|everything|life|you|ya|u|your\s+(?:day|week|morning|afternoon|evening|weekend|shift))
    (?:\s+been)?(?:\s+(?:going|doing|treating\s+you|today|so\s+far))*
    |how\s+(?:are\s+)?(?:you|ya|u)\s+(?:doing|keeping|holding\s+up)
    |how(?:'?s|\s+is)\s+going\s+(?:it|things|your\s+(?:day|week|morning|afternoon|evening|weekend|shift))  # a learner's order
    |how\s+do\s+you\s+do|what'?s\s+up|whats\s+up|what'?s\s+new
    |(?:nice|lovely|beautiful|great|good|terrible|awful|crazy)\s+(?:weather|day)
    |(?:are|r)\s+(?:you|u)\s+(?:a\s+)?(?:robot|bot|machine|computer|real|human|person|ai|having\s+a\s+good\s+day|busy|ok|okay|well)
    |what'?s\s+your\s+name|who\s+am\s+i\s+(?:talking|speaking)\s+(?:to|with)
    |(?:is|iss)\s+this\s+(?:the\s+|a\s+)?(?:right\s+|correct\s+)?(?:(?:customer\s+)?(?:support|service|help|tech|technical|billing)|right|correct)
    |(?:am\s+i|have\s+i)\s+(?:through\s+to|reached|got|speaking\s+(?:to|with)|talking\s+(?:to|with))\s+(?:the\s+)?(?:right|correct|customer|support|help|tech|technical|billing)
    |hope\s+(?:you'?re|you\s+are|your\s+day\s+is)\s+(?:well|good|doing\s+well|going\s+well))\b""",
    re.IGNORECASE | re.VERBOSE,
)
_PHATIC_WORDS = frozenset(
    """how hows how's is are was has have been it its it's things everything life you ya u your you're youre
    day week morning afternoon evening weekend shift today tonight so far going doing treating keeping holding up
    do what whats what's new nice lovely beautiful great good terrible awful crazy weather outside there isnt isn't
    it huh eh right robot bot machine computer real human person a an ai busy ok okay well name who am i talking
    speaking to with hope hi hello hey there oh so and um uh well yeah good morning afternoon evening by the way btw
    just wondering curious asking or this the line number desk department team place right correct support service
    help customer tech technical billing through reached got""".split()
)
_WORD = re.compile(r"[a-z']+")


_ECHOED = re.compile(rf"{_PERSON}\s*\?+", re.I)
# A person named and nothing more: "a supervisor.", "so. a supervisor." (the read-back's word)
_ONLY_PERSON = re.compile(rf"^\W*(?:(?:so|ok|okay|oh|um|uh|hmm|right|wait)\W+)*{_PERSON}\W*$", re.I)
_ASKS_NEXT = re.compile(r"\?|^\W*(?:(?:so|and|but|ok|okay|um|uh|well|then)\W+)*(?:how|what|why|when|who|which|where|is|are|does|do|can|will|would)\b", re.I)


def echoes_person_before(part: str, rest: list[str]) -> bool:
    """"so. a supervisor. how long's that take": a person named alone, then asked about in the
    same breath (the read-back's own word, said back), not asked for."""
    return bool(_ONLY_PERSON.fullmatch(part.strip())) and any(_ASKS_NEXT.search(r) for r in rest)


def echoes_person(part: str) -> bool:
    """"a supervisor?": the read-back's own word said back, a question about it, no one asked for."""
    return bool(_ECHOED.fullmatch(part.strip()))


def asks_for_person(clause: str) -> bool:
    low = clause.strip().lower()
    asked = [m for m in _ASK_FOR_PERSON.finditer(low) if not _DECLINED.search(low[: m.start()])]
    return bool(asked) or asks_for_call_back(clause)


# The clause's main verb asks for the person: "i want to speak to a manager about getting my money
# back" (what it is about is the person's to hear), not "can i talk to an engineer about this
# bug", whose person is the specialist's own (an escalation).
_OPENS_ASKING = re.compile(
    r"^\W*(?:(?:ok|okay|so|um+|uh+|look|listen|hi|hello|hey|yeah|well|just|please|and|right)\W+)*"
    r"(?:(?:i|we)(?:\s+(?:really\s+|just\s+)?(?:want|need|would\s+like|wanna)|'?d\s+(?:really\s+)?like)\s+(?:to\s+)?"
    r"|(?:can|could|may)\s+(?:i|we)\s+|let\s+me\s+)?$", re.I)
_SPECIALIST_PERSON = re.compile(r"\b(?:engineer\w*|technician|tech|technical|developer|dev|specialist)s?\b", re.I)


def opens_asking_for_person(clause: str) -> bool:
    """"i want to speak to a manager about getting my money back"; not "i need somebody from
    engineering to look at these errors", whose person is the escalation's."""
    low = clause.strip().lower()
    m = _ASK_FOR_PERSON.search(low)
    return bool(m and _OPENS_ASKING.match(low[: m.start()]) and not _SPECIALIST_PERSON.search(low))


# "i dont want to talk to a person", "no need to get me anyone": a person declined, not asked for
_DECLINED = re.compile(
    r"\b(?:don'?t|dont|do\s+not|didn'?t|didnt|won'?t|wont|never|no\s+need\s+to|not)\s+"
    r"(?:(?:really|even|want|need|wanna|have|going|gonna|to|ask|asking|for|you|ya|u)\s+)*$")


def declines_person(clause: str) -> bool:
    """The clause says the caller wants no person ("i don't need to speak to anyone")."""
    low = clause.strip().lower()
    return any(_DECLINED.search(low[: m.start()]) for m in _ASK_FOR_PERSON.finditer(low)) and not asks_for_person(clause)


# A call back asked for: "call me back", "i'd like a callback", "can somebody ring me later",
# "have someone phone me tomorrow". Its words ("back") read as money back to a classifier; the
# construction is a person asked for, and that is always honoured.
# "i want somebody", "we'd really like an actual human being": someone wanted, who is to call
_WANTS_SOMEONE = (
    # ("i'll need someone to call me back about a payment plan")
    # ("she'd like someone from your team to call us back": a wish relayed for the caller's own account)
    r"(?:i|we|she|he|they)(?:\s+(?:really\s+|just\s+)?(?:wants?|needs?|would\s+(?:really\s+)?like)|'?d\s+(?:really\s+)?like"
    r"|(?:'ll|\s+will)\s+(?:really\s+)?need)\s+"
    r"(?:someone|somebody|an?\s+(?:real\s+|actual\s+|live\s+|proper\s+)?(?:person|agent|human(?:\s+being)?|colleague|rep))"
    r"(?:\s+(?:from|on|in|at)\s+(?:your|the)\s+(?:[a-z]+\s+){0,2}?(?:team|office|company|side|end|department|desk))?"
)
_CALL_BACK = re.compile(
    # asked for, said first in the clause: "call me back", "can somebody ring me back later",
    # "could you have someone phone me tomorrow" (not "how long until you call me back": a
    # question about a call back already promised)
    # (at the start of the turn or of a clause in it: "you know what, just have somebody call me")
    r"(?:^|[,;.!?])\W*(?:(?:ok|okay|so|um|uh|hmm+|hm|er|erm|oh|well|just|please|yeah|look|listen|actually|honestly|hi|hello|hey"
    r"|and|but|also|right|ugh|fine|whatever|kindly|forget\s+(?:it|this|that)|you\s+know\s+what)\W+)*"
    # "can somebody from your team call me back about our invoice"
    r"(?:(?:can|could|would|will)\s+(?:someone|somebody|you|a\s+(?:real\s+|actual\s+|live\s+)?person|an?\s+(?:real\s+|actual\s+|live\s+)?(?:agent|human|rep))"
    # ("can someone from your security team call me": the team may be named)
    r"(?:\s+(?:from|on|in|at)\s+(?:your|the)\s+(?:[a-z]+\s+){0,2}?(?:team|office|company|side|end|department|desk))?\s+(?:please\s+|just\s+)?"
    r"|(?:can|could|would)\s+you\s+(?:please\s+)?(?:have|get|ask)\s+(?:someone|somebody|a\s+person|an?\s+(?:agent|human|colleague))\s+(?:to\s+)?"
    # "can i get someone to ring me", "just have one of your people phone me"
    # ("kindly arrange for some senior person to call me back")
    r"|(?:(?:can|could|may)\s+(?:i|we)\s+)?(?:have|get|arrange\s+for)\s+(?:someone|somebody|(?:a|some)\s+(?:real\s+|actual\s+|live\s+|proper\s+|senior\s+)?person"
    r"|an?\s+(?:real\s+|actual\s+|live\s+|proper\s+)?(?:agent|human|colleague)"
    r"|one\s+of\s+(?:your|you)\s+(?:people|guys|folks|team|staff|colleagues|agents|reps))\s+(?:to\s+)?|please\s+"
    # "i want somebody to call me back about ...", "we'd like someone to ring us"
    # ("i just want an actual human being to ring me about the money")
    rf"|{_WANTS_SOMEONE}\s+to\s+)?"
    r"(?:call|ring|phone)\s+(?:me|us)(?:\s+back)?\b(?!\s+(?:on|at)\s+(?:the\s+)?(?:new|old|other))"
    # asked anywhere in the clause, of someone other than the line ("erm before that could a real
    # person call me"; "when will you call me back" asks of one already promised)
    # (not one of two ways asked about: "do i have to give it to you now or can someone call me about it?")
    r"|(?<!\bor\s)\b(?:can|could|would)\s+(?:someone|somebody|a\s+(?:real\s+|actual\s+|live\s+)?person"
    # ("can a colleague of yours call me to follow up on that", "could one of your people ring me")
    r"|an?\s+(?:real\s+|actual\s+|live\s+)?(?:agent|human|rep|colleague)(?:\s+of\s+yours)?"
    r"|one\s+of\s+(?:your|you)\s+(?:people|guys|folks|team|staff|colleagues|agents|reps))\s+(?:please\s+|just\s+)?(?:call|ring|phone)\s+(?:me|us)\b"
    # "... for weeks i just want an actual human being to ring me": a run-on's last words
    rf"|\b{_WANTS_SOMEONE}\s+to\s+(?:call|ring|phone)\s+(?:me|us)\b"
    # a learner's "i want that a colleague of you call me"
    r"|\b(?:i|we)\s+(?:want|need|would\s+like)\s+that\s+(?:someone|somebody|a\s+person|an?\s+(?:agent|human|colleague)(?:\s+of\s+(?:yours|you))?"
    r"|one\s+of\s+(?:your|you)\s+\w+)\s+(?:call|ring|phone)s?\s+(?:me|us)\b"
    # a call back asked for by name: "i'd like a callback", "can i get a call back", "book me a call back"
    # ("can you give me a callback tomorrow morning", "set me up with a call back")
    r"|\b(?:like|want|need|get|have|book|request|arrange|schedule|organi[sz]e|give|set\s+up|put\s+(?:me\s+|us\s+)?down\s+for"
    r"|set\s+(?:me|us)\s+up\s+(?:with|for)|sign\s+(?:me|us)\s+up\s+for)\s+(?:me\s+|us\s+)?(?:a\s+)?call[\s-]?back\b"
    # "i'd like a call from someone on your team", "can i get a phone call from a real person"
    # ("i was told to ask for a call back from somebody on the team")
    r"|\b(?:like|want|need|get|have|book|request|arrange|schedule|ask\s+for)\s+(?:a\s+)?(?:phone\s+)?(?:call|ring)(?:[\s-]?back)?\s+from\s+"
    r"(?:someone|somebody|a\s+(?:real\s+|actual\s+|live\s+)?person|an?\s+(?:real\s+|actual\s+|live\s+)?(?:agent|human|rep|colleague)"
    r"|one\s+of\s+(?:your|you)\s+(?:people|guys|folks|team|staff|colleagues|agents|reps)|your\s+(?:team|people|staff|support))\b"
    # "give me a ring back", "drop us a call": the idiom asks for a call, whatever its noun
    r"|\b(?:give|drop)\s+(?:me|us)\s+a\s+(?:ring|call|bell|buzz)(?:\s+back)?\b"
    # "get me someone on the phone about my refund": a person asked to the phone
    r"|\b(?:get|put)\s+(?:me\s+|us\s+)?(?:someone|somebody|a\s+(?:real\s+)?person|an?\s+(?:real\s+)?(?:agent|human|rep|colleague))"
    r"\s+on\s+the\s+(?:phone|line)\b",
    re.IGNORECASE,
)


# "ugh why does everything need a callback these days": a complaint about the call back the
# line offers, asked of it, not one asked for ("why don't you just call me back" asks for one)
_WHY_OF = re.compile(
    r"^\W*(?:(?:ugh|um|uh|so|but|and|ok|okay|hmm+|wait|oh|honestly|seriously)\W+)*(?:why|how\s+come)\b"
    r"(?!\s+(?:don'?t|can'?t|won'?t|couldn'?t|wouldn'?t|not)\b)", re.I)


# "how soon would somebody phone me about the unlock": when the call promised comes, asked
# while its read-back waits; no new call asked for ("how soon can someone call me" asks one)
_WHEN_OF = re.compile(
    r"^\W*(?:(?:so|and|but|ok|okay|um|uh|hmm+|wait|then)\W+)*(?:how\s+(?:soon|long|quickly|fast)|when|by\s+when|what\s+time)\b"
    r"(?:\s+\w+){0,3}?\s+(?:will|would|does|do|is|are)\b", re.I)


def asks_for_call_back(clause: str) -> bool:
    return bool(_CALL_BACK.search(clause)) and not _WHY_OF.match(clause) and not _WHEN_OF.match(clause)


# Someone else doing something: "someone tried to get in from romania", "somebody called me
# yesterday". The person is the story's subject, not who the caller asks for; the verb after
# the person word is done (past tense) or going on ("is trying", "keeps logging in").
_SOMEONE_DID = re.compile(
    r"\b(?:someone|somebody|some\s+one|anyone|anybody|some\s+(?:guy|person|people)|a\s+(?:guy|person))"
    r"\s+(?:(?:has|had|have|is|was|were|keeps?|just|already|else|maybe|might\s+have|must\s+have)\s+)*"
    r"(?:tried|trying|got|gotten|getting|logged|logging|signed|signing|broke|hacked|accessed|used|using|changed|changing"
    r"|made|took|sent|called|reset|did|been|went|came|\w{3,}ed)\b",
    re.IGNORECASE,
)


def tells_of_someone(clause: str) -> bool:
    """The clause tells what someone else did and asks for no person."""
    return bool(_SOMEONE_DID.search(clause)) and not asks_for_person(clause)


def is_small_talk(clause: str) -> bool:
    """A phatic question or remark, and nothing else in the clause."""
    low = clause.lower()
    words = _WORD.findall(low)
    return bool(words) and bool(_PHATIC_CUE.search(low)) and all(w in _PHATIC_WORDS for w in words)


def ends_with_farewell(clauses: list[str]) -> bool:
    """The turn's last clause is a closing (thanks, bye, that's all)."""
    return bool(clauses) and is_closing(clauses[-1])


# Words around a bare topic that add no need: "a refund please", "um my invoices".
_AROUND_A_NAME = frozenset(
    """a an the my me i i'd id want need like would please pls get can could you for to do some just um uh er ok okay
    so yeah hi hello hey about with help thanks thank quick question is it and also now then""".split()
)


def _stem(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def named_label(clause: str, labels: list[str]) -> str | None:
    """A turn that only names a specialist ("refund", "invoices please") asks for that
    specialist: the taxonomy's own names are the vocabulary callers use when they say one
    word. Only an exact match of every content word, so "refund status" stays with the
    classifier's reading and "refund" is not read as its status."""
    words = [_stem(w) for w in _WORD.findall(clause.lower()) if w not in _AROUND_A_NAME]
    if not words or len(words) > 3:
        return None
    said = tuple(words)
    hits = [lab for lab in labels if "/" in lab and tuple(_stem(w) for w in lab.split("/", 1)[1].split("_")) == said]
    return hits[0] if len(hits) == 1 else None


def named_among(clause: str, labels: list[str]) -> str | None:
    """Of two close readings, the one the caller named: every word of exactly one label's
    specialist name is said ("i need a refund for march": refund, not invoices; "the status
    of my refund" names both refund and refund_status, and the longer name wins)."""
    said = {_stem(w) for w in _WORD.findall(clause.lower())}
    named = [lab for lab in labels if "/" in lab
             and all(_stem(w) in said for w in lab.split("/", 1)[1].split("_"))]
    if not named:
        return None
    longest = max(len(lab.split("_")) for lab in named)
    best = [lab for lab in named if len(lab.split("_")) == longest]
    return best[0] if len(best) == 1 else None
