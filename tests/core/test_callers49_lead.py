"""Turns found by the callers45, callers49 and callers50 dev parts (issue 25), in other words
than the parts': a follow-up about one of two answers is that answer's even when a small word
("for", "on") is in the other one too; who the caller is said with the plan they are on asks
for no plan change; "how long until it's approved" after a request sent for approval is that
request's, not a refund's status; a polite no to an offer and a question in one breath answers
the question; the time of an outage asked after the errors names the incident; a person asked
for during a read-back, or beside another need in a long turn, is booked (and the other need
answered), and one asked before a goodbye is booked before it; a story before a question does not drown it; "ehh ... go on then i suppose" is a yes;
an action asked in another language beside a question in it is understood and asked for in
English; "so you dont see anything weird" checks the answer back (the router read a goodbye);
what to do about an earlier answer of a multi-need turn is what that answer says next, not the
same lookup again; why an invoice is overdue and how to pay it are that invoice's. Each failed
on 8571ccd.
"""

from __future__ import annotations

from callcenter.store import Store
from domains.billing.ledger import Ledger


def said(turn) -> str:
    return " ".join(turn.replies)


def reached(turn) -> set[str]:
    return {h.to_agent for h in turn.hops}


async def test_a_follow_up_about_the_outage_is_the_boards_after_the_balance(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("how much do we owe right now and is there some kind of outage on your end")
    turn = await call.send("ok and how much longer is the outage going on for")
    assert "INC-" in said(turn) and "payment shows" not in said(turn).lower(), said(turn)


async def test_who_the_caller_is_with_their_plan_asks_for_no_plan_change(open_call, store: Store) -> None:
    call = await open_call()
    turn = await call.send("hiya it's c one zero zero two, zip one zero zero zero one, oh and we are on pro")
    assert "verified" in said(turn).lower() and "to confirm" not in said(turn).lower(), said(turn)
    assert "billing.plan_change" not in reached(turn)


async def test_how_long_until_its_approved_is_the_requests_own(open_call, store: Store) -> None:
    call = await open_call("C1004")
    await call.send("i lost the phone with my authenticator on it, can you reset the two factor")
    await call.send("yes please")
    turn = await call.send("right and how long until it's approved")
    assert "supervisor" in said(turn).lower() and "billing.refund_status" not in reached(turn), said(turn)


async def test_a_polite_no_to_an_offer_then_a_question_answers_it(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("what would enterprise cost me")
    turn = await call.send("no thank you what do i owe at the moment")
    assert "billing.balance" in reached(turn) and "$0.00" in said(turn), said(turn)
    assert Ledger(store).current_plan("C1001").id == "starter"


async def test_how_long_the_errors_last_names_the_incident(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("every call we make is coming back with a five hundred")
    turn = await call.send("any idea how long that's going to last")
    assert "INC-" in said(turn), said(turn)


async def test_a_real_person_asked_for_during_a_read_back_is_booked(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("please close our account")
    turn = await call.send("erm before that could a real person call me to talk it over")
    assert "call back" in said(turn).lower(), said(turn)
    assert [t for t in store.list_tickets("C1002") if t.kind == "callback"]
    assert not store.list_work(customer_id="C1002")  # nothing filed: no yes was said


async def test_a_person_asked_for_after_a_story_and_a_question_answers_both(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("our it person just quit and i honestly have no clue what im doing, um, is your api down right now, "
                           "and i'd really like somebody to ring me")
    assert "call back" in said(turn).lower() and "incident" in said(turn).lower(), said(turn)
    assert "technical.service_status" in reached(turn)


async def test_a_hesitant_go_on_then_is_a_yes(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("i got billed twice for the starter plan last month")
    turn = await call.send("ehh ok go on then i suppose")
    assert "refunded" in said(turn).lower(), said(turn)


async def test_an_action_beside_a_question_in_another_language_is_asked_in_english(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("quanto devo pagare adesso, e vorrei un rimborso")
    assert "refund" in said(turn).lower() and "english" in said(turn).lower(), said(turn)
    assert not store.list_work(customer_id="C1003")  # nothing acts on a gloss


async def test_a_call_back_asked_for_before_a_goodbye_is_booked_then_goodbye(open_call, store: Store) -> None:
    call = await open_call("C1004")
    turn = await call.send("just have somebody ring me back please, that's everything, cheers bye")
    assert "call back" in said(turn).lower() and "goodbye" in said(turn).lower(), said(turn)
    assert [t for t in store.list_tickets("C1004") if t.kind == "callback"]


async def test_going_over_it_with_a_person_during_a_read_back_is_booked(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("move us down to the starter plan")
    turn = await call.send("wait, can i deal with this with a human instead")
    assert "call back" in said(turn).lower(), said(turn)
    assert Ledger(store).current_plan("C1003").id == "enterprise"


async def test_so_you_dont_see_anything_checks_the_answer_back_and_keeps_the_call(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("i got an email saying my password was reset and that definitely wasn't me")
    turn = await call.send("so you dont see anything weird going on then")
    assert "unusual" in said(turn).lower() and "goodbye" not in said(turn).lower(), said(turn)


async def test_what_to_do_about_an_earlier_answer_is_what_it_says_next(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("two questions, is the api having issues and did my refund ever come through")
    turn = await call.send("ok regarding the outage, what should we be doing on our end")
    assert "backoff" in said(turn).lower() and "technical.service_status" not in reached(turn), said(turn)


async def test_why_an_invoice_is_overdue_and_how_to_pay_it(open_call, store: Store) -> None:
    call = await open_call("C1004")
    await call.send("can you tell me about last month's invoice")
    why = await call.send("how come it's marked overdue")
    assert "no payment for it has reached us" in said(why), said(why)
    pay = await call.send("and how would i pay that")
    assert "pay INV-1004-1" in said(pay), said(pay)


async def test_a_person_asked_to_explain_an_answer_is_booked_not_a_follow_up(open_call, store: Store) -> None:
    # passes on 8571ccd too: it guards the follow-up readings above, which took "explain" as a why
    call = await open_call("C1005")
    await call.send("what do i owe you at the moment")
    turn = await call.send("honestly i'd prefer a human explain that to me")
    assert "call back" in said(turn).lower(), said(turn)


async def test_ok_i_see_to_a_lock_read_back_locks_nothing(open_call, store: Store) -> None:
    # found by the safety bench's new `wrapped` kind: "see" is a word of the review read before
    # "To confirm:", and "ok i see" was taken as a yes restating the read-back (fails on 8571ccd)
    call = await open_call("C1005")
    await call.send("um could you lock my account")
    turn = await call.send("oh right ok i see")
    assert not store.get_customer("C1005").locked, said(turn)
    assert "yes or no" in said(turn).lower(), said(turn)
