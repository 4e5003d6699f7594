"""A pending question is a frame, not a trap (issue 25, class 3).

While a read-back or a slot question waits, the caller may ask about it, ask whether it has
happened, pause, cancel or raise something else; each is answered and the question asked
once more, in a short form. Callers' words: lower case, fillers, no punctuation.
"""

from __future__ import annotations

from callcenter.store import Store
from domains.billing.ledger import Ledger


def said(turn) -> str:
    return " ".join(turn.replies)


async def test_how_long_while_a_refund_waits_for_yes_is_answered_then_asked_briefly(open_call, store: Store) -> None:
    call = await open_call("C1001")
    readback = said(await call.send("uh hey so you took my money two times for the same month"))
    assert "To confirm: a refund of $49.00" in readback
    turn = await call.send("ok and uh how long till i actually see it back")
    assert "3 to 5 business days" in said(turn)
    assert said(turn) != readback and "To confirm" not in said(turn)  # asked again, briefly
    assert "shall i go ahead with the refund of $49.00" in said(turn).lower()
    assert Ledger(store).list_refunds() == []
    done = await call.send("yeah alright go on then")
    assert [(r.specialist, r.status) for r in done.results] == [("refund", "done")]


async def test_skip_the_approval_is_answered_from_the_policy(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("um the duplicate charge on my card i want that back")
    turn = await call.send("cant you just like skip the supervisor bit")
    reply = said(turn).lower()
    assert "can't skip" in reply and "$100.00" in reply and "supervisor" in reply
    assert store.list_work() == [] and Ledger(store).list_refunds() == []


async def test_has_it_gone_through_before_the_yes_says_not_yet(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("hi can you move me down to the starter plan please")
    turn = await call.send("so has that gone through yet")
    assert "not yet" in said(turn).lower() and "starter plan" in said(turn).lower()
    assert Ledger(store).current_plan("C1003").id == "enterprise"
    done = await call.send("oh ok yes please do it")
    assert [(r.specialist, r.status) for r in done.results] == [("plan_change", "done")]


async def test_forget_it_at_a_slot_question_leaves_the_task_not_the_call(open_call, store: Store) -> None:
    call = await open_call("C1003")
    asked = await call.send("i wanna change plans")
    assert said(asked).endswith("?")
    turn = await call.send("ugh actually just forget it")
    reply = said(turn).lower()
    assert "nothing was changed" in reply and "goodbye" not in reply
    assert [(r.specialist, r.status) for r in turn.results] == [("plan_change", "cancelled")]
    after = await call.send("whats my balance then")  # the call goes on
    assert "balance" in said(after)


async def test_did_it_go_through_at_a_slot_question_says_nothing_was_done(open_call, store: Store) -> None:
    call = await open_call("C1003")
    asked = await call.send("i need to switch my plan")
    turn = await call.send("hmm did it go through")
    assert "not yet" in said(turn).lower() and said(asked) in said(turn)  # the slot question once more
    assert Ledger(store).current_plan("C1003").id == "enterprise"


async def test_a_read_only_digression_is_answered_and_the_read_back_kept(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("i got charged double for my subscription")
    turn = await call.send("oh wait whats my balance right now by the way")
    reply = said(turn)
    assert "balance is" in reply and "back to where we were" in reply and "refund of $49.00" in reply
    assert Ledger(store).list_refunds() == []
    done = await call.send("yep do it")
    assert [(r.specialist, r.status) for r in done.results] == [("refund", "done")]


async def test_a_pause_is_not_a_no(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("theres a double charge on my card")
    turn = await call.send("hang on one sec let me grab my card")
    assert "take your time" in said(turn).lower() and turn.results == []
    done = await call.send("ok yes")
    assert [(r.specialist, r.status) for r in done.results] == [("refund", "done")]


async def test_unclear_answers_never_get_the_identical_read_back(open_call, store: Store) -> None:
    call = await open_call("C1001")
    readback = said(await call.send("i was billed twice this month"))
    for text in ("the blue one", "hmm maybe"):
        turn = await call.send(text)
        assert said(turn) != readback and "yes or no" in said(turn).lower()
    assert Ledger(store).list_refunds() == []
