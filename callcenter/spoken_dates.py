"""Birth dates as callers say them -> ISO dates ("1985-12-10"), before any number is read.

A date of birth is the second half of most identity statements, and callers say it every way
but the written one: "december tenth nineteen eighty five", "nineteen eighty five december
tenth", "nine december seventy nine", "feb twenty eighth eighty eight", "born august twenty six
ninety", "dob twelve nine seventy nine". Left to the number reader, the day and a two-digit year
run together ("august 2690") or the whole date becomes one five-digit number a ZIP code reader
takes ("12979"). Read here first, each becomes the ISO date the identity check compares.

A month, a day and a year with no word of birth near them may be an invoice's date ("march
twenty twenty six"); it is read as a birth date only when its year is one no invoice has.
"""

from __future__ import annotations

import re
from datetime import date

_MONTHS = {m: i for i, m in enumerate(
    "january february march april may june july august september october november december".split(), start=1)}
_SHORT = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9,
          "oct": 10, "nov": 11, "dec": 12}
_UNIT = {w: i for i, w in enumerate("one two three four five six seven eight nine".split(), start=1)}
_TEEN = {w: i for i, w in enumerate(
    "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split(), start=10)}
_TENS = {w: i * 10 for i, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), start=2)}
_ORD_UNIT = {w: i for i, w in enumerate(
    "first second third fourth fifth sixth seventh eighth ninth".split(), start=1)}
_ORD_ALONE = {**_ORD_UNIT, **{w: i for i, w in enumerate(
    "tenth eleventh twelfth thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth"
    .split(), start=10)}, "twentieth": 20, "thirtieth": 30}


def _alt(words: object) -> str:
    return "|".join(sorted(map(str, words), key=len, reverse=True))  # longest first: "sept" before "sep"


_MONTH = rf"(?:{_alt(_MONTHS)}|{_alt(_SHORT)})\.?"
_DAY = (rf"(?:(?:twenty|thirty)[\s-]+(?:{_alt(_ORD_UNIT)}|{_alt(_UNIT)})|{_alt(_ORD_ALONE)}|{_alt(_TEEN)}"
        rf"|{_alt(_UNIT)}|twenty|thirty|\d{{1,2}}(?:st|nd|rd|th)?)")
# "nineteen eighty five", "nineteen oh five", "two thousand and three", "1985", "eighty five", "'85"
_FULL_YEAR = (rf"(?:(?:nineteen|twenty)[\s-]+(?:oh[\s-]+(?:{_alt(_UNIT)})|(?:{_alt(_TENS)})(?:[\s-]+(?:{_alt(_UNIT)}))?"
              rf"|{_alt(_TEEN)})|two\s+thousand(?:\s+(?:and\s+)?(?:{_alt(_TEEN)}|{_alt(_UNIT)}))?|(?:19|20)\d\d)")
_YEAR = rf"(?:{_FULL_YEAR}|(?:{_alt(_TENS)})(?:[\s-]+(?:{_alt(_UNIT)}))?|oh[\s-]+(?:{_alt(_UNIT)})|'?\d\d)"
_MONTH_NUMBER = rf"(?:{_alt(k for k, v in {**_UNIT, **_TEEN}.items() if v <= 12)}|oh[\s-]+(?:{_alt(_UNIT)})|1[0-2]|0?[1-9])"

_SEP = r"(?:\s*,\s*|\s+)"
_MONTH_FIRST = re.compile(rf"\b(?P<m>{_MONTH})\s+(?:the\s+)?(?P<d>{_DAY}){_SEP}(?:of\s+)?(?P<y>{_YEAR})\b", re.I)
_DAY_FIRST = re.compile(rf"\b(?:the\s+)?(?P<d>{_DAY})\s+(?:of\s+)?(?P<m>{_MONTH}){_SEP}(?P<y>{_YEAR})\b", re.I)
_YEAR_FIRST = re.compile(rf"\b(?P<y>{_YEAR}){_SEP}(?P<m>{_MONTH})\s+(?:the\s+)?(?P<d>{_DAY})\b", re.I)
# "dob twelve nine seventy nine", "born 12 10 85": numbers only, month first as in the US, and
# only after a word of birth (without it three numbers are anything)
_CUE = r"\b(?:born|dob|d\s*o\s*b|birthday|birth\s*date|date\s+of\s+birth)(?:'s)?"
# between the numbers: a pause, a comma, a slash or dash written or said ("twelve dash ten")
_NUM_SEP = r"(?:\s*(?:[/.,-]|\bdash\b|\bslash\b)\s*|\s+)"
_AFTER_CUE = rf"(?P<cue>{_CUE}(?:\s+(?:is|was|on|of))*[\s:,]*)"
_NUMBERS_AFTER_CUE = re.compile(
    rf"{_AFTER_CUE}(?P<m>{_MONTH_NUMBER}){_NUM_SEP}(?P<d>{_DAY}){_NUM_SEP}(?P<y>{_YEAR})\b", re.I)
# "date of birth nineteen eighty five dash twelve dash ten": the written ISO order, said
_ISO_AFTER_CUE = re.compile(
    rf"{_AFTER_CUE}(?P<y>{_FULL_YEAR})"
    rf"{_NUM_SEP}(?P<m>{_MONTH_NUMBER}){_NUM_SEP}(?P<d>{_DAY})\b", re.I)
_HAS_CUE = re.compile(_CUE, re.I)
# No invoice is this old: a date before it is a birth date even with no word of birth near it.
_BEFORE_ANY_INVOICE = 2010


def _number(words: str) -> int | None:
    """A day or month said in words or digits ("twenty eighth", "9th", "twelve") as a number."""
    parts = re.findall(r"[a-z]+|\d+", words.lower())
    if len(parts) == 1 and parts[0].isdigit():
        return int(parts[0])
    total = 0
    for p in parts:
        if p in ("st", "nd", "rd", "th"):
            continue
        value = _TENS.get(p) or _UNIT.get(p) or _TEEN.get(p) or _ORD_ALONE.get(p)
        if value is None:
            return None
        total += value
    return total or None


def _year(words: str, today: date) -> int | None:
    parts = re.findall(r"[a-z]+|\d+", words.lower())
    if len(parts) == 1 and parts[0].isdigit():
        value = int(parts[0])
        return value if value >= 1000 else _century(value, today)
    if parts[:2] == ["two", "thousand"]:
        rest = [p for p in parts[2:] if p != "and"]
        return 2000 + (_number(" ".join(rest)) or 0 if rest else 0)
    if parts[0] in ("nineteen", "twenty") and len(parts) > 1 and (parts[1] == "oh" or parts[1] in _TENS or parts[1] in _TEEN):
        # "nineteen eighty five", "twenty oh five", "twenty ten"; "twenty six" is '26
        rest = [p for p in parts[1:] if p != "oh"]
        return (19 if parts[0] == "nineteen" else 20) * 100 + (_number(" ".join(rest)) or 0)
    rest = [p for p in parts if p != "oh"]
    value = _number(" ".join(rest))
    return None if value is None else _century(value, today)


def _century(two_digits: int, today: date) -> int:
    """'85 -> 1985, '05 -> 2005: a birth year is never in the future."""
    return 2000 + two_digits if 2000 + two_digits <= today.year else 1900 + two_digits


def _month(words: str) -> int | None:
    word = words.lower().rstrip(".")
    return _MONTHS.get(word) or _SHORT.get(word) or _number(re.sub(r"^oh[\s-]+", "", word))  # "oh eight": 8


def _iso(m: re.Match[str], today: date, *, cued: bool) -> str | None:
    month, day, year = _month(m["m"]), _number(m["d"]), _year(m["y"], today)
    if month is None or day is None or year is None:
        return None
    try:
        when = date(year, month, day)
    except ValueError:
        return None
    if when >= today or not (cued or year < _BEFORE_ANY_INVOICE):
        return None
    return when.isoformat()


def birth_dates(text: str, today: date | None = None) -> str:
    """The text with each spoken birth date written as an ISO date; the rest untouched."""
    today = today or date.today()
    cued = bool(_HAS_CUE.search(text))

    def rewrite(m: re.Match[str]) -> str:
        return _iso(m, today, cued=cued) or m.group(0)

    def after_cue(m: re.Match[str]) -> str:
        iso = _iso(m, today, cued=True)
        return f"{m['cue']}{iso}" if iso else m.group(0)

    def month_first(m: re.Match[str]) -> str:
        # "march nineteen eighty": the century said, no day ("the fifteenth of march nineteen
        # eighty" is read day first, above)
        if m["d"].lower() in ("nineteen", "twenty") and not re.search(r"\d|nineteen|twenty|thousand", m["y"], re.I):
            return m.group(0)
        return rewrite(m)

    text = _ISO_AFTER_CUE.sub(after_cue, text)
    text = _NUMBERS_AFTER_CUE.sub(after_cue, text)
    text = _DAY_FIRST.sub(rewrite, text)
    text = _MONTH_FIRST.sub(month_first, text)
    return _YEAR_FIRST.sub(rewrite, text)
