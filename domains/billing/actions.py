"""Billing's durable action: a refund a supervisor approved, carried out once by the worker."""

from __future__ import annotations

from callcenter.money import dollars
from callcenter.store.adapters import Ports
from workflows.actions import Applied, DurableAction
from workflows.models import ApprovalRequest


def _refund(ports: Ports, req: ApprovalRequest, key: str, decided_by: str) -> Applied:
    # Through the billing port, so a company's own billing system (CALLCENTER_ADAPTERS) pays
    # approved refunds too. The port's record_refund is idempotent by the same key; writing
    # it before the outcome row is safe: a crash in between is retried and finds the refund.
    assert req.record_id is not None and req.amount_cents is not None  # required fields
    refund, _ = ports.billing.record_refund(
        charge_id=req.record_id, amount_cents=req.amount_cents,
        reason=req.caller_reason or "approved refund", idempotency_key=key, approved_by=decided_by,
    )
    return Applied(detail=f"refund {refund.id} of {dollars(refund.amount_cents)} on {refund.charge_id}")


def _positive(req: ApprovalRequest) -> str | None:
    return "a refund amount must be positive" if (req.amount_cents or 0) <= 0 else None


REFUND = DurableAction(
    kind="refund", what="refund", effect=_refund, required=("record_id", "amount_cents"), policy=_positive,
    domain="billing",
)
ACTIONS = (REFUND,)
