"""Taking back one queued need while answering the read-back of another, in one turn
(issue 25): the other need is dropped and said so, and the read-back gets its yes or no.
Callers' words, phrasings not in the dev suite.
"""

from __future__ import annotations

from callcenter.store import Store


def said(turn) -> str:
    return " ".join(turn.replies)


def kinds(store: Store) -> list[str]:
    return sorted(w.kind for w in store.list_work(customer_id="C1005"))


async def test_drop_the_queued_need_and_confirm_this_one(open_call, store: Store) -> None:
    call = await open_call("C1005")
    first = await call.send("i need my two factor reset, new phone, and then close the account please")
    assert "To confirm: reset two-factor" in said(first)
    turn = await call.send("hmm scratch the closing bit, we'll keep the account. the two factor, yes please.")
    assert kinds(store) == ["two_factor_reset"], said(turn)
    assert "left the request to close your account" in said(turn) or "left closing your account" in said(turn), said(turn)
    assert "close account C1005" not in said(turn)


async def test_drop_the_queued_need_and_refuse_this_one(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("i need my two factor reset, new phone, and then close the account please")
    turn = await call.send("forget the closing. and no, dont reset it either, i found the old phone")
    assert kinds(store) == [], said(turn)
    assert "close account C1005" not in said(turn) and "To confirm" not in said(turn)
