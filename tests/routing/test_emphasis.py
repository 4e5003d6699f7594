"""What the caller marks as mattering most is taken first (callcenter/routing/clauses.py)."""

from __future__ import annotations

from callcenter.routing.clauses import clauses


def test_the_emphasised_need_comes_first() -> None:
    said = "uh the sdk docs are kinda confusing but mainly i need my card charge reversed"
    assert clauses(said) == ["i need my card charge reversed", "uh the sdk docs are kinda confusing"]


def test_first_keeps_the_order_of_mention() -> None:
    assert clauses("first whats my balance, then is the api down") == ["whats my balance", "is the api down"]


def test_an_emphasised_need_is_routed_first(router) -> None:
    labels = [i.label for i in router.detect("the api errors are annoying but what i really need is a refund for the double charge")]
    assert labels[0] == "billing/refund" and len(labels) == 2, labels


def test_but_first_is_taken_first() -> None:
    said = "so i wanna switch to the pro plan but first can you tell me what i owe"
    assert clauses(said) == ["can you tell me what i owe", "so i wanna switch to the pro plan"]
