"""A read-only question asked in another language is answered, in English, after the reply in
the caller's language (meta/gist.py, issue 25); nothing that acts starts on a gloss. Phrasings
not in any suite."""

from __future__ import annotations

from callcenter.store import Store


def said(turn) -> str:
    return " ".join(turn.replies)


async def test_a_spanish_balance_question_is_answered(open_call, store: Store) -> None:
    call = await open_call("C1004")
    turn = await call.send("buenos días, cuánto tengo que pagar este mes?")
    assert "inglés" in said(turn) and "$49.00" in said(turn), said(turn)


async def test_an_italian_outage_question_is_answered(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("salve, il servizio è in guasto adesso? riceviamo solo errori")
    assert "incident" in said(turn), said(turn)


async def test_french_invoices_are_listed(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("bonjour, je voudrais voir mes factures s'il vous plaît")
    assert "INV-1002" in said(turn), said(turn)


async def test_a_refund_asked_in_portuguese_starts_nothing(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("boa tarde, fui cobrado duas vezes, quero o reembolso")
    assert "To confirm" not in said(turn), said(turn)
    await call.send("sim")
    assert store.list_work(customer_id="C1001") == []
    assert "I've refunded" not in said(turn), said(turn)
