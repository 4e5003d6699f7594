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
    assert "is due around" in said(turn) and "charged automatically" in said(turn), said(turn)


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


async def test_a_thing_named_then_its_trouble_is_one_need(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("so the sdk, um, every request we send gets a four oh one since this morning")
    assert "Just so I get this right" not in said(turn) and "401" in said(turn), said(turn)


async def test_the_webhooks_then_a_delay_question_beside_a_plan_change(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("move us up to pro please. oh and also our webhooks, were they late on monday?")
    assert "Delayed webhook deliveries" in said(turn), said(turn)


async def test_on_behalf_of_the_company_is_the_callers_own_account(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("hi, calling on behalf of our firm, please change the account email to billing at turing dot i o")
    assert "billing@turing.io" in said(turn) and "account holder" not in said(turn), said(turn)


async def test_a_mailbox_spelled_letter_by_letter(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("update my email to ada dot l at example dot com")
    turn = await call.send("no sorry it's a k i n g at example dot com")
    assert "aking@example.com" in said(turn), said(turn)


async def test_a_yes_to_what_was_already_done_does_it_once(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("please raise a ticket with your engineers, our webhooks stopped")
    turn = await call.send("great, yes, do it please")
    assert "done already" in said(turn), said(turn)
    assert len(store.list_tickets(customer_id="C1005", kind="engineering")) == 1
