"""Refund policy, in code: what may be refunded by phone, automatically or with approval.

A prompt can never change these rules: the specialist calls `evaluate_refund` and acts on
its decision, whatever the caller said.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Literal

from callcenter.money import to_cents
from callcenter.store.models import Charge

MAX_REASONABLE_CENTS = 10_000_000  # no single phone refund above $100,000 is even considered


@dataclass(frozen=True, slots=True)
class RefundDecision:
    outcome: Literal["auto", "approval", "refuse"]
    amount_cents: int
    finding: str  # the policy finding operators see; no caller data


def evaluate_refund(
    *,
    charge: Charge,
    already_refunded_cents: int,
    requested_cents: int | None,
    auto_limit: Decimal,
    window_days: int,
    now: datetime | None = None,
) -> RefundDecision:
    now = now or datetime.now(UTC)
    refundable = charge.amount_cents - already_refunded_cents
    amount = refundable if requested_cents is None else requested_cents
    if refundable <= 0:
        return RefundDecision("refuse", 0, "charge already fully refunded")
    if amount <= 0:
        return RefundDecision("refuse", 0, "requested amount is not positive")
    if amount > MAX_REASONABLE_CENTS or amount > refundable:
        return RefundDecision("refuse", 0, "requested amount exceeds the refundable amount of the charge")
    charged_at = datetime.fromisoformat(charge.charged_at)
    if now - charged_at > timedelta(days=window_days):
        return RefundDecision("refuse", 0, f"charge is older than the {window_days}-day refund window")
    limit_cents = to_cents(auto_limit) or 0
    if amount <= limit_cents:
        return RefundDecision("auto", amount, f"amount within the auto-refund limit of ${auto_limit}")
    return RefundDecision("approval", amount, f"amount above the auto-refund limit of ${auto_limit}")


def find_duplicates(charges: list[Charge], *, within: timedelta = timedelta(hours=24)) -> list[Charge]:
    """The later charge of every pair with the same amount and description within a day."""
    ordered = sorted(charges, key=lambda c: c.charged_at)
    dupes: list[Charge] = []
    for i, later in enumerate(ordered):
        for earlier in ordered[:i]:
            same = earlier.amount_cents == later.amount_cents and earlier.description == later.description
            close = datetime.fromisoformat(later.charged_at) - datetime.fromisoformat(earlier.charged_at) <= within
            if same and close:
                dupes.append(later)
                break
    return dupes
