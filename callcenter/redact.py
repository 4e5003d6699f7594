"""Caller data minimisation: mask secrets in caller text before it is kept anywhere.

Callers read out card numbers, security codes and passwords whatever they are asked. What
they say is copied into ticket summaries, durable-request payloads, the Temporal memo and
history, operator listings, refund reasons and logs; `mask` runs before each of those, so
none of them ever holds a full card number. It is a mechanism, not a phrase list: card
numbers are digit runs of card length that pass the Luhn check, whatever separators the
recogniser put between the digits.
"""

from __future__ import annotations

import json
import re
import unicodedata
from datetime import UTC, datetime
from typing import Any

# Any run of digits with up to six separator characters between them: spaces, commas,
# slashes, dashes, dots, underscores, anything but a letter. How a card number is grouped
# ("4111, 1111, ...", "4111/1111/...", "4111 - 1111 - ...") is the caller's or the
# recogniser's choice, so what is masked is decided by the digits alone.
_SEPARATOR = r"(?:[^\w$]|_){1,6}"
_DIGIT_RUN = re.compile(rf"(?<![^\W_])[0-9](?:(?:{_SEPARATOR})?[0-9])+(?![^\W_])")
_SSN = re.compile(r"(?<!\d)\d{3}-\d{2}-\d{4}(?!\d)")
_SECRET_WORD = re.compile(
    r"\b(cvv|cvc|cvv2|security code|pin|password|passcode|pass code|one[- ]time code|verification code)"
    r"(\s*(?:is|was|:|=)\s*|\s+(?=\d))(\S+)",
    re.I,
)
_API_KEY = re.compile(r"\b(sk|pk|rk)_(live|test)_[A-Za-z0-9]{6,}\b")
_EMAIL = re.compile(r"\b([a-z0-9._%+-])[a-z0-9._%+-]{0,63}@([a-z0-9.-]{1,200}\.[a-z]{2,24})\b", re.I)
# A ZIP code: five digits standing alone (or ZIP+4), not money, not part of an id; or
# whatever digits follow the word "zip" / "postal code", however they are spaced.
_ZIP_WORD = re.compile(r"\b(zip|postal|post)(\s*code)?(\s*(?:is|was|:|=|of))?\s*[0-9](?:[\s,.\-]{0,2}[0-9]){2,8}\b", re.I)
_ZIP = re.compile(r"(?<![\w$\-.,/:])(?<!port )(?<!pid )[0-9]{5}(?:-[0-9]{4})?(?![\w\-]|[.,/:][0-9]|\s*(?:dollars?|bucks|usd|cents?)\b)", re.I)
_MONTHS = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?"
           r"|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)")
_DAY = r"(?:[0-3]?[0-9])(?:st|nd|rd|th)?"
_NUMERIC_DATE = re.compile(
    r"(?<![\w.\-/])(?:(?P<y1>(?:19|20)[0-9]{2})[-/.][01]?[0-9][-/.][0-3]?[0-9]"
    r"|[0-3]?[0-9][-/.][0-3]?[0-9][-/.](?P<y2>(?:19|20)?[0-9]{2}))(?![\w\-/]|\.[0-9])"
)
_WORD_DATE = re.compile(
    rf"\b(?:{_MONTHS}\.?\s+{_DAY}(?:,?\s+(?:of\s+)?(?P<y1>(?:19|20)[0-9]{{2}}))?"
    rf"|{_DAY}\s+(?:of\s+)?{_MONTHS}\.?(?:,?\s+(?P<y2>(?:19|20)[0-9]{{2}}))?)\b",
    re.I,
)
_BIRTH = re.compile(r"\b(born|birth|birthday|dob|d\.o\.b)\b", re.I)
# A full date this many years old or more is a date of birth as far as masking goes: charge,
# invoice and incident dates a caller mentions are recent.
BIRTH_YEARS = 10


def luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = ord(ch) - 48
        if i % 2:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def _card_in(digits: str) -> str | None:
    """The last four digits of the card number `digits` is (13-19 of them passing Luhn) or,
    in a longer run, holds; None if there is none."""
    if 13 <= len(digits) <= 19:
        return digits[-4:] if luhn_ok(digits) else None
    # Longer: a card said next to other digits (a ZIP, a date). The usual lengths first.
    for n in (16, 15, 14, 13, 17, 18, 19):
        for start in range(len(digits) - n + 1):
            if luhn_ok(digits[start:start + n]):
                return digits[start + n - 4:start + n]
    return None


def _decimal(run: str) -> bool:
    """A number with a decimal point and nothing else between its digits (a float, a timestamp)."""
    return re.fullmatch(r"[0-9]+\.[0-9]+", run) is not None


def _mask_run(match: re.Match[str]) -> str:
    text = match.group(0)
    digits = re.sub(r"[^0-9]", "", text)
    if len(digits) < 12 or _decimal(text):
        return text
    ending = _card_in(digits)
    # A long number that is no card is not needed by anyone downstream either (account numbers).
    return f"[card ending {ending}]" if ending else "[number]"


_ASCII_DIGITS = {i: str(unicodedata.decimal(chr(i))) for i in range(0x10000)
                 if unicodedata.decimal(chr(i), None) is not None and not chr(i).isascii()}


def _visible(text: str) -> str:
    # Invisible characters would let a card number slip between the digit patterns; digits of
    # other scripts are digits all the same.
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Cf")
    return unicodedata.normalize("NFKC", text).translate(_ASCII_DIGITS)


def _old_year(year: str | None) -> bool:
    if not year:
        return False
    y = int(year)
    now = datetime.now(UTC).year
    if y < 100:  # two digits: the most recent such year not in the future
        y += 2000 if 2000 + y <= now else 1900
    return y <= now - BIRTH_YEARS


def _dates(text: str) -> str:
    """Dates of birth: any date said with a birth word before it, and any full date old enough."""
    near_birth = [m.end() for m in _BIRTH.finditer(text)]

    def repl(m: re.Match[str]) -> str:
        year = m.group("y1") or m.group("y2")
        told = any(0 <= m.start() - end <= 40 for end in near_birth)
        return "[date]" if told or _old_year(year) else m.group(0)

    return _WORD_DATE.sub(repl, _NUMERIC_DATE.sub(repl, text))


def mask(text: str, *, keep_email: bool = False) -> str:
    """`text` with card numbers, long digit runs, SSNs, codes, passwords, API keys, ZIP codes
    and dates of birth masked, whatever their format.

    Emails are shortened to their first letter and domain unless `keep_email` (where the
    address itself is the point, as in a confirmed contact change).
    """
    if not text:
        return text
    out = _visible(text)
    out = _DIGIT_RUN.sub(_mask_run, out)
    out = _SSN.sub("[number]", out)
    out = _API_KEY.sub(lambda m: f"{m.group(1)}_{m.group(2)}_[key]", out)
    out = _SECRET_WORD.sub(lambda m: f"{m.group(1)}{m.group(2)}[secret]", out)
    out = _dates(out)
    out = _ZIP_WORD.sub(lambda m: f"{m.group(1)}{m.group(2) or ''}{m.group(3) or ''} [zip]", out)
    out = _ZIP.sub("[zip]", out)
    if not keep_email:
        out = _EMAIL.sub(lambda m: f"{m.group(1)}***@{m.group(2)}", out)
    return out


def strip_cards(text: str) -> str:
    """`text` with card numbers replaced, so no slot reader mistakes them for a phone or ZIP."""
    def repl(m: re.Match[str]) -> str:
        digits = re.sub(r"\D", "", m.group(0))
        if 13 <= len(digits) <= 19 and luhn_ok(digits) and _looks_like_card(digits):
            return "[card]"
        return m.group(0)

    return _CARD_RUN.sub(repl, text)  # not normalised: the amount reader must still see odd characters


_CARD_RUN = re.compile(r"(?<![\w+])\d(?:[ \-.]?\d){12,18}(?![\w])")


def has_card_number(text: str) -> bool:
    """True if `text` holds a full card number (13-19 Luhn-valid digits), however separated."""
    text = _visible(text)
    # The separators people and recognisers put between a card's digits (not quotes or
    # brackets: a database dump's rows would run into each other).
    for m in re.finditer(r"(?<![0-9.])[0-9](?:[\s,./\-_]{0,6}[0-9]){12,}(?![0-9])", text):
        if _decimal(m.group(0)):
            continue
        digits = re.sub(r"\D", "", m.group(0))
        for n in range(13, min(19, len(digits)) + 1):
            for start in range(len(digits) - n + 1):
                if luhn_ok(digits[start:start + n]) and _looks_like_card(digits[start:start + n]):
                    return True
    return False


def _looks_like_card(digits: str) -> bool:
    # Issuer prefixes of the card networks; keeps the checker from flagging every long number.
    return digits[0] in "3456"


def mask_json(payload: str) -> str:
    """A JSON document with every string value masked (keys and structure kept)."""
    try:
        data = json.loads(payload)
    except ValueError:
        return mask(payload)

    def walk(v: Any) -> Any:
        if isinstance(v, str):
            return mask(v, keep_email=True)
        if isinstance(v, list):
            return [walk(x) for x in v]
        if isinstance(v, dict):
            return {k: walk(x) for k, x in v.items()}
        return v

    return json.dumps(walk(data))
