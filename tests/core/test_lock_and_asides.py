"""A lock asked for, a price asked at the plan question, a clause that says what the call is
not about, a yes said last (issue 25, callers6). Callers' words, phrasings not in the dev parts.
"""

from __future__ import annotations

from callcenter.store import Store
from domains.billing.ledger import Ledger


def said(turn) -> str:
    return " ".join(turn.replies)


async def test_asking_for_a_lock_reads_back_the_lock_not_a_sign_in_reset(open_call, store: Store) -> None:
    call = await open_call("C1005")
    turn = await call.send("can you get my account frozen right away, there's a login from a country i've never been to")
    assert "To confirm: lock account C1005" in said(turn) and "reset link" not in said(turn)
    done = await call.send("yes")
    assert store.get_customer("C1005").locked and [r.specialist for r in done.results] == ["security"]


async def test_a_price_comparison_at_the_plan_question_gets_the_prices(open_call, store: Store) -> None:
    call = await open_call("C1001")
    asked = await call.send("i wanna look at changing my plan")
    turn = await call.send("whats the price gap between starter and enterprise")
    assert "$49" in said(turn) and "$999" in said(turn) and said(asked) in said(turn)


async def test_what_the_call_is_not_about_is_no_need(open_call, store: Store) -> None:
    call = await open_call()
    turn = await call.send("it's not a bug or anything, i just want to know how to make an api key for our staging app")
    assert "customer number" not in said(turn)  # no account lookup: a set-up question needs no identity
    assert [r.specialist for r in turn.results] == ["integration_help"]


async def test_a_yes_said_after_taking_in_the_answer_is_a_yes(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("take us down to pro please")
    await call.send("is there some kind of fee for switching")
    done = await call.send("alright, no charge, great. go ahead.")
    assert Ledger(store).current_plan("C1003").id == "pro" and [r.specialist for r in done.results] == ["plan_change"]
