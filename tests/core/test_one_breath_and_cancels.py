"""An id and its ZIP read in one breath, and a cancel said twice over at the identity
question (issue 25). Callers' words, phrasings not in the dev suite.
"""

from __future__ import annotations

from callcenter.spoken import normalise
from callcenter.store import Store


def said(turn) -> str:
    return " ".join(turn.replies)


def test_an_id_run_into_its_zip_is_split_where_only_a_zip_fits() -> None:
    assert normalise("yeah its c one zero zero four three zero three zero one") == "yeah its C1004 30301"
    assert normalise("number is see one oh oh one nine four one oh seven") == "number is C1001 94107"


async def test_an_unprompted_id_and_zip_in_one_breath_verify(open_call, store: Store) -> None:
    call = await open_call()
    turn = await call.send("hi um c one zero zero four three zero three zero one")
    assert call.state.caller.verified and call.state.caller.customer_id == "C1004"
    assert "verified" in said(turn)


async def test_the_same_answer_at_the_number_question_verifies(open_call, store: Store) -> None:
    call = await open_call()
    await call.send("can you tell me how much i owe")
    turn = await call.send("sure its c one oh oh five nine seven two oh one")
    assert call.state.caller.verified and "$" in said(turn)


async def test_a_cancel_said_twice_over_at_the_identity_question_leaves_it(open_call, store: Store) -> None:
    call = await open_call()
    asked = await call.send("i want to shut down my account")
    assert "customer number" in said(asked)
    turn = await call.send("ah never mind, forget it")
    assert "customer number" not in said(turn) and "nothing was changed" in said(turn)
    assert not call.state.caller.verified
