"""Multi-intent detection: segment, classify, merge."""

from __future__ import annotations

from pathlib import Path

import pytest

from callcenter.routing import IntentRouter
from callcenter.routing.data import read_multi


def labels(router: IntentRouter, text: str) -> list[str]:
    return [i.label for i in router.detect(text)]


def test_the_three_need_sentence(router: IntentRouter) -> None:
    text = "My API calls fail with 429, I was charged twice, and I can't log in"
    assert labels(router, text) == ["technical/api_errors", "billing/refund", "account/login_help"]


def test_single_need_gives_one_intent(router: IntentRouter) -> None:
    assert labels(router, "I was charged twice and I want my money back") == ["billing/refund"]
    # one need phrased with "and": never split into two account intents
    assert len(labels(router, "can you reset and unlock my account")) == 1


def test_bare_and_between_two_needs(router: IntentRouter) -> None:
    found = labels(router, "I forgot my password and what's my current balance")
    assert found == ["account/login_help", "billing/balance"]


def test_filler_and_greeting_are_dropped(router: IntentRouter) -> None:
    assert labels(router, "um, so yeah. I was charged twice. thanks") == ["billing/refund"]
    assert labels(router, "Hi there! Is your service down?") == ["technical/service_status"]


def test_social_only_turns(router: IntentRouter) -> None:
    assert labels(router, "hello") == ["meta/greeting"]
    assert labels(router, "ok thanks bye") == ["meta/goodbye"]
    # A whole turn of filler is still read as one thing, and never sent to a department.
    [thanks] = labels(router, "thanks")
    assert thanks == "oos" or thanks.startswith("meta/"), thanks


@pytest.mark.parametrize("text", ["thank you so much", "thanks so much", "thank you very much", "uh thank you so much bye"])
def test_thanks_with_so_much_stays_at_the_front_desk(router: IntentRouter, text: str) -> None:
    # "so much" once read as "how much do I owe" (billing/balance at 0.98)
    [found] = labels(router, text)
    assert found == "meta/goodbye", found


def test_out_of_scope_only_and_empty(router: IntentRouter) -> None:
    assert labels(router, "what's the weather in Paris tomorrow") == ["oos"]
    assert router.detect("") == []
    assert router.detect("   ") == []


def test_duplicates_merge_in_order_of_mention(router: IntentRouter) -> None:
    text = "I can't log in. Also I was charged twice. And I forgot my password"
    found = router.detect(text)
    assert [i.label for i in found] == ["account/login_help", "billing/refund"]
    assert all(i.text for i in found)


def test_shipped_multi_intent_set(router: IntentRouter, root: Path) -> None:
    items = read_multi(root / "meta/utterances/multi_intent.jsonl")
    assert len(items) >= 60
    exact = sum(set(labels(router, t)) == set(gold) for t, gold in items)
    # measured 100% (benchmarks/README.md); the floor leaves room for retrained data
    assert exact / len(items) >= 0.9
