"""Multi-need turns in shapes the clause segmenter missed (issue 25, class 1): a spoken list
("number one, ..., number two, ...") and two needs of one department joined by a bare "and",
one read surely but just below the threshold. Every need heard, actions one at a time, none
dropped. Callers' words; spoken digits arrive as digits (callcenter/spoken.py).
"""

from __future__ import annotations

from callcenter.routing.clauses import clauses
from callcenter.store import Store
from domains.billing.ledger import Ledger


def said(turn) -> str:
    return " ".join(turn.replies)


def test_a_spoken_list_marker_is_a_boundary_and_no_need() -> None:
    assert clauses("right so, number 1, the api keeps timing out, number 2, whats my balance") == [
        "the api keeps timing out", "whats my balance"]
    assert clauses("number 1: refund the double charge. number 2: send me my invoices") == [
        "refund the double charge", "send me my invoices"]
    assert clauses("my phone number 2 digits are wrong") == ["my phone number 2 digits are wrong"]


async def test_a_numbered_list_reaches_both_needs(open_call, store: Store) -> None:
    call = await open_call("C1001")
    reply = said(await call.send("okay um, number one, i got charged double, number two, i cant get into the dashboard"))
    assert "refund of $49.00" in reply and "signing in" in reply and "email address or the phone" not in reply, reply
    turn = await call.send("yes")
    assert "refunded $49.00" in said(turn) and "reset link" in said(turn), said(turn)
    assert [r.charge_id for r in Ledger(store).list_refunds()] == ["CH-1001-D"]


async def test_two_actions_of_one_department_joined_by_and(open_call, store: Store) -> None:
    call = await open_call("C1001")
    reply = said(await call.send("could you refund the duplicate and move me up to pro please"))
    assert "the refund" in reply and "the plan change" in reply and "To confirm: a refund of $49.00" in reply, reply
    turn = await call.send("yeah")
    assert "refunded $49.00" in said(turn) and "To confirm: switch account C1001 to the Pro plan" in said(turn), said(turn)
    await call.send("yes")
    assert Ledger(store).current_plan("C1001").id == "pro" and len(Ledger(store).list_refunds()) == 1


async def test_asking_if_the_api_is_up_is_a_status_question_alone_or_among_needs(open_call) -> None:
    # "is the api ok" names no error of the caller's: the status board answers, no
    # errors-or-outage question (technical/status_words.py)
    call = await open_call("C1001")
    reply = said(await call.send("is the api ok"))
    assert "incident" in reply and "Just so I get this right" not in reply, reply
    call = await open_call("C1001")
    reply = said(await call.send("first things first refund that duplicate. oh and is the api ok"))
    assert "incident" in reply and "refund of $49.00" in reply and "Just so I get this right" not in reply, reply
