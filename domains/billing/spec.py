"""Billing: refunds, refund status, invoices, plan changes and balance."""

from __future__ import annotations

from pathlib import Path

from domains.base import DomainSpec, SpecialistSpec, Wording
from domains.billing.actions import ACTIONS
from domains.billing.balance import GetBalanceTask, lookup_balance
from domains.billing.invoices import GetInvoicesTask
from domains.billing.plan_change import ChangePlanTask
from domains.billing.refund import IssueRefundTask
from domains.billing.refund_status import CheckRefundStatusTask
from domains.billing.supervisor import BillingSupervisorTask

DOMAIN = DomainSpec(
    name="billing",
    description=(
        "Transfer the caller to billing: charges, duplicate charges and refunds, refund status, "
        "invoices and payment history, plan changes, balance.\n\nArgs:\n    request: The part of "
        "the caller's words that is about billing."
    ),
    topic="billing",
    wording=Wording(offer="billing", ask="billing", prompt="billing"),
    actions=ACTIONS,
    supervisor=BillingSupervisorTask,
    specialists=(
        SpecialistSpec("refund", IssueRefundTask, "Route to the refunds specialist: duplicate or wrong charges, money back.", "a refund or a double charge"),
        SpecialistSpec("refund_status", CheckRefundStatusTask, "Route to refund status: what happened to a refund already asked for.", "the status of a refund"),
        SpecialistSpec("invoices", GetInvoicesTask, "Route to invoices: copies of invoices, receipts, payment history.", "your invoices or payments"),
        SpecialistSpec("plan_change", ChangePlanTask, "Route to plan changes: upgrade, downgrade or switch plan.", "changing your plan"),
        SpecialistSpec("balance", GetBalanceTask, "Route to balance: what the caller owes and the next bill.", "your balance", lookup=lookup_balance),
    ),
    utterances=Path(__file__).parent / "utterances",
)
BillingSupervisorTask.spec = DOMAIN
