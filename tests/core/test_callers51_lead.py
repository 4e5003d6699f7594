"""Turns found by the callers51 and callers52 dev parts (issue 25), in other words than the
parts': what a caller asks about a call back once it is booked (when, who, sooner) is answered
from the booking, and "cancel the call back" cancels its ticket; a partial refund said with
"not the whole thing" is that part; a request followed by why ("..., we hardly use it") is the
request; the email said beside another need with its domain in two words is read; a lock asked
as "and can you ..." after another need is read back; "is my account secure" asked as a request
offers the lock, never reads it back; "the thing we reported" asked after is that ticket's news;
whether money owed back has moved is its status, never a new refund's read-back; a person asked
after a need in one clause is booked, and one declined is not; "one month back" is a time.
Each failed on b149084.
"""

from __future__ import annotations

from callcenter.store import Store


def said(turn) -> str:
    return " ".join(turn.replies)


def reached(turn) -> set[str]:
    return {h.to_agent for h in turn.hops}


def callbacks(store: Store, customer: str) -> list:
    return [t for t in store.list_tickets(customer) if t.kind == "callback"]


async def test_what_is_asked_about_a_booked_call_back_is_answered_from_it(open_call, store: Store) -> None:
    call = await open_call("C1004")
    await call.send("can i get someone to ring me about my invoice please")
    for question in ("right so how soon till i hear from them", "who's gonna be ringing me exactly",
                     "any chance they could call a bit earlier, like today"):
        turn = await call.send(question)
        reply = said(turn)
        assert "business day" in reply and "T-" in reply, (question, reply)
        assert not reached(turn) and "to confirm" not in reply.lower(), (question, reply)
    assert len(callbacks(store, "C1004")) == 1


async def test_cancelling_the_call_back_cancels_its_ticket(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("just have one of your people phone me")
    [booked] = callbacks(store, "C1003")
    turn = await call.send("hmm actually scrap the call back, i worked it out")
    assert "cancelled the call back" in said(turn) and booked.id in said(turn), said(turn)
    assert store.get_ticket(booked.id).status == "cancelled"


async def test_a_part_refund_said_with_not_all_of_it_is_that_part(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("can you refund fifteen bucks of the double charge please, not all of it")
    assert "$15.00" in said(turn) and "$49.00" not in said(turn), said(turn)


async def test_whether_it_was_refunded_and_if_not_to_do_it_asks_for_it(open_call, store: Store) -> None:
    # a guard, not a failure on b149084: the refund's status widened below must not take "if not,
    # do it" away from a caller who asked for the refund too
    call = await open_call("C1001")
    turn = await call.send("hang on, was the duplicate ever refunded? if not then please do it")
    assert "to confirm: a refund of $49.00" in said(turn).lower(), said(turn)


async def test_an_email_with_a_two_word_domain_beside_another_need_is_read(open_call, store: Store) -> None:
    call = await open_call("C1005")
    turn = await call.send("whats my balance, and i need the email on file updated to linus at pauling lab dot org")
    assert "linus@paulinglab.org" in said(turn), said(turn)


async def test_a_lock_asked_after_another_need_is_read_back(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("i lost my phone with the authenticator app on it. and could you freeze my account for now")
    turn = await call.send("yes")
    assert "to confirm: lock" in said(turn).lower(), said(turn)
    turn = await call.send("yes please")
    assert store.get_customer("C1005").locked, said(turn)


async def test_whether_the_account_is_secure_is_never_a_lock_read_back(open_call, store: Store) -> None:
    call = await open_call("C1005")
    turn = await call.send("could you tell me if my account is secure")
    assert "unusual sign-in" in said(turn) and "to confirm" not in said(turn).lower(), said(turn)


async def test_the_thing_we_reported_is_asked_after_not_reported_again(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("any update on that issue we reported about the 403s")
    assert "technical.ticket_status" in reached(turn) and "technical.api_errors" not in reached(turn), said(turn)


async def test_whether_money_owed_back_has_moved_is_its_status(open_call, store: Store) -> None:
    for customer, question in (("C1001", "has the cash from when you billed me twice landed yet"),
                               ("C1003", "was the outage credit ever processed"),
                               ("C1002", "um did that duplicate ever get refunded")):
        call = await open_call(customer)
        turn = await call.send(question)
        assert "billing.refund_status" in reached(turn) and "to confirm" not in said(turn).lower(), (question, said(turn))


async def test_a_person_after_a_need_is_booked_and_one_declined_is_not(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("did my refund go through and also just get me a real person")
    assert "booked a call back" in said(turn) and "billing.refund_status" in reached(turn), said(turn)
    call = await open_call("C1004")
    turn = await call.send("whats my balance, and i don't need to talk to anyone")
    assert "booked a call back" not in said(turn) and "billing.balance" in reached(turn), said(turn)
    assert not callbacks(store, "C1004")


async def test_one_month_back_is_a_time_not_money_back(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("how much did we pay one month back")
    assert "billing.invoices" in reached(turn) and "to confirm" not in said(turn).lower(), said(turn)
