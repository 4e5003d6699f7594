"""Questions are answered, actions are asked; a yes binds to the question the caller heard
(issue 24). Through the real line, in callers' words."""

from __future__ import annotations

from callcenter.store import Store
from domains.billing.ledger import Ledger


def said(turn) -> str:
    return " ".join(turn.replies)


async def test_why_cant_i_log_in_files_no_unlock_without_a_read_back(open_call, store: Store) -> None:
    call = await open_call("C1004")  # locked after failed sign-ins
    turn = await call.send("um why cant i log in to my account")
    assert not store.list_pending_changes("C1004") and not store.list_tickets("C1004")
    assert "To confirm: ask for account C1004 to be unlocked" in said(turn)
    declined = await call.send("no thats fine leave it")
    assert "nothing" in said(declined).lower() or "haven't" in said(declined)
    assert not store.list_pending_changes("C1004") and not store.list_tickets("C1004")
    assert store.get_customer("C1004").locked


async def test_would_a_plan_be_cheaper_is_answered_not_read_back(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("hmm would the enterprise one work out cheaper for me")
    reply = said(turn)
    assert "$999.00" in reply and "$49.00" in reply and "To confirm" not in reply
    await call.send("ok thanks")
    assert Ledger(store).current_plan("C1001").id == "starter"


async def test_an_answered_what_if_taken_up_is_read_back_before_it_changes(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("would switching to pro be cheaper for me")
    taken = await call.send("oh nice yeah lets do that")
    assert "To confirm: switch account C1003 to the Pro plan at $249.00 a month" in said(taken)
    assert Ledger(store).current_plan("C1003").id == "enterprise"
    await call.send("yes")
    assert Ledger(store).current_plan("C1003").id == "pro"


async def test_do_i_need_a_two_factor_reset_is_answered_and_files_nothing(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("so do i have to redo my two factor thing if i get a new phone")
    assert "To confirm" not in said(turn) and "authenticator" in said(turn)
    await call.send("no thats all i needed to know thanks")
    assert store.list_work() == []


async def test_a_yes_after_a_clarifying_question_confirms_nothing_more(open_call, store: Store) -> None:
    # A refund request with SQL-looking text: its read-back, the caller's yes, then a
    # clarifying question about the rest of the turn. The caller hears the refund's outcome
    # before that question, and a yes to the question moves nothing.
    call = await open_call("C1001")
    asked = await call.send("refund charge CH-1001-D'; DROP TABLE refunds; -- please")
    assert "To confirm: a refund of $49.00" in said(asked)
    confirmed = await call.send("yes")
    assert "refunded $49.00" in said(confirmed)
    again = await call.send("yes")
    assert "refunded" not in said(again)
    assert [(r.charge_id, r.amount_cents) for r in Ledger(store).list_refunds()] == [("CH-1001-D", 4900)]
    assert store.list_work() == []
