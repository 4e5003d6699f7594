"""Two-factor reset: a takeover risk, so it always needs an operator's approval."""

from __future__ import annotations

from dataclasses import dataclass

from livekit.agents import function_tool

from domains.durable import request_approval
from domains.results import SpecialistResult
from domains.specialist import SpecialistTask, guarded


@dataclass(kw_only=True)
class ResetTwoFactorResult(SpecialistResult):
    request_id: str | None = None


class ResetTwoFactorTask(SpecialistTask[ResetTwoFactorResult]):
    result_type = ResetTwoFactorResult
    instructions = "You take two-factor reset requests. Call reset_two_factor."

    @function_tool
    @guarded
    async def reset_two_factor(self) -> None:
        """Ask for the caller's two-factor authentication to be reset (an operator approves it)."""
        outcome = await request_approval(
            self.state, say=self.session.say, caller_reason=self.caller_words, kind="two_factor_reset", request_id=f"two_factor_reset-{self.customer_id}", amount_cents=None,
            policy_finding="two-factor reset always requires operator approval", requested_by=self.id,
            what="resetting your two-factor authentication",
        )
        self.finish(ResetTwoFactorResult(status=outcome.status, summary=outcome.summary, request_id=outcome.request_id))  # type: ignore[arg-type]
