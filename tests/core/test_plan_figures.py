"""A plan named by a figure is found in the price list the line has, whatever its numbers:
a company's own plans (not the demo's) are matched by their limit, price and quota."""

from __future__ import annotations

from domains.billing.plan_figures import figure, plan_by_figure
from domains.billing.plan_words import PLAN, plan_value
from domains.billing.records import Plan

PLANS = [
    Plan("basic", "Basic", 1900, 30, 10_000),
    Plan("team", "Team", 9900, 300, 250_000),
    Plan("scale", "Scale", 49900, 3000, 5_000_000),
]


def pick(words: str) -> Plan | None:
    said = PLAN.search(words)
    assert said is not None, words
    value = figure(plan_value(said))
    return plan_by_figure(PLANS, *value) if value else None


def test_a_limit_a_price_and_a_quota_name_their_plan() -> None:
    assert pick("put us on the 300 a minute plan").id == "team"
    assert pick("switch me to the $19 plan").id == "basic"
    assert pick("the one with 5000000 calls a month").id == "scale"


def test_a_bound_is_the_first_plan_past_it() -> None:
    assert pick("we need more than 300 requests a minute").id == "scale"
    assert pick("something under $99 a month").id == "basic"
    assert pick("a plan that does 1000 a minute").id == "scale"  # no exact rate: the cheapest that allows it


def test_a_figure_no_plan_has_names_none_and_one_paid_now_is_no_choice() -> None:
    assert pick("the $250 plan") is None
    said = PLAN.search("we pay $99 a month on team, take us down a tier")
    assert said is not None and plan_value(said) == "down"
