"""Invoices and payment history; a copy by email goes through the notification outbox.

Two ways in. Routed alone, the task reads the invoices (of a month or an id the caller named)
and emails a copy of the first, as it always has. Beside other needs of one turn, or asked in
the middle of another request's read-back, the read-only ``lookup_invoices`` answers at once
(meta/fanout.py) and emails nothing: a caller who asked "what did we pay" asked for no email.
The lookup narrows to a month named ("and what was last month's bill?"); words that need the
task (an invoice number, a copy by email) go to it (``acts_on``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime

from livekit.agents import function_tool

from callcenter.money import dollars
from callcenter.store.adapters import Ports
from domains.billing.months import (
    MONTH,
    month_before,
    month_value,
    nth_listed,
    one_from_month,
    period,
    spoken,
)
from domains.billing.ports import billing_port
from domains.billing.records import Invoice
from domains.results import SpecialistResult
from domains.specialist import SpecialistTask, guarded


@dataclass(kw_only=True)
class GetInvoicesResult(SpecialistResult):
    invoices: list[dict[str, object]] = field(default_factory=list)
    emailed: str | None = None


class GetInvoicesTask(SpecialistTask[GetInvoicesResult]):
    result_type = GetInvoicesResult
    idempotent = True  # reads, and the emailed copy is de-duplicated by key: safe to retry once
    instructions = "You answer questions about invoices and payment history. Call get_invoices."

    @function_tool
    @guarded
    async def get_invoices(self, invoice_id: str | None = None, month: str | None = None) -> str | None:
        """Read the caller's recent invoices and payments, and email a copy of one.

        Args:
            invoice_id: The invoice the caller asked about, like INV-1001-1, if they named one.
            month: The month whose bill the caller asked about ("february", "1 ago" for last month), if they named one.
        """
        ports, store = self.state.ports, self.state.store
        invoices = billing_port(ports).list_invoices(self.customer_id)
        wanted = period(month, datetime.now(UTC)) if month and not invoice_id else None
        invoices, missing = of_month(invoices, month if wanted is not None else None)
        if invoice_id:
            chosen = [i for i in invoices if i.id == invoice_id.upper()]
            if not chosen:
                if not self.another_attempt():
                    return None
                return "I can't find that invoice on your account. Could you read me the invoice number again?"
            invoices = chosen
        recent = invoices[:3]
        lines = [_line(i) for i in recent]
        customer = ports.customers.get_customer(self.customer_id)
        emailed = None
        if recent and customer is not None:
            store.add_notification(
                customer_id=customer.id,
                channel="email",
                body=f"Copy of invoice {recent[0].id}",
                dedupe_key=f"invoice-copy-{recent[0].id}-{self.state.guard.turn}",
            )
            emailed = recent[0].id
        if len(recent) == 1 and (wanted is not None or invoice_id) and not missing:
            summary = f"Your {lines[0].replace(':', ' invoice is', 1)}. I've emailed you a copy of {emailed}."
        elif recent:
            summary = f"{missing}Your recent invoices are " + "; ".join(lines) + f". I've emailed you a copy of {emailed}."
        else:
            summary = "I don't see any invoices on your account yet."
        self.finish(
            GetInvoicesResult(
                status="info",
                summary=summary,
                invoices=_records(recent),
                emailed=emailed,
                follow_ups={
                    **_overdue_first(recent, {
                        "why": why_that_much(ports, self.customer_id),
                        "next_step": "All your invoices are also in the dashboard under Billing, to download any time.",
                    }),
                    "how_long": "The email with the copy usually arrives within a few minutes.",
                },
            )
        )
        return None


_WHY = "Each invoice is your plan's monthly price for that month."


def _overdue_first(invoices: list[Invoice], follow_ups: dict[str, str]) -> dict[str, str]:
    """"why does it say overdue", "how can i pay it off" after an overdue invoice was read: why
    it is overdue and how to pay it come before what any invoice says."""
    late = [i.id for i in invoices if i.status == "overdue"]
    if not late:
        return follow_ups
    return {
        "why": (f"{late[0]} is overdue: no payment for it has reached us and its due date has passed, so if a card on "
                f"autopay was declined, it wasn't taken. {follow_ups['why']}"),
        "next_step": f"You can pay {late[0]} now in the dashboard under Billing; the card on file is charged at once.",
    }


def why_that_much(ports: Ports, customer_id: str) -> str:
    """"why forty nine though, i thought starter was cheaper": the plan the invoices bill, by
    name and price, beside the others."""
    billing = billing_port(ports)
    plan = billing.current_plan(customer_id)
    if plan is None:
        return _WHY
    others = ", ".join(f"{p.name} {dollars(p.monthly_price_cents)}" for p in billing.list_plans() if p.id != plan.id)
    return (f"{_WHY} You're on the {plan.name} plan, {dollars(plan.monthly_price_cents)} a month"
            + (f" (the others: {others})." if others else "."))
# What only the task does: narrow to a month or an invoice number, or email a copy.
_EMAIL = re.compile(r"\b(?:e-?mail\w*|mail\s+(?:me|us|it|them|a\s+copy)|inbox|forward\w*)\b", re.I)
_INVOICE_ID = re.compile(r"\binv[-\s]?\d{3,6}", re.I)


def asks_the_task(text: str) -> bool:
    """The words ask for what only the task does: a numbered invoice, or a copy by email; the
    read-only lookup answers the rest ("what did we pay", "what was last month's bill")."""
    return bool(_INVOICE_ID.search(text) or _EMAIL.search(text))


def of_month(invoices: list[Invoice], month: str | None) -> tuple[list[Invoice], str]:
    """The invoices of the month named (the slot's word: "february", "1 ago"), and "" said first;
    when it has none, all of them and the sentence that says so, said before them (never another
    month's as if it were it). No month: all of them."""
    wanted = period(month, datetime.now(UTC)) if month else None
    if wanted is None:
        return invoices, ""
    chosen = [i for i in invoices if i.period == wanted[0]]
    return (chosen, "") if chosen else (invoices, f"I don't see an invoice for {wanted[1]} on your account. ")


def lookup_invoices(ports: Ports, customer_id: str | None, *, words: str = "") -> GetInvoicesResult:
    """Read-only: the recent invoices with no conversation and no email, so a multi-need turn
    answers them beside its other needs (and a read-back's digression is answered in place)."""
    assert customer_id is not None, "invoices need a verified caller"
    said = MONTH.search(words)
    invoices, missing = of_month(billing_port(ports).list_invoices(customer_id), month_value(said) if said else None)
    recent = invoices[:3]
    if said and not missing:  # "quick one, what was last month's bill" asked aside: that month's, read only (no copy sent)
        summary = (f"Your {spoken(recent[0].period)} invoice is {recent[0].id}, {dollars(recent[0].amount_cents)}, "
                   f"{recent[0].status}. It's in the dashboard under Billing, and I can email you a copy.")
    elif recent:
        summary = (missing + "Your recent invoices are " + "; ".join(_line(i) for i in recent)
                   + ". They're all in the dashboard under Billing to download, and I can email you a copy of any of them.")
    else:
        summary = "I don't see any invoices on your account yet."
    return GetInvoicesResult(
        status="info",
        summary=summary,
        invoices=_records(recent),
        follow_ups={
            **_overdue_first(recent, {
                "why": why_that_much(ports, customer_id),
                "next_step": "Download any of them in the dashboard under Billing, or ask me to email you a copy.",
            }),
            "how_long": "A copy by email usually arrives within a few minutes of asking for it.",
        },
    )


def _line(i: Invoice) -> str:
    return f"{spoken(i.period)}: {i.id}, {dollars(i.amount_cents)}, {i.status}"


def _records(invoices: list[Invoice]) -> list[dict[str, object]]:
    return [{"id": i.id, "period": i.period, "amount_cents": i.amount_cents, "status": i.status} for i in invoices]


def the_one_before(text: str, last: SpecialistResult | None) -> str | None:
    """"and the month before that?" right after one month's invoice, or "the second one" right
    after a list of them: the request for that month."""
    if not isinstance(last, GetInvoicesResult):
        return None
    periods = [str(r["period"]) for r in last.invoices]
    month = month_before(text, periods) or nth_listed(text, periods)
    if month:
        return f"the {month} invoice"
    said = one_from_month(text)
    return f"the invoice from {said.replace('ago', 'months ago')}" if said else None
