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
from typing import Any

# 12-19 digits, optionally grouped by spaces, dashes or dots (how recognisers and people write them).
_DIGIT_RUN = re.compile(r"(?<![\w])\d(?:[ \-.]?\d){11,18}(?![\w])")
_SSN = re.compile(r"(?<!\d)\d{3}-\d{2}-\d{4}(?!\d)")
_SECRET_WORD = re.compile(
    r"\b(cvv|cvc|cvv2|security code|pin|password|passcode|pass code|one[- ]time code|verification code)"
    r"(\s*(?:is|was|:|=)\s*|\s+(?=\d))(\S+)",
    re.I,
)
_API_KEY = re.compile(r"\b(sk|pk|rk)_(live|test)_[A-Za-z0-9]{6,}\b")
_EMAIL = re.compile(r"\b([a-z0-9._%+-])[a-z0-9._%+-]{0,63}@([a-z0-9.-]{1,200}\.[a-z]{2,24})\b", re.I)


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


def _mask_run(match: re.Match[str]) -> str:
    digits = re.sub(r"\D", "", match.group(0))
    if 13 <= len(digits) <= 19 and luhn_ok(digits):
        return f"[card ending {digits[-4:]}]"
    return "[number]"  # a long account or card-like number: not needed by anyone downstream


def _visible(text: str) -> str:
    # Invisible characters would let a card number slip between the digit patterns.
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Cf")
    return unicodedata.normalize("NFKC", text)


def mask(text: str, *, keep_email: bool = False) -> str:
    """`text` with card numbers, long digit runs, SSNs, codes, passwords and API keys masked.

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
    for m in re.finditer(r"(?<![\d.])\d(?:[ \-]?\d){12,}(?![\d.])", text):
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
