"""Questions about plans ("would enterprise be cheaper?", "how much is pro?"): answered with
the plans' prices and limits, never read back as a change. The answer may end with an offer
of the switch; a yes to it makes the request, which the plan change then reads back."""

from __future__ import annotations

from callcenter.llm.templates import join_words
from callcenter.money import dollars
from domains.billing.records import Plan


def price_list(plans: list[Plan], current: Plan | None) -> str:
    # each plan's request limit beside its price: "and how many requests a minute is that" is the
    # next question, and the limit is what the plans differ in
    prices = join_words([f"{p.name} at {dollars(p.monthly_price_cents)} ({p.api_rate_limit_per_min:,} API requests a minute)"
                         for p in plans], "and")
    return f"We have {prices} a month" + (f"; you're on {current.name}." if current else ".")


def compare(target: Plan | None, current: Plan | None, plans: list[Plan]) -> tuple[str, str | None]:
    """The answer to a question about plans, and the request a yes to it makes (None: no offer)."""
    if target is None or current is None:
        return f"{price_list(plans, current)} Nothing has been changed; if you'd like to switch, just tell me which plan.", None
    if target.id == current.id:
        # "what's the limit on the starter plan" from a caller on it: the plan's price and limit,
        # which is what was asked, not only that they are on it
        return (f"You're already on the {target.name} plan, at {dollars(target.monthly_price_cents)} a month "
                f"with {target.api_rate_limit_per_min:,} API requests a minute."), None
    diff = target.monthly_price_cents - current.monthly_price_cents
    summary = (
        f"The {target.name} plan is {dollars(target.monthly_price_cents)} a month and allows "
        f"{target.api_rate_limit_per_min:,} API requests a minute; you're on {current.name} at "
        f"{dollars(current.monthly_price_cents)} with {current.api_rate_limit_per_min:,} a minute, so {target.name} would cost "
        f"{dollars(abs(diff))} {'more' if diff > 0 else 'less'} a month. Nothing has been changed. "
        f"Would you like to switch to {target.name}?"
    )
    return summary, f"switch me to the {target.name.lower()} plan"


def side_by_side(target: Plan, current: Plan | None) -> str:
    """The plan read back beside the caller's own: "what's the difference?" while it waits for a yes."""
    said = f"{target.name} is {dollars(target.monthly_price_cents)} a month with {target.api_rate_limit_per_min:,} API requests a minute"
    if current is None or current.id == target.id:
        return f"{said}."
    return (f"{said}; {current.name}, your plan now, is {dollars(current.monthly_price_cents)} with "
            f"{current.api_rate_limit_per_min:,} a minute.")
