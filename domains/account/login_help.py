"""Login help: explain why sign-in fails, unlock after verification, send a reset link."""

from __future__ import annotations

from dataclasses import dataclass

from livekit.agents import function_tool

from domains.results import SpecialistResult
from domains.specialist import SpecialistTask, guarded


@dataclass(kw_only=True)
class HelpLoginResult(SpecialistResult):
    unlocked: bool = False
    reset_link_sent: bool = False
    failed_attempts: int = 0


def mask_email(email: str) -> str:
    name, _, domain = email.partition("@")
    return f"{name[:1]}***@{domain}"


class HelpLoginTask(SpecialistTask[HelpLoginResult]):
    result_type = HelpLoginResult
    instructions = "You help callers who cannot sign in. Call help_login."

    @function_tool
    @guarded
    async def help_login(self) -> None:
        """Check why the caller cannot sign in, unlock the account if it was locked by failed attempts, and email a password reset link."""
        store = self.state.store
        customer = store.get_customer(self.customer_id)
        assert customer is not None
        failures = [e for e in store.recent_logins(customer.id) if not e.success]
        unlocked = False
        if customer.locked:
            store.set_locked(customer.id, False)
            store.add_audit(subject=customer.id, action="unlock", actor="agent:account.login_help", reason="caller verified by phone")
            unlocked = True
        store.add_notification(
            customer_id=customer.id, channel="email", body="Password reset link", dedupe_key=f"reset-{customer.id}-{self.state.turn}"
        )
        parts = []
        if failures:
            parts.append(f"I see {len(failures)} failed sign-in attempts this week")
        if unlocked:
            parts.append("your account was locked after them, and I've unlocked it")
        summary = (("; ".join(parts) + ". ") if parts else "") + (
            f"I've emailed a password reset link to {mask_email(customer.email)}; it's valid for 30 minutes."
        )
        summary = summary[0].upper() + summary[1:]
        self.finish(HelpLoginResult(status="done", summary=summary, unlocked=unlocked, reset_link_sent=True, failed_attempts=len(failures)))
