"""What an operator deciding a request sees of the customer's billing (console/records.py)."""

from __future__ import annotations

from typing import Any

from console.records import RecordTable
from domains.billing.ports import billing_port


def billing_records(ports: Any, customer_id: str) -> list[RecordTable]:
    """Charges of the last 180 days and every refund, ten of each, newest last."""
    billing = billing_port(ports)
    charges = billing.list_charges(customer_id, since_days=180)[-10:]
    refunds = billing.list_refunds(customer_id)[-10:]
    return [
        RecordTable("Charges (180 days)", [(c.charged_at[:10], c.id, c.description, c.amount_cents) for c in charges], money=(3,)),
        RecordTable("Refunds", [(r.created_at[:10], r.charge_id, r.amount_cents, r.approved_by or "auto") for r in refunds], money=(2,)),
    ]


RECORDS = (billing_records,)
