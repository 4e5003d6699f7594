"""Login help: explain why sign-in fails and email a reset link to the address on file.

Unlocking an account takes a step-up (a call back to the number on file): a locked
account is what stands between a guesser and a takeover.
"""

from __future__ import annotations

from dataclasses import dataclass

from livekit.agents import function_tool

from domains.account.step_up import request_step_up
from domains.identity import account_refusal
from domains.results import SpecialistResult
from domains.specialist import SpecialistTask, guarded


@dataclass(kw_only=True)
class HelpLoginResult(SpecialistResult):
    unlocked: bool = False
    reset_link_sent: bool = False
    failed_attempts: int = 0
    pending_change: str | None = None


def mask_email(email: str) -> str:
    name, _, domain = email.partition("@")
    return f"{name[:1]}***@{domain}"


class HelpLoginTask(SpecialistTask[HelpLoginResult]):
    result_type = HelpLoginResult
    instructions = "You help callers who cannot sign in. Call help_login."

    @function_tool
    @guarded
    async def help_login(self) -> None:
        """Check why the caller cannot sign in, email a password reset link to the address on file, and arrange unlocking a locked account."""
        refused = account_refusal(self)  # no reset link or unlock for a closed account or a third party
        if refused is not None:
            self.finish(HelpLoginResult(status="refused", summary=refused))
            return None
        store = self.state.store
        customer = self.state.ports.customers.get_customer(self.customer_id)
        assert customer is not None
        failures = [e for e in self.state.ports.customers.recent_logins(customer.id) if not e.success]
        store.add_notification(
            customer_id=customer.id, channel="email", body="Password reset link", dedupe_key=f"reset-{customer.id}-{self.state.guard.turn}"
        )
        parts = []
        if failures:
            parts.append(f"I see {len(failures)} failed sign-in attempts this week")
        pending = None
        if customer.locked:
            parts.append("your account was locked after them")
        summary = (("; ".join(parts) + ". ") if parts else "") + (
            f"I've emailed a password reset link to {mask_email(customer.email)}, the address on file; it's valid for 30 minutes."
        )
        if customer.locked:
            pending, say = request_step_up(self.state, customer_id=customer.id, field="unlock", new_value=None, what="unlocking your account")
            summary += " " + say
        summary = summary[0].upper() + summary[1:]
        self.finish(HelpLoginResult(
            status="done", summary=summary, unlocked=False, reset_link_sent=True, failed_attempts=len(failures), pending_change=pending,
        ))
