"""Callers' turns found by the callers16 dev part (issue 25), in other words than the part's:
a no or a yes wrapped in fillers, remarks and a goodbye answers the read-back (a turn the line
reads as a goodbye outright still leaves it), a yes that
names what an offer offered takes it up, and "the wrong one" before a corrected ZIP is no digit.
"""

from __future__ import annotations

from callcenter.store import Store
from domains.billing.ledger import Ledger


def said(turn) -> str:
    return " ".join(turn.replies)


async def test_a_no_after_a_murmur_or_an_ok_refuses_the_read_back(open_call, store: Store) -> None:
    for first_words in ("hmm, nope, i'll think about it over the weekend", "ok. and no, leave the plan alone for now"):
        call = await open_call("C1005")
        await call.send("bump us up to enterprise")
        turn = await call.send(first_words)
        assert "won't go ahead" in said(turn) and "yes or a no" not in said(turn), said(turn)
    assert Ledger(store).current_plan("C1005").id == "pro"


async def test_a_yes_said_with_a_remark_and_a_goodbye_files_it_and_ends_the_call(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("two hundred forty nine came out twice, i need one back")
    turn = await call.send("right, that's all i was after. yes file it and goodbye")
    assert [w.kind for w in store.list_work()] == ["refund"], said(turn)
    assert "Goodbye" in said(turn) and "left that there" not in said(turn), said(turn)


async def test_thats_just_what_i_want_is_a_yes(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("the forty nine dollars went out twice, can you refund one")
    turn = await call.send("mm yes, that's just what i wanted, thanks a lot, take care")
    assert [r.charge_id for r in Ledger(store).list_refunds()] == ["CH-1001-D"], said(turn)


async def test_a_yes_naming_what_was_offered_takes_the_offer_up(open_call, store: Store) -> None:
    call = await open_call("C1001")
    first = await call.send("how much more would pro be")
    assert "Would you like to switch to Pro?" in said(first), said(first)
    turn = await call.send("alright go on then, pro")
    assert "To confirm: switch account C1001 to the Pro plan" in said(turn), said(turn)


async def test_the_wrong_one_before_a_corrected_zip_is_no_digit(open_call, store: Store) -> None:
    call = await open_call(None)
    await call.send("C1005, 94107")
    turn = await call.send("sorry that's the wrong one, nine seven two oh one")
    assert "you're verified" in said(turn), said(turn)


async def test_a_person_asked_for_from_engineering_is_the_engineering_ticket(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("could we get somebody in engineering to look at why we keep getting throttled")
    assert "engineers" in said(turn), said(turn)
    call = await open_call("C1002")
    await call.send("honestly i'd like to speak with one of your engineers about these four oh ones")
    assert sorted(t.kind for t in store.list_tickets()) == ["engineering", "engineering"]
