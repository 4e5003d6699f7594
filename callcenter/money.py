"""Money is integer cents everywhere; these convert at the edges (what callers say and hear).

`read_amount` is the one place caller text becomes an amount. It is strict on purpose: a
refund amount that is misread moves real money, so anything it cannot read with certainty
(a sign, an exponent, a multiplier word, another currency, digits from another script,
invisible characters inside a number, spoken number words, two different amounts) comes
back `unclear` and the specialist asks, instead of guessing. Spoken numbers are turned into
digits upstream (`callcenter/spoken.py`); words that reach this point were not understood.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Literal

MAX_CENTS = 10_000_000  # $100,000: no phone amount above this is even read

_CURRENCY_BEFORE = r"(?P<cur1>\$|usd|us\$|€|eur|£|gbp|¥|jpy)"
_CURRENCY_AFTER = r"(?P<cur2>dollars?|bucks|usd|cents?|euros?|eur|pounds?|gbp|yen)"
# A number token as written, deliberately greedy: it swallows exponents, stray separators and
# signs so that the strict check below sees the whole thing and rejects it.
_TOKEN = r"(?P<num>[0-9][0-9.,'_]*(?:[eE][+\-]?[0-9]+)?[0-9.,]*)"
_MENTION = re.compile(
    rf"(?P<pre>[-+−–]|\bminus\s+|\bnegative\s+)?\s*{_CURRENCY_BEFORE}\s*(?P<sign2>[-+−–])?\s*{_TOKEN}"
    rf"(?P<tail>\s*(?:k|m|bn|thousand|million|billion|grand|hundred)\b)?"
    rf"|(?P<pre_b>[-+−–]|\bminus\s+|\bnegative\s+)?(?P<num_b>\b[0-9][0-9.,'_]*(?:[eE][+\-]?[0-9]+)?[0-9.,]*)"
    rf"(?P<tail_b>\s*(?:k|m|bn|thousand|million|billion|grand|hundred))?\s*{_CURRENCY_AFTER}\b",
    re.I,
)
# A currency word with no digits next to it: "fifty dollars", "a million bucks".
_BARE_CURRENCY = re.compile(r"\b(dollars?|bucks|euros?|pounds?|cents?)\b|[$€£¥]", re.I)
_STRICT = re.compile(r"^(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d{1,2})?$")
_RATE = re.compile(r"^\s*(?:a|per|each|every|/)\s*(?:month|mo|year|yr|week|day|user|seat)\b|^\s*monthly\b", re.I)


@dataclass(frozen=True, slots=True)
class AmountReading:
    """What the caller's words say about an amount of money."""

    status: Literal["none", "ok", "unclear"]
    cents: int | None = None
    why: str = ""  # for unclear: what to ask about (never contains the caller's text)


def _suspicious_chars(text: str) -> bool:
    """Invisible format characters or digits from other scripts: never read around them."""
    for ch in text:
        cat = unicodedata.category(ch)
        if cat == "Cf" or (cat == "Nd" and not ("0" <= ch <= "9")):
            return True
        if cat == "Zs" and ch != " ":  # no-break and other odd spaces inside numbers
            return True
    return False


# Money's idioms name no amount: "we're paying top dollar", "every last dollar", "dollar for dollar".
_IDIOM = re.compile(r"\b(?:top|big|every(?:\s+last)?|last)\s+dollars?\b|\bdollar\s+for\s+dollar\b", re.I)


def read_amount(text: str) -> AmountReading:
    """The one amount of money the caller's words name, strictly; see the module docstring."""
    if _suspicious_chars(text):
        if _BARE_CURRENCY.search(text) or any(unicodedata.category(c) == "Nd" for c in text):
            return AmountReading("unclear", why="characters I could not read")
        return AmountReading("none")
    text = _IDIOM.sub(lambda m: " " * len(m.group(0)), text)
    found: list[int] = []
    covered: list[tuple[int, int]] = []
    for m in _MENTION.finditer(text):
        covered.append(m.span())
        num = (m.group("num") or m.group("num_b") or "").rstrip(".,")  # sentence punctuation
        cur = (m.group("cur1") or m.group("cur2") or "").lower()
        if m.group("pre") or m.group("pre_b") or m.group("sign2"):
            return AmountReading("unclear", why="a negative amount")
        if m.group("tail") or m.group("tail_b"):
            return AmountReading("unclear", why="the size of the amount")
        if cur not in ("$", "usd", "us$", "dollar", "dollars", "bucks", "cent", "cents"):
            return AmountReading("unclear", why="the currency")
        if not _STRICT.match(num):
            return AmountReading("unclear", why="the amount")
        if _RATE.match(text[m.end():]):
            return AmountReading("unclear", why="which amount you mean")  # a price, not a refund amount
        try:
            value = Decimal(num.replace(",", ""))
        except InvalidOperation:
            return AmountReading("unclear", why="the amount")
        cents = int(value) if cur.startswith("cent") and "." not in num else int(value * 100)
        if cents <= 0:
            return AmountReading("unclear", why="the amount")
        if cents > MAX_CENTS:
            return AmountReading("unclear", why="the size of the amount")
        found.append(cents)
    rest = "".join(ch if not any(a <= i < b for a, b in covered) else " " for i, ch in enumerate(text))
    if _BARE_CURRENCY.search(rest):
        return AmountReading("unclear", why="the amount")  # number words we did not understand
    if not found:
        return AmountReading("none")
    if len(set(found)) > 1:
        return AmountReading("unclear", why="which amount you mean")
    return AmountReading("ok", cents=found[0])


def to_cents(amount: float | Decimal | str | None) -> int | None:
    """Dollars to cents; None for anything that is not a finite number."""
    if amount is None:
        return None
    try:
        value = Decimal(str(amount))
    except (InvalidOperation, ValueError):
        return None
    if not value.is_finite():
        return None
    return int((value * 100).to_integral_value())


def dollars(cents: int) -> str:
    return f"${cents / 100:,.2f}"
