"""Several needs in one turn (issue 25 class 1, the action half): every need acknowledged in
the same turn, read-only needs answered at once, actions taken one at a time with their own
read-backs, none dropped. Through the real line, in callers' words."""

from __future__ import annotations

from callcenter.store import Store
from domains.billing.ledger import Ledger


def said(turn) -> str:
    return " ".join(turn.replies)


async def test_two_actions_are_acknowledged_then_done_one_at_a_time(open_call, store: Store) -> None:
    call = await open_call("C1001")
    first = await call.send(
        "ok so two things, i got charged twice for the same month and um i lost my phone so i need the two factor reset")
    reply = said(first)
    assert "the refund" in reply and "two-factor" in reply  # both heard in the first turn
    assert reply.index("two-factor") < reply.index("To confirm: a refund of $49.00")
    assert "To confirm: reset two-factor" not in reply  # one read-back at a time
    assert Ledger(store).list_refunds() == [] and store.list_work() == []
    second = await call.send("yep")
    reply = said(second)
    assert reply.index("refunded $49.00") < reply.index("To confirm: reset two-factor authentication")
    assert store.list_work() == []
    await call.send("sure go ahead")
    assert [w.kind for w in store.list_work()] == ["two_factor_reset"]
    assert len(Ledger(store).list_refunds()) == 1


async def test_a_lookup_is_answered_in_the_same_turn_as_an_actions_read_back(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("hey whats my balance at the moment and also i wanna close my account")
    reply = said(turn)
    assert "balance is" in reply and "To confirm: close account C1003" in reply
    assert reply.index("balance is") < reply.index("To confirm")
    assert store.list_work() == []


async def test_a_no_to_the_first_action_still_reaches_the_second(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("i was billed double, and can you reset my two factor authentication too")
    turn = await call.send("actually no dont refund it")
    assert "To confirm: reset two-factor authentication" in said(turn)
    await call.send("yes please")
    assert Ledger(store).list_refunds() == [] and [w.kind for w in store.list_work()] == ["two_factor_reset"]
