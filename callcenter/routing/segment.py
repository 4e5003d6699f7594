"""Split one caller turn into candidate single-need segments.

Two levels: *strong* boundaries (sentence ends, ";", ", and", "also", "plus", "as well as",
"on top of that", ...) almost always separate needs, so they are cut unconditionally. A bare
"and" / "but" is ambiguous ("reset and unlock my account") so ``weak_splits`` only offers the
cut; the router accepts it only when both halves classify confidently as different intents.
"""

from __future__ import annotations

import re

_STRONG = re.compile(
    r"""
    (?<=[.!?])\s+(?!of\s)                           # sentence end (not "the price. of enterprise": a stray full stop)
    | \s*;\s*
    | \s*\n+\s*
    | ,\s*(?:and|but|or)(?:\s*,(?!\s*(?:wait|no|sorry|actually|hang|hold)\b))?\s+(?:also\s+)?  # ", and" / ", but also" / ", and, if it's no trouble, ..." (not ", and, wait, ...": what "wait" does is the next words')
    | ,?\s*\b(?:and\s+)?also\b[,]?\s+               # "also", "and also"
    | ,?\s*\bplus\b(?!\s*\d{3}|(?:\s+(?:one|two|three|four|five|six|seven|eight|nine|zero|oh|double)\b){3})[,]?\s+  # "plus 1 415...": a phone number's country code, no connective
    | ,?\s*\bas\s+well\s+as\b\s+
    | ,?\s*\bon\s+top\s+of\s+(?:that|this)\b[,]?\s*
    | ,?\s*\b(?:i'?d|id|i\s+would)\s+(?:rather|prefer\s+to)\b[,]?\s*  # a retraction: "forget the plan, i'd rather ..."
    | ,?\s*\b(?:scratch\s+that|never\s?mind\s+(?:that|it)|(?<!\bi\s)(?<!\bwe\s)forget\s+(?:that|it|about\s+(?:that|it)))\b[,]?\s*
    | ,?\s*\b(?:additionally|besides\s+that|apart\s+from\s+that|another\s+thing\s+is
        |one\s+more\s+thing|and\s+then|oh\s+and|and\s+another\s+thing)\b[,:]?\s*
    """,
    re.IGNORECASE | re.VERBOSE,
)

# Words with which callers take back what they asked ("forget the plan, i'd rather close it").
RETRACTION = re.compile(
    r"\b(actually|(?<!\bi )(?<!\bwe )forget (it|that|the|about)|never ?mind|instead|rather|scratch that|wait no|no wait|changed my mind)\b",
    re.IGNORECASE,
)

# "then" joins an ordered list without a comma ("first my invoices then the api errors").
# ("a while ago", "for a while": no connective)
# A question that starts mid-sentence with no comma or connective ("my key stopped working
# everything is four oh one whats my next bill gonna be"): a recogniser writes a run-on where the
# caller paused. Like every weak cut, it stands only if the parts read as different needs.
# ... and a new subject told of with its verb ("cancel the charge for this month your api has
# been broken all day")
_SUBJECT_OPENS = (r"(?:(?:your|my|our)\s+\w+(?:\s+\w+)?\s+(?:has|have|is|are|was|were|keeps|kept|stopped|won'?t|doesn'?t|isn'?t"
                  r"|can'?t|got|went|died|broke)"
                  # ... and the caller's own wish begun again: "my two factor needs resetting i want my email changed"
                  r"|(?:i|we)\s+(?:also\s+)?(?:want|need|would\s+like|'?d\s+like|wanna)\s+(?:to\s+|my\s+|our\s+|a\s+|the\s+))\b")
_SAYS_WHAT = ("think", "guess", "believe", "say", "says", "said", "tell", "told", "hope", "feel", "seems", "mean", "noticed",
              "realised", "realized", "see", "saw", "heard", "worried", "afraid", "sure", "because", "cause", "since", "why",
              "whether", "wonder", "ask", "asking", "check", "checking", "sounds", "looks", "saying", "telling",
              "thinking", "knowing", "shows", "showing", "reads", "notice", "suspect", "suspected", "tells", "claims")
# ... and a request run on after a request: "refund the duplicate upgrade me to pro"
_REQUEST_OPENS = (r"(?:refund|upgrade|downgrade|switch|lock|unlock|reset|cancel|close|open|update|change)\s+(?:me|us|my|our|the|it|that|this)\b")
# ... only after a request said the same way ("refund the duplicate upgrade me to pro")
_REQUEST_FIRST = re.compile(rf"^(?:(?:ok|okay|so|um+|uh+|yeah|and|please|just)\W+)*{_REQUEST_OPENS}", re.I)
# A question put as "any ...?" of the account's things: "any open tickets", "any news on the outage"
_ANY_OF = (r"any\s+(?:open\s+|new\s+|recent\s+|outstanding\s+|pending\s+|unpaid\s+)?"
           r"(?:tickets?|refunds?|incidents?|outages?|updates?|news|invoices?|problems?|issues?|charges?)")
_QUESTION_OPENS = (r"(?:what'?s|whats|what\s+(?:is|are|do|does|did|will)|how\s+(?:much|many|long|do|does|can|come)"
                   r"|is\s+(?:the|it|there|my|your|that)|are\s+(?:the|you|my|there)|can\s+(?:you|i)|could\s+you"
                   r"|when\s+(?:is|does|will|do|did)|why\s+(?:is|does|do|are|am|can'?t|won'?t|did))\b")
_WEAK = re.compile(r",\s+|\s+\b(?:and|but|then)\b\s+|(?<!\ba)\s+\bwhile\b\s+|(?<=\w)(?<!\bwhat)(?<!\bhow)(?<!\bwhy)(?<!\bwhere)(?<!\bwhen)(?<!\bwhich)(?<!\bwho)(?<!\bso)"
                   r"(?<!\band)(?<!\bbut)(?<!\bor)(?<!\bthat)(?<!\bthis)(?<!\bif)(?<!\bknow)"
                   # what a verb of thinking or saying says is its own clause's ("i think my account is locked")
                   + "".join(rf"(?<!\b{w})" for w in _SAYS_WHAT)
                   + rf"\s+(?={_QUESTION_OPENS}|{_SUBJECT_OPENS})(?P<asks>)"
                   # a request after a request's object: not after the words that lead into one ("i want to
                   # reset", "can you open", "please close", "help me change")
                   + r"|(?<=\w)(?<!\bto)(?<!\band)(?<!\bor)(?<!\bplease)(?<!\byou)(?<!\bme)(?<!\bi)(?<!\bwe)(?<!\bcan)(?<!\bcould)"
                   + r"(?<!\bwould)(?<!\bwill)(?<!\blet)(?<!\bjust)(?<!\bthen)(?<!\bso)(?<!\balso)(?<!\bneed)(?<!\bwant)(?<!\bnot)"
                   + rf"(?<!\bdon't)(?<!\bdont)\s+(?={_REQUEST_OPENS})(?P<does>)"
                   # "what's our balance any open tickets": a question with "are there" left unsaid (not
                   # "do i have any open tickets", "is there any news")
                   + r"|(?<=\w)(?<!\bhave)(?<!\bhas)(?<!\bhad)(?<!\bgot)(?<!\bget)(?<!\bthere)(?<!\bsee)(?<!\bfind)(?<!\bare)(?<!\bis)"
                   + r"(?<!\bwere)(?<!\bwas)(?<!\bfor)(?<!\babout)(?<!\bon)(?<!\bwith)(?<!\bof)(?<!\bfrom)(?<!\band)(?<!\bor)(?<!\bnot)"
                   + r"(?<!\bno)(?<!\bif)(?<!\bwhether)(?<!\bhear)(?<!\bheard)(?<!\bneed)(?<!\bwant)(?<!\bmake)(?<!\bopen)(?<!\bfile)"
                   + rf"\s+(?={_ANY_OF}\b)", re.IGNORECASE)
# ... but not inside a question ("how much of a credit can i get", "what i really want is my money
# back"), nor before one that only asks what to do about the part before ("for the api what do i
# do now")
# "perhaps go over our invoices": the softener is no part of the need
_HEDGED = re.compile(r"^(?:perhaps|maybe|possibly|kindly)\s+(?=\w)", re.I)
# "... how much and is that why i cant get in": the question that ties a need to the part before
# it in the same sentence is no part of the need (read with it, "is that why" outweighs a short
# need and the part reads as nothing sure). A turn that opens with it asks of the line's last
# answer, and keeps it (the technical rereadings read "is that why our stuff is breaking").
_LINKS_BACK = re.compile(r"^(?:(?:and\s+)?(?:is|was)\s+(?:that|this|it)\s+(?:why|the\s+reason)"
                        r"|(?:and\s+)?(?:could|would|might)\s+(?:that|this)\s+be\s+(?:why|the\s+reason)"
                        r"|(?:and\s+)?(?:so\s+)?(?:that'?s|thats|that\s+is)\s+(?:why|the\s+reason))\s+(?=\w)", re.I)
_ASKS_FIRST = re.compile(r"^(?:(?:ok|okay|so|and|but|um+|uh+|well|oh|hi|hey)\W+)*(?:what|how|why|where|when|which|who|is|are|can|could|do|does|did|will|would)\b", re.I)
# ... though a question may follow a question ("is the api up whats my balance how do i set up
# webhooks"): a wh-word opens a new one, where "can i" / "is it" may sit inside the first
# ("how much of a credit can i get")
_WH_OPENS = re.compile(rf"^(?:what'?s|whats|what\s+(?:is|are|does|do|did|will)|how\s+(?:do|does|can|come|many)|when|why|where|{_ANY_OF})\b", re.I)
_WHAT_TO_DO = re.compile(r"^(?:what|how)\s+(?:do|can|should|must|shall)\s+(?:i|we)\s+do\b|^what\s+(?:now|then|next)\b", re.I)

# Words that carry no need on their own: a segment made only of these is filler.
_FILLER_WORDS = frozenset(
    """
    um umm uh uhh er erm hmm mm so well ok okay okey yeah yes yep no nope right like
    please pls thanks thank you thx cheers anyway actually basically just i mean oh ah
    too also and but then hi hey hello there
    go ahead
    """.split()  # "go ahead and close out my account": the assent opens the request, it is none
)
_WORD = re.compile(r"[a-z0-9']+")


def is_filler_word(word: str) -> bool:
    """One of the words that carry no need on their own ("ah", "um", "right")."""
    return word in _FILLER_WORDS

# Greeting-only words: a segment made only of these is a greeting.
_GREETING_WORDS = frozenset("hi hey hello there good morning afternoon evening yo".split())


_LEADING_SIGN = re.compile(r"^-(?=\s*[$\d])")


def _trim(part: str) -> str:
    """Punctuation off both ends, but never the minus sign of an amount ("-$15"): the money
    policy must see it, or a negative refund would be read as a positive one."""
    previous = None
    while part != previous:
        previous = part
        part = part.strip(" ,.!?;:\t").rstrip("-")
        if part.startswith("-") and not _LEADING_SIGN.match(part):
            part = part[1:]
    return part


trim = _trim  # for the clause segmenter


# A boundary that takes back what came before it ("first, upgrade, well no we're already on
# enterprise, scratch that. so just, ..."): that part is no need, and was read as one.
_TAKES_BACK = re.compile(r"\b(?:scratch\s+that|never\s?mind\s+(?:that|it)|forget\s+(?:that|it|about\s+(?:that|it)))\b", re.I)


_SUBJECT_BEFORE = re.compile(r"\b(?:i|we|you|they|he|she)\s*$", re.I)


_ALSO_AFTER_SUBJECT = re.compile(r"\s*also\b", re.I)
# (with its verb's short form or helper: "i'd also like a human to call me", "we would also need")
_SUBJECT_LAST = re.compile(r"\b(?:i|we|they|you|he|she)(?:'d|'ll|'m|'re|'ve|\s+(?:would|will|do|did|am|are|might|could|should|must))?\s*$", re.I)


def strong_segments(text: str) -> list[str]:
    parts, pos = [], 0
    for m in _STRONG.finditer(text):
        if _ALSO_AFTER_SUBJECT.match(m.group(0)) and _SUBJECT_LAST.search(text[: m.start()]):
            continue  # "and separately i also need last month's invoice": "also" inside the clause, its subject before it
        before = _trim(text[pos : m.start()])
        pos = m.end()
        if before:
            parts.append(before)
        # ", but forget about that,": the part before the "but" is the one taken back; "the password
        # i forget it" tells, it takes nothing back (the verb has its subject)
        if _TAKES_BACK.search(m.group(0)) and parts and not _SUBJECT_BEFORE.search(text[: m.start()]):
            parts.pop()
    parts.append(_trim(text[pos:]))
    return [p for p in parts if p]


def unhedged(part: str) -> str:
    """The part without an opening "perhaps" / "maybe" (`_HEDGED`), when a request is left."""
    return _without_opening(_HEDGED, part)


def _without_opening(opening: re.Pattern[str], part: str) -> str:
    """The part without the words `opening` matches at its start, when two words or more are left."""
    rest = _trim(opening.sub("", part, count=1))
    return rest if len(words(rest)) >= 2 else _trim(part)


def weak_splits(segment: str) -> list[tuple[str, str]]:
    """Every way to cut ``segment`` in two at a weak boundary, leftmost first."""
    out: list[tuple[str, str]] = []
    for m in _WEAK.finditer(segment):
        left = _trim(segment[: m.start()])
        right = _trim(segment[m.end() :])
        if m.group("asks") is not None and ((_ASKS_FIRST.match(left) and not _WH_OPENS.match(right)) or _WHAT_TO_DO.match(right)):
            continue
        if m.group("does") is not None and not _REQUEST_FIRST.match(left):
            continue  # "i wanna change the email on my account": one request, however it opens
        right = _without_opening(_LINKS_BACK, unhedged(right))  # ", perhaps go over our invoices", "and is that why ...": the request
        if left and right:
            out.append((left, right))
    return out


def repeats(left: str, right: str) -> bool:
    """"emails saying new sign in, new sign in": the part after says again words of the part before."""
    said = set(words(left))
    return bool(said) and all(w in said for w in words(right))


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower().replace("\u2019", "'"))


def is_filler(segment: str) -> bool:
    """True for segments such as "um", "so yeah", "thanks" with no content word.

    Greetings are filler only when the turn also carries a need; the router decides that.
    """
    ws = words(segment)
    return all(w in _FILLER_WORDS for w in ws) and not is_greeting(segment)


# A part that only asks to be told, with what is to be told in the next part: "and also tell me |
# what's going on with the api", "can you check | if my refund went through".
_ONLY_ASKS_TO_BE_TOLD = re.compile(
    r"^\W*(?:(?:and|also|so|ok|okay|please|plus|then|um|uh|just)\W+)*(?:(?:can|could|would)\s+(?:you|u)\s+(?:please\s+)?)?"
    r"(?:tell|show|let)\s+(?:me|us)(?:\s+know)?(?:\s+please)?\W*$", re.I)


# When the need is wanted, said of something already under way: "before it closes", "until that's
# approved", "once it goes through". A time, no need of its own.
_ONLY_WHEN = re.compile(
    r"^\W*(?:(?:ok|okay|so|and|but|oh|um|uh|well|also|actually)\W+)*(?:before|until|till|once|after|while|when)\s+"
    r"(?:it|that|this|they|the\s+(?:account|closure|refund|change|request|switch|ticket))(?:'s|\s+(?:is|gets|goes|does|has|was))?"
    r"\s*(?:\w+\s*){0,2}\W*$", re.I)


# A part that only presses for the need beside it: "i want one today", "and i want it now", "now
# can we get on with it", "and no i don't have time for chit chat". Impatience, no need of its own.
_ONLY_PRESSES = re.compile(
    r"^\W*(?:(?:and|but|so|now|oh|um|uh|also|look|ok|okay|no|just|like|seriously)\W+)*(?:"
    r"(?:i|we)\s+(?:want|need|mean)\s+(?:(?:one|it|that|them|this|someone|somebody)\s+)?(?:(?:done|sorted|fixed|here)\s+)?"
    r"(?:today|now|right\s+now|asap|immediately|this\s+(?:week|minute|instant|afternoon|morning)|straight\s+away|right\s+away)"
    r"|(?:can|could)\s+we\s+(?:please\s+)?(?:just\s+)?get\s+on\s+with\s+it"
    r"|let'?s\s+(?:just\s+)?get\s+(?:on\s+with\s+it|going|this\s+over\s+with)"
    r"|hurry(?:\s+it)?\s+up|get\s+a\s+move\s+on|chop\s+chop|come\s+on"
    r"|(?:i|we)\s+(?:don'?t|do\s+not|haven'?t)\s+(?:got\s+|have\s+)?(?:all\s+day|time\s+for\s+(?:this|chit\s*chat|small\s+talk|games|nonsense))"
    r"|(?:make\s+it|be)\s+quick)\W*$", re.I)


# A part that is only a value for the need before it: "new email. linus at newlab dot io", "new
# phone number. plus four four seven seven ...". No need of its own; the need's task reads it.
_DIGIT_SAID = r"(?:zero|oh|one|two|three|four|five|six|seven|eight|nine|double|triple|\d)"
_ONLY_VALUE = re.compile(
    # (a learner's "is ada dot l at posteo dot de": the "it" left unsaid)
    r"^\W*(?:(?:it'?s|its|it\s+is|is|the\s+new\s+one(?:'?s|\s+is)?|new\s+one|that'?s|um|uh|so|ok|okay)\W+)*"
    rf"(?:(?:plus\s+)?(?:{_DIGIT_SAID}[\s-]*){{7,}}"
    r"|[\w.+-]+\s+(?:at|@)\s+[\w-]+(?:\s+(?:dot|\.)\s+\w+)+|\S+@\S+\.\w+"
    # "bill. month before last": when the thing named before it was, a value of that need
    r"|(?:(?:the|from|for|in|of|on|one|just)\s+)*(?:month\s+before\s+last|last\s+(?:month|week|year)|this\s+(?:month|week|year)"
    r"|(?:(?:one|two|three|four|five|six|\d+)\s+)?months?\s+(?:ago|back)"  # (a count may be cut off as a list's: "two")
    r"|(?:january|february|march|april|june|july|august|september|october|november|december)(?:\s+(?:\d{4}|twenty\s+\w+))?)"
    r")\W*$", re.I)


def only_value(segment: str) -> bool:
    """True for "linus at newlab dot io", "plus four four seven seven zero zero ...": a value."""
    return bool(_ONLY_VALUE.match(segment))


# "..., cause our webhooks seem to be dragging": why the caller asks what they asked, no need of its own
_GIVES_REASON = re.compile(r"^\W*(?:'?cause|because|coz|cuz|cos|as)\s+(?:our|my|the|we|i|it)\b", re.I)


# "first of all, ...": where a question starts after its opening
_FIRST_OF_ALL = re.compile(
    r"^\W*(?:(?:hi|hiya|hey|hello|ok|okay|so)\W+)*(?:before\s+anything\s+else|first\s+of\s+all|first\s+things\s+first|first\s+off)\W+", re.I)
# ("..., because i want to close the account for good": a need given as the reason is a need)
_REASON_WANTS = re.compile(r"\b(?:want|need|like|wanna|gonna|going|plan(?:ning)?)\s+to\b|\bi'?d\s+like\b", re.I)


def gives_reason(question: str, segment: str) -> bool:
    """True for "cause our webhooks seem to be dragging" said after a question: its reason."""
    asked = _FIRST_OF_ALL.sub("", question.strip())
    return bool(_GIVES_REASON.match(segment)) and bool(_ASKS_FIRST.match(asked)) and not _REASON_WANTS.search(segment)


def only_presses(segment: str) -> bool:
    """True for "and i want one today", "can we get on with it": impatience about the need said
    beside it, no need of its own."""
    return bool(_ONLY_PRESSES.match(segment))


def only_when(segment: str) -> bool:
    """True for "ok and before it closes": when the need beside it is wanted, no need of its own."""
    return bool(_ONLY_WHEN.match(segment))


def only_asks_to_be_told(segment: str) -> bool:
    """True for "and also tell me", "can you let me know": what is asked is said after it."""
    return bool(_ONLY_ASKS_TO_BE_TOLD.match(segment))


def is_greeting(segment: str) -> bool:
    ws = words(segment)
    return bool(ws) and all(w in _GREETING_WORDS for w in ws)


def after_retraction(text: str) -> str:
    """What the caller wants instead, once they took something back: the last stretch
    after a retraction cue that says more than filler ("no wait never mind that, close my
    account instead" -> "close my account"). The whole turn when nothing was taken back."""
    cuts = [0, *(i for m in RETRACTION.finditer(text) for i in m.span()), len(text)]
    if len(cuts) == 2:
        return text
    pieces = [_trim(text[a:b]) for a, b in zip(cuts[::2], cuts[1::2], strict=True)]
    for piece in reversed(pieces):
        if piece and not is_filler(piece) and words(piece) != ["that"]:
            return re.sub(r"^(?:that|it)\s+", "", piece, flags=re.IGNORECASE)
    return text
