"""Turns found by the callers21 and callers22 dev parts (issue 25), in other words than the
parts': someone in the caller's story is not a person asked for; "cancel my plan and put me on
the cheap one" is a plan change; an unverified caller hears the answers owed before a read-back;
a pointer at the invoices just read, a time after the status board, "where's that at" and
"where was it from" lean on the last answer; a question comparing plans while a switch waits is
answered and asked again; an action asked "for it" beside what it is for is heard; texted and
other-language goodbyes end the call, a texted "y" says yes; a ZIP corrected at its end is read
as corrected; a refund asked after that was never filed is offered.
"""

from __future__ import annotations

from callcenter.store import Store
from domains.billing.ledger import Ledger
from tests.conftest import demo_invoice


def said(turn) -> str:
    return " ".join(turn.replies)


async def test_someone_in_the_callers_story_is_not_a_request_for_a_person(open_call, store: Store) -> None:
    call = await open_call("C1004")
    turn = await call.send("my login is broken, says locked. and i might owe you something. and uh somebody tried to get in "
                           "from like brazil, i got an alert")
    assert "call back from one of my colleagues" not in said(turn) and "(RO)" in said(turn) and "$49.00" in said(turn), said(turn)
    assert [t.kind for t in store.list_tickets("C1004") if t.kind == "callback"] == []


async def test_cancel_a_plan_and_go_to_the_cheap_one_is_a_plan_change(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("cancel our enterprise plan and put us on the cheap one")
    assert "switch account C1003 to the Starter plan" in said(turn) and "close account" not in said(turn), said(turn)


async def test_an_unverified_caller_hears_the_lookups_before_a_read_back(open_call, store: Store) -> None:
    call = await open_call(None)
    await call.send("hiya, i cant get into my account and also whats my balance looking like")
    turn = await call.send("c ten oh four, three oh three oh one")
    text = said(turn)
    assert "$49.00" in text and "To confirm" in text and text.index("$49.00") < text.index("To confirm"), text


async def test_a_month_pointed_at_after_the_invoices_is_that_invoice_not_a_refund(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("can i get my invoices")
    turn = await call.send("the one from three months back please")
    assert f"{demo_invoice(store, 'C1002', 3)[1]} invoice" in said(turn) and "refund" not in said(turn).lower(), said(turn)


async def test_wheres_that_at_after_a_request_for_approval_says_not_yet(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("the two forty nine came out twice, refund the second one")
    await call.send("yes")
    turn = await call.send("ok so where's that at?")
    assert said(turn).startswith("Not yet") and "ticket" not in said(turn), said(turn)


async def test_where_the_sign_ins_came_from_is_answered_from_the_review(open_call, store: Store) -> None:
    call = await open_call("C1004")
    await call.send("have there been dodgy logins on my account")
    turn = await call.send("what country?")
    assert "Romania" in said(turn) and "refund" not in said(turn), said(turn)


async def test_that_one_from_last_week_after_the_status_board_stays_on_it(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("are you guys having an outage")
    turn = await call.send("and the one from last week?")
    assert "Delayed webhook deliveries" in said(turn) and "Just so I get this right" not in said(turn), said(turn)


async def test_comparing_plans_while_a_switch_waits_is_answered_and_asked_again(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("move us down to pro")
    turn = await call.send("hmm wait, whats the difference between pro and enterprise again?")
    text = said(turn)
    assert "$249.00" in text and "$999.00" in text and "Shall I go ahead" in text, text
    assert Ledger(store).current_plan("C1003").id == "enterprise"


async def test_an_action_asked_for_it_beside_what_it_is_for_is_heard(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("is there an outage on your side right now, can i get some kind of credit for it, and how do webhooks retry")
    text = said(turn)
    assert "service-failure credit" in text and "Just so I get this right" not in text, text


async def test_a_texted_numbered_list_is_two_needs(open_call, store: Store) -> None:
    call = await open_call("C1005")
    turn = await call.send("2 qs: 1) whats my balance 2) is the api down")
    assert "balance" in said(turn) and "incident" in said(turn), said(turn)


async def test_then_raise_one_after_no_ticket_was_found_opens_it(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("do i have any open tickets with you")
    turn = await call.send("right, so nothing. then raise one please")
    assert "I've opened ticket" in said(turn), said(turn)
    assert [t.kind for t in store.list_tickets("C1003")] == ["engineering"]


async def test_a_refund_asked_after_that_was_never_filed_is_offered(open_call, store: Store) -> None:
    call = await open_call("C1001")
    first = await call.send("whats happening with my refund for the double charge")
    assert "Would you like me to refund it?" in said(first), said(first)
    turn = await call.send("oh, yes please do that")
    assert "To confirm: a refund of $49.00" in said(turn), said(turn)
    assert Ledger(store).list_refunds() == []


async def test_texted_and_regional_goodbyes_end_the_call(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("whats my balance")
    assert "Goodbye" in said(await call.send("ok ttyl")), "ttyl"
    other = await open_call("C1002")
    assert "Goodbye" in said(await other.send("ok cheers, ta-ra")), "ta-ra"


async def test_nothing_else_in_spanish_ends_the_call(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("whats my balance")
    turn = await call.send("vale, no, nada más, hasta luego")
    assert "Adiós" in said(turn) and "inglés" not in said(turn), said(turn)


async def test_a_texted_y_says_yes(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("switch me to starter")
    turn = await call.send("y")
    assert "Done" in said(turn), said(turn)
    assert Ledger(store).current_plan("C1005").id == "starter"


async def test_a_zip_corrected_at_its_end_is_read_as_corrected(open_call, store: Store) -> None:
    call = await open_call(None)
    turn = await call.send("c one oh oh three, six oh six oh two, sorry, oh one")
    assert "Alan" in said(turn) and "couldn't verify" not in said(turn), said(turn)


async def test_what_my_plan_costs_a_month_is_the_balance(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("how much does our plan cost us each month")
    assert "Your next bill will be $999.00" in said(turn), said(turn)


async def test_the_identity_answer_with_its_question_after_it_is_the_answer(open_call, store: Store) -> None:
    call = await open_call(None)
    await call.send("how much do i owe you guys")
    turn = await call.send("right sorry. its c ten oh four, zip three oh three oh one. so how much do i owe?")
    assert "$49.00" in said(turn) and "verify who you are" not in said(turn), said(turn)


async def test_an_email_whose_domain_is_said_as_words_is_read_where_it_was_asked_for(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("i need to change the email on my account")
    turn = await call.send("yeah the new one is grace dot h at hopper labs dot io")
    assert "to grace.h@hopperlabs.io" in said(turn) and "Shall I go ahead" in said(turn), said(turn)
    assert store.get_customer("C1002").email == "grace@example.com"


async def test_anything_going_on_with_the_api_is_the_status_board(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("anything going on with the api today")
    assert "ongoing incident" in said(turn) and "Your server errors" not in said(turn), said(turn)


async def test_a_phone_number_corrected_at_its_end_is_read_back_anew(open_call, store: Store) -> None:
    call = await open_call("C1004")
    await call.send("new mobile number please, its four oh four, five five five, oh one two three")
    turn = await call.send("oh no sorry, the last four are oh one three nine")
    assert "+1 404 555 0139" in said(turn) and "won't go ahead" not in said(turn), said(turn)
    assert store.get_customer("C1004").phone.endswith("0104")


async def test_a_question_about_the_pending_refund_by_pronoun_is_answered_from_its_read_back(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("you charged me the forty nine twice, i want one back")
    turn = await call.send("wait, is that going back on my card or as account credit?")
    text = said(turn)
    assert "back to the card it was charged to" in text and "right after this" not in text, text
    assert Ledger(store).list_refunds() == []


async def test_what_should_i_do_in_the_callers_language_gets_the_next_step(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("ciao, perché le mie chiamate api danno errore 401?")
    turn = await call.send("e cosa devo fare adesso?")
    assert "from the dashboard into your app's configuration" in said(turn), said(turn)


async def test_a_call_back_asked_for_is_a_person_not_money_back(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("can i just get a callback please")
    assert "call back from one of my colleagues" in said(turn) and "refund" not in said(turn).lower(), said(turn)
    other = await open_call("C1005")
    turn = await other.send("could somebody ring me back this afternoon, i'm driving")
    assert "call back from one of my colleagues" in said(turn), said(turn)
    assert [t.kind for t in store.list_tickets("C1001")] == ["callback"] and Ledger(store).list_refunds() == []


async def test_check_my_key_is_the_diagnosis_of_the_callers_traffic(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("hey can you check our key for us")
    assert "Your 401 errors" in said(turn), said(turn)
