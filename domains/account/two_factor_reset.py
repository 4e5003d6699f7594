"""Two-factor reset: a takeover risk, so it is read back, confirmed, and always approved by an operator."""

from __future__ import annotations

from dataclasses import dataclass

from livekit.agents import function_tool

from domains.durable import request_approval
from domains.frame import ActionFacts
from domains.identity import account_refusal
from domains.intent import ActionGate
from domains.results import SpecialistResult
from domains.specialist import SpecialistTask, guarded


@dataclass(kw_only=True)
class ResetTwoFactorResult(SpecialistResult):
    request_id: str | None = None


WHAT_IF = (
    "You only need a reset if your sign-in codes didn't come across: if the authenticator app on your new phone "
    "shows codes for your account, they keep working and nothing needs resetting. If it doesn't, I can ask for a "
    "reset; a supervisor reviews it first, and then you set two-factor up again on the new phone. Nothing has "
    "been changed. Would you like me to ask for the reset?"
)


class ResetTwoFactorTask(SpecialistTask[ResetTwoFactorResult]):
    result_type = ResetTwoFactorResult
    instructions = "You take two-factor reset requests. Call reset_two_factor; it reads the request back and files it once the caller confirms."

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.gate = ActionGate()

    @function_tool
    @guarded
    async def reset_two_factor(self) -> str | None:
        """Ask for the caller's two-factor authentication to be reset (the caller confirms a read-back; an operator approves it), or answer a question about it."""
        refused = account_refusal(self)
        if refused is not None:
            self.finish(ResetTwoFactorResult(status="refused", summary=refused))
            return None
        if self.asks_what_if:
            # "do i need to reset two factor after a new phone?" is answered, not filed.
            self.finish(ResetTwoFactorResult(status="info", summary=WHAT_IF, offer="reset my two factor authentication"))
            return None
        go = self.gate.check(
            self, f"2fa:{self.customer_id}",
            f"To confirm: reset two-factor authentication on account {self.customer_id}; a supervisor reviews it first.",
            ActionFacts(
                what="the request to reset your two-factor authentication",
                approval=(
                    "a two-factor reset turns off the second check on your sign-in, so a supervisor always reviews it first."
                ),
                undo="After the reset you set up two-factor again on your new device, from your security settings.",
            ),
        )
        if go is not True:
            return go
        outcome = await request_approval(
            self.state, say=self.session.say, caller_reason=self.request_words, kind="two_factor_reset", request_id=f"two_factor_reset-{self.customer_id}", amount_cents=None,
            policy_finding="two-factor reset always requires operator approval; caller confirmed the read-back", requested_by=self.id,
            what="resetting your two-factor authentication",
        )
        self.finish(ResetTwoFactorResult(status=outcome.status, summary=outcome.summary, request_id=outcome.request_id, follow_ups=outcome.follow_ups))  # type: ignore[arg-type]
        return None
