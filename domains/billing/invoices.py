"""Invoices and payment history; a copy by email goes through the notification outbox."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from livekit.agents import function_tool

from callcenter.money import dollars
from domains.billing.months import period, spoken
from domains.billing.ports import billing_port
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
        missing = ""
        if wanted is not None:
            # "what was the february bill": that month's invoice, or, when there is none, the
            # caller hears so before the ones there are (never another month's as if it were it)
            of_month = [i for i in invoices if i.period == wanted[0]]
            if of_month:
                invoices = of_month
            else:
                missing = f"I don't see an invoice for {wanted[1]} on your account. "
        if invoice_id:
            chosen = [i for i in invoices if i.id == invoice_id.upper()]
            if not chosen:
                if not self.another_attempt():
                    return None
                return "I can't find that invoice on your account. Could you read me the invoice number again?"
            invoices = chosen
        recent = invoices[:3]
        lines = [f"{spoken(i.period)}: {i.id}, {dollars(i.amount_cents)}, {i.status}" for i in recent]
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
                invoices=[{"id": i.id, "period": i.period, "amount_cents": i.amount_cents, "status": i.status} for i in recent],
                emailed=emailed,
                follow_ups={
                    "why": "Each invoice is your plan's monthly price for that month.",
                    "next_step": "All your invoices are also in the dashboard under Billing, to download any time.",
                    "how_long": "The email with the copy usually arrives within a few minutes.",
                },
            )
        )
        return None
