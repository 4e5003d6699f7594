"""The ledger as the refund policy reads it, and paying a refund within the auto limits.

`evaluate_refund` decides on a snapshot of the customer's money. Between that decision and
the refund being written, another call for the same customer (another process, another
pod) may pay one too: both would see the old total and both would be paid, past the
per-customer limit. So a refund paid without approval is decided again and written under
the customer's lock (`Store.customer_lock`), from a fresh read: the check and the write take
their turn together, whatever system answers the billing port.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from callcenter.money import to_cents
from callcenter.store import Store
from callcenter.store.adapters import Ports
from domains.billing.actions import REFUND
from domains.billing.policy import Ledger, RefundDecision, RefundLimits, evaluate_refund
from domains.billing.ports import billing_port
from domains.billing.records import Refund
from domains.billing.settings import BillingSettings
from domains.technical.ports import status_port


def read_ledger(ports: Ports, store: Store, customer_id: str, settings_days: int, period_days: int) -> Ledger:
    """Money facts from the billing and status ports; refunds waiting for approval from the line's outbox."""
    billing = billing_port(ports)
    charges = billing.list_charges(customer_id, since_days=max(settings_days, period_days) + 30)
    pending: dict[str, tuple[str, int]] = {}
    for p in store.pending_work(customer_id, REFUND.kind):
        if p.record_id:
            pending[p.record_id] = (p.request_id, pending.get(p.record_id, ("", 0))[1] + p.amount_cents)
    since = (datetime.now(UTC) - timedelta(days=period_days)).replace(microsecond=0).isoformat()
    return Ledger(
        customer_id=customer_id,
        charges=charges,
        invoices={i.id: i for i in billing.list_invoices(customer_id)},
        refunded={c.id: billing.refunded_cents(c.id) for c in charges},
        pending=pending,
        refunded_in_period=sum(r.amount_cents for r in billing.list_refunds(customer_id) if r.created_at >= since),
        pending_total=sum(p[1] for p in pending.values()),
        incidents=status_port(ports).incidents(days=settings_days + 30),  # technical's status page
        usage=status_port(ports).api_usage(customer_id, days=settings_days + 30),
    )


def limits_of(s: BillingSettings) -> RefundLimits:
    return RefundLimits(
        per_charge_auto_cents=to_cents(s.auto_refund_limit) or 0,
        per_customer_period_auto_cents=to_cents(s.auto_refund_customer_limit) or 0,
        period_days=s.auto_refund_period_days,
        window_days=s.refund_window_days,
        service_credit_percent=s.service_credit_percent,
    )


def pay_within_limits(
    ports: Ports, store: Store, settings: BillingSettings, *, customer_id: str, charge_id: str,
    requested_cents: int | None, confirmed: RefundDecision,
) -> Refund | RefundDecision:
    """Pay the refund the caller confirmed if, decided again under the customer's lock, it is
    still the same refund within the auto limits; otherwise the new decision, nothing paid.

    Blocking (it may wait for the lock): run it in a worker thread.
    """
    with store.customer_lock(customer_id):
        ledger = read_ledger(ports, store, customer_id, settings.refund_window_days, settings.auto_refund_period_days)
        charge = ledger.charge(charge_id) or billing_port(ports).get_charge(charge_id)
        if charge is None:
            return RefundDecision("refuse", 0, "charge not found")
        decision = evaluate_refund(charge=charge, ledger=ledger, requested_cents=requested_cents, limits=limits_of(settings))
        if decision.outcome != "auto" or decision.amount_cents != confirmed.amount_cents:
            return decision
        refund, _ = billing_port(ports).record_refund(
            charge_id=charge.id,
            amount_cents=decision.amount_cents,
            reason=f"{decision.reason}: {decision.finding}",
            # One key per charge and amount already refunded: a retry of this very write finds it.
            idempotency_key=f"refund-{charge.id}-{ledger.refunded.get(charge.id, 0)}",
        )
        return refund
