"""A sign-in question beside other needs is answered with them (security's read-only
review), while asking for the lock still gets the lock's read-back (issue 25). Callers'
words, phrasings not in the dev suite.
"""

from __future__ import annotations

from callcenter.store import Store


def said(turn) -> str:
    return " ".join(turn.replies)


async def test_a_sign_in_question_beside_a_sign_in_problem_is_answered_before_its_read_back(open_call, store: Store) -> None:
    call = await open_call("C1004")
    turn = await call.send("ive been locked out, cant sign in at all. also there were logins from romania that werent me, whats that about")
    assert "security" in {r.specialist for r in turn.results}, said(turn)
    reply = said(turn)
    assert "unusual locations" in reply and reply.index("unusual locations") < reply.index("To confirm")


async def test_asking_for_the_lock_beside_another_need_still_reads_the_lock_back(open_call, store: Store) -> None:
    call = await open_call("C1005")
    turn = await call.send("whats my balance. and lock my account please someone got in")
    assert "To confirm: lock account C1005" in said(turn), said(turn)
    assert not store.get_customer("C1005").locked
