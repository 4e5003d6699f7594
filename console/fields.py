"""Strict parsing of the numbers operators type (filters, limits): plain decimal digits,
finite and bounded, or a one-line refusal. Never float() or Decimal() on raw input: those
accept NaN, Infinity and 1e400000 (a 400,000-digit integer that stalls the process)."""

from __future__ import annotations

import re

_AMOUNT = re.compile(r"^\$?\s*(\d{1,3}(?:,\d{3})+|\d{1,9})(?:\.(\d{1,2}))?$")
_WHOLE = re.compile(r"^\d{1,9}$")
MAX_AMOUNT_CENTS = 100_000_000_00  # $100 million: above any limit a call center sets


class BadNumber(ValueError):
    """A number an operator typed cannot be used; the message names the field."""


def amount_cents(text: object, field: str, *, max_cents: int = MAX_AMOUNT_CENTS) -> int | None:
    """'249', '249.5', '$1,200.00' -> cents; '' -> None; anything else -> BadNumber."""
    s = str(text if text is not None else "").strip()
    if not s:
        return None
    m = _AMOUNT.match(s)
    if not m:
        raise BadNumber(f"{field} must be an amount in dollars such as 250 or 1200.50")
    cents = int(m.group(1).replace(",", "")) * 100 + int((m.group(2) or "0").ljust(2, "0"))
    if cents > max_cents:
        raise BadNumber(f"{field} must be at most ${max_cents / 100:,.2f}")
    return cents


def whole(text: object, field: str, *, low: int = 0, high: int) -> int | None:
    """A whole number within [low, high]; '' -> None; anything else -> BadNumber."""
    s = str(text if text is not None else "").strip()
    if not s:
        return None
    if not _WHOLE.match(s) or not low <= int(s) <= high:
        raise BadNumber(f"{field} must be a whole number from {low} to {high}")
    return int(s)
