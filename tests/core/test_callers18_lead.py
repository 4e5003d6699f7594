"""Follow-ups found by the callers17 and callers18 dev parts (issue 25), in other words than the
parts': a follow-up in the caller's language is answered from the last answer ("and when is it
due", "and the one before"), an invoice asked for relative to the one just read ("and the one
before?"), a follow-up naming an earlier answer of a multi-need turn is about that answer, not
the router's first reading, and an engineering ticket says when engineers get back.
"""

from __future__ import annotations

from callcenter.store import Store
from tests.conftest import demo_invoice


def said(turn) -> str:
    return " ".join(turn.replies)


async def test_a_follow_up_in_the_callers_language_is_answered_from_the_last_answer(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("¿cuánto debo?")
    turn = await call.send("¿y cuándo hay que pagarlo?")
    assert "is due around" in said(turn), said(turn)
    call = await open_call("C1001")
    await call.send("mi serve l'ultima fattura")
    turn = await call.send("e quella di prima?")
    assert f"{demo_invoice(store, 'C1001', 2)[1]} invoice is INV-1001-2" in said(turn), said(turn)


async def test_the_one_before_an_invoice_is_the_month_before(open_call, store: Store) -> None:
    named = demo_invoice(store, "C1001", 2)[1].split()[0].lower()
    call = await open_call("C1001")
    await call.send(f"can i get the {named} invoice")
    turn = await call.send("and the one before?")
    assert f"{demo_invoice(store, 'C1001', 3)[1]} invoice is INV-1001-3" in said(turn), said(turn)


async def test_a_follow_up_naming_an_earlier_answer_is_about_it(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("what's my balance and why are my calls getting 401s")
    turn = await call.send("right but what can i even do about that key business")
    assert "key" in said(turn) and "balance" not in said(turn), said(turn)


async def test_a_ticket_says_when_engineers_get_back(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("please open a ticket with engineering about the 500s")
    turn = await call.send("any idea when i'll hear back from them?")
    assert "within 24 hours" in said(turn), said(turn)


async def test_a_no_with_its_reason_refuses_the_read_back(open_call, store: Store) -> None:
    from domains.billing.ledger import Ledger

    call = await open_call("C1001")
    await call.send("put us on the pro plan")
    turn = await call.send("nope, forget about it, way too expensive for us")
    assert "won't go ahead" in said(turn) and "least expensive" not in said(turn), said(turn)
    assert Ledger(store).current_plan("C1001").id == "starter"


async def test_down_a_plan_is_the_next_plan_down(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("can you knock us down a plan")
    assert "To confirm: switch account C1003 to the Pro plan" in said(turn), said(turn)


async def test_a_turn_narrowing_the_last_answer_by_time_gets_it_again(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("our requests keep bouncing")
    turn = await call.send("and what about this morning?")
    assert "429" in said(turn) and "not something I can help with" not in said(turn), said(turn)
    call = await open_call("C1001")
    await call.send("how much do i owe")
    turn = await call.send("and what about the weather?")
    assert "balance" not in said(turn), said(turn)


async def test_a_no_that_asks_for_something_else_gets_it(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("please close my account")
    turn = await call.send("no, hold off on that, and what do i owe at the moment")
    assert "won't go ahead" in said(turn) and "balance is $0.00" in said(turn), said(turn)
    assert store.list_work() == []
