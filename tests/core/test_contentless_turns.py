"""Words that name nothing start nothing (issue 25, safety).

A bare "don't" after an answer was read by the router as a two-factor reset at 0.96 (a
training phrasing that starts "don't ..." lent it the label), and the line read back a reset
nobody asked for; a "sure" to the next question would have filed it. Fillers, negations and
pronouns alone are no need (callcenter/routing/discourse.names_nothing).
"""

from __future__ import annotations

from callcenter.store import Store


def said(turn) -> str:
    return " ".join(turn.replies)


async def test_a_bare_dont_after_an_answer_reads_back_nothing(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("uh my requests keep bouncing with four twenty nine")
    for text in ("don't", "no dont", "nah not that"):
        turn = await call.send(text)
        assert "To confirm" not in said(turn), (text, said(turn))
    assert store.list_work() == []


def test_contentless_words_are_no_need_but_short_needs_still_are(line) -> None:
    router = line.router
    for text in ("don't", "no don't", "nope", "uh no not it"):
        assert not router.classify(text).in_scope, text
    for text in ("refund", "reset my two factor", "cancel my account"):
        assert router.classify(text).in_scope, text
