"""Callers' turns found by the callers12 dev part (issue 25), in other words than the part's:
a set-up question or a sign-in problem asked in another language is helped (in English), a
customer number and ZIP said in another language's digits verify, a farewell of two words in
another language ends a read-back, and a set-up question beside another need is answered in
the same turn.
"""

from __future__ import annotations

from callcenter.spoken import normalise
from callcenter.store import Store
from domains.billing.ledger import Ledger


def said(turn) -> str:
    return " ".join(turn.replies)


async def test_a_set_up_question_in_portuguese_gets_the_guide(open_call, store: Store) -> None:
    call = await open_call()
    turn = await call.send("oi, como faço pra configurar os webhooks de vocês?")
    assert "HTTPS endpoint" in said(turn), said(turn)


async def test_a_paging_question_in_german_gets_the_guide(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("wie funktioniert die paginierung bei eurer api?")
    assert "next_cursor" in said(turn), said(turn)


async def test_a_sign_in_problem_in_french_sends_the_reset_link(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("bonsoir, je n'arrive pas à me connecter à mon compte depuis ce matin")
    assert "reset link" in said(turn), said(turn)
    assert [n.customer_id for n in store.list_notifications()] == ["C1001"]


async def test_an_unlock_offered_in_english_is_never_filed_on_a_foreign_farewell(open_call, store: Store) -> None:
    call = await open_call("C1004")
    first = await call.send("me sale que mi cuenta está bloqueada, no puedo entrar")
    assert "To confirm" in said(first), said(first)
    turn = await call.send("bueno, vale, gracias, hasta luego")
    assert "Adiós" in said(turn) or "goodbye" in said(turn).lower(), said(turn)
    assert store.list_pending_changes() == []


async def test_a_customer_number_and_zip_in_spanish_digits_verify(open_call, store: Store) -> None:
    call = await open_call()
    turn = await call.send("buenas tardes, soy el cliente c uno cero cero cinco, código postal nueve siete dos cero uno")
    assert call.state.caller.verified and call.state.caller.customer_id == "C1005", said(turn)
    assert store.list_work() == [] and store.list_tickets() == []


async def test_an_identity_and_a_question_in_spanish_get_the_answer(open_call, store: Store) -> None:
    call = await open_call()
    turn = await call.send("hola, mi número es c uno cero cero uno y el código postal nueve cuatro uno cero siete. ¿cuánto debo?")
    assert call.state.caller.verified and call.state.caller.customer_id == "C1001", said(turn)
    assert "balance" in said(turn), said(turn)


def test_digits_in_other_languages_are_read_and_english_words_are_left() -> None:
    assert normalise("kundennummer c eins null null zwei, postleitzahl eins null null null eins") == (
        "kundennummer C1002, postleitzahl 10001")
    assert "C1003" in normalise("il mio codice cliente è c uno zero zero tre")
    assert "C1004" in normalise("numéro client c un zéro zéro quatre")
    # words English uses too are no number in an English turn
    assert normalise("we were told the dos and donts, six of them") == "we were told the dos and donts, six of them"
    assert "206" not in normalise("the invoice was due um six weeks ago")


async def test_a_set_up_question_beside_a_balance_question_is_answered_in_the_same_turn(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("two things, whats my balance and how do i check the webhook signature")
    assert "$" in said(turn) and "signature" in said(turn), said(turn)
    assert "Just so I get this right" not in said(turn)


async def test_a_decision_put_off_then_a_farewell_leaves_the_read_back(open_call, store: Store) -> None:
    call = await open_call("C1005")
    first = await call.send("can you move us up to enterprise")
    assert "To confirm" in said(first), said(first)
    turn = await call.send("hmm, i'll have to run it by my manager first. ok thanks bye")
    assert "goodbye" in said(turn).lower(), said(turn)
    assert Ledger(store).current_plan("C1005").id == "pro"


async def test_what_to_do_after_a_diagnosis_said_with_openers_is_about_the_diagnosis(open_call, store: Store) -> None:
    call = await open_call("C1001")
    first = await call.send("why do we keep getting four twenty nines")
    assert "429" in said(first), said(first)
    turn = await call.send("alright so um what are we meant to do about that then")
    assert "balance" not in said(turn) and ("backoff" in said(turn) or "upgrade" in said(turn)), said(turn)


async def test_details_said_with_small_talk_verify_and_ask_nothing_else(open_call, store: Store) -> None:
    call = await open_call()
    turn = await call.send("hello there, got my details handy, customer c one zero zero two and zip one zero zero zero one")
    assert call.state.caller.verified and call.state.caller.customer_id == "C1002", said(turn)
    assert "phone number" not in said(turn) and "email" not in said(turn), said(turn)


async def test_a_smashed_phone_with_the_codes_is_the_two_factor_reset_not_a_closure(open_call, store: Store) -> None:
    call = await open_call("C1005")
    turn = await call.send("ugh my phone got smashed, totally, and my two factor codes were on it")
    assert "two-factor" in said(turn) and "close account" not in said(turn), said(turn)


async def test_an_email_corrected_in_the_same_breath_is_the_corrected_one(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("i need to change my email")
    turn = await call.send("it's g.hopper@example.org, no wait, without the dot, ghopper@example.org")
    assert "ghopper@example.org" in said(turn) and "g.hopper" not in said(turn), said(turn)


async def test_how_to_page_through_a_list_is_set_up_help(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("how can we page through the invoices endpoint, it stops at a hundred")
    assert "next_cursor" in said(turn), said(turn)


async def test_what_a_named_plan_costs_is_the_price_list_not_the_balance(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("ok and um how much is enterprise")
    assert "$999.00" in said(turn) and "balance" not in said(turn), said(turn)


async def test_a_key_that_does_not_work_is_the_diagnosis(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("how come our api key does not work anymore")
    assert "revoked" in said(turn) or "401" in said(turn), said(turn)


async def test_which_plan_the_caller_is_on_is_answered_not_asked(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("hey which plan are we on at the moment?")
    assert "you're on Enterprise" in said(turn) and "plan you want" not in said(turn), said(turn)
    assert Ledger(store).current_plan("C1003").id == "enterprise"


async def test_a_person_asked_for_then_taken_back_for_a_need_books_no_call_back(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("can i talk to an actual person. hmm, no wait, never mind, just tell me what i owe")
    assert "balance" in said(turn) and "call back" not in said(turn), said(turn)
    assert store.list_tickets() == []
