"""What callers say while a read-back waits, and how they name plans (issue 25, callers6).

Callers' words, phrasings not in the dev suites: a yes with "ma'am" or after a sigh, a fee
question, "can we switch back later?", a worried question that is no goodbye, a plan named as
the one to leave ("instead of enterprise", "enterprise is overkill").
"""

from __future__ import annotations

from callcenter.store import Store
from domains.billing.ledger import Ledger


def said(turn) -> str:
    return " ".join(turn.replies)


async def test_a_polite_or_weary_yes_is_a_yes(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("i see the same forty nine dollar charge twice")
    done = await call.send("yes sir.")
    assert [(r.specialist, r.status) for r in done.results] == [("refund", "done")]
    call = await open_call("C1005")
    await call.send("drop us to starter please")
    done = await call.send("ugh. fine, go ahead")
    assert [(r.specialist, r.status) for r in done.results] == [("plan_change", "done")]
    assert Ledger(store).current_plan("C1005").id == "starter"


async def test_a_fee_question_is_answered_with_what_it_costs(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("could you bump me up to pro")
    turn = await call.send("how much extra a month would that be")
    assert "$200.00 more" in said(turn) and "shall i go ahead" in said(turn).lower()
    assert Ledger(store).current_plan("C1001").id == "starter"


async def test_a_worried_question_is_no_goodbye(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("lock my account please, i think my password leaked")
    turn = await call.send("would that log out my team as well")
    assert "goodbye" not in said(turn).lower() and not call.state.guard.stop_delegating


async def test_the_plan_to_leave_is_not_the_plan_wanted(open_call, store: Store) -> None:
    for words, plan in (("we want pro instead of enterprise", "Pro"), ("enterprise is overkill, put us on starter", "Starter")):
        call = await open_call("C1003")
        turn = await call.send(words)
        assert f"to the {plan} plan" in said(turn), (words, said(turn))
        await call.close()
