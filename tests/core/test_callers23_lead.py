"""Turns found by the callers23 and callers24 dev parts (issue 25), in other words than the
parts': a yes-or-no question about the last answer is answered from it, and so is a request to
hear one answer again; a credit asked for a failure in more ways; a part of the turn taken back
is no need; a person asked for beside other needs is booked and the needs are taken; an unknown
caller asked for a person is verified by number and birth date, or by email, and booked; a ZIP
read again is read as the second reading; goodbyes in street words and in other languages; a
question about the change while it waits ("would we get fewer requests?"); a no opened by
"then"; an answer taken ("oh ok") ends a request that found nothing; a value or a yes that
answers another need leaves the question; what a charge was is the invoices; a thing named,
then said of ("the api key, the live one, it's not working"), is one need.
"""

from __future__ import annotations

from callcenter.store import Store
from domains.billing.ledger import Ledger


def said(turn) -> str:
    return " ".join(turn.replies)


def reached(turn) -> set[str]:
    return {h.to_agent for h in turn.hops}


async def test_a_yes_or_no_question_about_the_diagnosis_is_answered_from_it(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("my api calls keep getting rejected")
    turn = await call.send("is it revoked or what")
    assert "rotated or revoked" in said(turn) and "not something I can help with" not in said(turn), said(turn)


async def test_one_of_two_answers_asked_again_by_name(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("how much do i owe and why am i getting 429s")
    turn = await call.send("and the other part, sorry, what was that again?")
    assert "60 requests a minute" in said(turn) and "not something I can help with" not in said(turn), said(turn)


async def test_the_status_board_asked_for_by_name(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("quick one, what's the status of your api")
    assert "technical.service_status" in reached(turn) and "ticket" not in said(turn).lower(), said(turn)


async def test_compensation_since_the_calls_fail_is_the_service_credit(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("we'd like some compensation since everything's been throwing five hundreds today")
    assert "$199.80" in said(turn) and "Shall I go ahead" in said(turn), said(turn)


async def test_a_part_scratched_is_no_need(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("switch me to pro, actually no scratch that, just tell me what i owe")
    assert "balance is $0.00" in said(turn) and "Pro plan" not in said(turn), said(turn)


async def test_a_person_beside_other_needs_is_booked_and_the_needs_are_taken(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("two things, my key stopped working and i'd like somebody to phone me about it tomorrow")
    assert "401" in said(turn) and "call back" in said(turn), said(turn)
    assert [t.kind for t in store.list_tickets("C1002")] == ["callback"]


async def test_an_unknown_caller_asking_for_a_person_is_verified_by_birth_date_and_booked(open_call, store: Store) -> None:
    call = await open_call(None)
    first = await call.send("can someone ring me back please")
    assert "customer number" in said(first), said(first)
    turn = await call.send("c one zero zero two, born december ninth seventy nine")
    assert "verified" in said(turn) and "call back" in said(turn) and "invoice" not in said(turn).lower(), said(turn)
    assert [t.kind for t in store.list_tickets("C1002")] == ["callback"]


async def test_an_email_said_for_want_of_the_number_is_who_the_caller_is(open_call, store: Store) -> None:
    call = await open_call(None)
    await call.send("i'd like a real person to ring me")
    turn = await call.send("i don't have my customer number on me, it's linus at example dot com, zip nine seven two oh one")
    assert "verified" in said(turn) and "already on your account" not in said(turn), said(turn)
    assert [t.kind for t in store.list_tickets("C1005")] == ["callback"]


async def test_a_zip_read_again_after_a_pause_is_the_second_reading(open_call, store: Store) -> None:
    call = await open_call(None)
    turn = await call.send("c one zero zero three, zip six oh six, um, six oh six oh one")
    assert "you're verified" in said(turn), said(turn)


async def test_a_birth_year_in_two_digits_verifies(open_call, store: Store) -> None:
    call = await open_call(None)
    turn = await call.send("linus at example dot com, february twenty eighth eighty eight")
    assert "you're verified" in said(turn), said(turn)


async def test_street_goodbyes_end_the_call(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("what's my balance")
    turn = await call.send("cool cool, peace out")
    assert "Goodbye" in said(turn), said(turn)


async def test_a_spanish_goodbye_after_a_word_of_thanks(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("¿cuánto debo este mes?")
    turn = await call.send("bueno, perfecto, adiós")
    assert "Adiós" in said(turn), said(turn)


async def test_a_german_request_let_go_with_a_goodbye(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("ich möchte mein konto schließen")
    turn = await call.send("ach, vergiss es. tschüs")
    assert "Wiedersehen" in said(turn) and "password" not in said(turn), said(turn)


async def test_words_that_name_no_sure_need_then_a_goodbye_end_the_call(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("why do my calls fail")
    turn = await call.send("hm, i must be on the wrong account then. bye")
    assert "Goodbye" in said(turn) and "Just so I get this right" not in said(turn), said(turn)


async def test_requests_a_minute_asked_while_a_downgrade_waits(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("move us down to starter")
    turn = await call.send("hang on, how many requests a minute would we get then?")
    assert "60 API requests a minute" in said(turn) and "Shall I go ahead" in said(turn), said(turn)


async def test_then_no_refuses_a_lock(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("please lock my account")
    turn = await call.send("hmm in that case no, leave it open")
    assert "won't go ahead" in said(turn) and not store.get_customer("C1005").locked, said(turn)


async def test_an_answer_taken_ends_a_refund_that_found_nothing(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("refund my last bill")
    turn = await call.send("oh ok")
    assert "left it there" in said(turn), said(turn)
    after = await call.send("what do i owe")
    assert "balance" in said(after) and "ordinary charges" not in said(after), said(after)


async def test_a_yes_and_another_need_leave_a_question_that_asks_for_a_value(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("refund my last payment")
    turn = await call.send("ok fine, so yes, go ahead and cancel the whole account")
    assert "close account C1005" in said(turn), said(turn)


async def test_another_tasks_value_leaves_a_question_that_asks_for_a_charge(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("refund my last payment")
    turn = await call.send("hmm ok then just put me on enterprise")
    assert "Enterprise plan" in said(turn), said(turn)


async def test_a_need_done_out_of_turn_is_not_started_again(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("i've got an integration question, and i was double billed")
    turn = await call.send("yes refund the double one first")
    assert "To confirm: a refund of $49.00" in said(turn), said(turn)
    turn = await call.send("yes")
    assert "refunded $49.00" in said(turn) and "already been refunded" not in said(turn), said(turn)
    assert len(Ledger(store).list_refunds("C1001")) == 1


async def test_what_a_charge_was_for_is_the_invoices(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("there's a two forty nine charge on my statement, what's it for")
    assert "technical" not in reached(turn) and "billing.invoices" in reached(turn) and "To confirm" not in said(turn), said(turn)


async def test_reset_mails_never_asked_for_are_securitys(open_call, store: Store) -> None:
    call = await open_call("C1004")
    turn = await call.send("weird, password reset emails keep coming and i didnt ask for any")
    assert "account.security" in reached(turn) and "Just so I get this right" not in said(turn), said(turn)


async def test_whether_the_webhooks_are_fixed_is_the_status_board_for_anyone(open_call, store: Store) -> None:
    call = await open_call(None)
    turn = await call.send("are the webhooks fixed now")
    assert "Delayed webhook deliveries" in said(turn) and "customer number" not in said(turn), said(turn)


async def test_not_remembering_what_the_bill_was_is_no_sign_in_trouble(open_call, store: Store) -> None:
    call = await open_call("C1004")
    turn = await call.send("what was my bill two months ago, i can't remember what it was")
    assert "invoice" in said(turn) and "account.login_help" not in reached(turn) and "Just so I get" not in said(turn), said(turn)


async def test_a_thing_named_then_said_of_is_one_need(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("the api key, the live one, it's not working")
    assert "401" in said(turn) and "technical.integration_help" not in reached(turn), said(turn)


async def test_a_decision_put_off_at_a_clarifying_question(open_call, store: Store) -> None:
    call = await open_call("C1001")
    first = await call.send("i want to cancel my subscription, end it")  # a plan or the account: asked
    assert "Just so I get this right" in said(first), said(first)
    turn = await call.send("not yet, let me think it over")
    assert "nothing was changed" in said(turn) and "refund" not in said(turn), said(turn)


async def test_reset_codes_never_asked_for_are_not_a_two_factor_reset(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("we keep getting reset codes by text that we never asked for")
    assert "account.security" in reached(turn) and "account.two_factor_reset" not in reached(turn), said(turn)


async def test_requests_a_minute_on_my_plan_is_the_price_list_with_its_limits(open_call, store: Store) -> None:
    call = await open_call("C1005")
    turn = await call.send("how many calls per minute am i allowed on my plan")
    assert "600 API requests a minute" in said(turn) and "Could you tell me the plan" not in said(turn), said(turn)


async def test_why_the_next_bill_is_that_much(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("what's my next bill gonna be")
    turn = await call.send("how come it's that much?")
    assert "Pro plan's price" in said(turn), said(turn)


async def test_what_to_do_after_a_change_nobody_made(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("somebody changed my password last night, it wasn't me")
    turn = await call.send("oh god. so what should i do?")
    assert "lock my account" in said(turn) and "balance" not in said(turn), said(turn)


async def test_why_a_new_phone_is_not_set_on_the_call(open_call, store: Store) -> None:
    call = await open_call("C1004")
    await call.send("i need to update my mobile number")
    turn = await call.send("why can't you just put it in now")
    assert "number already on file" in said(turn) and "phone number" in said(turn), said(turn)


async def test_an_earlier_answer_followed_up_while_a_value_is_asked_for(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("hey, i need to update my email, and why are my requests getting throttled")
    turn = await call.send("ok but how do i fix the rate limit thing")
    assert "backoff" in said(turn) and "new email address" in said(turn), said(turn)


async def test_a_refund_asked_for_in_an_earlier_call_is_its_status(open_call, store: Store) -> None:
    call = await open_call("C1005")
    turn = await call.send("hi, did you guys get my refund request")
    assert "To confirm" not in said(turn) and "billing.refund_status" in reached(turn), said(turn)


async def test_a_credit_for_what_the_sentence_before_told(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("our requests keep dying with server errors. honestly we deserve some compensation for that")
    assert "$199.80" in said(turn), said(turn)


async def test_the_action_said_and_found_fine_is_a_yes(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("please change my email to alan.t@newmail.com")
    turn = await call.send("yep, the call back about the new email is fine by me")
    assert "Your reference is" in said(turn) and "I need a yes or a no" not in said(turn), said(turn)


async def test_out_of_curiosity_is_no_need(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("just out of curiosity, what does pro cost")
    assert "account.security" not in reached(turn) and "$249.00" in said(turn), said(turn)


async def test_waiting_for_the_call_accepts_an_unlock_read_back_and_says_goodbye(open_call, store: Store) -> None:
    call = await open_call("C1004")
    await call.send("it says my account is locked")
    turn = await call.send("alright, i'll just wait for your call then. bye")
    assert "Your reference is" in said(turn) and "Goodbye" in said(turn), said(turn)


async def test_drop_me_a_tier_is_a_plan_change_down(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("can you drop us a level")
    assert "Pro plan" in said(turn) and "close account" not in said(turn) and "Just so I get" not in said(turn), said(turn)


async def test_an_amount_asked_back_from_an_invoice_is_a_refund(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("i'd like the forty nine dollars back from the last invoice")
    assert "billing.refund" in reached(turn), said(turn)


async def test_money_promised_before_is_the_refunds_status(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("i was told last month i'd get my money back, where is it")
    assert "billing.refund_status" in reached(turn) and "To confirm" not in said(turn), said(turn)


async def test_whether_errors_are_a_known_incident_is_the_status_board(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("is this five hundreds thing a known issue")
    assert "technical.service_status" in reached(turn), said(turn)


async def test_a_customer_number_read_with_trailing_pauses(open_call, store: Store) -> None:
    call = await open_call(None)
    turn = await call.send("right so it's c... one... zero... zero... three. zip is six... oh six... oh one")
    assert "you're verified" in said(turn), said(turn)


async def test_a_charge_taken_twice_told_as_a_story_is_the_refund(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("alright so, i manage a tiny gym and i was doing the paperwork this morning and you took the forty nine twice")
    assert "$49.00" in said(turn) and "To confirm" in said(turn), said(turn)


async def test_a_ticket_asked_to_be_opened_in_the_passive(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("i'd like to get a case opened with engineering about the server errors we see")
    assert "I've opened ticket" in said(turn) and "Just so I get" not in said(turn), said(turn)


async def test_a_request_let_go_with_a_goodbye_in_another_language(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("bonjour, je voudrais fermer mon compte")
    turn = await call.send("non, laissez tomber. merci, au revoir")
    assert "Goodbye" in said(turn) or "revoir" in said(turn), said(turn)
    assert [w.kind for w in store.list_work(customer_id="C1003")] == []


async def test_whether_the_engineers_got_back_is_the_tickets_status(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("has anybody from your engineering team come back to us on our issue")
    assert "technical.ticket_status" in reached(turn) and "Just so I get" not in said(turn), said(turn)


async def test_a_call_back_asked_after_an_aside_is_a_person_not_the_refund(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("you know what, just have someone phone me about the duplicate charge, robots and money don't mix")
    assert "call back" in said(turn) and "To confirm" not in said(turn), said(turn)
    assert [t.kind for t in store.list_tickets("C1001")] == ["callback"]


async def test_a_lock_named_to_refuse_it_starts_no_lock(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("i think somebody has been poking around in my account")
    turn = await call.send("no that's fine, don't lock it, i'll keep an eye on things")
    assert "To confirm: lock" not in said(turn) and not store.get_customer("C1005").locked, said(turn)


async def test_a_zip_begun_again_without_its_name(open_call, store: Store) -> None:
    call = await open_call(None)
    turn = await call.send("c one oh oh two, one oh oh, one oh oh oh one")
    assert "you're verified" in said(turn), said(turn)


async def test_a_birth_date_read_as_day_then_year(open_call, store: Store) -> None:
    call = await open_call(None)
    turn = await call.send("grace at example dot com, born december nine nineteen seventy nine")
    assert "you're verified" in said(turn), said(turn)


async def test_whether_the_money_is_back_yet_is_the_refunds_status(open_call, store: Store) -> None:
    call = await open_call("C1005")
    turn = await call.send("so is my money back yet or not")
    assert "billing.refund_status" in reached(turn) and "ordinary charges" not in said(turn), said(turn)
