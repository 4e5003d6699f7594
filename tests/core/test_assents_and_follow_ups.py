"""Yeses in callers' own words, questions about a read-back that name a value, a closure
said with "stop", and how long a supervisor takes (issue 25). Callers' words, phrasings not
in the dev suite.
"""

from __future__ import annotations

from callcenter.store import Store
from domains.billing.ledger import Ledger


def said(turn) -> str:
    return " ".join(turn.replies)


async def test_a_yes_the_caller_says_they_already_gave_is_a_yes(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("theres a double charge of forty nine bucks on my card please give it back")
    turn = await call.send("well yes hon, thats what i asked for")
    assert [r.amount_cents for r in Ledger(store).list_refunds()] == [4900], said(turn)


async def test_an_assent_with_no_farewell_never_ends_the_call(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("whats my balance right now")
    turn = await call.send("yep that's right")
    assert "Goodbye" not in said(turn) and "help" in said(turn)


async def test_a_question_naming_another_plan_does_not_change_the_read_back(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("we wanna drop down to pro from enterprise")
    asked = await call.send("if we do that can we go back up to enterprise in a few months")
    assert "already on" not in said(asked) and "Pro plan" in said(asked)
    await call.send("alright then yes")
    assert Ledger(store).current_plan("C1003").id == "pro"


async def test_stopping_the_account_is_a_closure_not_a_plan_question(open_call, store: Store) -> None:
    call = await open_call("C1005")
    turn = await call.send("hi i'd like to stop my account please, we dont use it any more")
    assert "Just so I get this right" not in said(turn) and "close account C1005" in said(turn)


async def test_how_long_a_supervisor_takes_is_answered_from_the_approval_settings(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("i got billed twice for two forty nine, i want that back")
    await call.send("yes please")
    turn = await call.send("and how long till somebody approves it")
    assert "supervisor reviews it" in said(turn) and "firm time" not in said(turn)
