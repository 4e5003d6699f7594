"""Callers' turns found by the callers10 dev part (issue 25), in other words than the part's:
a turn that ends on a farewell ends the call whatever came before it unless a need did; a need
the out-of-scope floor doubted beside sure ones is heard; a need corrected in the same breath
is replaced; a customer number or ZIP corrected in the same breath is the corrected one.
"""

from __future__ import annotations

from callcenter.routing import Intent
from callcenter.spoken import normalise
from callcenter.store import Store


def said(turn) -> str:
    return " ".join(turn.replies)


async def test_a_misdial_then_a_farewell_ends_the_call(open_call, store: Store) -> None:
    call = await open_call()
    turn = await call.send("oops, dialled the wrong number sorry. goodbye")
    assert "goodbye" in said(turn).lower() and "customer number" not in said(turn), said(turn)


async def test_words_no_list_holds_then_a_farewell_end_the_call(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("are you having an outage right now")
    turn = await call.send("right, that answers it, gotta run")
    assert "goodbye" in said(turn).lower() and "ticket" not in said(turn), said(turn)


async def test_a_shrug_then_a_farewell_leaves_a_refusal(open_call, store: Store) -> None:
    call = await open_call("C1005")
    first = await call.send("i want a refund")
    assert "can't be refunded" in said(first), said(first)
    turn = await call.send("meh fine. bye then")
    assert "goodbye" in said(turn).lower() and "can't be refunded" not in said(turn), said(turn)


async def test_a_need_the_floor_doubts_alone_is_heard_beside_sure_ones(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("can you read me my balance. oh and tell me why i'm being throttled")
    assert "$" in said(turn) and "429" in said(turn), said(turn)
    assert "Just so I get this right" not in said(turn)
    # the clause alone, under a floor that doubts it (the router calibrated in session 15 put
    # it at 0.16, under its floor), asked beside a sure need: its best reading
    router = call.state.router
    doubted = Intent("oos", 0.9, "tell me why i'm being throttled", (("technical/api_errors", 0.9),))
    assert router._asked_beside_needs(doubted).label == "technical/api_errors"
    assert router._asked_beside_needs(Intent("oos", 0.9, "book me a flight", (("technical/api_errors", 0.9),))).label == "oos"


async def test_a_need_corrected_in_the_same_breath_is_replaced(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("i need my invoices, no wait, sorry, i mean the balance. how much do i owe")
    assert "balance" in said(turn) and "INV-" not in said(turn), said(turn)


def test_an_id_or_zip_corrected_in_the_same_breath_is_the_corrected_one() -> None:
    assert normalise("c one zero zero four... no sorry, c one zero zero one") == "C1001"
    assert normalise("c one oh oh three, zip six oh six one oh, no wait, six oh six oh one") == "C1003, zip 60601"


async def test_a_corrected_zip_verifies(open_call, store: Store) -> None:
    call = await open_call()
    await call.send("what do i owe you")
    turn = await call.send("c one zero zero five, zip nine seven two one oh, no sorry, nine seven two oh one")
    assert call.state.caller.verified and call.state.caller.customer_id == "C1005", said(turn)


async def test_a_key_that_isnt_working_is_the_api_key(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("hey so the key we use isn't working anymore")
    assert "401" in said(turn) or "revoked" in said(turn), said(turn)
    assert "password reset" not in said(turn)


async def test_a_sign_in_the_caller_cannot_recall_is_security(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("the dashboard showed a sign in last night, i don't remember that being me")
    assert "password reset" not in said(turn) and "sign-in" in said(turn), said(turn)


async def test_the_plan_left_with_a_word_of_degree_is_not_the_one_wanted(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("take us down to pro, we're hardly using enterprise")
    assert "To confirm" in said(turn) and "Pro plan" in said(turn), said(turn)


async def test_an_assent_opening_a_closure_is_no_plan_change(open_call, store: Store) -> None:
    call = await open_call("C1005")
    turn = await call.send("just go ahead and close out the account please")
    assert "close account C1005" in said(turn) and "plan" not in said(turn).lower(), said(turn)


async def test_what_happens_if_i_say_yes_hears_the_read_back_in_full(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("i'd like to close my account")
    turn = await call.send("hmm what would happen to our stored stuff if i do")
    assert "30 days" in said(turn) and "Shall I go ahead" in said(turn), said(turn)
    assert store.list_work(customer_id="C1005") == []


async def test_what_are_our_options_is_part_of_the_need_before_it(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("pro is more than we want to spend, what are our options")
    assert "Starter" in said(turn) and "integration" not in said(turn).lower(), said(turn)


async def test_is_that_why_after_an_incident_reads_the_callers_own_traffic(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("is your api down")
    turn = await call.send("is that why our integration is failing")
    assert "5xx" in said(turn) or "server errors" in said(turn), said(turn)


async def test_asked_to_act_after_a_question_it_is_read_back_once(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("we get 429 errors all the time, would upgrading make a difference?")
    turn = await call.send("ok then, switch us over to pro")
    assert "To confirm" in said(turn), said(turn)
    turn = await call.send("yep")
    assert "now on the Pro plan" in said(turn), said(turn)


async def test_a_plans_price_asked_in_another_language_is_answered_in_english(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("hallo, wie viel kostet der enterprise plan?")
    assert "$999.00" in said(turn) and "To confirm" not in said(turn), said(turn)
    assert store.list_work(customer_id="C1001") == []


async def test_a_plans_price_beside_another_question_is_looked_up_with_it(open_call, store: Store) -> None:
    # a guard: answered before too (by the plan change's own question path), now by its lookup
    call = await open_call("C1002")
    turn = await call.send("what do i owe right now, and how much does the starter plan cost")
    assert "$49.00" in said(turn) and "balance" in said(turn) and "To confirm" not in said(turn), said(turn)


async def test_whether_something_is_wrong_now_in_french_is_the_status_board(open_call, store: Store) -> None:
    call = await open_call("C1005")
    turn = await call.send("bonsoir, est-ce que votre api a un problème là ?")
    assert "Désolé" in said(turn) and "incident" in said(turn), said(turn)


def test_portuguese_with_spanish_accents_is_portuguese() -> None:
    from callcenter.llm.language import detect_language

    assert detect_language("olá, como eu mudo o plano?") == "pt"
    assert detect_language("hola, ¿cuánto debo este mes?") == "es"


async def test_a_question_in_another_language_from_an_unknown_caller_is_answered_once_verified(open_call, store: Store) -> None:
    call = await open_call()
    turn = await call.send("buongiorno, quanto devo pagare questo mese?")
    assert "customer number" in said(turn) and "Mi dispiace" in said(turn), said(turn)
    turn = await call.send("c one zero zero four, three zero three zero one")
    assert call.state.caller.verified and "$49.00" in said(turn), said(turn)


def test_everyday_italian_and_portuguese_are_told_apart_from_noise_and_english() -> None:
    from callcenter.llm.language import detect_language, farewell_language

    assert detect_language("salve, quanto devo adesso?") == "it"
    assert detect_language("quero mudar de plano, tá caro pra gente") == "pt"
    assert farewell_language("tá bom, brigada") == "pt"


async def test_a_farewell_in_another_language_ends_a_task_waiting_on_a_question(open_call, store: Store) -> None:
    call = await open_call()
    asked = await call.send("i need to reset my password")
    assert "customer number" in said(asked), said(asked)
    turn = await call.send("ah non, tant pis, merci, au revoir")
    assert "goodbye" in said(turn).lower() and "customer number" not in said(turn), said(turn)


async def test_what_the_plans_cost_needs_no_customer_number(open_call, store: Store) -> None:
    call = await open_call()
    turn = await call.send("hi, how much does the pro plan cost per month?")
    assert "$249.00" in said(turn) and "customer number" not in said(turn), said(turn)
    assert not call.state.caller.verified


async def test_a_shrugged_yes_written_as_a_question_confirms(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("move me up to the pro plan")
    turn = await call.send("Eh, sure, why not?")
    assert "now on the Pro plan" in said(turn), said(turn)
