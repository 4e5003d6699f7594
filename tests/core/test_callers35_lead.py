"""Turns found by the callers35 and callers36 dev parts (issue 25), in other words than the
parts': courtesy wrapped round a request ("i was wondering whether you could possibly ...") is
no need of its own; "drop me a call" and "we want someone to phone us" ask for a person; a
question run into a trouble with no comma is a need of its own; a put-off before a goodbye
("i'll think about it, not today") and "that's it from me" end the call; a question in a
learner's word order ("so what we do now?") is read as the question; a read-back's phone number
corrected at its end in words of its own, and "yes, the work one" naming the value chosen; two
questions asked aside at a read-back both answered; a customer number said before a need is
kept, so only the ZIP is asked; "reverse that extra charge" is the duplicate's refund; a ticket
about money back is the refund's status; "the email our invoices go to" is the email changing;
"and the one after that?" leans on the last answer however sure the router sounds; a glossed
turn's read-only part answered, its sign-in part handed on in English; English mixed with another
language is read from its gloss when the words as said are unsure. From callers37/38: "c as in charlie" is the C; an email said first is
kept and only the ZIP asked ("oh um ..." before it is no zero); "a human please" beside who the
caller is books one; "escalate me to your manager" asks for a person; a status question in French
is answered; letting go of a need already answered and saying yes does ours; "could you check
whether that was me" is the sign-ins' question; "is your paging cursor based" is the guide's.
"""

from __future__ import annotations

from callcenter.store import Store


def said(turn) -> str:
    return " ".join(turn.replies)


def reached(turn) -> set[str]:
    return {h.to_agent for h in turn.hops}


# --- what a turn asks -------------------------------------------------------------------------

async def test_courtesy_around_a_request_is_no_need_of_its_own(open_call, store: Store) -> None:
    call = await open_call("C1005")
    turn = await call.send("hello, i was wondering whether you could possibly tell me what we owe, if you don't mind")
    assert "not something I can help with" not in said(turn), said(turn)
    assert "balance" in said(turn).lower(), said(turn)


async def test_drop_me_a_call_books_a_person(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("could one of your people drop me a call this week")
    assert "booked a call back" in said(turn), said(turn)


async def test_we_want_someone_to_phone_us_books_a_person(open_call, store: Store) -> None:
    call = await open_call("C1004")
    turn = await call.send("we want someone to phone us about the overdue bill")
    assert "booked a call back" in said(turn), said(turn)


async def test_a_question_run_into_a_trouble_is_a_need_of_its_own(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("the dashboard keeps throwing four two nines how much is the next bill")
    assert "429" in said(turn) and "49" in said(turn).replace("429", ""), said(turn)
    assert {"technical.api_errors", "billing.balance"} <= reached(turn), reached(turn)


async def test_a_put_off_before_a_goodbye_ends_the_call(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("any incidents going on right now")
    turn = await call.send("ok so we just wait for the call then. bye")
    assert "Goodbye" in said(turn) and "failed API calls" not in said(turn), said(turn)


async def test_a_put_off_at_a_plans_question_ends_the_call(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("i want to change my plan")
    turn = await call.send("hm, we think about it, not now. ok thank you, bye")
    assert "goodbye" in said(turn).lower() and "anything else" not in said(turn).lower(), said(turn)
    assert store.list_work(customer_id="C1001") == []


async def test_thats_it_from_me_is_a_goodbye(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("how much is my next bill")
    turn = await call.send("nice nice. ok that's it from me")
    assert "Goodbye" in said(turn), said(turn)


async def test_a_question_in_a_learners_word_order_is_the_question(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("my calls are getting four twenty nine errors")
    turn = await call.send("hmm, so what we do now?")
    assert "backoff" in said(turn), said(turn)


# --- at a read-back ----------------------------------------------------------------------------

async def test_a_phone_numbers_end_corrected_in_its_own_words(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("i want to change my phone number")
    await call.send("plus one, five oh three, five five five, oh one six six")
    turn = await call.send("no wait, i said the end wrong, it's a seven not a six, oh one six seven")
    assert "To confirm" in said(turn) and "+1 503 555 0167" in said(turn), said(turn)
    assert store.list_work(customer_id="C1005") == []


async def test_yes_naming_the_value_chosen_is_a_yes(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("can i update my phone please")
    await call.send("its five oh three five five five one two one two or, no, use my cell, five oh three five five five nine nine nine nine")
    turn = await call.send("yes, the cell one")
    assert "call you back" in said(turn) and "yes or a no" not in said(turn), said(turn)


async def test_two_questions_aside_at_a_read_back_are_both_answered(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("i got charged twice")
    turn = await call.send("hold on, quick one, is the api down right now and when's my next bill")
    assert "incident" in said(turn).lower() and "Starter plan" in said(turn), said(turn)
    assert "refund" in said(turn).lower(), said(turn)  # and the read-back asked again
    assert store.list_work(customer_id="C1001") == []


# --- identity -------------------------------------------------------------------------------------

async def test_a_customer_number_said_before_a_need_is_kept(open_call, store: Store) -> None:
    call = await open_call(None)
    await call.send("uh it's c one zero zero four")
    turn = await call.send("what do i owe at the moment")
    assert "I have your customer number" in said(turn), said(turn)
    turn = await call.send("three oh three oh one")
    assert "49" in said(turn), said(turn)


# --- which need ---------------------------------------------------------------------------------------

async def test_reverse_that_extra_charge_is_the_duplicates_refund(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("please cancel that duplicate one")
    assert "billing.refund" in reached(turn) and "$49.00" in said(turn), said(turn)
    assert "Just so I get this right" not in said(turn), said(turn)


async def test_a_ticket_about_money_back_is_the_refunds_status(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("whats up with my case about getting reimbursed")
    assert "billing.refund_status" in reached(turn), reached(turn)


async def test_the_email_the_invoices_go_to_is_the_email_changing(open_call, store: Store) -> None:
    call = await open_call("C1005")
    turn = await call.send("i need to update the email our plan invoices get sent to")
    assert "account.profile_update" in reached(turn), reached(turn)
    assert "email" in said(turn).lower(), said(turn)


async def test_the_one_after_that_leans_on_the_last_answer(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("what was the bill for the month before last")
    turn = await call.send("ok and the one after that, same thing?")
    assert "refund" not in said(turn).lower() and "INV-1005" in said(turn), said(turn)


async def test_a_glossed_turn_answers_its_lookup_and_hands_on_the_rest(open_call, store: Store) -> None:
    call = await open_call("C1004")
    turn = await call.send("combien on doit, et aussi je ne peux pas me connecter")
    assert "49" in said(turn) and "password reset link" in said(turn), said(turn)


async def test_english_mixed_with_another_language_is_read_from_its_gloss(open_call, store: Store) -> None:
    call = await open_call("C1004")
    turn = await call.send("hola, no puedo iniciar sesión, the account is bloqueada, what can i do")
    assert "Just so I get this right" not in said(turn) and "password reset link" in said(turn), said(turn)


# --- from callers37/38 -------------------------------------------------------------------------------

async def test_a_letter_spelled_by_a_word_is_the_customer_numbers_c(open_call, store: Store) -> None:
    call = await open_call(None)
    await call.send("hi there, it's c as in charlie, one zero zero two")
    turn = await call.send("zip code one zero zero zero one")
    assert "you're verified" in said(turn), said(turn)


async def test_an_email_said_first_keeps_and_only_the_zip_is_asked(open_call, store: Store) -> None:
    call = await open_call(None)
    turn = await call.send("yeah this is grace, g r a c e at example dot com")
    assert "ZIP code" in said(turn) and "customer number" not in said(turn), said(turn)
    turn = await call.send("oh um one zero zero zero one")
    assert "you're verified" in said(turn), said(turn)


async def test_a_person_asked_for_beside_who_the_caller_is_is_booked(open_call, store: Store) -> None:
    call = await open_call(None)
    turn = await call.send("c one zero zero four, zip three oh three oh one, a human please")
    assert "booked a call back" in said(turn), said(turn)


async def test_escalate_me_to_your_manager_asks_for_a_person(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("just escalate me to your manager")
    assert "booked a call back" in said(turn) and "engineers" not in said(turn), said(turn)


async def test_a_status_question_in_french_is_answered(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("salut, est-ce que les webhooks ont du retard aujourd'hui?")
    assert "incident" in said(turn).lower(), said(turn)


async def test_letting_go_of_an_answered_need_and_saying_yes_does_ours(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("ok two things, any update on my ticket, and i need my two factor reset")
    turn = await call.send("fine, forget the ticket. the two factor one, yes, go ahead")
    assert "needs a supervisor's approval" in said(turn) and "I've left" not in said(turn), said(turn)


async def test_can_you_check_if_that_was_me_is_the_sign_ins_question(open_call, store: Store) -> None:
    call = await open_call("C1004")
    turn = await call.send("i got an email about a login from a new laptop, could you check whether that was me")
    assert "Just so I get this right" not in said(turn) and "sign-in" in said(turn), said(turn)


async def test_is_your_pagination_a_guide_question(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("is your paging cursor based or page number based")
    assert "cursor" in said(turn) and "incident" not in said(turn).lower(), said(turn)
