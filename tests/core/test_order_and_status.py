"""Needs in the caller's order, a refund asked before, a question about "it", "i'll do it
later", Portuguese (issue 25). Callers' words, phrasings not in the dev suite.
"""

from __future__ import annotations

from callcenter.store import Store
from domains.billing.ledger import Ledger


def said(turn) -> str:
    return " ".join(turn.replies)


async def test_the_need_the_caller_puts_first_is_taken_first(open_call, store: Store) -> None:
    call = await open_call("C1001")
    first = await call.send("we're done with you guys. but pay back the doubled forty nine first, then shut the account")
    assert "To confirm: a refund of $49.00" in said(first) and "close account" not in said(first)
    second = await call.send("yes refund it")
    assert [r.amount_cents for r in Ledger(store).list_refunds()] == [4900]
    assert "To confirm: close account C1001" in said(second)


async def test_a_refund_asked_for_before_gets_its_status_not_a_new_read_back(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("hi so i put in for a refund on monday for the extra charge, whats happening with it")
    assert "To confirm" not in said(turn)
    assert [r.specialist for r in turn.results] == ["refund_status"]


async def test_a_bare_refund_is_a_refund(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("refund")
    assert "To confirm: a refund of $49.00" in said(turn) or "which charge" in said(turn).lower()
    assert [r.specialist for r in turn.results] != ["refund_status"]


async def test_ill_do_it_later_at_the_identity_question_leaves_it(open_call, store: Store) -> None:
    call = await open_call()
    asked = await call.send("hiya how much is my bill this month")
    assert "customer number" in said(asked)
    turn = await call.send("hmm nah i'll sort it out later")
    assert "customer number" not in said(turn) and "nothing was changed" in said(turn)


async def test_portuguese_is_answered_in_portuguese(open_call, store: Store) -> None:
    call = await open_call("C1005")
    turn = await call.send("olá boa noite, quanto vai ser a próxima cobrança por favor")
    assert "Desculpe" in said(turn) and "Lo siento" not in said(turn)
