"""Follow-ups about an answer in callers' words: when a bill is due, an eta, the amount
again, and a follow-up that names which of two answers it is about (issue 25). Phrasings
not in the dev suite.
"""

from __future__ import annotations

from callcenter.store import Store


def said(turn) -> str:
    return " ".join(turn.replies)


async def test_when_the_next_bill_is_due(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("whats my balance at the moment")
    turn = await call.send("right and when do i have to pay it by")
    assert "is due around" in said(turn) and "charged automatically" in said(turn), said(turn)


async def test_when_an_overdue_invoice_was_due(open_call, store: Store) -> None:
    call = await open_call("C1004")
    await call.send("how much do i owe")
    turn = await call.send("oh and when was that due")
    assert "INV-1004-1 is overdue: it was due on" in said(turn), said(turn)


async def test_an_eta_after_the_status_board(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("is your api having problems today")
    turn = await call.send("ok any eta on that")
    assert "no firm time yet" in said(turn), said(turn)


async def test_the_amount_again_after_a_refund(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("i was charged twice, the forty nine, can i get it back")
    await call.send("yes")
    turn = await call.send("and how much was that again")
    assert said(turn).startswith("Sure:") and "$49.00" in said(turn), said(turn)


async def test_a_follow_up_names_which_answer_it_is_about(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("two things, whats up with the refund i asked for, and why do we get four oh ones")
    turn = await call.send("ok and about the key thing, what am i meant to do about that")
    assert "key" in said(turn).lower() and "refund" not in said(turn).lower(), said(turn)
