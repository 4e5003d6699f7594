"""Callers' turns found by the callers14 dev part (issue 25), in other words than the part's:
a yes that repeats the caller's own "cancel" agrees to the closure it asked for (and to
nothing else), British sign-offs end the call, an English turn with a foreign greeting is
English, an incident named by its number is the status board's, and a question that sounds
like a goodbye books no call back.
"""

from __future__ import annotations

from callcenter.store import Store
from domains.billing.ledger import Ledger
from tests.conftest import demo_invoice


def said(turn) -> str:
    return " ".join(turn.replies)


async def test_a_yes_repeating_the_callers_own_cancel_files_the_closure(open_call, store: Store) -> None:
    call = await open_call("C1005")
    first = await call.send("we want to cancel, all of it, the company is shutting down")
    assert "close account C1005" in said(first), said(first)
    await call.send("yep, cancel it")
    assert [w.kind for w in store.list_work()] == ["close_account"]


async def test_yes_cancel_it_to_a_refund_read_back_stops_the_refund(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("i was charged twice, can i get the double one back")
    turn = await call.send("yes, cancel it")
    assert "stopped" in said(turn), said(turn)
    assert Ledger(store).list_refunds() == [] and store.list_work() == []


async def test_a_british_sign_off_ends_the_call(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("what do i owe")
    turn = await call.send("nice one, cheers mate, ta-ra")
    assert "Goodbye" in said(turn), said(turn)


async def test_an_english_request_with_a_german_greeting_is_answered(open_call, store: Store) -> None:
    call = await open_call("C1005")
    turn = await call.send("hallo, can you send me the last invoice bitte")
    assert "INV-1005" in said(turn) and "Englisch" not in said(turn), said(turn)
    turn = await call.send("hola, can you tell me my balance por favor")
    assert "$0.00" in said(turn) and "inglés" not in said(turn), said(turn)


async def test_an_incident_named_by_its_number_is_the_status_board(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("hey is inc forty two resolved now")
    assert "incident" in said(turn) and "ticket" not in said(turn), said(turn)


async def test_a_question_that_sounds_like_goodbye_books_no_call_back(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("what's my balance")
    turn = await call.send("and what about our api then, is that ok? nothing seems to go through")
    assert "call you back" not in said(turn) and "Goodbye" not in said(turn), said(turn)
    assert store.list_tickets() == []


async def test_an_invoice_pointed_at_by_its_place_in_the_list(open_call, store: Store) -> None:
    inv, month = demo_invoice(store, "C1002", 3)
    call = await open_call("C1002")
    await call.send("could you read me my recent invoices")
    turn = await call.send("ok the third one, what was that one")
    assert month in said(turn) and inv in said(turn), said(turn)


async def test_the_current_plan_called_overkill_is_the_one_left(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("can we go cheaper? honestly enterprise is total overkill for us")
    assert "already on" not in said(turn) and "Pro" in said(turn), said(turn)
    assert Ledger(store).current_plan("C1003").id == "enterprise"  # read back, not done


async def test_keeping_the_current_plan_during_a_switch_read_back_leaves_the_switch(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("can you move us up to pro")
    turn = await call.send("actually no, leave it, we'll stay on starter")
    assert "nothing was changed" in said(turn) and "already on" not in said(turn), said(turn)
    assert Ledger(store).current_plan("C1001").id == "starter"
