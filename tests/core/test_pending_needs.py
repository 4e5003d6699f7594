"""What a caller says while a read-back waits, and vague turns (issue 25, classes 2 and 3).

- Another need that acts, said while a read-back waits, is queued: heard, not lost, and
  routed as soon as the read-back is answered, the first outcome said before the next read-back.
- A no that brings another value for the same action is a correction: read back again.
- "actually don't" is a no, not "Sorry, I need a yes or a no".
- A turn that names a thing but no need ("um it's about one of the charges") gets a
  clarifying question, never an action read-back; a clear need is not asked about.
Callers' words: lower case, fillers, no punctuation.
"""

from __future__ import annotations

import pytest

from callcenter.store import Store
from domains import frame
from domains.billing.ledger import Ledger
from domains.frame import Move


def said(turn) -> str:
    return " ".join(turn.replies)


async def test_a_new_action_said_during_a_read_back_is_queued_not_lost(open_call, store: Store) -> None:
    call = await open_call("C1001")
    assert "To confirm: a refund of $49.00" in said(await call.send("so uh you billed me twice this month"))
    turn = await call.send("oh and while youre at it move me up to the pro plan")
    reply = said(turn)
    assert "yes or a no" not in reply and "right after this" in reply and "refund of $49.00" in reply, reply
    assert Ledger(store).list_refunds() == []
    turn = await call.send("yep go ahead")
    reply = said(turn)
    assert reply.index("I've refunded $49.00") < reply.index("To confirm: switch account C1001 to the Pro plan"), reply
    turn = await call.send("yes please")
    assert [(r.specialist, r.status) for r in turn.results][-1] == ("plan_change", "done")
    assert Ledger(store).current_plan("C1001").id == "pro"


async def test_a_no_with_another_plan_is_a_correction_read_back_again(open_call, store: Store) -> None:
    call = await open_call("C1001")
    assert "Pro plan" in said(await call.send("um i wanna go to the pro plan"))
    turn = await call.send("no sorry i meant enterprise")
    assert "To confirm: switch account C1001 to the Enterprise plan" in said(turn), said(turn)
    turn = await call.send("actually dont")
    assert "yes or a no" not in said(turn) and "haven't changed anything" in said(turn), said(turn)
    assert Ledger(store).current_plan("C1001").id == "starter"


async def test_the_same_need_said_again_is_not_a_yes_or_no_trap(open_call, store: Store) -> None:
    call = await open_call("C1001")
    assert "To confirm: a refund" in said(await call.send("i was charged two times for march"))
    turn = await call.send("yeah i was double charged")
    assert "yes or a no" not in said(turn) and "refund of $49.00" in said(turn), said(turn)
    assert Ledger(store).list_refunds() == []


async def test_a_thing_named_without_a_need_gets_a_question_not_a_read_back(open_call, store: Store) -> None:
    for words in ("um its about one of the charges", "i have a question regarding my account", "uh the plan"):
        call = await open_call("C1001")
        reply = said(await call.send(words))
        assert "Just so I get this right" in reply and "To confirm" not in reply, (words, reply)
    assert Ledger(store).list_refunds() == [] and Ledger(store).current_plan("C1001").id == "starter"


async def test_clear_needs_are_not_asked_about(open_call) -> None:
    for words, expected in (("yeah theres a charge i dont recognise from last week", "To confirm: a refund"),
                            ("lock my account somebody got into it", "To confirm: lock account C1001"),
                            ("uh whats my balance", "balance is")):
        call = await open_call("C1001")
        reply = said(await call.send(words))
        assert expected in reply and "Just so I get this right" not in reply, (words, reply)


@pytest.mark.parametrize(("words", "move"), [
    ("mmm lemme think about it", Move.HOLD),
    ("eh you know what skip it", Move.CANCEL),
    ("did the money already go back", Move.STATUS),
    ("hmm i dont know, is pro worth it", Move.ASK),
])
def test_moves_about_a_pending_read_back(words: str, move: Move) -> None:
    reading = frame.read(words)
    assert reading is not None and reading.move is move, (words, reading)


async def test_a_cancel_with_a_reason_leaves_the_slot_question(open_call, store: Store) -> None:
    call = await open_call("C1001")
    # the field the caller named is the one asked for (not "email or phone?")
    assert "new phone number" in said(await call.send("uh i need to change my phone number"))
    turn = await call.send("never mind ill just do it online")
    assert "stopped" in said(turn), said(turn)
    assert store.get_customer("C1001").phone == "+14155550101"


async def test_a_close_call_the_caller_named_is_not_asked(open_call) -> None:
    call = await open_call("C1001")
    reply = said(await call.send("um i need a refund for march"))
    assert "Just so I get this right" not in reply and "To confirm: a refund of $49.00" in reply, reply


async def test_what_are_the_choices_is_answered_while_the_plan_question_waits(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("i want to change my plan")
    turn = await call.send("uh what plans do you even have")
    assert "Pro at $249.00" in said(turn) and said(turn).rstrip().endswith("?"), said(turn)
    assert Ledger(store).current_plan("C1001").id == "starter"
