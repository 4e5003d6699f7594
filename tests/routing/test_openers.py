"""A greeting run into the need and "i'm calling about ..." are not the need
(callcenter/routing/clauses.py): the need is read on its own words."""

from __future__ import annotations

from callcenter.routing.clauses import clauses


def test_an_opening_greeting_is_its_own_clause() -> None:
    assert clauses("hey good morning i think i paid twice") == ["hey good morning", "i think i paid twice"]
    assert clauses("hello there") == ["hello there"]


def test_why_the_caller_rang_is_not_read_as_a_greeting(router) -> None:
    intents = router.detect("hiya um im ringing about my invoices")
    assert [i.label for i in intents] == ["billing/invoices"], intents
    intents = router.detect("hello im calling regarding my bill")
    assert all(not i.label.startswith("meta/") for i in intents), intents


def test_fillers_before_the_greeting(router) -> None:
    assert [i.label for i in router.detect("uh hey im calling about my invoices")] == ["billing/invoices"]
