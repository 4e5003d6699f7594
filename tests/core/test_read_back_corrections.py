"""A caller who corrects the value of a pending read-back ("pro not starter") gets the
corrected action read back, and only their yes to it moves anything (issue 25). Callers'
words, phrasings not in the dev suite.
"""

from __future__ import annotations

from callcenter.store import Store
from domains.billing.ledger import Ledger


def said(turn) -> str:
    return " ".join(turn.replies)


async def test_a_plan_taken_back_mid_read_back_is_read_back_corrected(open_call, store: Store) -> None:
    call = await open_call("C1003")
    first = await call.send("ok lets go down to starter")
    assert "Starter plan" in said(first)
    fixed = await call.send("oh hang on, pro not starter, my bad")
    assert "To confirm" in said(fixed) and "Pro plan" in said(fixed) and "Starter" not in said(fixed)
    await call.send("yep")
    assert Ledger(store).current_plan("C1003").id == "pro"


async def test_the_plan_after_not_is_never_the_one_chosen(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("um can you move me up, not to enterprise, to pro i mean")
    assert "Pro plan" in said(turn) and "Enterprise plan" not in said(turn)


async def test_a_no_names_the_action_it_stopped(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("we wanna go up to enterprise")
    turn = await call.send("hmm nah leave it for now")
    assert "won't go ahead with the switch to the Enterprise plan" in said(turn)
    assert Ledger(store).current_plan("C1005").id == "pro"
