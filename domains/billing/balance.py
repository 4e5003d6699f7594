"""Balance: what is due, what is overdue, and what the next bill will be."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from livekit.agents import function_tool

from callcenter.money import dollars
from callcenter.store.adapters import Ports
from domains.billing.ports import billing_port
from domains.billing.records import Invoice
from domains.results import SpecialistResult
from domains.specialist import SpecialistTask, guarded


@dataclass(kw_only=True)
class GetBalanceResult(SpecialistResult):
    balance_cents: int = 0
    overdue: list[str] | None = None
    next_bill_cents: int | None = None


class GetBalanceTask(SpecialistTask[GetBalanceResult]):
    result_type = GetBalanceResult
    idempotent = True  # read-only: safe to retry once
    instructions = "You tell callers their balance. Call get_balance."

    @function_tool
    @guarded
    async def get_balance(self) -> None:
        """Look up what the caller owes now and what their next bill will be."""
        self.finish(lookup_balance(self.state.ports, self.customer_id))


def lookup_balance(ports: Ports, customer_id: str | None, *, words: str = "") -> GetBalanceResult:
    """Read-only: the answer with no conversation, so a multi-need turn can run it in parallel."""
    assert customer_id is not None, "balance needs a verified caller"
    billing = billing_port(ports)
    due = billing.balance_due_cents(customer_id)
    invoices = billing.list_invoices(customer_id)
    overdue = [i.id for i in invoices if i.status == "overdue"]
    plan = billing.current_plan(customer_id)
    nxt = plan.monthly_price_cents if plan else None
    if due:
        summary = f"Your balance due is {dollars(due)}"
        summary += f", including overdue invoice {', '.join(overdue)}." if overdue else "."
    else:
        summary = "You're all paid up: your balance is $0.00."
    if nxt is not None and plan is not None:
        summary += f" Your next bill will be {dollars(nxt)} for the {plan.name} plan."
    follow_ups = {
        # "why is it overdue, i thought it was on autopay?": what the records show, and the way out
        "why": (f"It's the unpaid invoice {', '.join(overdue)}: no payment for it has reached us and its due date has passed, "
                "so if a card on autopay was declined, it wasn't taken. You can pay it in the dashboard under Billing."
                if overdue else "It's your plan's monthly price; nothing else is on the account.")
        if due else (
            # "and why that much?" after the next bill: the plan's price is why
            f"Every invoice on the account has been paid; the next bill is the {plan.name} plan's price, {dollars(nxt)} a month, "
            f"with {plan.api_rate_limit_per_min:,} API requests a minute." if plan is not None and nxt is not None
            else "Every invoice on the account has been paid."),
        "next_step": "You can pay it in the dashboard under Billing; the card on file is charged at once." if due else "Nothing: the next bill is charged automatically.",
        "how_long": "A payment shows on the account within a few minutes.",
        "due": _when_due(invoices, nxt),
    }
    return GetBalanceResult(status="info", summary=summary, balance_cents=due, overdue=overdue, next_bill_cents=nxt, follow_ups=follow_ups)


def _when_due(invoices: list[Invoice], next_bill_cents: int | None) -> str:
    """"and when's that due": an overdue invoice's due date, else when the next bill comes
    (a month after the last one was issued)."""
    late = [i for i in invoices if i.status == "overdue"]
    if late:
        # "is it late? like is it past due": said overdue first, then when it was due
        return f"{late[0].id} is overdue: it was due on {_day(late[0].due_at)}; you can pay it now in the dashboard under Billing."
    if invoices and next_bill_cents is not None:
        nxt = datetime.fromisoformat(invoices[0].issued_at) + timedelta(days=30)
        # the caller's own word first ("when's it due"), then that nothing needs doing
        return f"Your next bill, {dollars(next_bill_cents)}, is due around {_day(nxt.isoformat())}; it's charged automatically."
    return "Nothing is due on the account."


def _day(iso: str) -> str:
    when = datetime.fromisoformat(iso)
    return f"{when.strftime('%B')} {when.day}"
