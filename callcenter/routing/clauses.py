"""Cut one caller turn into clauses, each a candidate need of its own.

Callers put several needs in one turn in a few recurring shapes, whatever the words:
- separate sentences (a recogniser writes full stops: "card declined. also is the api down.");
- connectives between clauses ("also", "plus", "and then", ", then", "after that", "finally");
- an announced list ("ok two things: ...", "a couple of questions"), where the announcement
  itself is no need;
- an ordered list ("first X, then Y and Z", "secondly", "lastly"), where the ordinal is no
  part of the need;
- an opening greeting run into the need ("hi i'm calling about ..."): a clause of its own;
- reversed emphasis ("the Y thing is annoying but mostly I want X"): a "but" followed by a
  marker of what matters most is a clause boundary, not a qualification of the same need,
  and the emphasised clause comes first (what matters most to the caller is done first).

These are closed classes of discourse markers, so this module knows no department: which
clause is which need is the classifier's question (``IntentRouter.detect``). Cutting here is
unconditional; a bare "and" / "," inside a clause is left to ``segment.weak_splits``, which
the router accepts only when the parts read as different needs.
"""

from __future__ import annotations

import re

from callcenter.routing import segment as _seg

_NUMBER_WORDS = r"(?:two|three|four|five|2|3|4|5|a\s+couple\s+of|a\s+few|couple\s+of|several|some|few)"
_THINGS = r"(?:things?|questions?|issues?|problems?|requests?|items?|stuff)"

# An announcement of a list: "ok two things", "i've got a couple of questions for you".
# Only at the start of a clause, followed by a boundary or the end.
ANNOUNCEMENT = re.compile(
    rf"""^(?:(?:ok(?:ay)?|so|right|alright|well|um+|uh+|yeah|hi|hello|hey)[\s,]+)*
    (?:(?:i\s+(?:have|got|need|want)|i'?ve\s+got|there\s+are|i\s+have\s+got|got|just)\s+)?
    (?:(?:help\s+with|ask\s+(?:you\s+)?about|ask)\s+)?
    {_NUMBER_WORDS}\s+(?:\w+\s+)?{_THINGS}(?:\s+(?:for\s+you|to\s+ask(?:\s+you)?|today|actually|here|really))*\b
    # the order told: "i'll save the important one for last", "let me start with the easy stuff"
    |^(?:(?:ok(?:ay)?|so|right|alright|well|um+|uh+|yeah)[\s,]+)*(?:i'?ll|i\s+will|let\s+me|i'?m\s+(?:gonna|going\s+to))\s+
    (?:save|leave|keep|start\s+with|begin\s+with|do)\s+the\s+(?:\w+\s+)?(?:one|ones|thing|things|stuff|bit)
    \s+(?:for\s+last|till\s+last|until\s+last|to\s+the\s+end|first)\b""",
    re.IGNORECASE | re.VERBOSE,
)

# "next bill?", "last invoice please": the word says which one, no place in a list
_NOUN_AFTER = r"(?:bill|invoice|payment|charge|statement|month|week|year|time|one|plan|tier|incident|ticket|refund)s?\b"

# Ordinals that open a clause in an ordered list. They carry no need of their own.
_ORDINAL = re.compile(
    rf"""^(?:and\s+|then\s+|so\s+)?(?:(?:the\s+)?(?:first|second|third|other|last|final|next|another)\s+(?:thing|question|issue|point)
    |first(?:ly)?|first\s+of\s+all|to\s+start(?:\s+with)?|second(?:ly)?|third(?:ly)?
    |next(?!\s+{_NOUN_AFTER})|after\s+that|then|finally|lastly|last(?:ly)?\s+of\s+all|last(?!\s+{_NOUN_AFTER})|and\s+last(?:ly)?
    |number\s+(?:one|two|three|four|[1-5])|(?:one|two|three)(?!\s+(?:of|more|factor|fa|step|things?|hundred|thousand|are|were|is\s+(?:late|wrong|paid|due|missing|fine|ok|okay))\b))\b[,:]?\s+""",
    re.IGNORECASE | re.VERBOSE,
)

# "1) copy of my last invoice": a texted list's marker opening a clause.
_TEXTED_MARKER = re.compile(r"^\(?[1-5]\)\s*")

# Clause boundaries beyond the segmenter's strong ones: a colon after an announcement,
# ordered-list connectives, and a "but" that introduces what the caller wants most.
_BOUNDARY = re.compile(
    r"""
    \s*:\s+
    | ,\s*(?:and\s+)?then\s+
    | ,?\s*\b(?:and\s+)?after\s+that\b[,]?\s*
    | ,?\s*\band\s+(?:finally|lastly|last(?:ly)?|second(?:ly)?|third(?:ly)?|next)\b[,]?\s*
    | ,?\s*\b(?:finally|lastly|secondly|thirdly)\b[,]?\s*
    | ,\s*(?:and\s+)?(?:the\s+)?(?:second|third|other|last|final|next|another)\s+(?:thing|question|issue|point)\b[,:]?\s*   # "..., second thing is there any refund"
    | ,\s*number\s+(?:one|two|three|four|[1-5])\s*[,:]\s*   # ", number two, ...": a list's marker (spoken digits are digits here)
    | [,;]?\s+\(?[1-5]\)\s+                                   # "1) my invoice 2) paging": a texted list's marker
    | ,?\s*\bbut\s+(?=(?:mostly|mainly|really|more\s+importantly|most\s+importantly|the\s+main\s+thing|what\s+i\s+(?:really\s+|actually\s+)?(?:need|want|care\s+about)|above\s+all|first)\b)
    """,
    re.IGNORECASE | re.VERBOSE,
)

_COUNT_OPENS = re.compile(r"\bnumber\s+(?:one|1)\b", re.I)
_COUNTED = re.compile(r"\s+(?=number\s+(?:two|three|four|[2-4])\b)", re.I)
# A list counted with bare numbers: "one is there an outage, two how do i make a new key, and
# three switch me up". A count opens a clause only when it is no amount of something ("two
# factor", "two invoices", "one more thing"), and only in a turn where "one" and then "two"
# both open clauses: then every count after a comma opens one (and is no part of its need).
_NOT_COUNTED = (r"(?!\s*(?:hundred|thousand|million|of|more|and|or|thing|things|factor|fa|step|last|sec|second|seconds"
                r"|moment|minute|minutes|hour|hours|day|days|week|weeks|month|months|year|years|time|times|invoices?|charges?"
                r"|bills?|dollars?|bucks|cents?|keys?|plans?|accounts?|users?|requests?|calls?|errors?|incidents?|tickets?"
                r"|percent|a\s+(?:month|minute|second)|are|were|have|had)\b)")
# ("one, how do i page ..., two, um, what's my balance": a pause after the count, too)
_BARE_COUNT = re.compile(rf"(?:^|[,;:.]\s*)one,?\s+{_NOT_COUNTED}\w[^,;.]*[,;.]\s*(?:(?:and|then)\s+)?two,?\s+{_NOT_COUNTED}\w", re.I)
_BARE_CUT = re.compile(rf"\s*[,;]\s*(?:(?:and|then)\s+)?(?=(?:one|two|three|four|five),?\s+{_NOT_COUNTED}\w)", re.I)

# A greeting that opens the turn without a pause ("hi i'm calling about my subscription") is
# a clause of its own: read together, the greeting's words outweigh a short need. Fillers may
# come before it ("uh uh hi i got locked out").
_OPENING_GREETING = re.compile(
    r"^\W*((?:(?:uh+|um+|er|oh|so|yeah|ok|okay)\W+)*(?:(?:hi|hiya|hey|hello|howdy|yo|good\s+(?:morning|afternoon|evening))(?:\s+there)?[\s,!.]+)+)(?=\w)", re.IGNORECASE)

# What introduces the emphasised clause after such a "but": no need of its own.
_EMPHASIS = re.compile(
    r"""^(?:mostly|mainly|really|more\s+importantly|most\s+importantly|above\s+all|first)\b[,]?\s*
    # "we've decided to leave, but before we do i want the outage credit": done before the other
    |^(?:(?:but|and|so)\s+)?before\s+(?:we|i)\s+(?:do(?:\s+(?:that|it))?|go|leave)\b[,]?\s*
    # "but the real reason i'm calling, and this matters way more, is we need to go down to starter"
    |^(?:(?:but|and|so)\s+)?the\s+(?:real|main|actual)\s+reason\s+(?:i'?m|i\s+am|we'?re|we\s+are|im)\s+calling\b(?:\s+(?:today|is))*[,:]?\s*
    |^(?:(?:but|and|so)\s+)?(?:this|that)\s+(?:one\s+)?matters\s+(?:(?:way|much|a\s+lot|far)\s+)?more\b(?:[,]?\s*is\b)?[,:]?\s*
    # "and three and this is the big one, lock my account"
    |^(?:(?:but|and|so)\s+)?(?:this|that|here)\s+(?:one\s+)?(?:is|'s)\s+the\s+(?:big|important|main|urgent|real|biggie)(?:\s+one)?\b[,:]?\s*
    |^(?:the\s+main\s+thing|what\s+i\s+(?:really\s+|actually\s+)?(?:need|want|care\s+about))(?:\s+(?:is|right\s+now|today|now))*\b[,:]?\s*(?:to\s+)?""",
    re.IGNORECASE | re.VERBOSE,
)


# "i'm calling about ...", "i'm ringing because ...": why the caller rang, not a need; its words
# read as a greeting in training ("hi i'm calling about my subscription" -> greeting).
_CALLING = re.compile(r"^(?:(?:uh+|um+|er|so|well|yeah|ok|okay)\W+)*(?:i'?m|i\s+am|im)\s+(?:calling|ringing|phoning|calling\s+you|ringing\s+you)\s+(?=about|regarding|re|because|to|for|with)\b",
                      re.IGNORECASE)


# Courtesy that wraps a request ("i was wondering if perhaps someone could maybe look at ...",
# "i was hoping you might be able to tell me ...", "..., if it's no trouble"): a closed class of
# hedges, no need of its own. Read with the request, its words outweigh a short need and the
# turn reads as small talk or nothing the line does.
_HEDGE = re.compile(
    r"""^(?:(?:uh+|um+|er|so|well|yeah|ok|okay|oh|and|also|hi|hello|right|alright|lovely|great|good|ha
    |thanks|thank\s+you(?:\s+(?:so|very)\s+much)?)\W+)*
    (?:(?:so\s+)?sorry\s+to\s+(?:bother|trouble)\s+you\W+)?
    (?:i\s+was\s+(?:just\s+)?(?:wondering|hoping)|i\s+wonder|i'?d\s+be\s+grateful)\s*(?:if|whether|that)?\s*
    (?:(?:it\s+(?:might|would|could)\s+be\s+possible|perhaps|maybe|possibly)\W+)*
    (?:(?:for\s+)?(?:you|someone|somebody|anyone|one\s+of\s+you)(?:\s+(?:from|on|in)\s+(?:your|the)\s+team)?\W+)?
    (?:(?:might|could|would|can|may)\s+)?(?:(?:perhaps|maybe|possibly|kindly|please)\s+)*(?:be\s+able\s+to\s+)?(?:to\s+)?
    (?:(?:perhaps|maybe|possibly|kindly|please)\s+)*""",
    re.IGNORECASE | re.VERBOSE,
)
_COURTESY = re.compile(
    r"""(?:^|,)\s*(?:(?:and|but|oh|so|also)\W+)*(?:if\s+(?:it'?s|it\s+is)\s+(?:not\s+)?(?:no|too\s+much|any|a)?\s*(?:trouble|bother)(?:\s+at\s+all)?
    |if\s+you\s+(?:don'?t|do\s+not)\s+mind|if\s+(?:at\s+all\s+)?possible|(?:so\s+)?sorry\s+to\s+(?:bother|trouble)\s+you
    |at\s+some\s+point|when\s+you\s+(?:get|have)\s+a\s+(?:chance|moment|minute)|thank\s+you\s+(?:so|very)\s+much(?:\s+in\s+advance)?)\s*(?=,|[.!?]*\s*$)""",
    re.IGNORECASE | re.VERBOSE,
)


# What opens an aside ("oh by the way, before that, is the webhook thing okay now?"): where the
# question sits in the call, no part of it.
_ASIDE_OPENER = re.compile(
    r"^(?:(?:oh|and|so|um+|uh+|ok|okay)\W+)*(?:by\s+the\s+way|btw|before\s+that|before\s+(?:we|you)\s+do\s+that|quick\s+question"
    r"|before\s+i\s+forget"
    r"|one\s+more\s+thing|on\s+another\s+note|while\s+i\s+have\s+you|while\s+i'?ve\s+got\s+you|unrelated(?:\s+but)?)\b[\s,:]*(?=\w)", re.I)


# How the caller feels, said before the need ("i am so fed up, i can't log in", "honestly i'm
# sick of this, ..."): no need of its own, and read with the need its words pull it elsewhere.
_AFFECT = re.compile(
    r"""^(?:(?:honestly|look|listen|ugh+|man|god|seriously|right|ok|okay|so|and|oh|well)\W+)*
    (?:i'?m|i\s+am|im|we'?re|we\s+are)\s+(?:(?:so|really|very|absolutely|totally|just|getting|pretty|bloody|quite|completely)\s+)*
    (?:fed\s+up|frustrated|annoyed|angry|upset|furious|livid|mad|pissed(?:\s+off)?|fuming|exhausted|stressed(?:\s+out)?
    |(?:sick|tired)\s+(?:and\s+tired\s+)?of\s+(?:this|it|you(?:\s+(?:people|guys|lot))?)|done\s+with\s+(?:this|it|you(?:\s+(?:people|guys|lot))?)
    |at\s+my\s+wits'?\s+end)
    (?:\s+(?:with|at)\s+(?:you(?:\s+(?:people|guys|lot))?|this|it(?:\s+all)?|all\s+(?:this|of\s+this)))?(?:\s+(?:right\s+now|today|now))?
    \s*[,.;!]+\s*(?=\w)""",
    re.IGNORECASE | re.VERBOSE,
)


def _unhedged(clause: str) -> str:
    """The request without the courtesy wrapped round it; a hedge that wraps nothing stays."""
    m = _HEDGE.match(clause)  # its "i was wondering / hoping" is never optional
    if m is None:
        return clause
    rest = clause[m.end():]
    return rest if len(_seg.words(rest)) >= 2 else clause


# A list's marker standing alone ("number 1: refund ...", cut at the colon).
_MARKER_ONLY = re.compile(r"^(?:number\s+)?(?:one|two|three|four|[1-5])$|^(?:first(?:ly)?|second(?:ly)?|third(?:ly)?|lastly)$", re.I)


def _strip_markers(clause: str) -> tuple[str, bool]:
    """An ordinal or an emphasis marker opening the clause is no part of its need; also
    whether the clause was marked as what matters most."""
    # "... but first tell me my balance": "first" here says what to do first, as "mostly" says
    # what matters most; an opening "first" keeps its place either way (it is first already).
    emphasised = bool(_EMPHASIS.match(clause))
    previous = None
    while clause != previous:
        previous = clause
        clause = _seg.trim(_ORDINAL.sub("", clause, count=1))
        clause = _seg.trim(_TEXTED_MARKER.sub("", clause, count=1))
        clause = _seg.trim(_CALLING.sub("", clause, count=1))
        clause = _seg.trim(_EMPHASIS.sub("", clause, count=1))
        clause = _seg.unhedged(_unhedged(_COURTESY.sub("", clause)))
        clause = _seg.trim(_ASIDE_OPENER.sub("", clause, count=1))
        clause = _seg.trim(_AFFECT.sub("", clause, count=1))
    return clause, emphasised


# What matters most, said after the list as a clause of its own: "..., the refund is the main
# thing", "..., the ticket matters most". It names a need already said by its words.
_EMPHASIS_AFTER = re.compile(
    r"[,.;]\s*(?:(?:but|and|though|oh|well)\s+)*(?P<what>(?:the|my|that|this)\s+[\w' ]{1,30}?)\s+(?:is|'s|are)\s+(?:really\s+|definitely\s+)?"
    r"(?:the\s+)?(?:main\s+(?:thing|one|part|issue)|(?:most|more)\s+(?:important|urgent)(?:\s+(?:one|thing|part))?|(?:top\s+)?priority"
    r"|the\s+big\s+one|what\s+(?:really\s+)?matters)(?:\s+(?:for\s+me|here|honestly|really|though))*\W*$"
    r"|[,.;]\s*(?P<what2>(?:the|my|that|this)\s+[\w' ]{1,30}?)\s+matters\s+(?:the\s+)?most\W*$", re.I)


def trailing_emphasis(text: str) -> tuple[str, str] | None:
    """The turn without its closing word of emphasis, and the words naming the need it puts
    first ("..., the refund is the main thing" -> (..., "the refund")), or None."""
    m = _EMPHASIS_AFTER.search(text)
    if m is None or m.start() == 0:
        return None
    return text[: m.start()].rstrip(), m.group("what") or m.group("what2")


def is_announcement(clause: str) -> bool:
    """"ok two things", "a couple of questions for you": announces needs, names none."""
    m = ANNOUNCEMENT.match(clause.strip())
    return bool(m) and not _seg.trim(clause[m.end() :])


# "close it. the account", "lock it all down, the account": the thing named after the verb's
# "it" (a recogniser's full stop between them) is what "it" is: "close the account"
_NAMED_AFTER_IT = re.compile(
    r"\b([a-z]+)\s+(?:it|that)((?:\s+(?:all|down|up|off|out|back|now|please|for\s+me))*)\s*[.,]\s+"
    r"((?:the|my|our)\s+(?:[a-z]+\s+){0,2}?(?:account|plan|subscription|key|charge|card|password|email|number|ticket))\s*(?=[.?!]|$)", re.I)


def _it_named(m: re.Match[str]) -> str:
    return f"{m.group(1)} {m.group(3)}{m.group(2)}"


# "you've gone and taken the money again": "gone and" only stresses the deed, it is no leaving
# (cut at its "and", "you've gone" read as a goodbye).
_GONE_AND = re.compile(r"\b((?:you|they|we|i|it|he|she|someone|somebody)(?:'?ve|'?s|\s+have|\s+has)?)\s+(?:gone|went|go)\s+and\s+(?=\w)", re.I)
_OPENING_I_MEAN = re.compile(r"^\W*(?:(?:oh|um+|uh+|so|well|yeah)\W+)*i\s+mean\b[\s,]*(?=\w)", re.I)
# A false start: a sentence that stops unfinished ("my phone on file is...", "can you move me
# to, um, no ...": a recogniser's pause is a comma) and is taken back ("hmm, no, let's use the
# customer number"): nothing was asked. One that stops finished ("i was charged... no wait,
# twice", "what plan am i on, no wait") is kept.
_FALSE_START = re.compile(
    r"(?:^|(?<=[.!?;,]\s))[^.!?;,]*?\b(?:is|are|was|the|my|our|a|an|to)\s*(?:\.\.\.+|\u2026|\u2014|--|,)"
    r"\s*(?:(?:hmm+|um+|uh+|er+|oh)\W+)*(?:(?:no|nah|actually|wait|sorry)\b[\s,.]*)+(?=\w)", re.I)


# A comment on what was just said ("you double billed me which is great", "which was just
# lovely"), sincere or not, asks for nothing: the clause ends there.
_REMARK = re.compile(
    r"\s*,?\s*\bwhich\s+(?:is|was)\s+(?:(?:also|just|really|so|super|totally|absolutely|simply)\s+)?"
    r"(?:great|fantastic|wonderful|brilliant|lovely|awesome|nice|fun|amazing|perfect|terrible|annoying|ridiculous"
    r"|frustrating|helpful|marvellous|marvelous|fab|superb|cool)\b\s*,?\s*", re.I)


def without_false_starts(text: str) -> str:
    """``text`` without the sentences the caller started and took back unfinished (`_FALSE_START`)."""
    return _FALSE_START.sub("", text)


def clauses(text: str) -> list[str]:
    """The turn's clauses in order of mention (an emphasised one first), without
    announcements, ordinals or filler.

    An announcement that runs straight into its first need ("ok two things my balance and
    ...") is cut off that need.
    """
    out: list[str] = []
    first: list[str] = []  # "... but mostly I want X": X is taken first (the agenda's order)
    greeting = _OPENING_GREETING.match(text)
    if greeting and not _seg.is_greeting(text[greeting.end() :]):
        out.append(_seg.trim(greeting.group(1)))
        text = text[greeting.end() :]
    # "i mean whatever about the invoice thing but ...": the turn's first words correct nothing
    # (nothing was said before them), whichever clause the emphasis puts first
    text = _OPENING_I_MEAN.sub("", text, count=1)
    text = without_false_starts(text)
    text = _NAMED_AFTER_IT.sub(_it_named, text)
    text = _GONE_AND.sub(r"\1 ", text)
    text = _REMARK.sub(", ", text)
    counted = bool(_COUNT_OPENS.search(text))
    if _BARE_COUNT.search(text):
        text = _BARE_CUT.sub(". ", text)
    for sentence in _seg.strong_segments(text):
        # "number one is there an outage number two how do i ...": once the caller counts from
        # one, every later "number two" opens a clause, comma or not (a recogniser writes none)
        for piece in (p for part in _BOUNDARY.split(sentence) for p in (_COUNTED.split(part) if counted else [part])):
            piece = _seg.trim(piece)
            m = ANNOUNCEMENT.match(piece)
            if m:
                piece = _seg.trim(piece[m.end() :])
            piece, emphasised = _strip_markers(piece)
            if piece and not _seg.is_filler(piece) and not _MARKER_ONLY.match(piece):
                (first if emphasised else out).append(piece)
    found = first + out
    # "paging through results. how": a question word said alone after a full stop asks about the
    # words before it (a recogniser's stop), one clause
    for k in range(len(found) - 1, 0, -1):
        if _BARE_QUESTION.match(found[k]):
            found[k - 1:k + 1] = [f"{found[k - 1]} {found[k]}"]
    # "two hundred and forty nine. and that's the same every month, is it": the figure just heard,
    # said back before a question, asks nothing (said alone, it is the line's to repeat)
    return [c for c in found if not _FIGURE_ONLY.match(c)] if len(found) > 1 else found


_BARE_QUESTION = re.compile(r"^\W*(?:how|why|when|where|how\s+so|how\s+come|how\s+long|how\s+much|since\s+when)\W*$", re.I)
# (an error code said alone is no figure: "four oh one. again. the key.")
_FIGURE_ONLY = re.compile(r"^\W*(?:(?:so|ok|okay|oh|um+|uh+|right|hmm)\W+)*(?![45]\d\d\b)\$?\d[\d,.]*(?:\s*(?:dollars?|bucks|a\s+month|per\s+month))?\W*$", re.I)
