"""Readings a clause's construction settles (issue 25): sign-ins someone else made are
security's, a dead key is the API errors', a clause that says the one before again another
way is part of it, and "do the downgrade" to a downgrade's read-back is that downgrade.
Callers' words, phrasings not in the dev suite.
"""

from __future__ import annotations

from callcenter.store import Store
from domains.billing.ledger import Ledger


def said(turn) -> str:
    return " ".join(turn.replies)


async def test_asking_who_signed_in_is_security(open_call, store: Store) -> None:
    call = await open_call("C1004")
    turn = await call.send("i wanna know who's been signing in")
    assert "Just so I get this right" not in said(turn)
    assert [r.specialist for r in turn.results] == ["security"], said(turn)


async def test_a_dead_key_is_the_api_errors(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("is the api down. also my developer says the key is dead.")
    assert "Just so I get this right" not in said(turn)
    assert {r.specialist for r in turn.results} == {"service_status", "api_errors"}, said(turn)


async def test_a_clause_saying_the_one_before_again_is_part_of_it(open_call, store: Store) -> None:
    call = await open_call("C1005")
    turn = await call.send("can you go through my payment history, like what we paid each month")
    assert "I can help with both" not in said(turn)
    assert [r.specialist for r in turn.results] == ["invoices"], said(turn)


async def test_do_the_downgrade_is_the_downgrade_read_back(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("we want to come down from enterprise to starter")
    await call.send("can we change back later if we need to")
    await call.send("alright then yes, do the downgrade")
    assert Ledger(store).current_plan("C1003").id == "starter"
