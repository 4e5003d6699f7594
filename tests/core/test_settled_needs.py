"""A need torn between two close readings, one of which another need of the same turn
already is, is the other one (meta/agenda.py `_settle`, issue 25): callers name each need once.
Callers' words, phrasings not in the dev suite.
"""

from __future__ import annotations

from callcenter.store import Store


def said(turn) -> str:
    return " ".join(turn.replies)


async def test_a_status_question_beside_a_ticket_question_is_the_service_status(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("so is the webhook delay fixed now or what. also where are we on my engineering ticket")
    assert "Just so I get this right" not in said(turn)
    assert {r.specialist for r in turn.results} >= {"service_status", "ticket_status"}
    assert "Delayed webhook deliveries" in said(turn)
