"""Refund policy, in code, over the ledger: what may be refunded by phone, and how.

A prompt can never change these rules: the specialist builds a `Ledger` from the store and
acts on `evaluate_refund`'s decision, whatever the caller said. The rules:

- A charge is refundable on request only for a reason the ledger proves: it is the later
  charge of a **duplicate** pair (same amount and description within a day), or a
  **service-failure credit**: an incident overlapped the charge's service period while the
  customer's API calls failed with 5xx errors; the credit is capped at a share of the charge.
  An ordinary charge is not refundable on request, and neither is a charge on an overdue
  invoice (the customer still owes it).
- A charge's **refundable balance** is what that reason allows minus refunds already paid
  and approvals still pending.
- Paid **without approval** only within three limits that count earlier refunds and pending
  approvals: per charge, per customer per period. Everything else needs an operator, so
  splitting a refund into small parts never bypasses approval.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Literal

from callcenter.money import dollars
from domains.billing.records import Charge, Invoice
from domains.billing.service_facts import IncidentFact, UsageFact

MAX_REASONABLE_CENTS = 10_000_000  # no single phone refund above $100,000 is even considered
DUPLICATE_WITHIN = timedelta(hours=24)
SERVICE_PERIOD = timedelta(days=30)

Reason = Literal["duplicate", "service_failure"]


@dataclass(frozen=True, slots=True)
class RefundLimits:
    per_charge_auto_cents: int
    per_customer_period_auto_cents: int
    period_days: int
    window_days: int
    service_credit_percent: int


@dataclass(frozen=True, slots=True)
class RefundDecision:
    outcome: Literal["auto", "approval", "refuse"]
    amount_cents: int
    finding: str  # the policy finding operators see; no caller data
    reason: Reason | None = None
    refundable_cents: int = 0
    pending_request: str | None = None


@dataclass
class Ledger:
    """What the store knows about one customer's money, read once per decision."""

    customer_id: str
    charges: list[Charge]
    invoices: dict[str, Invoice]
    refunded: dict[str, int]  # charge id -> cents refunded
    pending: dict[str, tuple[str, int]]  # charge id -> (request id, cents) awaiting approval
    refunded_in_period: int  # every refund to this customer in the current period
    pending_total: int  # every pending refund approval of this customer
    incidents: list[IncidentFact] = field(default_factory=list)  # the status page's (service_facts.py)
    usage: list[UsageFact] = field(default_factory=list)

    def charge(self, charge_id: str) -> Charge | None:
        return next((c for c in self.charges if c.id == charge_id), None)


def duplicate_pairs(charges: list[Charge], within: timedelta = DUPLICATE_WITHIN) -> dict[str, str]:
    """Later charge id -> the earlier charge it duplicates (same amount and description)."""
    ordered = sorted(charges, key=lambda c: c.charged_at)
    pairs: dict[str, str] = {}
    used: set[str] = set()
    for i, later in enumerate(ordered):
        for earlier in ordered[:i]:
            if earlier.id in used or earlier.id in pairs:
                continue
            same = earlier.amount_cents == later.amount_cents and earlier.description == later.description
            gap = datetime.fromisoformat(later.charged_at) - datetime.fromisoformat(earlier.charged_at)
            if same and gap <= within:
                pairs[later.id] = earlier.id
                used.add(earlier.id)
                break
    return pairs


def find_duplicates(charges: list[Charge], *, within: timedelta = DUPLICATE_WITHIN) -> list[Charge]:
    """The later charge of every duplicate pair."""
    pairs = duplicate_pairs(charges, within)
    return [c for c in charges if c.id in pairs]


def service_failure(charge: Charge, ledger: Ledger) -> bool:
    """An incident overlapped the charge's service period and this customer saw 5xx errors then."""
    start = datetime.fromisoformat(charge.charged_at)
    end = start + SERVICE_PERIOD
    failed_days = {u.day for u in ledger.usage if u.errors_5xx > 0}
    for inc in ledger.incidents:
        began = datetime.fromisoformat(inc.started_at)
        ended = datetime.fromisoformat(inc.resolved_at) if inc.resolved_at else datetime.now(UTC)
        if began > end or ended < start:
            continue
        day, days = began.date(), set()
        while day <= ended.date():
            days.add(day.isoformat())
            day += timedelta(days=1)
        if days & failed_days:
            return True
    return False


def refund_reason(charge: Charge, ledger: Ledger) -> Reason | None:
    if charge.id in duplicate_pairs(ledger.charges):
        return "duplicate"
    if service_failure(charge, ledger):
        return "service_failure"
    return None


def evaluate_refund(
    *,
    charge: Charge,
    ledger: Ledger,
    requested_cents: int | None,
    limits: RefundLimits,
    now: datetime | None = None,
) -> RefundDecision:
    now = now or datetime.now(UTC)
    if charge.customer_id != ledger.customer_id:
        return RefundDecision("refuse", 0, "charge is not on the caller's account")
    invoice = ledger.invoices.get(charge.invoice_id or "")
    if invoice is not None and invoice.status == "overdue":
        return RefundDecision("refuse", 0, "charge is on an overdue invoice")
    if now - datetime.fromisoformat(charge.charged_at) > timedelta(days=limits.window_days):
        return RefundDecision("refuse", 0, f"charge is older than the {limits.window_days}-day refund window")
    reason = refund_reason(charge, ledger)
    if reason is None:
        return RefundDecision("refuse", 0, "ordinary charge: not refundable on request (no duplicate, no service failure)")
    allowed = charge.amount_cents
    if reason == "service_failure":
        allowed = charge.amount_cents * limits.service_credit_percent // 100
    refunded = ledger.refunded.get(charge.id, 0)
    pending_id, pending = ledger.pending.get(charge.id, (None, 0))
    refundable = allowed - refunded - pending
    if pending_id is not None:
        return RefundDecision("refuse", 0, "a refund for this charge is already waiting for approval",
                              reason, max(0, refundable), pending_id)
    if refundable <= 0:
        return RefundDecision("refuse", 0, "charge already refunded as far as policy allows", reason)
    amount = refundable if requested_cents is None else requested_cents
    if amount <= 0:
        return RefundDecision("refuse", 0, "requested amount is not positive", reason, refundable)
    if amount > MAX_REASONABLE_CENTS or amount > refundable:
        return RefundDecision("refuse", 0, "requested amount exceeds the refundable balance of the charge", reason, refundable)
    what = "duplicate charge" if reason == "duplicate" else f"service-failure credit (up to {limits.service_credit_percent}%)"
    within_charge = refunded + pending + amount <= limits.per_charge_auto_cents
    within_customer = ledger.refunded_in_period + ledger.pending_total + amount <= limits.per_customer_period_auto_cents
    if within_charge and within_customer:
        return RefundDecision("auto", amount, f"{what}; within the auto-refund limits", reason, refundable)
    which = (
        f"the per-charge auto limit of {dollars(limits.per_charge_auto_cents)}" if not within_charge
        else f"the {limits.period_days}-day auto limit of {dollars(limits.per_customer_period_auto_cents)} per customer"
    )
    return RefundDecision("approval", amount, f"{what}; with earlier refunds and pending approvals it exceeds {which}",
                          reason, refundable)
