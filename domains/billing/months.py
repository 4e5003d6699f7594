"""Which month's bill the caller means: "the february bill", "last month's", "two months back".

Read into the `month` slot as a word ("february", "1 ago") and turned into an invoice period
("2026-02") only when the invoices are read, against the clock: a month named on its own is
the latest one that has begun ("march" in November is this year's March).
"""

from __future__ import annotations

import re
from datetime import datetime

_NAMES = ("january february march april may june july august september october november december").split()
_SHORT = {n[:3]: n for n in _NAMES} | {"sept": "september"}
_COUNTS = {"one": 1, "a": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6}

# A month by its name ("what did i owe in march"), whatever the words around it.
NAMED_MONTH = re.compile(r"\b(?:" + "|".join(_NAMES) + r")\b", re.I)

# "may" is a month only with a bill word near it ("the may invoice", "for may"): "may i ask" is not.
MONTH = re.compile(
    r"\b(?:(" + "|".join(n for n in _NAMES if n != "may") + r"|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\b"
    r"|(?:(?<=\bfor\s)|(?<=\bfrom\s)|(?<=\bin\s)|(?<=\bof\s)|(?<=\bthe\s))(may)\b"
    r"|(last|this|previous|past)\s+month"
    r"|(one|a|two|three|four|five|six|[1-6])\s+months?\s+(?:ago|back|before)"
    r"|(this|current)\s+(?:bill|invoice)"
    r"|month\s+(before)\s+last)",  # two back
    re.I,
)


def month_value(m: re.Match[str]) -> str:
    """The words as the slot keeps them: a month's full name, or "N ago" (0 for this month)."""
    name, may, which, count, current, before_last = m.groups()
    if before_last:
        return "2 ago"
    if name or may:
        word = (name or may).lower()
        return word if word in _NAMES else _SHORT.get(word, _SHORT.get(word[:3], word))
    if which:
        return "0 ago" if which.lower() == "this" else "1 ago"
    if count:
        return f"{_COUNTS[count.lower()]} ago"
    return "0 ago" if current else ""


def period(value: str, now: datetime) -> tuple[str, str] | None:
    """("2026-02", "February 2026") for the slot's value, or None if it names no month."""
    value = value.strip().lower()
    if value.endswith(" ago") and value.split()[0].isdigit():
        back = int(value.split()[0])
        year, month = now.year, now.month - back
    elif value in _NAMES:
        month, year = _NAMES.index(value) + 1, now.year
        if month > now.month:
            year -= 1  # "march" said in January: last year's
    else:
        return None
    while month < 1:
        month, year = month + 12, year - 1
    return f"{year:04d}-{month:02d}", f"{_NAMES[month - 1].title()} {year}"


def spoken(period_id: str) -> str:
    """"2026-10" -> "October 2026"."""
    year, month = period_id.split("-")
    return f"{_NAMES[int(month) - 1].title()} {year}"


# What a month's bill is asked with; money asked back ("refund", "charged twice") is not it.
# ... or what was paid that month, asked as such: "what did we pay two months back"
_BILL = re.compile(r"\b(?:bill|bills|billed|invoice|invoices|statement|receipt|came to|come to|paid|payment"
                   r"|(?:did|do)\s+(?:we|i)\s+pay"
                   # "what you took off me for the month before last": the amount that month
                   r"|(?:what|how\s+much)\s+(?:\w+\s+){0,2}(?:charged?|took|taken?))\b", re.I)
_MONEY_BACK = re.compile(r"\b(?:refund\w*|money back|twice|double\w*|duplicate\w*|charged|overcharged|wrong)\b", re.I)
# "i want to see if they charged anything": a charge wondered about, no money asked back
_WONDERED = re.compile(r"\b(?:if|whether|what|how\s+much)\s+(?:\w+\s+){0,2}$", re.I)


def _money_back(text: str) -> bool:
    return any(not (m.group(0).lower() == "charged" and _WONDERED.search(text[: m.start()])) for m in _MONEY_BACK.finditer(text))


# "what's the most recent bill we got from you": the newest invoice, already sent (what is owed
# or comes next, "when's my last bill due", "my last bill is overdue", is the balance's)
_LATEST = re.compile(r"\b(?:most\s+recent|recent|latest|last|previous|past)\s+(?:few\s+|couple\s+(?:of\s+)?)?(?:bill|invoice|statement)s?\b(?!.*\b(?:due|overdue|owe|owed|pay\s+by|late|outstanding|unpaid)\b)", re.I)


def asks_a_months_bill(text: str) -> bool:
    """"what my bill came to, the one from two months back": that month's invoice. This
    month's bill is the one coming ("what's this month's bill"): the balance says it."""
    if _LATEST.search(text) and not _money_back(text):
        return True
    m = MONTH.search(text)
    return bool(m and month_value(m) != "0 ago" and _BILL.search(text) and not _money_back(text))


# "and the month before that?", "what about the one before it", "the previous one": the month
# before the one just answered, said relative to it.
# "and the month before?", "and the one before?" say it without the "that" ("the month before
# last" is two back: not this).
_BEFORE_THAT = re.compile(
    r"\b(?:the\s+)?(?:month|one|bill|invoice)\s+(?:before|prior(?:\s+to)?|preceding)(?:\s+(?:that|it|this)\b|(?!\s+(?:last|the|my|our)\b)\W*$)"
    r"|^\W*(?:(?:and|ok|okay|so|what\s+about)\W+)*before(?:\s+that\b|\W*$)"
    r"|\bthe\s+previous\s+(?:one|month|bill|invoice)\b", re.I)


def month_before(text: str, periods: list[str]) -> str | None:
    """The month before the one just answered ("2026-10" -> "september"), or before the newest
    of a list just read, when the words ask for it relative to that one; None otherwise."""
    if not periods or not _BEFORE_THAT.search(text):
        return None
    month = int(periods[0].split("-")[1])
    return _NAMES[(month - 2) % 12]



# "the one from two months back", "that one for august": right after a list of invoices, a
# month said with a pointer at the list is one of the list, not a new need (however much "two
# months back" sounds like money asked back).
_ONE_FROM = re.compile(r"\b(?:the|that)\s+(?:one|bill|invoice)\s+(?:from|for|of|in)\b", re.I)


def one_from_month(text: str) -> str | None:
    """The month a pointer at the list just read names ("the one from two months back"), as
    the slot keeps it, or None."""
    m = MONTH.search(text)
    if m is None or not _ONE_FROM.search(text) or _money_back(text):
        return None
    return month_value(m) or None


# "the second one, how much was that", right after a list of invoices: the one at that place
# in the list as it was read out (newest first).
_NTH = re.compile(r"\b(?:the\s+)?(first|second|third|1st|2nd|3rd)\s+(?:one|invoice|bill|month)\b", re.I)
_PLACE = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2}


def nth_listed(text: str, periods: list[str]) -> str | None:
    """The month of the invoice the words point at by its place in the list just read, or None."""
    m = _NTH.search(text)
    if m is None or len(periods) < 2:
        return None
    place = _PLACE[m.group(1).lower()]
    return _NAMES[int(periods[place].split("-")[1]) - 1] if place < len(periods) else None
