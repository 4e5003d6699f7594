"""Callers' turns found by the callers9 dev part (issue 25), in other words than the part's: a
ticket asked for about errors is a ticket, a credit asked for an outage is the service credit's
read-back, a goodbye said as hedged sentences ends the call, the contact detail named is the one
asked for, and a caller who keeps one of two needs hears that one.
"""

from __future__ import annotations

from callcenter.store import Store
from tests.conftest import demo_invoice


def said(turn) -> str:
    return " ".join(turn.replies)


async def test_a_ticket_asked_for_about_errors_is_opened(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("yeah hi, could you file a ticket about these 503s we keep hitting")
    assert "opened ticket" in said(turn), said(turn)
    assert len(store.list_tickets(customer_id="C1003", kind="engineering")) == 1


async def test_engineers_asked_to_look_is_a_ticket(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("um could someone from your engineering team look into the server errors please")
    assert "opened ticket" in said(turn), said(turn)


async def test_a_question_about_a_ticket_opens_none(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("is there a ticket open for the 500 errors")
    assert store.list_tickets(customer_id="C1003", kind="engineering") == []


async def test_a_credit_for_an_outage_is_read_back_and_a_no_pays_nothing(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("do we get any compensation for the downtime this morning")
    assert "To confirm" in said(turn) and "service-failure credit" in said(turn), said(turn)
    turn = await call.send("hmm no, leave it for now")
    assert "No problem" in said(turn), said(turn)
    assert store.list_work(customer_id="C1003") == []


async def test_a_goodbye_in_hedged_sentences_ends_the_call(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("okay. i guess that about covers everything. appreciated. bye now.")
    assert "Goodbye" in said(turn) and "sign-in" not in said(turn), said(turn)


async def test_the_phone_number_named_is_the_one_asked_for(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("hi i got a new mobile so the number on my account needs changing")
    assert "new phone number" in said(turn) and "email address or the phone number" not in said(turn), said(turn)


async def test_what_is_on_file_is_answered_while_the_new_value_is_asked(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("i want to change my email address")
    turn = await call.send("which email have you got on file for me right now")
    assert "g***@example.com" in said(turn) and "new email address" in said(turn), said(turn)


async def test_keeping_one_of_two_needs_hears_that_one(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("two things, i want to update my phone number, and who's been logging into my account")
    turn = await call.send("you know what, skip the phone number, only the logins part")
    assert "left the contact details change" in said(turn), said(turn)
    assert "reset link" not in said(turn) and "sign-in" in said(turn), said(turn)


async def test_a_question_restating_the_read_back_hears_it_in_full(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("can you refund the forty nine dollar double charge")
    turn = await call.send("and that goes back onto my visa card, right?")
    assert "back to the card it was charged to" in said(turn) and "Shall I go ahead" in said(turn), said(turn)
    assert store.list_work(customer_id="C1001") == []


async def test_when_the_money_comes_after_an_approval(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("i was billed twice for pro, refund the second one")
    await call.send("yes go ahead")
    turn = await call.send("alright so how soon would i see the money")
    assert "supervisor" in said(turn) and "3 to 5 business days" in said(turn), said(turn)


async def test_the_bill_before_that_one(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("can you tell me what the bill from last month was")
    turn = await call.send("ok. and the one before that?")
    assert demo_invoice(store, "C1005", 2)[1] in said(turn) or "INV-1005-2" in said(turn), said(turn)
    assert "Just so I get this right" not in said(turn), said(turn)


async def test_asking_to_undo_a_revoked_key_is_answered(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("how come every call we make says four oh one")
    turn = await call.send("could you please re-enable the old key")
    assert "can't turn an old key back on" in said(turn), said(turn)


async def test_is_that_why_our_calls_fail_reads_their_errors(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("is your service down right now")
    turn = await call.send("wait is that why our integration is throwing errors")
    assert "Your server errors are on our side" in said(turn), said(turn)


async def test_an_unclear_part_beside_a_clear_need_is_asked_not_dropped(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("i can't remember my password, oh and i might want to cancel")
    assert "reset link" in said(turn), said(turn)
    assert "is it about closing your account, or about changing your plan?" in said(turn), said(turn)
    turn = await call.send("no no just the plan")
    assert "close" not in said(turn).lower(), said(turn)
    assert store.list_work(customer_id="C1002") == []


async def test_paging_through_results_is_integration_help(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("how do i get the next page of results from the customers list, i keep getting the first 100")
    assert "next_cursor" in said(turn), said(turn)
