"""Turns found by the callers31 and callers32 dev parts (issue 25), in other words than the
parts': a question that asks for no money back is offered the refund the records allow, never
read back; identities said oddly (an email spelled with a pause, a birth date with "dash" or
"oh eight", English digits in a Spanish turn, a typed "auth:" label) verify the caller; a need
said while the line asks who the caller is is kept; the plan left as "not worth it" is not the
target; a value corrected twice keeps the last; a put-off ("let's park it", "hold off") at a
read-back changes nothing; "close it then" after a closure was stopped asks for it again; "did
that go through?" after an action says what happened; the next bill and a late notice are the
balance's; webhook signing is the guide's and "are webhooks ok" the status board's; a story
beside needs asks for nothing; a forgotten charge is the invoices'; Portuguese is answered in
Portuguese.
"""

from __future__ import annotations

from callcenter.llm.language import detect_language
from callcenter.store import Store


def said(turn) -> str:
    return " ".join(turn.replies)


def reached(turn) -> set[str]:
    return {h.to_agent for h in turn.hops}


async def test_a_question_without_money_back_is_offered_not_read_back(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("you won't charge me some fee for moving down, right?")
    assert "To confirm: a refund" not in said(turn), said(turn)
    await call.send("yes")  # a yes to an offer is a request: read back, nothing filed yet
    assert store.list_work(customer_id="C1002") == []


async def test_a_refund_asked_in_a_statement_is_still_read_back(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("the forty nine came out of my account two times, can you sort it")
    assert "To confirm: a refund of $49.00" in said(turn), said(turn)


async def test_an_email_and_a_birthday_said_with_an_apostrophe_verify(open_call, store: Store) -> None:
    call = await open_call(None)
    turn = await call.send("hiya it's linus at example dot com and my birthday's two twenty eight eighty eight")
    assert "you're verified" in said(turn), said(turn)


async def test_a_spelled_email_with_a_pause_and_a_dashed_birth_date_verify(open_call, store: Store) -> None:
    call = await open_call(None)
    turn = await call.send("ok so it's k a t h e r i n e, at example dot com, date of birth nineteen ninety dash oh eight dash twenty six")
    assert "you're verified" in said(turn), said(turn)


async def test_a_month_said_with_oh_after_born_verifies(open_call, store: Store) -> None:
    call = await open_call(None)
    turn = await call.send("c one zero zero four and i was born oh eight, twenty six, ninety")
    assert "you're verified" in said(turn), said(turn)


async def test_english_digits_in_a_spanish_turn_are_one_zip_code(open_call, store: Store) -> None:
    call = await open_call(None)
    turn = await call.send("hola, mi número de cliente es c ten oh two y el zip code es one zero zero zero one")
    assert "you're verified" in said(turn), said(turn)


async def test_a_typed_label_before_the_details_asks_for_nothing(open_call, store: Store) -> None:
    call = await open_call(None)
    turn = await call.send("auth: cust c1001 zip 94107")
    assert "you're verified" in said(turn) and "To confirm" not in said(turn), said(turn)


async def test_a_need_said_while_asked_who_you_are_is_kept(open_call, store: Store) -> None:
    call = await open_call(None)
    await call.send("grace at example dot com, and the zip is one two three four five")
    turn = await call.send("i just want to know how much i owe you")
    assert "left that" not in said(turn) and "verify" in said(turn), said(turn)
    turn = await call.send("c one zero zero two, one zero zero zero one")
    assert "billing.balance" in reached(turn) and "$0.00" in said(turn), said(turn)


async def test_the_plan_called_not_worth_it_is_the_one_left(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("take me down to pro please, enterprise isn't worth it for a team our size")
    assert "Pro plan" in said(turn) and "already" not in said(turn), said(turn)


async def test_a_plan_corrected_twice_keeps_the_last(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("upgrade me to pro. no, enterprise. no no, pro, sorry")
    assert "Pro plan" in said(turn) and "Enterprise plan" not in said(turn), said(turn)


async def test_a_put_off_at_a_read_back_changes_nothing(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("i want the outage credit")
    turn = await call.send("mm ok, but let's park that, i'll decide after i talk to finance")
    assert "No problem" in said(turn) and "yes or a no" not in said(turn), said(turn)
    assert store.list_work(customer_id="C1003") == []


async def test_holding_off_with_a_reason_like_the_need_itself_cancels(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("my phone's gone so i need the two factor reset")
    turn = await call.send("actually let's hold off, the phone might still turn up")
    assert "No problem" in said(turn), said(turn)
    assert store.list_work(customer_id="C1001") == []


async def test_close_it_then_after_the_closure_was_stopped_asks_for_it_again(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("close my account please")
    await call.send("no not yet")
    turn = await call.send("right, close it after all, go ahead")
    assert "To confirm: close account C1005" in said(turn), said(turn)
    assert store.list_work(customer_id="C1005") == []  # read back again, not filed


async def test_lock_it_anyway_after_the_sign_ins_were_reviewed(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("has anyone weird been logging into my account")
    turn = await call.send("ugh, lock it anyway, i'm the nervous type")
    assert "To confirm: lock account C1001" in said(turn), said(turn)


async def test_did_that_go_through_after_a_refund_says_it_did(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("refund the duplicate forty nine please")
    await call.send("yes")
    turn = await call.send("so has it gone through?")
    assert said(turn).startswith("Yes.") and "refunded $49.00" in said(turn), said(turn)


async def test_file_it_after_it_was_filed_files_nothing_more(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("you charged me the two forty nine twice, refund one of them")
    await call.send("yes")
    turn = await call.send("ok yes, submit it now please")
    assert "filed already" in said(turn), said(turn)
    assert len(store.list_work(customer_id="C1002")) == 1


async def test_a_yes_then_hold_on_and_a_question_is_no_yes_yet(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("refund the duplicate two forty nine")
    turn = await call.send("yeah fine, hang on, how long does that take")
    assert "Shall I go ahead" in said(turn), said(turn)
    assert store.list_work(customer_id="C1002") == []


async def test_a_no_about_something_else_then_yes_to_the_refund(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("refund my double charge")
    turn = await call.send("no need for any ticket or anything. as for the refund, yes please do that")
    assert "refunded $49.00" in said(turn), said(turn)


async def test_paying_twice_for_a_switch_is_answered(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("move me up to pro")
    turn = await call.send("hmm will i get billed double this month though")
    assert "Nothing extra is charged today" in said(turn), said(turn)


async def test_getting_back_in_after_a_lock_is_answered(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("lock my account")
    turn = await call.send("wait how would i log back in afterwards")
    assert "unlock" in said(turn) and "Shall I go ahead" in said(turn), said(turn)


async def test_next_bill_alone_is_the_balance(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("next payment?")
    assert "billing.balance" in reached(turn) and "Just so I get this right" not in said(turn), said(turn)


async def test_a_late_notice_is_the_balance(open_call, store: Store) -> None:
    call = await open_call("C1004")
    turn = await call.send("why am i getting overdue reminders from you guys")
    assert "billing.balance" in reached(turn) and "49" in said(turn), said(turn)


async def test_signing_webhooks_is_the_guide_and_are_webhooks_ok_the_board(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("quick question about signing webhook payloads")
    assert "technical.integration_help" in reached(turn) and "account.security" not in reached(turn), said(turn)
    call = await open_call("C1001")
    turn = await call.send("are the webhooks ok today")
    assert "technical.service_status" in reached(turn), said(turn)


async def test_news_of_an_outage_is_the_status_board(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("any news on the five hundreds outage")
    assert "technical.service_status" in reached(turn), said(turn)


async def test_a_thing_listed_with_also_is_a_need_of_its_own(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("could you look at my balance, and also my ticket, and whether the service is down right now")
    assert {"billing.balance", "technical.ticket_status", "technical.service_status"} <= reached(turn), said(turn)


async def test_a_status_question_is_no_closure(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("we get five hundreds all morning. is the whole thing down at your end?")
    assert "account.close_account" not in reached(turn) and "incident" in said(turn), said(turn)


async def test_a_story_beside_needs_asks_nothing(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("so i just got back from the dentist, don't ask, my whole face is numb so sorry if i sound strange. "
                           "anyway i want to go up to pro, and what was on last month's invoice")
    assert "Just so I get this right" not in said(turn) and "two-factor" not in said(turn), said(turn)
    assert "Pro plan" in said(turn), said(turn)


async def test_a_charge_the_caller_cannot_place_is_the_invoices(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("there's a payment from you on my statement and i honestly don't remember what it's for")
    assert "billing.invoices" in reached(turn) and "signing in" not in said(turn), said(turn)


def test_portuguese_that_shares_spanish_words_is_portuguese() -> None:
    assert detect_language("a api está dando erro quinhentos, o que está acontecendo?") == "pt"
    assert detect_language("por qué me sale el error cuatro cero uno cuando llamo a la api") == "es"


async def test_pausing_instead_of_closing_is_answered_and_asked_again(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("i'd like to close my account")
    turn = await call.send("hmm could i put the account on hold for a few months instead?")
    assert "no way to pause" in said(turn) and "Shall I go ahead with the request to close" in said(turn), said(turn)


async def test_a_no_that_goes_on_to_another_need_reads_that_one_back(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("please close the account")
    turn = await call.send("nah, in that case just put me on pro")
    assert "To confirm: switch account C1003 to the Pro plan" in said(turn), said(turn)
    assert store.list_work(customer_id="C1003") == []


async def test_the_cheapest_one_at_a_read_back_is_starter(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("drop us down to pro")
    turn = await call.send("no sorry, i got that wrong, the cheapest one")
    assert "Starter plan" in said(turn) and "Shall I go ahead" in said(turn), said(turn)


async def test_is_it_down_with_server_errors_is_the_status_board(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("salut, l'api est en panne? nous avons des erreurs partout")
    assert "technical.service_status" in reached(turn) and "incident" in said(turn), said(turn)


async def test_spending_too_much_asks_for_the_options(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("my manager reckons we're spending too much with you lot, what are our options")
    assert "billing.plan_change" in reached(turn) and "Starter" in said(turn) and "To confirm" not in said(turn), said(turn)


async def test_a_key_asked_back_on_is_the_diagnosis(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("so the api key thing, could you switch it back on for me")
    assert "technical.api_errors" in reached(turn) and "401" in said(turn), said(turn)


async def test_also_after_a_subject_cuts_no_clause(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("our webhooks keep failing, and separately i also need last month's invoice")
    assert "billing.refund" not in reached(turn) and "billing.invoices" in reached(turn), said(turn)


async def test_a_refund_someone_else_asked_for_before_is_its_status(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("someone on my team asked you for money back a while ago, did that go anywhere")
    assert "billing.refund_status" in reached(turn) and "To confirm" not in said(turn), said(turn)


async def test_a_bare_fine_to_a_read_back_is_asked_again(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("refund that duplicate forty nine")
    turn = await call.send("fine.")
    assert "yes or a no" in said(turn), said(turn)
    assert store.list_work(customer_id="C1001") == [] and "refunded" not in said(turn)


async def test_a_phone_lost_with_the_codes_is_the_two_factor_reset(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("my phone went in the washing machine and now signing in wants the code from the authenticator app")
    assert "account.two_factor_reset" in reached(turn), said(turn)


async def test_what_works_fine_and_what_not_to_send_ask_for_nothing(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("just so you know the dashboard login is fine. the api key gets refused on every call. "
                           "so don't send me a password reset")
    assert "password reset link" not in said(turn) and "technical.api_errors" in reached(turn), said(turn)


async def test_my_plan_cost_is_the_balance(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("so what's my plan cost again")
    assert "billing.balance" in reached(turn) and "999" in said(turn), said(turn)
