"""Money is integer cents everywhere; these convert at the edges (what callers say and hear)."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation


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
