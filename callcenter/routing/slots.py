"""Slot extraction: the ids, amounts, dates and contact details a caller says aloud.

Pure regular expressions: fast, deterministic, and tolerant of spoken forms
("customer one zero zero one" is not handled; "C1001", "customer 1001" and "c-1001" are).

This module reads only what every domain shares: the customer id, contact details, amounts,
dates, yes/no and the ids of durable requests. A domain's own ids and words (a charge id, a
plan name) are `SlotPattern`s in its folder's spec; the composition root builds one
`SlotReader` per line from its domains (`meta/session.py`) and hands it down, so this module
names no department and two lines in one process read only their own domains' slots.
`extract_slots(text)` without a reader reads the shared slots alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import InitVar, dataclass, field, fields
from datetime import date
from decimal import Decimal

from callcenter.money import read_amount
from callcenter.redact import strip_cards


def _first_group(m: re.Match[str]) -> str:
    return next(g for g in m.groups() if g is not None)


@dataclass(frozen=True, slots=True)
class SlotPattern:
    """A slot a domain reads from the caller's words.

    `name` is the tool parameter it fills (a specialist's `charge_id`), `pattern` finds it
    (case-insensitive patterns read spoken text best), and `value` writes a match down in
    the form the domain's records use ("ch 1001-d" -> "CH-1001-D"); by default the first
    group that matched; "" when what matched is no value after all. What a pattern matches is
    never read as a ZIP code.
    """

    name: str
    pattern: re.Pattern[str]
    value: Callable[[re.Match[str]], str] = _first_group
    # A value said as the caller's current state ("from pro") is not the one asked for; off
    # for slots where "from" only places the value ("the bill from march").
    skips_current: bool = True


class SlotPatternError(ValueError):
    """Two domains declared one slot name with different patterns."""


_CUSTOMER = re.compile(r"\b(?:c[-\s]?|customer\s+(?:id\s+|number\s+|no\.?\s+|#\s*)?(?:c[-\s]?)?)(\d{4,6})\b", re.I)
_NAME = re.compile(r"[a-z][a-z0-9_]{0,40}")
_SHARED = frozenset({"customer_id", "request_id", "email", "phone", "amount", "zip_code", "birth_date", "confirm", "extras"})


# Request ids are "<kind>-<subject>"; the kinds are the line's durable actions ("refund"),
# given to its SlotReader by the composition root, so this module knows no domain.
SHARED_KINDS = frozenset({"escalation"})


def _request_pattern(kinds: Iterable[str]) -> re.Pattern[str]:
    names = "|".join(re.escape(k) for k in sorted(kinds, key=len, reverse=True))
    return re.compile(rf"\b((?:{names})-[a-z0-9-]{{3,60}})\b", re.I)


@dataclass(frozen=True)
class SlotReader:
    """The slots one line reads: the shared ones, its domains' own patterns (by name, in the
    order declared) and the request ids of its durable actions' kinds.

    A pattern declared twice (two lines built from the same domains) counts once; another
    pattern under a name already declared, a shared slot's name or a malformed name is an error.
    """

    patterns: tuple[SlotPattern, ...] = ()
    request_kinds: frozenset[str] = SHARED_KINDS
    declared: InitVar[Iterable[SlotPattern]] = ()
    kinds: InitVar[Iterable[str]] = ()

    def __post_init__(self, declared: Iterable[SlotPattern], kinds: Iterable[str]) -> None:
        by_name: dict[str, SlotPattern] = {}
        for p in (*self.patterns, *declared):
            if not _NAME.fullmatch(p.name) or p.name in _SHARED:
                raise SlotPatternError(f"slot name {p.name!r} is malformed or names a shared slot")
            known = by_name.get(p.name)
            if known is not None and known != p:
                raise SlotPatternError(f"slot {p.name!r} is declared twice with different patterns")
            by_name[p.name] = p
        object.__setattr__(self, "patterns", tuple(by_name.values()))
        object.__setattr__(self, "request_kinds", frozenset(self.request_kinds | {k for k in kinds if _NAME.fullmatch(k)}))
        object.__setattr__(self, "_request", _request_pattern(self.request_kinds))

    @classmethod
    def of(cls, patterns: Iterable[SlotPattern], kinds: Iterable[str] = ()) -> SlotReader:
        """A line's reader: its domains' slot patterns and its durable actions' kinds."""
        return cls(declared=patterns, kinds=kinds)

    def read(self, text: str) -> Slots:
        """Every slot this line knows in one utterance; absent slots stay None."""
        return _read(text, self.patterns, self._request)  # type: ignore[attr-defined]


_EMAIL = re.compile(r"\b([a-z0-9._%+-]{1,64}@[a-z0-9.-]{1,200}\.[a-z]{2,24})\b", re.I)
_PHONE = re.compile(r"(?<![\w-])(\+?\d[\d\s().-]{8,16}\d)(?![\w-])")
_ZIP = re.compile(r"\b(?:zip|postal|post)\s*(?:code)?\s*(?:is\s*)?(\d{5})\b|(?<![\d-])(\d{5})(?![\d-])", re.I)
# "nine four one oh eight, no sorry, oh seven": a correction of the ZIP's last digits, said right after it.
# The digits may stay words: two spoken digits are too few for the spoken-number reading.
_DIGIT_WORD = {"oh": "0", "o": "0", "zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5",
               "six": "6", "seven": "7", "eight": "8", "nine": "9"}
_ZIP_TAIL = re.compile(
    r"^\W*(?:no|sorry|wait|i\s+mean|actually|oops)(?:\W+(?:no|sorry|wait|i\s+mean|actually|it'?s|its))*\W+"
    rf"(\d{{1,4}}|(?:(?:{'|'.join(_DIGIT_WORD)})(?:[\s-]+|(?=\W*$))){{1,4}})(?![\w-])\W*$", re.I)


def _zip_corrected(zip_code: str, after: str) -> str:
    """The ZIP as the caller ended it: a few digits said as a correction replace as many at its end."""
    m = _ZIP_TAIL.match(after)
    if m is None:
        return zip_code
    tail = "".join(_DIGIT_WORD.get(w, w) for w in re.findall(r"\w+", m.group(1).lower()))
    return zip_code[: 5 - len(tail)] + tail if len(tail) < 5 else zip_code


_ISO_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_US_DATE = re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b")
_MONTHS = {m: i for i, m in enumerate(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september",
     "october", "november", "december"], start=1)}
_WORD_DATE = re.compile(
    r"\b(" + "|".join(_MONTHS) + r")\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4}|\d{2})\b"
    r"|\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(" + "|".join(_MONTHS) + r"),?\s+(\d{4}|\d{2})\b",
    re.I,
)
# A year said in two digits ("december tenth eighty five") is a birth year when the words say
# it is one, or when it can only be one (a 19-hundreds year: "85", not "25", which may be a bill's).
_BIRTH_WORDS = re.compile(r"\b(?:born|birth|birthday|dob|d\.o\.b)\b", re.I)
_CENTURY_BEFORE = 30


def _year(said: str, text: str) -> int:
    if len(said) == 4:
        return int(said)
    yy = int(said)
    if yy >= _CENTURY_BEFORE:
        return 1900 + yy
    if _BIRTH_WORDS.search(text):
        return 2000 + yy
    raise ValueError("a two-digit year that may be no birth year")
_YES = re.compile(r"^\s*(yes|yeah|yep|sure|correct|confirm(ed)?|please do|go ahead|ok(ay)?|do it)\b", re.I)
_NO = re.compile(r"^\s*(no|nope|don'?t|do not|cancel|stop|never ?mind)\b", re.I)


MAX_SLOT_TEXT = 20_000


@dataclass(slots=True)
class Slots:
    customer_id: str | None = None
    request_id: str | None = None
    email: str | None = None
    phone: str | None = None
    amount: Decimal | None = None
    zip_code: str | None = None
    birth_date: str | None = None
    confirm: bool | None = None
    extras: dict[str, str] = field(default_factory=dict)
    domain: dict[str, str] = field(default_factory=dict)  # the domains' own slots, by name

    def get(self, name: str) -> object:
        """A shared slot or a domain's, by name; None when absent."""
        return self.domain.get(name) if name in self.domain else getattr(self, name, None)

    def as_dict(self) -> dict[str, object]:
        out: dict[str, object] = {}
        for f in fields(self):
            v = getattr(self, f.name)
            if v is not None and f.name not in ("extras", "domain"):
                out[f.name] = v
        out.update(self.domain)
        return out


def _amount(text: str, s: Slots) -> None:
    # Strict: an amount that cannot be read with certainty is flagged, never guessed.
    reading = read_amount(text)
    if reading.status == "ok" and reading.cents is not None:
        s.amount = Decimal(reading.cents) / 100
    elif reading.status == "unclear":
        s.extras["amount_unclear"] = reading.why


def _date(text: str) -> str | None:
    try:
        if m := _ISO_DATE.search(text):
            return date(int(m[1]), int(m[2]), int(m[3])).isoformat()
        if m := _US_DATE.search(text):
            return date(int(m[3]), int(m[1]), int(m[2])).isoformat()
        if m := _WORD_DATE.search(text):
            if m[1]:
                return date(_year(m[3], text), _MONTHS[m[1].lower()], int(m[2])).isoformat()
            return date(_year(m[6], text), _MONTHS[m[5].lower()], int(m[4])).isoformat()
    except ValueError:
        return None
    return None


def _phone(text: str) -> str | None:
    """The last number said: "415 555 0102, no wait, 415 555 0132" corrects itself, and "from
    415 555 0102 to 415 555 0132" ends on the one wanted."""
    found = None
    for m in _PHONE.finditer(text):
        digits = re.sub(r"\D", "", m.group(1))
        if 10 <= len(digits) <= 15:
            found = "+" + (digits if len(digits) > 10 else "1" + digits)
    return found


# A value the caller says they have now ("i'm on enterprise", "switch me from pro"), or one they
# take back ("enterprise, not pro"), is not the value they ask for: the wanted value is another
# mention, or missing (then the specialist asks for it).
_AS_CURRENT = re.compile(
    r"(?:\b(?:i'?m|im|i\s+am|we'?re|we\s+are|currently|already|presently|still)"
    # "we're barely using pro": a word of degree between is still the plan they have
    r"(?:\s+(?:barely|hardly|only|just|really|mostly|actually|not\s+really|not\s+even|honestly))?"
    r"(?:\s+(?:on|using|with|paying\s+for|subscribed\s+to))"
    # ("can i have a cheaper plan", "could we get ...": asked for, not had)
    r"|\bfrom|\b(?:my|our|the)\s+(?:current|existing|old)|(?<!\bcan\s)(?<!\bcould\s)(?<!\bmay\s)(?<!\bmight\s)\b(?:i|we)\s+(?:have|got)"
    r"|\binstead\s+of|\brather\s+than|\bnot|\baway\s+from|\bleav(?:e|ing)|\b(?:get|take|move)\s+(?:me\s+|us\s+)?(?:rid\s+of|off(?:\s+of)?)|\bout\s+of)"
    r"(?:\s+(?:the|my|our|a|an))?\s*$",
    re.I,
)


def said_as_current(text: str, start: int) -> bool:
    """The value at ``start`` is what the caller has now ("i'm on enterprise"), not what they want."""
    return bool(_AS_CURRENT.search(text[max(0, start - 40) : start]))


def _wanted(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    for m in pattern.finditer(text):
        if not said_as_current(text, m.start()):
            return m
    return None


def extract_slots(text: str, reader: SlotReader | None = None) -> Slots:
    """The slots of one utterance: the line's (`reader`), or the shared ones alone."""
    return (reader or SHARED).read(text)


# Between two values of one slot, the words that make the later one a correction of the earlier:
# "my invoice from three months ago, no wait, two months ago", "charge a, sorry, i mean charge d".
_CORRECTS = re.compile(r"\b(?:no\s+wait|wait\s+no|no\s+sorry|sorry|i\s+mean|actually|or\s+rather|rather|make\s+(?:that|it)|no)\b", re.I)


def _corrected(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    """The slot's first value, or the last one said as a correction of the one before it."""
    found = None
    for m in pattern.finditer(text):
        if found is None or _CORRECTS.search(text, found.end(), m.start()):
            found = m
    return found


def _read(text: str, patterns: tuple[SlotPattern, ...], request: re.Pattern[str]) -> Slots:
    s = Slots()
    text = strip_cards(text[:MAX_SLOT_TEXT])  # bounded work; a card number is never a phone or ZIP
    # the last number said: "c one oh oh three, no sorry, mine is c one oh oh four" corrects itself
    if said := _CUSTOMER.findall(text):
        s.customer_id = f"C{said[-1]}"
    scrubbed = _CUSTOMER.sub(" ", text)
    for p in patterns:
        if (m := (_wanted(p.pattern, text) if p.skips_current else _corrected(p.pattern, text))) and (value := p.value(m)):
            s.domain[p.name] = value  # "": what matched is no value of the slot
        scrubbed = p.pattern.sub(" ", scrubbed)  # a domain's id is never a ZIP code
    if m := request.search(text):
        s.request_id = m.group(1).lower()
    if said := _EMAIL.findall(text):  # the last one: "ada@..., no wait, ada.l@..." corrects itself
        s.email = said[-1].lower()
    s.phone = _phone(_EMAIL.sub(" ", text))
    _amount(text, s)
    s.birth_date = _date(text)
    if m := _ZIP.search(scrubbed):
        s.zip_code = _zip_corrected(m.group(1) or m.group(2), scrubbed[m.end():])
    if _YES.search(text):
        s.confirm = True
    elif _NO.search(text):
        s.confirm = False
    return s


SHARED = SlotReader()  # what every line reads, whatever its domains
