"""Callers' turns found by the callers15 dev part (issue 25), in other words than the part's:
an answer to a read-back or an offer said in the same breath as a goodbye is taken and the
call ends, a yes in the caller's own language confirms, a change asked for in another language
is taken up by a yes to the line's offer, foreign farewells mixed with English end the call,
and the line's one-option or either/or question is answered by a yes or by the need's words.
"""

from __future__ import annotations

from callcenter.store import Store
from domains.billing.ledger import Ledger


def said(turn) -> str:
    return " ".join(turn.replies)


async def test_yes_then_goodbye_to_a_read_back_acts_and_ends_the_call(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("um i got billed twice last month, can i get one back")
    turn = await call.send("yeah go ahead. cheers, bye now")
    assert [r.charge_id for r in Ledger(store).list_refunds()] == ["CH-1001-D"]
    assert "Goodbye" in said(turn) and "anything else" not in said(turn), said(turn)


async def test_no_then_goodbye_drops_the_queued_needs_and_ends_the_call(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("refund the double charge please and also move us down to starter")
    turn = await call.send("nah, leave that one. ok thanks, bye")
    assert "Goodbye" in said(turn) and "Starter plan" not in said(turn), said(turn)
    assert Ledger(store).list_refunds() == [] and store.list_work() == []
    assert Ledger(store).current_plan("C1002").id == "pro"


async def test_declining_an_offer_with_a_goodbye_ends_the_call(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("how much would starter be")
    turn = await call.send("nope, not for now. have a good one")
    assert "Goodbye" in said(turn) and "anything else" not in said(turn), said(turn)
    assert Ledger(store).current_plan("C1005").id == "pro"


async def test_a_yes_in_the_callers_language_confirms_the_read_back(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("i see the same forty nine dollar charge two times, refund one please")
    turn = await call.send("sí, claro")
    assert [r.charge_id for r in Ledger(store).list_refunds()] == ["CH-1001-D"], said(turn)
    call = await open_call("C1004")
    await call.send("my authenticator app is gone, the phone broke")
    turn = await call.send("ja, bitte")
    assert [w.kind for w in store.list_work()] == ["two_factor_reset"], said(turn)


async def test_a_no_in_the_callers_language_refuses_the_read_back(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("i see the same forty nine dollar charge two times, refund one please")
    turn = await call.send("nein, danke")
    assert Ledger(store).list_refunds() == [] and "won't" in said(turn), said(turn)


async def test_a_yes_to_the_offer_after_a_change_asked_in_another_language_reads_it_back(open_call, store: Store) -> None:
    call = await open_call("C1005")
    first = await call.send("buongiorno, vorrei passare al piano starter")
    assert "Would you like me to do that?" in said(first), said(first)
    turn = await call.send("si, yes please")
    assert "To confirm: switch account C1005 to the Starter plan" in said(turn), said(turn)
    assert Ledger(store).current_plan("C1005").id == "pro"  # nothing acts before the yes to the read-back
    await call.send("yes")
    assert Ledger(store).current_plan("C1005").id == "starter"


async def test_a_foreign_farewell_beside_english_thanks_ends_the_call(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("what do i owe right now")
    turn = await call.send("thanks, tchau")
    assert "Goodbye" in said(turn), said(turn)


async def test_the_needs_own_words_answer_an_either_or_question(open_call, store: Store) -> None:
    call = await open_call("C1005")
    # (callers15's "get rid of the pro thing, it's way too expensive" is a move down since session
    # 24: a named plan said to cost too much; an ending with nothing named is still asked about)
    first = await call.send("i wanna cancel my subscription, it's way too expensive for a team our size")
    assert "Just so I get this right" in said(first), said(first)
    turn = await call.send("um starter would be ok i guess, do that")
    assert "To confirm: switch account C1005 to the Starter plan" in said(turn), said(turn)
    assert store.list_work() == []  # never the closure


async def test_a_yes_to_a_one_option_question_takes_that_need(open_call, store: Store) -> None:
    call = await open_call("C1005")
    first = await call.send("yeah, starter's fine, do that")
    assert "Just so I get this right: is it about changing your plan?" in said(first), said(first)
    turn = await call.send("yep")
    assert "plan" in said(turn) and "How can I help" not in said(turn), said(turn)


async def test_the_question_left_open_is_asked_again_once_the_caller_is_verified(open_call, store: Store) -> None:
    call = await open_call(None)
    await call.send("hello yes um i'd like to cancel")
    turn = await call.send("it's c one zero zero five and the zip is nine seven two zero one")
    assert "you're verified" in said(turn) and "closing your account, or about changing your plan" in said(turn), said(turn)
    turn = await call.send("closing the account")
    assert "To confirm: close account C1005" in said(turn), said(turn)


async def test_a_follow_up_that_names_another_departments_need_is_that_need(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("what's the balance on the account")
    turn = await call.send("ok and the api key, why won't it work")
    assert "key" in said(turn) and "invoice" not in said(turn), said(turn)
    # a follow-up about the same department's answer stays one
    call = await open_call("C1001")
    await call.send("please refund my duplicate charge")
    await call.send("yes")
    turn = await call.send("and when does it show up on my card?")
    assert "business days" in said(turn), said(turn)


async def test_a_caller_switching_back_to_english_asks_about_the_last_answer(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("bonjour, pourquoi mes appels API donnent une erreur 401 ?")
    turn = await call.send("ok, in english: what do i do now?")
    assert "key" in said(turn) and "balance" not in said(turn), said(turn)


async def test_which_plan_and_its_price_is_answered_without_a_clarifying_question(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("what plan am i on and what does it cost")
    assert "Pro" in said(turn) and "Just so I get this right" not in said(turn), said(turn)
    assert Ledger(store).current_plan("C1002").id == "pro"


async def test_a_question_about_where_the_call_back_goes_is_answered_from_the_read_back(open_call, store: Store) -> None:
    call = await open_call("C1004")
    first = await call.send("i need to update my mobile, it's four oh four, five five five, oh one two three")
    assert "ending 0104" in said(first), said(first)  # the read-back says the call back before the yes
    turn = await call.send("hang on, will you ring the new one or the old one to check?")
    assert "on file" in said(turn) and "Shall I go ahead" in said(turn), said(turn)
    assert store.get_customer("C1004").phone.endswith("0104")


async def test_a_bare_yes_to_an_either_or_question_hears_the_same_question(open_call, store: Store) -> None:
    call = await open_call("C1001")
    first = await call.send("it's about the charge from a few weeks back, there were two of them")
    assert "Just so I get this right" in said(first), said(first)
    turn = await call.send("yeah")
    assert "which of the two" in said(turn) and "is it about a refund or a double charge, or about" in said(turn), said(turn)
    turn = await call.send("the double charge")
    assert "To confirm: a refund of $49.00" in said(turn), said(turn)


async def test_a_question_in_another_language_that_names_only_a_topic_is_answered_by_its_lookup(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("olá, queria saber qual é o meu plano")
    assert "you're on Pro" in said(turn) and "Would you like me to do that" not in said(turn), said(turn)
    assert Ledger(store).current_plan("C1002").id == "pro"
