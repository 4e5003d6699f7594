"""Plan changes: confirm the new price with the caller, then switch the subscription."""

from __future__ import annotations

from dataclasses import dataclass

from livekit.agents import function_tool

from callcenter.money import dollars
from domains.billing import plan_questions
from domains.billing.ports import billing_port
from domains.frame import ActionFacts
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

    @function_tool
    @guarded
    async def change_plan(self, plan: str, confirm: bool | None = None) -> str | None:
        """Switch the caller's subscription to another plan (starter, pro or enterprise).

        Args:
            plan: The plan the caller wants: starter, pro or enterprise.
            confirm: True once the caller has agreed to the new monthly price; false if they declined.
        """
        if self.asks_what_if:  # "would enterprise be cheaper?": answered with prices, never read back as a change
            return self._answer_question(plan)
        billing = billing_port(self.state.ports)
        target = billing.get_plan(plan.strip())
        current = billing.current_plan(self.customer_id)
        if target is None:
            if not self.another_attempt():
                return None
            names = ", ".join(p.name for p in billing.list_plans())
            return f"We have these plans: {names}. Which one would you like?"
        if current and current.id == target.id:
            self.finish(ChangePlanResult(status="info", summary=f"You're already on the {target.name} plan.", old_plan=current.id, new_plan=target.id))
            return None
        go = self.gate.check(
            self, f"plan:{target.id}",
            f"To confirm: switch account {self.customer_id} to the {target.name} plan at "
            f"{dollars(target.monthly_price_cents)} a month.",
            ActionFacts(
                what=f"the switch to the {target.name} plan at {dollars(target.monthly_price_cents)} a month",
                how_long="It switches as soon as you say yes, and your next bill is at the new price.",
                undo="You can switch plans again at any time.",
            ),
        )
        if go is not True:
            return go
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

    def _answer_question(self, plan: str | None) -> None:
        billing = billing_port(self.state.ports)
        current = billing.current_plan(self.customer_id)
        target = billing.get_plan(plan.strip()) if plan else None
        summary, offer = plan_questions.compare(target, current, billing.list_plans())
        self.finish(ChangePlanResult(
            status="info", summary=summary, offer=offer, old_plan=current.id if current else None,
            new_plan=target.id if target else None,
        ))
