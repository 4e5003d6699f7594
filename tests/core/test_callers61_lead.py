"""Turns found by the session-36 dev work (callers61: callers as a telephone recogniser writes
them; callers62: long calls whose needs unfold), in other words than the parts': who the caller
is, said in answer to a department's clarifying question, verifies them and the question is asked
once more; a refund's amount changed at its read-back ("make it the full forty nine") is read back
anew, and "twenty five back" names the amount; what the plans cost is told to a caller not yet
verified; a question comparing plans while the identity question is pending is answered, not a
crash; a recogniser's homophones ("thanks by", "know thanks", "c one oh oh for", "nine seven to
oh one") are read as meant; the API "falling over" is the status board; "what kind of plans"
and "what do they run" ask the price list. Each failed on 2412d59, but the guard that a wrong
identity said at the clarifying question verifies nobody (it held there too: it guards the new
path).
"""

from __future__ import annotations

from callcenter.store import Store
from domains.billing.ledger import Ledger


def said(turn) -> str:
    return " ".join(turn.replies)


def reached(turn) -> set[str]:
    return {h.to_agent for h in turn.hops}


async def test_who_the_caller_is_said_at_a_clarifying_question_verifies_them_and_asks_it_again(open_call) -> None:
    call = await open_call()
    asked = await call.send("hi there i need some help with my account")
    question = said(asked)
    assert "is it about" in question, question
    turn = await call.send("yeah of course, it's c one zero zero two and my zip is one zero zero zero one")
    assert "verified" in said(turn) and said(turn).endswith(question), said(turn)
    assert call.state.caller.customer_id == "C1002"


async def test_a_wrong_identity_at_a_clarifying_question_is_not_taken(open_call) -> None:
    call = await open_call()
    await call.send("hi there i need some help with my account")
    turn = await call.send("sure, c one zero zero two, zip nine nine nine nine nine")
    assert "verified" not in said(turn) and not call.state.caller.verified, said(turn)


async def test_a_refunds_amount_changed_at_its_read_back_is_read_back_anew(open_call, store: Store) -> None:
    call = await open_call("C1001")
    first = await call.send("you billed me twice this month, just send me twenty dollars back")
    assert "$20.00" in said(first), said(first)
    changed = await call.send("hmm no, actually make it the full forty nine")
    assert "To confirm" in said(changed) and "$49.00" in said(changed), said(changed)
    assert Ledger(store).list_refunds("C1001") == []
    await call.send("yes go ahead")
    assert [r.amount_cents for r in Ledger(store).list_refunds("C1001")] == [4900]


async def test_a_bare_number_said_as_a_change_at_the_read_back_is_the_amount(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("there's a duplicate charge on my card, can you refund it")
    changed = await call.send("oh wait, just thirty five then")
    assert "$35.00" in said(changed) and "To confirm" in said(changed), said(changed)
    assert Ledger(store).list_refunds("C1001") == []


async def test_an_amount_asked_back_without_dollars_is_the_amount(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("you took the payment twice, could i get twenty five back please")
    assert "$25.00" in said(turn) and "$49.00" not in said(turn), said(turn)
    assert Ledger(store).list_refunds("C1001") == []


async def test_what_the_plans_cost_is_told_to_a_caller_not_yet_verified(open_call) -> None:
    call = await open_call()
    await call.send("hi")
    turn = await call.send("what kind of plans do you offer and what do they run")
    assert "$249.00" in said(turn) and "verify" not in said(turn), said(turn)
    assert not call.state.caller.verified


async def test_a_plan_comparison_at_the_identity_question_is_answered_then_asked_again(open_call) -> None:
    call = await open_call()
    asked = await call.send("i'd like to move to another plan")
    assert "customer number" in said(asked), said(asked)
    turn = await call.send("hang on, what's the difference between starter and pro first")
    assert "$249.00" in said(turn) and "customer number" in said(turn), said(turn)
    await call.send("ok it's c one zero zero five zip nine seven two oh one")
    assert call.state.caller.customer_id == "C1005"


async def test_thanks_by_from_a_recogniser_ends_the_call(open_call) -> None:
    call = await open_call("C1001")
    await call.send("what's my balance")
    turn = await call.send("lovely thanks by")
    assert "goodbye" in said(turn).lower(), said(turn)


async def test_know_thanks_from_a_recogniser_refuses_the_read_back(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("i think i was charged double, refund it")
    turn = await call.send("know thanks")
    assert "haven't changed" in said(turn) and "refunded" not in said(turn), said(turn)
    assert Ledger(store).list_refunds("C1001") == []


async def test_a_customer_number_with_for_in_it_verifies(open_call) -> None:
    call = await open_call()
    turn = await call.send("hi yeah this is c one oh oh for and the zip is three oh three oh one")
    assert "verified" in said(turn) and call.state.caller.customer_id == "C1004", said(turn)


async def test_a_zip_with_to_in_it_verifies(open_call) -> None:
    call = await open_call()
    turn = await call.send("customer c one zero zero five, zip code nine seven to oh one")
    assert "verified" in said(turn) and call.state.caller.customer_id == "C1005", said(turn)


async def test_the_api_falling_over_is_the_status_board(open_call) -> None:
    call = await open_call("C1003")
    turn = await call.send("is your api falling over at the moment because every request we make is failing")
    assert "technical.service_status" in reached(turn), reached(turn)
