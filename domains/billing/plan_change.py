"""Plan changes: confirm the new price with the caller, then switch the subscription."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from livekit.agents import function_tool

from callcenter.money import dollars
from callcenter.store.adapters import Ports
from domains.billing import plan_questions
from domains.billing.plan_figures import figure, plan_by_figure
from domains.billing.plan_words import (
    CHEAPEST,
    DOWN,
    HIGHEST,
    MIDDLE,
    UP,
    asks_no_price,
    compares_plans,
    direction,
    named_plans,
    picks_from_list,
)
from domains.billing.ports import billing_port
from domains.billing.records import Plan
from domains.frame import ActionFacts
from domains.identity import account_refusal
from domains.intent import ActionGate
from domains.results import SpecialistResult
from domains.specialist import SpecialistTask, guarded


@dataclass(kw_only=True)
class ChangePlanResult(SpecialistResult):
    old_plan: str | None = None
    new_plan: str | None = None


class ChangePlanTask(SpecialistTask[ChangePlanResult]):
    result_type = ChangePlanResult
    instructions = (
        "You change the caller's plan. Call change_plan with the plan they want; the first call "
        "tells you the price to confirm; call it again with confirm=true only after the caller agrees."
    )

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.gate = ActionGate()  # the caller's own "yes" to this plan's price, not the LLM's confirm flag
        self.read_back: Plan | None = None  # the plan of the pending read-back

    @function_tool
    @guarded
    async def change_plan(self, plan: str, confirm: bool | None = None) -> str | None:
        """Switch the caller's subscription to another plan (starter, pro or enterprise).

        A caller who asks to pay less without naming a plan wants the next plan down: pass
        plan="down" ("up" for the next plan up, "cheapest" for the least expensive one).

        Args:
            plan: The plan the caller wants: starter, pro or enterprise.
            confirm: True once the caller has agreed to the new monthly price; false if they declined.
        """
        refused = account_refusal(self)  # a closed account starts no new subscription
        if refused is not None:
            self.finish(ChangePlanResult(status="refused", summary=refused))
            return None
        if self.asks_what_if:  # "would enterprise be cheaper?": answered with prices, never read back as a change
            return self._answer_question(plan)
        billing = billing_port(self.state.ports)
        current = billing.current_plan(self.customer_id)
        way = direction(plan)
        target = _target(billing.list_plans(), current, plan, way, billing.get_plan)
        if way in (UP, DOWN) and current and self.gate.pending and self.read_back and _goes(current, self.read_back, way):
            # "yes, do the downgrade" to Starter's read-back: the plan read back is that way
            # already; "the downgrade" names it, not the next plan down ("the cheapest one"
            # names one plan whatever was read back)
            target = self.read_back
        if way and current and target is None:  # nothing further that way: say so, change nothing
            self.finish(ChangePlanResult(status="info", summary=_nothing_further(current, way), old_plan=current.id))
            return None
        if target is None:
            if not self.another_attempt():
                return None
            if figure(plan):  # "the 10000 calls one": no plan has that figure; each one's are said
                return f"{plan_questions.price_list(billing.list_plans(), current)} Which one would you like?"
            names = ", ".join(p.name for p in billing.list_plans())
            return f"We have these plans: {names}. Which one would you like?"
        if current and current.id == target.id:
            # "no forget it, keep me on pro" to Starter's read-back: the switch is left, said so
            left = self.gate.pending and self.read_back is not None and self.read_back.id != current.id
            said = (f"No problem, you'll stay on the {target.name} plan; nothing was changed." if left
                    else f"You're already on the {target.name} plan.")
            self.finish(ChangePlanResult(status="info", summary=said, old_plan=current.id, new_plan=target.id))
            return None
        offer = _offer(billing.list_plans(), current, target, way) if way and current and target is not self.read_back else ""
        self.read_back = target
        # The offer is said before the read-back but is no part of it: the gate knows a value
        # said back as already named by its read-back ("starter" after "Starter is $49.00 a
        # month, if you'd rather" is a new choice, not the pending switch to Pro).
        go = self.gate.check(
            self, f"plan:{target.id}",
            f"To confirm: switch account {self.customer_id} to the {target.name} plan at "
            f"{dollars(target.monthly_price_cents)} a month.",
            ActionFacts(
                what=f"the switch to the {target.name} plan at {dollars(target.monthly_price_cents)} a month",
                how_long="It switches as soon as you say yes, and your next bill is at the new price.",
                undo="You can switch plans again at any time.",
                cost=_cost(current, target),
                compare=plan_questions.side_by_side(target, current),
            ),
        )
        if go is not True:
            return f"{offer}{go}" if offer and isinstance(go, str) else go
        billing.change_plan(self.customer_id, target.id)
        self.finish(
            ChangePlanResult(
                status="done",
                summary=f"Done: you're now on the {target.name} plan at {dollars(target.monthly_price_cents)} a month.",
                old_plan=current.id if current else None,
                new_plan=target.id,
            )
        )
        return None

    def slot_options(self) -> str:
        """The plans and their prices: the answer to "what plans are there?" while we ask which one."""
        billing = billing_port(self.state.ports)
        return plan_questions.price_list(billing.list_plans(), billing.current_plan(self.customer_id))

    def _answer_question(self, plan: str | None) -> None:
        billing = billing_port(self.state.ports)
        current = billing.current_plan(self.customer_id)
        way = direction(plan) if plan else None  # "would pro be cheaper?" reads as "down" from the slot
        target = _target(billing.list_plans(), current, plan, way, billing.get_plan) if plan else None
        dearer = _named_dearer(billing.list_plans(), current, self.request_words) if way == DOWN else None
        if dearer is not None:
            # "enterprise is a lot, what would that cost on top of what i pay now" from Pro: the
            # plan complained of is above theirs, and it is the one asked about
            target, way = dearer, None
        if way and current and target is None:  # "what's cheaper than starter?": nothing that way, and the prices
            said = f"{_nothing_further(current, way)} {plan_questions.price_list(billing.list_plans(), current)}"
            self.finish(ChangePlanResult(status="info", summary=said, old_plan=current.id))
            return None
        if compares_plans(self.request_words) and not asks_no_price(self.request_words):
            # "how is pro different from enterprise": two plans side by side, neither of them
            # perhaps the caller's; the list gives each price and limit
            target = None
        summary, offer = plan_questions.compare(target, current, billing.list_plans())
        self.finish(ChangePlanResult(
            status="info", summary=summary, offer=offer, old_plan=current.id if current else None,
            new_plan=target.id if target else None,
        ))


def _target(
    plans: list[Plan], current: Plan | None, plan: str, way: str | None, by_id: Callable[[str], Plan | None],
) -> Plan | None:
    """The plan a ``plan`` argument names: by direction, by a figure of it, or by id."""
    if way:
        return relative_plan(plans, current, way)
    said = figure(plan)
    return plan_by_figure(plans, *said) if said else by_id(plan.strip())


def _named_dearer(plans: list[Plan], current: Plan | None, words: str) -> Plan | None:
    """The one plan named in ``words``, when it costs more than the caller's own."""
    named = named_plans(words)
    found = [p for p in plans if p.id in named or p.name.lower() in named]
    if current is None or len(found) != 1 or found[0].monthly_price_cents <= current.monthly_price_cents:
        return None
    return found[0]


def relative_plan(plans: list[Plan], current: Plan | None, way: str) -> Plan | None:
    """The plan a direction names from ``current``: the next one down or up by price, or the
    least expensive; None when there is none that way (or no current plan to start from)."""
    if current is None:
        return None
    by_price = sorted(plans, key=lambda p: p.monthly_price_cents)
    if way in (HIGHEST, MIDDLE):  # a place in the list: that plan, unless it is the caller's own
        placed = by_price[-1] if way == HIGHEST else by_price[(len(by_price) - 1) // 2] if by_price else None
        return placed if placed and placed.id != current.id else None
    if way == CHEAPEST:
        lowest = by_price[0] if by_price else None
        return lowest if lowest and lowest.monthly_price_cents < current.monthly_price_cents else None
    if way == DOWN:
        cheaper = [p for p in by_price if p.monthly_price_cents < current.monthly_price_cents]
        return cheaper[-1] if cheaper else None
    dearer = [p for p in by_price if p.monthly_price_cents > current.monthly_price_cents]
    return dearer[0] if dearer else None


def _offer(plans: list[Plan], current: Plan, target: Plan, way: str) -> str:
    """Before the read-back of a plan chosen by direction: which plan that is, and (going down)
    the other cheaper plans, so the caller can pick one of those instead."""
    step = {DOWN: "The next plan down", CHEAPEST: "Our least expensive plan", HIGHEST: "Our top plan",
            MIDDLE: "The middle plan"}.get(way, "The next plan up")
    # a place in the list is the same from any plan: "Our top plan is Enterprise ..."
    start = "" if way in (HIGHEST, MIDDLE) else f" from {current.name}"
    said = f"{step}{start} is {target.name} at {dollars(target.monthly_price_cents)} a month."
    others = [
        p for p in sorted(plans, key=lambda p: -p.monthly_price_cents)
        if way == DOWN and p.monthly_price_cents < target.monthly_price_cents
    ]
    if others:
        said += " " + " ".join(f"{p.name} is {dollars(p.monthly_price_cents)} a month, if you'd rather." for p in others)
    return said + " "


def _nothing_further(current: Plan, way: str) -> str:
    if way == MIDDLE:
        return f"You're already on our middle plan, {current.name}, at {dollars(current.monthly_price_cents)} a month."
    if way in (UP, HIGHEST):
        return f"You're already on our top plan, {current.name}, at {dollars(current.monthly_price_cents)} a month."
    return (
        f"You're already on our least expensive plan, {current.name}, at "
        f"{dollars(current.monthly_price_cents)} a month."
    )


def _cost(current: Plan | None, target: Plan) -> str:
    """What the switch costs a month against the plan the caller is on."""
    price = f"The {target.name} plan is {dollars(target.monthly_price_cents)} a month"
    # "do i end up paying twice this month?": a switch charges nothing itself (it sets the plan
    # the next bill is made from)
    nothing_now = " Nothing extra is charged today: your next bill is simply at the new price."
    if current is None:
        return f"{price}; there's no fee for switching.{nothing_now}"
    diff = target.monthly_price_cents - current.monthly_price_cents
    more = f"{dollars(abs(diff))} {'more' if diff > 0 else 'less'}"
    return f"{price}, {more} than the {current.name} plan you're on now; there's no fee for switching.{nothing_now}"


def _goes(current: Plan, plan: Plan, way: str) -> bool:
    """Moving from ``current`` to ``plan`` is a move in direction ``way``."""
    if way == UP:
        return plan.monthly_price_cents > current.monthly_price_cents
    return plan.monthly_price_cents < current.monthly_price_cents  # down, or the cheapest


def picked_from_prices(text: str, last: SpecialistResult | None) -> str | None:
    """"ok the 600 one" right after the price list: that plan asked for (supervisor `again`)."""
    if not isinstance(last, ChangePlanResult) or last.status != "info" or not picks_from_list(text):
        return None
    return f"put me on {text.strip()}"


def lookup_prices(ports: Ports, customer_id: str | None, *, words: str = "") -> ChangePlanResult:
    """Read-only: what the plans cost, beside the caller's own, for "how much is the enterprise
    plan" in a multi-need turn or another language (meta/gist.py). Changes nothing."""
    billing = billing_port(ports)
    current = billing.current_plan(customer_id) if customer_id else None
    return ChangePlanResult(status="info", summary=plan_questions.price_list(billing.list_plans(), current),
                            old_plan=current.id if current else None)
