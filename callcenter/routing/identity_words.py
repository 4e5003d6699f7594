"""Who the caller is, said in the same breath as what they need, is no need of its own.

"hi it's c1001 zip 94107, i got charged twice" (the digits as ``callcenter/spoken.py`` wrote
them): read with the need, "customer number", "my zip is" and the digits outweigh it, and the
turn routed to a contact-details change or a two-factor reset that nobody asked for. The
statement of identity is a closed construction (a customer number, a ZIP or postal code, the
words that introduce them), so it is cut out of the turn before the segmenter and the
classifier weigh it. The statement itself is not lost: ``statement`` gives it back, and the
router puts it before every need it hands on, so the department that verifies the caller
reads the customer number and ZIP code from it, and a specialist still sees a customer number
that is not the caller's own ("reset two factor for customer c1005" is refused as ever).
"""

from __future__ import annotations

import re

# Pauses and fillers a caller leaves between the words and the value ("my number is... uh, c1001").
_PAUSE = r"(?:[\s.,:;…-]|\b(?:uh+|um+|er+|erm|hmm)\b)*"
_LEAD = r"(?:\b(?:it'?s|its|this\s+is|i'?m|im|i\s+am|calling|ringing|here|from)\s+){0,3}"
_MINE = r"(?:\b(?:my|our)\s+)?"
_ID = re.compile(
    rf"""(?P<lead>{_LEAD})(?P<mine>{_MINE})(?:(?:customer|cust|account|acct|client|member)\s+)?(?:(?:number|no\.?|id|num|\#)\s*)?(?:{_PAUSE}(?:is|'s)\b)?{_PAUSE}
    \bc[-\s]?\d{{4,6}}\b""",
    re.IGNORECASE | re.VERBOSE,
)
# The email on the account instead of the number ("ada@example.com zip 94107").
_EMAIL_ID = re.compile(
    rf"(?P<lead>{_LEAD})(?P<mine>{_MINE})(?:(?:email|e-mail)(?:\s+address)?\s*(?:is\s+|'s\s+|:\s*)?)?"
    r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b",
    re.IGNORECASE,
)
# The ZIP code's name, also as callers from elsewhere say it ("postleitzahl, uh, zip, 60601").
_ZIP_WORD = r"(?:zip|postal|post|postleitzahl|plz|code\s+postal|c[oó]digo\s+postal|cep|codice\s+postale)\s*(?:code)?"
_ZIP = re.compile(
    rf"\s*(?:(?:and|with|,)\s*)?(?:\b(?:my|our|the)\s+)?(?:\b{_ZIP_WORD}{_PAUSE})+(?:(?:is|'s|number)\b{_PAUSE})?\d{{5}}\b",
    re.IGNORECASE,
)
# The birth date verifies as the ZIP code does ("c1005, date of birth february 28th 1988", the
# words as spoken.py wrote them); without it the date was read as an invoice's month.
_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?"
          r"|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)")
_DATE = (rf"(?:{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{2,4}}|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH},?\s+\d{{2,4}}"
         r"|\d{4}-\d{2}-\d{2}|\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4})")
_DOB = re.compile(
    rf"\s*(?:(?:and|with|,)\s*)?(?:\b(?:my|the)\s+)?\b(?:date\s+of\s+birth|birth\s*date|birthday|dob"
    rf"|(?:i\s+was\s+|i'?m\s+|was\s+)?born(?:\s+on)?)"
    rf"(?:\s+(?:is|was))?[\s,:]*{_DATE}\b",
    re.IGNORECASE,
)
# A five-digit number straight after a customer number ("c1001, 94107") is its ZIP code, and a
# date there its birth date ("ada@example.com, december 10th 85").
_BARE_ZIP_AFTER_ID = re.compile(rf"[\s,.]*(?:(?:and|with)\s+)?(?:the\s+)?(?:\d{{5}}|{_DATE})\b", re.IGNORECASE)
# A ZIP code said first, then the number: "my zip is 30301 and the customer number is c1004".
_ZIP_BEFORE = re.compile(_ZIP.pattern + r"[\s,.]*(?:(?:and|with)\s+)?(?:the\s+)?$", re.IGNORECASE)
# Only greetings and fillers between the start of a clause and a customer number said there.
_OPENING = re.compile(r"(?:^|[.,;!?])\s*(?:(?:hi|hiya|hey|hello|yeah|yes|um+|uh+|er|so|ok|okay|right|well|there|good\s+(?:morning|afternoon|evening)"
                      # a typed label before the details ("auth: cust id c1003, zip 60601")
                      r"|auth|verification|verify|identity|details|creds|credentials)[\s,:]+)*$", re.I)


def _statements(text: str) -> list[tuple[int, int]]:
    """Spans of ``text`` that state who the caller is, when a ZIP code is among them (what
    verification asks for). A customer number is such a statement
    when the caller says it of themselves ("it's", "this is", "my customer number is"), opens
    a clause with it, or gives a ZIP code with it; "close the account c1003 for me" names an
    account to act on, which the specialist must see (and refuse when it is not theirs)."""
    spans: list[tuple[int, int]] = []
    ids = sorted([*_ID.finditer(text), *_EMAIL_ID.finditer(text)], key=lambda m: m.start())
    if not (_ZIP.search(text) or _DOB.search(text) or any(_BARE_ZIP_AFTER_ID.match(text, m.end()) for m in ids)):
        # no ZIP code: a customer number alone verifies nobody, and "my number is c1005, sorry,
        # i mean c1001, close my account" stays whole for the ownership check to read
        return spans
    for m in ids:
        end = m.end()
        bare = _BARE_ZIP_AFTER_ID.match(text, end)
        zipped = _ZIP.match(text, end) or _DOB.match(text, end) or (_ZIP.match(text, bare.end()) if bare else None)
        said_of_self = bool(m.group("lead").strip() or m.group("mine").strip() or _ZIP_BEFORE.search(text[: m.start()]))
        opening = bool(_OPENING.search(text[: m.start()]))
        if "@" in m.group(0) and not (said_of_self or opening):
            continue  # "change my email to bob@new.com, zip ...": the new value, not who they are
        if said_of_self or zipped or bare or opening:
            end = zipped.end() if zipped else bare.end() if bare else end
            spans.append((m.start(), end))
    rest = _cut(text, spans, " ")
    for z in [*_ZIP.finditer(text), *_DOB.finditer(text)]:  # a ZIP code or birth date said apart from the number
        if not any(a <= z.start() < b for a, b in spans) and z.group(0).strip() in rest:
            spans.append((z.start(), z.end()))
    return sorted(spans)


def _cut(text: str, spans: list[tuple[int, int]], between: str) -> str:
    out, pos = [], 0
    for a, b in sorted(spans):
        if a < pos:
            continue
        out.append(text[pos:a])
        out.append(between)
        pos = b
    out.append(text[pos:])
    return "".join(out)


def states_identity(text: str) -> bool:
    return bool(_statements(text))


def statement(text: str) -> str:
    """The customer numbers and ZIP codes the caller stated, as said ("C1001 zip 94107")."""
    return ", ".join(dict.fromkeys(text[a:b].strip(" ,.") for a, b in _statements(text)))


def without_identity(text: str) -> str:
    """``text`` with every statement of the caller's customer number and ZIP code cut out
    (a clause boundary left in its place); the rest as said."""
    cut = _cut(text, _statements(text), ". ")
    cut = re.sub(r"(?:\s*[.,]\s*){2,}", ". ", cut).strip(" .,")
    # what is left of "hello this is ada, c1001": the caller's name, no need; of "my customer
    # number, let me read it off the letter, it's c1001": the statement's own announcement
    pieces = [p for p in re.split(r"\s*,\s*|\s*\.(?:\s+|$)", cut)
              if p and not _NAME_ONLY.fullmatch(p) and not _ANNOUNCES.fullmatch(p) and not _JOINS_ONLY.fullmatch(p)]
    return ". ".join(pieces)


# What joined two statements cut out ("my zip is ... and the customer number is ..."): no need.
_JOINS_ONLY = re.compile(r"(?:\s*\b(?:and|with|the|then|also)\b)+\s*", re.IGNORECASE)
# "this is ada", "my name's grace hopper": an introduction by name, a clause of its own.
_NAME_ONLY = re.compile(
    r"(?:(?:hi|hey|hello|yeah|um|uh|so|ok|okay|there|good\s+(?:morning|afternoon|evening))\s+)*"
    r"(?:this\s+is|my\s+name'?s|my\s+name\s+is|name'?s)\s+[a-z]+(?:\s+[a-z]+)?(?:\s+(?:here|speaking))?",
    re.IGNORECASE,
)
# The words that announce a statement of identity, without a need of their own: "my customer
# number", "let me read it off the letter", "i have it here somewhere".
_ANNOUNCES = re.compile(
    r"(?:(?:hi|hey|hello|yeah|um|uh|so|ok|okay|right|well|and|good\s+(?:morning|afternoon|evening))\s+)*"
    r"(?:(?:(?:my|our|the)\s+)?(?:customer|account|client)\s+(?:number|no|id)(?:\s+is)?"
    r"|(?:(?:my|our|the)\s+)?(?:zip|postal)(?:\s+code)?(?:\s+is)?"
    r"|(?:let\s+me|lemme|i'?ll)\s+(?:read|find|get|grab|check)\s+(?:it|that|them)(?:\s+(?:off|from|on)\s+(?:the|my|this|your)\s+\w+)?"
    r"|i\s+(?:have|got)\s+(?:it|them)\s+(?:here|somewhere)(?:\s+somewhere)?"
    # "let me give you my details first", "here are my details": what follows is who they are
    r"|(?:(?:let\s+me|lemme|i'?ll|i\s+will|i\s+can)\s+give\s+you|here\s+(?:are|is|'s))\s+(?:my|our|the)\s+"
    r"(?:details|info|information|credentials|account\s+details)(?:\s+first)?(?:\s+(?:it'?s|its|they'?re))?"
    # "hmm, no, let's use the customer number": which one the caller identifies by
    r"|(?:let'?s|let\s+us|i'?ll|we'?ll|i\s+can)\s+(?:just\s+)?(?:use|go\s+with|give\s+you|try)\s+(?:the|my|our)\s+"
    r"(?:customer|account|client)\s+(?:number|no|id)(?:\s+instead)?"
    r"|(?:auth|verification|verify|identity|details|creds|credentials)\s*:?"  # a typed label before them
    # "the lady on the website said to give you my number first"
    r"|(?:[\w']+\s+){0,6}?(?:said|told\s+me|asked\s+me)\s+to\s+(?:give|tell|read)\s+you\s+(?:my|the|our)\s+\w+(?:\s+\w+)?(?:\s+first)?"
    # "uh i don't know my customer number, it's grace@example.com, zip 10001": why the email is said
    r"|i\s+(?:don'?t|do\s+not|can'?t)\s+(?:know|have|remember|find)\s+(?:my|the|our)\s+(?:customer|account|client)\s+(?:number|no|id)"
    r"(?:\s+(?:on\s+me|with\s+me|here|to\s+hand|handy|right\s+now))?)",
    re.IGNORECASE,
)


# "this is linus, c1005", "hi it's ada, customer number c1001": the caller introducing themselves
# with their number and nothing else, a clause beside the need (no ZIP: it verifies nobody, and
# it asks for nothing either).
_INTRODUCTION = re.compile(
    r"^\W*(?:(?:hi|hiya|hey|hello|yeah|yes|so|ok|okay|um+|uh+|right|good\s+(?:morning|afternoon|evening))\W+)*"
    r"(?:(?:this\s+is|it'?s|its|i'?m|im|i\s+am|my\s+name\s+is|(?:you'?re|you\s+are)\s+speaking\s+(?:to|with))\s+[a-z]+(?:\s+[a-z]+)?\W+)?"
    r"(?:(?:and\s+)?(?:it'?s|my|our)?\s*(?:customer\s+|account\s+)?(?:number|id|no\.?)?\s*(?:is|'s)?\s*)?"
    r"c[-\s]?\d{4,6}\W*$", re.IGNORECASE)


# "oh i don't have my number handy": who they are, not given; no need of its own ("my number" is no
# phone number to change here: nothing is said to change)
_LACKS_IDENTITY = re.compile(
    r"^\W*(?:(?:oh|um+|uh+|ugh|argh|so|well|sorry|ah|ok|okay|hmm+|and|but)\W+)*(?:i|we)\s+(?:don'?t|do\s+not|can'?t|cannot|didn'?t)\s+"
    r"(?:know|have|remember|find|bring|get)\s+(?:my|the|our)\s+(?:customer\s+|account\s+|client\s+)?(?:number|no|id|details|info)"
    r"(?:\s+(?:on\s+me|with\s+me|here|to\s+hand|handy|right\s+now|at\s+the\s+moment|now|though|sorry))*\W*$", re.IGNORECASE)


def lacks_identity(clause: str) -> bool:
    """A clause that only says the caller cannot give who they are right now."""
    return bool(_LACKS_IDENTITY.match(clause))


def introduces_self(clause: str) -> bool:
    """A clause that only says who is calling, by name and customer number."""
    return bool(_INTRODUCTION.match(clause))
