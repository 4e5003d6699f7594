"""Multi-need turns and clauses found by the callers19 and callers20 dev parts (issue 25), in
other words than the parts': a reason said before the request it is for ("..., i want money
back for that") is that request's, an elaboration of the sentence before ("ours ...") and a bare
"what's happening" belong to the need before them, a denial ("and i never did that") or a
"just asking" is no need, a clause read as the closure with no word that ends anything is no
closure beside other needs, an error code, a plan's price or a credit for an outage said in
words the router reads as nothing is still understood, and an English clause beside another
language is read as said.
"""

from __future__ import annotations

from callcenter.store import Store


def said(turn) -> str:
    return " ".join(turn.replies)


async def test_a_reason_before_its_request_is_the_requests(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("our whole integration was down this morning cause of your five hundreds, we want money back for that")
    assert "service-failure credit" in said(turn) and "Just so I get this right" not in said(turn), said(turn)
    assert store.list_work() == []


async def test_the_callers_own_case_said_next_belongs_to_the_need_before(open_call, store: Store) -> None:
    call = await open_call("C1005")
    turn = await call.send("did something happen with webhook deliveries? ours came in hours late a few days ago")
    assert "Delayed webhook deliveries" in said(turn) and "refund" not in said(turn).lower(), said(turn)


async def test_a_denial_and_a_bare_whats_happening_are_no_needs_of_their_own(open_call, store: Store) -> None:
    call = await open_call("C1004")
    turn = await call.send("someone changed my email address last night, and i never did that. what is happening")
    assert "contact details" not in said(turn) and "Just so I get this right" not in said(turn), said(turn)
    assert store.list_work() == []


async def test_just_asking_then_a_farewell_ends_the_call(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("what's my balance and what would enterprise cost me")
    turn = await call.send("no, not switching, just asking. thanks, that's it")
    assert "goodbye" in said(turn).lower() and "Just so I get this right" not in said(turn), said(turn)


async def test_a_clause_with_no_ending_word_is_no_closure_beside_other_needs(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("i see two charges of forty nine on the card, and we only have the one account. so refund one please")
    assert "clos" not in said(turn).lower() and "CH-1001-D" in said(turn), said(turn)
    turn = await call.send("yes")
    assert store.list_work() == [], said(turn)


async def test_an_error_code_the_caller_complains_about_is_their_diagnosis(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("so the 429 thing is doing my head in, but mostly what do i owe")
    assert "rate limit" in said(turn).lower() and "$0.00" in said(turn) and "ticket" not in said(turn), said(turn)


async def test_a_plans_price_and_a_credit_for_an_outage_said_plainly(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("hmm and what would enterprise come to")
    assert "$999.00" in said(turn), said(turn)
    call = await open_call("C1003")
    turn = await call.send("i'd like our credit for the 500s today please")
    assert "service-failure credit" in said(turn), said(turn)
    assert store.list_work() == []


async def test_an_english_clause_beside_another_language_is_read_as_said(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("our calls keep failing, por qué?")
    assert "401" in said(turn), said(turn)


async def test_why_a_credit_is_only_part_of_the_charge_is_answered(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("can i get a credit for the failed calls during the outage")
    turn = await call.send("hang on, how come it's only twenty percent?")
    assert "capped at 20%" in said(turn) and "Shall I go ahead" in said(turn), said(turn)
    assert store.list_work() == []
