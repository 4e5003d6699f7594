"""Callers' turns found by the callers8 dev part (issue 25), in other words than the part's:
a follow-up goes to the answer that can answer it, late deliveries and past trouble are the
status board's incidents, and a refund's status asked by name is never a new refund.
"""

from __future__ import annotations

from callcenter.store import Store


def said(turn) -> str:
    return " ".join(turn.replies)


async def test_a_due_date_follow_up_goes_to_the_balance_not_the_last_answer(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("whats my balance, and also how do i verify the webhook signatures")
    turn = await call.send("right, and when is it due")
    assert "charged automatically around" in said(turn), said(turn)


async def test_late_deliveries_last_week_are_the_status_boards(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("hey were the webhook events delayed on friday, a bunch showed up late")
    assert "Delayed webhook deliveries" in said(turn), said(turn)
    assert "Just so I get this right" not in said(turn), said(turn)


async def test_is_that_the_one_from_last_week_after_an_incident(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("is something wrong with the api today")
    turn = await call.send("hm is that the same as the problem a few days ago")
    assert "Delayed webhook deliveries" in said(turn), said(turn)


async def test_a_ticket_from_last_week_is_still_the_tickets(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("whats happening with my ticket from last week")
    assert "ticket" in said(turn).lower() and "incident" not in said(turn).lower(), said(turn)


async def test_refund_status_said_first_is_no_new_refund(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("refund status on anything still open please, and how do i rotate an api key")
    assert "To confirm" not in said(turn), said(turn)
    await call.send("ok")
    assert [w.kind for w in store.list_work(customer_id="C1003")] == []
