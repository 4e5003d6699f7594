""""cancel" with somewhere to go is a plan change; "cancel" that ends everything is a closure;
"cancel" with neither is asked about (issue 25, misroutes; callcenter/routing/rereading.py).

A closure read back to a caller who wanted a cheaper plan, answered "yes", files a closure
request: an effect nobody asked for. Callers' words: lower case, fillers, no punctuation.
"""

from __future__ import annotations

import pytest

from callcenter.store import Store
from domains.billing.ledger import Ledger
from domains.billing.plan_words import ends_everything, names_plan_to_move_to


def said(turn) -> str:
    return " ".join(turn.replies)


def closures(store: Store) -> list[object]:
    return [w for w in store.list_work() if w.kind == "close_account"]


@pytest.mark.parametrize(("customer", "words", "plan"), [
    ("C1002", "yeah uh cancel the pro thing and stick me on starter", "starter"),
    ("C1003", "cancel enterprise for us, pro would do fine", "pro"),
    ("C1002", "i wanna cancel my plan and go with something cheaper", "starter"),
    ("C1003", "so we wanna cancel our current plan. pro is plenty for us", "pro"),
    ("C1001", "um cancel starter, we need to move up to pro", "pro"),
])
async def test_cancel_with_a_plan_to_move_to_is_a_plan_change(open_call, store: Store, customer, words, plan) -> None:
    call = await open_call(customer)
    reply = said(await call.send(words))
    assert f"switch account {customer} to the {plan.title()} plan" in reply and "close account" not in reply, reply
    turn = await call.send("yep thats it")
    assert [(r.specialist, r.status) for r in turn.results][-1] == ("plan_change", "done"), said(turn)
    assert Ledger(store).current_plan(customer).id == plan
    assert closures(store) == []


@pytest.mark.parametrize("words", [
    "i want to cancel my account",
    "um yeah can you close everything down we are going elsewhere",
    "cancel it all for good, we switched to a different provider",
    "shut my account down please im done with you guys",
])
async def test_ending_everything_is_still_a_closure(open_call, words) -> None:
    call = await open_call("C1002")
    reply = said(await call.send(words))
    assert "To confirm: close account C1002" in reply, (words, reply)


@pytest.mark.parametrize("words", ["uh i need to cancel my subscription", "can i cancel my membership", "hey i wanna cancel"])
async def test_cancel_with_nowhere_to_go_is_asked_about(open_call, store: Store, words) -> None:
    call = await open_call("C1002")
    reply = said(await call.send(words))
    assert "closing your account" in reply and "changing your plan" in reply and "To confirm" not in reply, (words, reply)
    assert closures(store) == []


async def test_the_answer_to_that_question_picks_one_of_its_options(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("i need to cancel my subscription")
    reply = said(await call.send("oh just the plan, starter please"))
    assert "To confirm: switch account C1002 to the Starter plan" in reply, reply
    call = await open_call("C1002")
    await call.send("cancel my subscription")
    reply = said(await call.send("the account"))
    assert "To confirm: close account C1002" in reply, reply
    turn = await call.send("yes")
    assert [(r.specialist, r.status) for r in turn.results][-1] == ("close_account", "needs_approval"), said(turn)


def test_what_names_a_plan_to_move_to() -> None:
    assert names_plan_to_move_to("cancel pro and put us on starter")
    assert names_plan_to_move_to("a smaller tier would be better")
    assert not names_plan_to_move_to("cancel my pro plan")
    assert not names_plan_to_move_to("im on starter and i want to cancel")
    assert not names_plan_to_move_to("cancel it, starter costs more than pro elsewhere")
    assert ends_everything("please terminate my whole account")
    assert not ends_everything("cancel the plan on my account and put me on starter")


@pytest.mark.parametrize("words", ["um so i wanna spend less on this every month", "any chance you can bring our monthly bill down"])
async def test_paying_less_on_the_top_plan_is_the_way_down(open_call, words) -> None:
    # A caller on the top plan who wants to pay less hears the plan below it, read back; not a
    # balance-or-plan question, and not "you're already on it".
    call = await open_call("C1003")
    reply = said(await call.send(words))
    assert "To confirm: switch account C1003 to the Pro plan" in reply and "Just so I get this right" not in reply, reply


async def test_a_request_after_a_statement_is_not_a_what_if_question(open_call) -> None:
    # "were on enterprise" is "we're on enterprise", and "..., can we pay less" asks for it:
    # the read-back, not facts and an offer
    call = await open_call("C1003")
    reply = said(await call.send("were on enterprise and its way too pricey, can we pay less"))
    assert "To confirm: switch account C1003 to the Pro plan" in reply, reply


async def test_a_lookup_beside_a_way_down_is_its_own_need(open_call) -> None:
    # the way down in one clause does not swallow a balance question in another
    call = await open_call("C1003")
    reply = said(await call.send("ok three things, whats my balance, is the api down, and i wanna downgrade to pro"))
    assert "balance is" in reply and "incident" in reply and "Pro plan" in reply, reply


@pytest.mark.parametrize("words", ["ugh my card got declined", "uh my card was declined when i tried to pay"])
async def test_a_declined_card_is_no_refund(open_call, store: Store, words) -> None:
    # nothing was taken, so nothing is given back: the payment history, never a refund read-back
    call = await open_call("C1001")
    reply = said(await call.send(words))
    assert "refund" not in reply.lower() and "invoices" in reply, reply
    await call.send("yes")
    assert Ledger(store).list_refunds() == []


async def test_a_declined_card_beside_a_double_charge_keeps_the_refund(open_call) -> None:
    call = await open_call("C1001")
    reply = said(await call.send("my card got declined and also i got charged twice"))
    assert "refund of $49.00" in reply, reply
