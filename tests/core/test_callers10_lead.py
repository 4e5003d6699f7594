"""Callers' turns found by the callers10 dev part (issue 25), in other words than the part's:
a turn that ends on a farewell ends the call whatever came before it unless a need did; a need
the out-of-scope floor doubted beside sure ones is heard; a need corrected in the same breath
is replaced; a customer number or ZIP corrected in the same breath is the corrected one.
"""

from __future__ import annotations

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
    # alone, the clause falls under the out-of-scope floor (0.16, its best reading 0.84 api errors)
    assert call.state.router.classify("tell me why i'm being throttled").label == "oos"
    turn = await call.send("can you read me my balance. oh and tell me why i'm being throttled")
    assert "$" in said(turn) and "429" in said(turn), said(turn)
    assert "Just so I get this right" not in said(turn)


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
