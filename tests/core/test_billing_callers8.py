"""Billing as callers nobody here wrote for put it (issue 25, found by benchmarks/calls/callers8):
the plan named as the one left is not the target; the payment history beside an action is
answered in the same turn, emailing nothing unasked; money already paid is the history, and
what is paid each month is the plan's price. Callers' words, phrasings not in the dev suite.
"""

from __future__ import annotations

from callcenter.store import Store
from domains.billing.ledger import Ledger


def said(turn) -> str:
    return " ".join(turn.replies)


def reached(turn) -> set[str]:
    return {f"{r.domain}.{r.specialist}" for r in turn.results}


# --- 1. the plan named as what the caller has or drops is not the one they move to (C1003: Enterprise)

async def test_a_plan_named_as_features_not_needed_is_not_the_target(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("hey um can you bring us down to starter, honestly we barely touch the enterprise features")
    assert "To confirm: switch account C1003 to the Starter plan" in said(turn), said(turn)
    assert "already on" not in said(turn)


async def test_a_plan_the_caller_drops_after_the_target_is_not_the_target(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("put us on pro please and drop enterprise")
    assert "To confirm: switch account C1003 to the Pro plan" in said(turn), said(turn)


# --- 2. the payment history beside an action: answered at once, nothing emailed unasked

async def test_payment_history_beside_a_lock_is_answered_before_the_read_back(open_call, store: Store) -> None:
    mails = len(store.list_notifications("C1005"))
    call = await open_call("C1005")
    turn = await call.send("somebody got into our account so lock it down please, and i need to see our payment history too")
    reply = said(turn)
    assert "billing.invoices" in reached(turn), reply
    assert "INV-1005-1" in reply and "To confirm: lock account C1005" in reply, reply
    assert reply.index("INV-1005-1") < reply.index("To confirm")
    await call.send("ok that's all, bye")
    assert len(store.list_notifications("C1005")) == mails  # nobody asked for a copy by email


async def test_a_copy_asked_for_alone_is_still_emailed(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("could you send over a copy of my latest invoice")
    assert "I've emailed you a copy of INV-1002-1" in said(turn), said(turn)
    assert any("INV-1002-1" in n.body for n in store.list_notifications("C1002"))


# --- 3. paid before is the history; paid each month is the price

async def test_what_was_paid_over_past_months_is_the_payment_history(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("how much have we been paying you over the past few months")
    assert "billing.invoices" in reached(turn) and "INV-1003-1" in said(turn), said(turn)


async def test_what_is_paid_each_month_beside_an_action_is_the_plans_price(open_call, store: Store) -> None:
    call = await open_call("C1005")
    turn = await call.send("i got a new phone so my two factor needs resetting, and i wanted to check what i pay every month")
    reply = said(turn)
    assert "Your next bill will be $249.00 for the Pro plan" in reply, reply
    assert reply.index("Your next bill") < reply.index("To confirm")
    assert "Just so I get this right" not in reply


# --- 4. "refund status ..." opens with the word refund but asks where refunds stand (C1003 has a
# service-failure charge a new refund would be read back for: an unsafe yes away)

async def test_refund_status_said_first_is_no_new_refund(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("refund status on anything we have open, and is the api having problems")
    reply = said(turn)
    assert "billing.refund_status" in reached(turn) and "To confirm" not in reply, reply


# --- 5. a plan picked from the other plans offered beside a read-back is a new choice (C1003)

async def test_a_plan_picked_from_the_offer_is_read_back_and_switched_to(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("we need to go down to something less pricey please")
    assert "Starter is $49.00 a month, if you'd rather" in said(turn), said(turn)
    turn = await call.send("the starter one then")
    assert "To confirm: switch account C1003 to the Starter plan" in said(turn), said(turn)
    await call.send("yep")
    assert Ledger(store).current_plan("C1003").id == "starter"


# --- 6. "lower what we pay" is the way down the price list, not "which plan do you want?" (C1003)

async def test_lowering_what_we_pay_offers_the_plans_below(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("any chance we could reduce what we pay every month")
    assert "Pro" in said(turn) and "$249.00" in said(turn), said(turn)
    assert "Could you tell me the plan you want" not in said(turn)
    turn = await call.send("starter would do us fine")
    assert "To confirm: switch account C1003 to the Starter plan" in said(turn), said(turn)
    await call.send("yes please")
    assert Ledger(store).current_plan("C1003").id == "starter"
