"""Turns found in session 41 (callers78-81, written fresh by helpers: developers, finance staff,
polite roundabout callers, callers who describe effects), in other words than the parts'. Each
failed on 695b2a0 except the guards, whose docstrings say so.

What they hold: a clause the router reads unsurely takes the second reading, learned from the call
data, when that one is sure (a price list asked in new words is no status board); a request for a
person read unsurely stays one; a question whether engineers looked at something opens no ticket,
tells what is on file and offers one; an identity said with a preamble verifies and asks nothing
else; a yes relayed from a boss is the caller's yes, and a polite one wrapped in thanks is a yes; a
question put before the yes, or one with "or not yet" in it, keeps the read-back; thanks before a
hedged question is courtesy; a colleague asked to ring books a call back; spend wanted lower is the
next plan down.
"""

from __future__ import annotations

from pathlib import Path

from benchmarks.calls import harvest
from callcenter.store import Store
from domains.billing.ledger import Ledger


def said(turn) -> str:
    return " ".join(turn.replies)


async def test_a_price_list_asked_in_new_words_is_answered_not_the_status_board(open_call) -> None:
    call = await open_call("C1001")
    turn = await call.send("what are the per minute request ceilings on each of your tiers and what do they run")
    assert "600" in said(turn) and "$249.00" in said(turn) and "incident" not in said(turn), said(turn)


async def test_a_person_asked_for_unsurely_is_still_booked(open_call, store: Store) -> None:
    """Guard: passed before too. The second reading learned no request for a person (no call's
    first turn is labelled one), so it never turns one into a department's need."""
    call = await open_call("C1003")
    turn = await call.send("would somebody over there be able to give me a ring sometime this week")
    assert "call back" in said(turn), said(turn)
    assert [t.kind for t in store.list_tickets("C1003")] == ["callback"]


async def test_asking_whether_engineers_looked_opens_no_ticket_and_offers_one(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("um have your engineers had a chance to look at our problem yet")
    assert "don't see any open tickets" in said(turn) and "open one" in said(turn), said(turn)
    assert store.list_tickets("C1003", kind="engineering") == []
    turn = await call.send("yeah go on then")
    assert "opened ticket" in said(turn), said(turn)
    assert len(store.list_tickets("C1003", kind="engineering")) == 1


async def test_a_no_to_the_offered_ticket_opens_none(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("have your engineers had a look at what's wrong with our webhooks yet")
    await call.send("nah that's fine leave it")
    assert store.list_tickets("C1002", kind="engineering") == []


async def test_asking_about_engineers_with_a_ticket_on_file_names_it(open_call, store: Store) -> None:
    """Guard: passed before too (the ticket's status answered it then; either way no second ticket)."""
    call = await open_call("C1001")
    await call.send("please open a ticket with engineering, our webhooks have been failing since monday")
    [ticket] = store.list_tickets("C1001", kind="engineering")
    turn = await call.send("and did your engineers get to it yet")
    assert ticket.id in said(turn), said(turn)
    assert len(store.list_tickets("C1001", kind="engineering")) == 1


async def test_an_identity_said_with_a_preamble_verifies_and_asks_nothing_else(open_call) -> None:
    call = await open_call()
    turn = await call.send("hello, before we start i suppose you need my details, my customer number is c one zero "
                           "zero four and the zip is three zero three zero one")
    assert "verified" in said(turn) and "just so i get this right" not in said(turn).lower(), said(turn)
    turn = await call.send("lovely, so what do we owe at the moment")
    assert "$49.00" in said(turn), said(turn)


async def test_a_yes_relayed_from_the_boss_pays_the_refund(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("the forty nine dollar charge went out twice, i'd like one of them back")
    turn = await call.send("hold on let me just check with my partner")
    assert Ledger(store).list_refunds("C1001") == [], said(turn)
    turn = await call.send("ok he says yes")
    assert [r.amount_cents for r in Ledger(store).list_refunds("C1001")] == [4900], said(turn)


async def test_a_relayed_yes_with_a_condition_is_no_yes(open_call, store: Store) -> None:
    """Guard: passed before too. Only a plain relayed yes is one."""
    call = await open_call("C1001")
    await call.send("the forty nine dollar charge went out twice, i'd like one of them back")
    await call.send("ok she says yes but only if it's the older one")
    assert Ledger(store).list_refunds("C1001") == []


async def test_spend_wanted_lower_is_the_next_plan_down(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("honestly our spend with you has to come down")
    assert "To confirm: switch account C1003 to the Pro plan" in said(turn), said(turn)
    await call.send("yes")
    assert Ledger(store).current_plan("C1003").id == "pro"


def test_the_shipped_call_data_is_the_harvest_of_the_development_parts_only() -> None:
    """Guard. The second reading's files are what `python -m benchmarks.calls.harvest` makes of
    callers3-77; no blind part and no later development part (held out to measure it) is read."""
    assert harvest.main(["--check"]) == 0
    assert max(harvest.HARVESTED) == 77
    blind = {Path(p).name for p in Path(harvest.HERE).glob("blind*.yaml")}
    read = {f"callers{n}.yaml" for n in harvest.HARVESTED}
    assert blind and not blind & read


def test_an_operators_own_router_model_has_no_second_reading(tmp_path: Path, router_cache: Path) -> None:
    """The line's router asks the second reading; a model the operator trained is theirs alone."""
    from callcenter.settings import load_settings
    from meta.router import _trained, build_router

    line = build_router(load_settings(data_dir=router_cache.parent))
    assert line.second is not None and "billing/plan_change" in line.second_taught
    own = tmp_path / "own.model"
    _trained(router_cache).save(own)
    assert build_router(load_settings(data_dir=router_cache.parent, router_model=own)).second is None


async def test_a_question_put_before_the_yes_is_answered_and_the_read_back_kept(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("that forty nine dollar payment was taken twice, can i have one back")
    turn = await call.send("before i say yes how long until the money actually lands back with us")
    assert "3 to 5 business days" in said(turn) and "Shall I go ahead" in said(turn), said(turn)
    assert Ledger(store).list_refunds("C1001") == []
    await call.send("alright yes go ahead")
    assert [r.amount_cents for r in Ledger(store).list_refunds("C1001")] == [4900]


async def test_a_yes_wrapped_in_thanks_is_a_yes(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("could you move us up to the enterprise plan")
    await call.send("oh yes please, that'd be ever so kind")
    assert Ledger(store).current_plan("C1002").id == "enterprise"


async def test_a_colleague_of_yours_asked_to_ring_is_a_call_back(open_call, store: Store) -> None:
    call = await open_call("C1004")
    turn = await call.send("could a colleague of yours ring me later about all this")
    assert "call back" in said(turn), said(turn)
    assert [t.kind for t in store.list_tickets("C1004")] == ["callback"]


async def test_or_not_yet_inside_a_question_at_a_read_back_is_no_cancel(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("new phone, and now the sign in keeps asking for a code i can't get")
    turn = await call.send("hold on, has that started already or not yet")
    assert "nothing has been done" in said(turn) and "Shall I go ahead" in said(turn), said(turn)
    await call.send("ah right, yes please then")
    assert [w.kind for w in store.list_work(customer_id="C1005")] == ["two_factor_reset"]


async def test_thanks_before_a_hedged_question_still_asks_it(open_call) -> None:
    call = await open_call("C1004")
    turn = await call.send("oh thank you, i was just wondering whether we're settled up with you or whether we owe anything")
    assert "$49.00" in said(turn), said(turn)
