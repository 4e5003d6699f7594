"""Turns found in session 40 (callers75: every class in another language or mixed with English;
callers76: several needs across departments; callers77: needs easy to send to the wrong place;
and the one unsafe call of blind3 and of blind30, read for safety), in other words than the parts'.
Each failed on d4fc1f4, but the last: it guards the no beside the new yes-with-a-goodbye reading
(a no with thanks and a farewell in another language still changes nothing), and passed before too.

What they hold: a refund asked for one reason the records do not show is told and offered, not
read back as the one asked for; a change or a lock asked in another language is offered before its
read-back, several at once each in turn, with the email or phone said beside them; an amount in
dollars said in French keeps its figure; English inside a foreign sentence and a German compound are
read; a foreign clause beside English is read from its gloss; a yes with a goodbye in any language
does the change, then ends; a thing read back and taken back by name stops; what was understood said
back is a question; "first thing ..., second thing ..." is a list; a bill shown as late is the
balance; a tier down beside a cost is a move; whether engineering has a ticket opens none; working
again is the status board; a follow-up after two answers follows the one it fits; two needs after an
answer are needs; a Portuguese question is no noise; a key refused in French is the diagnosis; a
question in another language at a read-back gets the notice and changes nothing read back; paying
less in French is a plan down; an identity in Italian verifies and asks nothing else; "no sé" is no
no; a password changed "non sono stata io" is the security review.
"""

from __future__ import annotations

from callcenter.store import Store
from domains.billing.ledger import Ledger


def said(turn) -> str:
    return " ".join(turn.replies)


async def test_a_double_charge_claimed_where_only_an_outage_credit_is_owed_is_offered_not_read_back(
        open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("so um pretty sure you guys billed me two times this month, i want that back")
    assert "don't see a charge taken twice" in said(turn) and "To confirm" not in said(turn), said(turn)
    await call.send("hm alright whatever")
    assert store.list_work(customer_id="C1003") == [] and Ledger(store).list_refunds("C1003") == []


async def test_the_offered_credit_is_read_back_on_a_yes_and_filed_on_a_second(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("you double charged us i think, refund it please")
    turn = await call.send("yeah go on then")
    assert "To confirm: a refund" in said(turn) and store.list_work(customer_id="C1003") == [], said(turn)
    await call.send("yes")
    assert [w.id for w in store.list_work(customer_id="C1003")] == ["refund-CH-1003-1"]


async def test_a_lock_asked_in_spanish_is_offered_before_its_read_back(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("buenas, necesito que me bloqueen la cuenta ya, creo que me la robaron")
    assert "account locked" in said(turn) and "To confirm" not in said(turn), said(turn)
    turn = await call.send("sí por favor")
    assert "To confirm: lock" in said(turn) and not store.get_customer("C1001").locked, said(turn)
    await call.send("yes")
    assert store.get_customer("C1001").locked


async def test_a_yes_said_with_goodbye_in_another_language_does_the_change_then_ends(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("bump us up to enterprise please")
    turn = await call.send("sí, gracias, adiós")
    assert "now on the Enterprise plan" in said(turn) and "goodbye" in said(turn).lower(), said(turn)
    assert Ledger(store).current_plan("C1002").id == "enterprise"


async def test_a_yes_then_being_done_for_the_day_still_pays_the_refund(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("refund the charge that went through twice and after that reset my two factor")
    turn = await call.send("yes. um actually that's all for today, bye")
    assert "refunded" in said(turn) and "goodbye" in said(turn).lower(), said(turn)
    assert [r.amount_cents for r in Ledger(store).list_refunds("C1001")] == [4900]
    assert store.list_work(customer_id="C1001") == []


async def test_the_thing_read_back_taken_back_by_name_stops_it(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("please update my email to linus at newlab dot io")
    turn = await call.send("ah scratch the email thing")
    assert "stopped" in said(turn) and "Shall I go ahead" not in said(turn), said(turn)
    assert store.list_work(customer_id="C1001") == []


async def test_a_refund_taken_back_by_name_is_not_read_back_again(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("the double charge, refund it")
    turn = await call.send("hmm forget the refund actually")
    assert "nothing was changed" in said(turn) and "To confirm" not in said(turn), said(turn)
    assert Ledger(store).list_refunds("C1001") == []


async def test_a_foreign_clause_beside_english_is_read_in_english_not_as_two_factor(open_call, store: Store) -> None:
    call = await open_call("C1004")
    turn = await call.send("oye dos cosas cuánto debo and also i'm locked out, can't log in")
    assert "$49.00" in said(turn) and "two-factor" not in said(turn), said(turn)
    assert store.list_work(customer_id="C1004") == []


async def test_part_of_a_refund_asked_in_french_dollars_is_read_back_as_that_part(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("je veux juste quinze dollars remboursés sur le double prélèvement")
    turn = await call.send("oui")
    assert "$15.00" in said(turn) and "$49.00" not in said(turn), said(turn)


async def test_english_said_inside_a_german_sentence_is_answered(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("guten tag zwei dinge is there an outage at the moment und bitte schließen sie mein konto")
    assert "incident" in said(turn) and "closing your account" in said(turn), said(turn)
    assert store.list_work(customer_id="C1002") == []


async def test_two_changes_asked_in_german_are_offered_then_read_back_one_at_a_time(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("ich will zum pro tarif wechseln und meine telefonnummer ändern auf plus one four one five five five five one two three four")
    assert "plan change" in said(turn) and "To confirm" not in said(turn), said(turn)
    turn = await call.send("ja")
    assert "To confirm: switch account C1001 to the Pro plan" in said(turn), said(turn)
    turn = await call.send("ja")
    assert "now on the Pro plan" in said(turn) and "To confirm: change the phone number" in said(turn), said(turn)


async def test_what_was_understood_said_back_at_a_read_back_is_a_question_not_a_no(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("can you put my email as grace at hopperlabs dot io")
    turn = await call.send("hang on so it isn't changed straight away")
    assert "Shall I go ahead" in said(turn) and "won't go ahead" not in said(turn), said(turn)
    turn = await call.send("ok yes")
    assert "call you back" in said(turn), said(turn)


async def test_a_list_said_as_first_thing_and_second_thing_is_two_needs(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("first thing how are we meant to sign our api requests, second thing is there a refund waiting for us")
    assert "the integration question" in said(turn) and "a technical problem" not in said(turn), said(turn)


async def test_a_payment_shown_as_late_is_the_balance_and_how_to_pay_follows_it(open_call, store: Store) -> None:
    call = await open_call("C1004")
    turn = await call.send("why does it say my bill is late")
    assert "$49.00" in said(turn) and "Just so I get this right" not in said(turn), said(turn)
    turn = await call.send("right so how do i pay that")
    assert "dashboard" in said(turn), said(turn)


async def test_a_tier_down_said_beside_a_cost_is_a_move_not_the_price_list(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("we need to cut costs so knock us down a tier and what was our last invoice")
    assert "To confirm: switch account C1003 to the Pro plan" in said(turn), said(turn)
    await call.send("yes")
    assert Ledger(store).current_plan("C1003").id == "pro"


async def test_asking_if_engineering_has_a_ticket_opens_none(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("can you check if your engineers have a ticket for us already")
    assert "opened ticket" not in said(turn) and "tickets" in said(turn), said(turn)


async def test_asking_whether_something_works_again_is_the_status_board(open_call, store: Store) -> None:
    call = await open_call("C1005")
    turn = await call.send("are the webhooks being delivered properly again")
    assert "Delayed webhook deliveries" in said(turn), said(turn)


async def test_what_to_do_after_two_answers_follows_the_one_with_something_to_do(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("we keep hitting five hundreds and how much do we owe")
    turn = await call.send("ok so what are we meant to do then")
    assert "backoff" in said(turn) and "charged automatically" not in said(turn), said(turn)


async def test_when_it_ends_after_an_incident_and_an_invoice_is_the_incident(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("is anything down right now, and what was my last invoice")
    turn = await call.send("and when will it be over")
    assert "INC-42" in said(turn), said(turn)


async def test_two_new_needs_after_a_refund_are_answered_not_taken_as_about_it(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("you charged me twice, i want it back")
    await call.send("yes")
    turn = await call.send("and what's my balance, and how long will the outage last")
    assert "balance" in said(turn) and "incident" in said(turn), said(turn)


async def test_a_question_in_portuguese_is_not_taken_for_noise(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("quem fez essas tentativas?")
    assert "didn't catch" not in said(turn) and "English" in said(turn), said(turn)


async def test_a_key_refused_in_french_is_the_diagnosis(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("pourquoi ma clé est refusée par l'api")
    assert ("401" in said(turn) or "key" in said(turn).lower()) and "Developers, Keys" not in said(turn), said(turn)


async def test_a_german_compound_of_errors_is_read(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("wir sehen seit heute morgen viele serverfehler")
    assert "incident" in said(turn), said(turn)


async def test_an_italian_yes_with_its_goodbye_does_the_change(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("move me up to pro")
    turn = await call.send("sì, perfetto, grazie, arrivederci")
    assert "now on the Pro plan" in said(turn) and "goodbye" in said(turn).lower(), said(turn)
    assert Ledger(store).current_plan("C1001").id == "pro"


async def test_a_german_question_at_a_read_back_gets_the_notice_and_a_german_yes_does_it(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("the double charge, refund it")
    turn = await call.send("wie lange dauert das")
    assert "Englisch" in said(turn) and "shall i go ahead" in said(turn).lower(), said(turn)
    turn = await call.send("ja, machen sie das")
    assert "refunded" in said(turn), said(turn)


async def test_a_price_asked_in_italian_at_a_read_back_changes_nothing_read_back(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("we'd like to step down to pro")
    turn = await call.send("e quanto costa invece lo starter?")
    assert "Starter plan" not in said(turn), said(turn)
    await call.send("yes")
    assert Ledger(store).current_plan("C1003").id == "pro"


async def test_paying_less_said_in_french_is_offered_then_read_back_a_plan_down(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("c'est trop cher, on veut payer moins")
    assert "plan change" in said(turn), said(turn)
    turn = await call.send("oui")
    assert "To confirm: switch account C1002 to the Starter plan" in said(turn), said(turn)


async def test_an_identity_said_in_italian_verifies_and_asks_nothing_else(open_call, store: Store) -> None:
    call = await open_call(None)
    turn = await call.send("cliente c uno zero zero cinque cap nove sette due zero uno")
    assert "verified" in said(turn) and "API" not in said(turn), said(turn)


async def test_i_dont_know_in_spanish_at_a_read_back_is_no_no(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("refund that duplicate charge")
    turn = await call.send("no sé, mejor quiero hablar con alguien")
    assert "won't go ahead" not in said(turn) and "a person" in said(turn), said(turn)
    assert Ledger(store).list_refunds("C1001") == []


async def test_a_password_changed_not_by_me_in_italian_is_the_security_review(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("qualcuno ha cambiato la mia password, non sono stata io")
    assert "sign-in" in said(turn) and "reset link" not in said(turn), said(turn)


async def test_a_yes_then_thanks_and_goodbye_in_german_without_commas_does_it(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("the second charge of forty nine, refund it")
    turn = await call.send("ja vielen dank tschüss")
    assert "refunded" in said(turn) and "goodbye" in said(turn).lower(), said(turn)
    assert [r.amount_cents for r in Ledger(store).list_refunds("C1001")] == [4900]


async def test_a_no_then_thanks_and_goodbye_in_french_changes_nothing(open_call, store: Store) -> None:
    """A guard, not a failure before: the yes-with-a-goodbye reading above must leave a no a no."""
    call = await open_call("C1001")
    await call.send("the second charge of forty nine, refund it")
    turn = await call.send("non merci au revoir")
    assert "goodbye" in said(turn).lower() and "refunded" not in said(turn), said(turn)
    assert Ledger(store).list_refunds("C1001") == []
