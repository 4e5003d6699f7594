"""The bill of a month the caller names ("what was the september bill", "the one from two
months back"): that month's invoice, or a plain "I don't see one" (issue 25). The demo
invoices are dated from today, so each test reads which months they are first.
"""

from __future__ import annotations

from callcenter.store import Store
from domains.billing.ledger import Ledger
from domains.billing.months import spoken


def said(turn) -> str:
    return " ".join(turn.replies)


def _months(store: Store, customer: str) -> list[tuple[str, str]]:
    return [(i.id, i.period) for i in Ledger(store).list_invoices(customer)]


async def test_a_named_month_gets_that_months_invoice(open_call, store: Store) -> None:
    inv, period = _months(store, "C1005")[1]
    month = spoken(period).split()[0].lower()
    call = await open_call("C1005")
    turn = await call.send(f"hi um what did my bill come to back in {month}")
    assert inv in said(turn) and "recent invoices" not in said(turn), said(turn)


async def test_a_month_after_an_invoices_answer_is_that_months_invoice(open_call, store: Store) -> None:
    inv, period = _months(store, "C1005")[2]
    month = spoken(period).split()[0].lower()
    call = await open_call("C1005")
    await call.send("can i get a copy of my invoices")
    turn = await call.send(f"ok and the one from {month}")
    assert f"{spoken(period)} invoice is {inv}" in said(turn), said(turn)


async def test_a_month_with_no_invoice_is_said_plainly(open_call, store: Store) -> None:
    held = {p for _, p in _months(store, "C1005")}
    month = next(m for m in ("january", "february", "march", "april", "may", "june") if not any(
        spoken(p).lower().startswith(m) for p in held))
    call = await open_call("C1005")
    turn = await call.send(f"what was my {month} bill")
    assert "I don't see an invoice for" in said(turn) and month.title() in said(turn)
