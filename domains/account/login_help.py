"""Login help: explain why sign-in fails and email a reset link to the address on file.

Unlocking an account takes a step-up (a call back to the number on file): a locked
account is what stands between a guesser and a takeover. It is an action, so it is read back
and filed only on the caller's yes; "why can't i log in?" is answered, never filed.
"""

from __future__ import annotations

from dataclasses import dataclass

from livekit.agents import function_tool

from domains.account.lock_words import locked_out
from domains.account.step_up import (
    STEP_UP_HOW,
    STEP_UP_WHY,
    already_waiting,
    last_digits,
    request_step_up,
    step_up_follow_ups,
)
from domains.frame import ActionFacts
from domains.identity import account_refusal
from domains.intent import ActionGate
from domains.results import SpecialistResult
from domains.specialist import SpecialistTask, guarded

_UNLOCK = "unlocking your account"


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

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        # Unlocking is an action: asked for by a read-back, never filed because of a question.
        self.gate = ActionGate()
        self._explained: str | None = None

    @function_tool
    @guarded
    async def help_login(self) -> str | None:
        """Check why the caller cannot sign in, email a password reset link to the address on file, and offer to arrange unlocking a locked account."""
        refused = account_refusal(self)  # no reset link or unlock for a closed account or a third party
        if refused is not None:
            self.finish(HelpLoginResult(status="refused", summary=refused))
            return None
        store = self.state.store
        customer = self.state.ports.customers.get_customer(self.customer_id)
        assert customer is not None
        failures = [e for e in self.state.ports.customers.recent_logins(customer.id) if not e.success]
        if self._explained is None:
            # One link per call, however often the unlock question is asked again.
            store.add_notification(
                customer_id=customer.id, channel="email", body="Password reset link", dedupe_key=f"reset-{customer.id}-{self.state.call_id}"
            )
            parts = []
            if failures:
                parts.append(f"I see {len(failures)} failed sign-in attempts this week")
            if customer.locked:
                parts.append("your account was locked after them")
            elif locked_out(self.request_words) and "lock" in self.request_words.lower():
                # "it says my account is locked": it is not, which is what they asked
                parts.append("your account isn't locked")
            explained = (("; ".join(parts) + ". ") if parts else "") + (
                f"I've emailed a password reset link to {mask_email(customer.email)}, the address on file; it's valid for 30 minutes."
            )
            self._explained = explained[0].upper() + explained[1:]
        result = {"reset_link_sent": True, "failed_attempts": len(failures)}
        if not customer.locked:
            # "how long is that link good for", "and if it doesn't come?"
            link = {"how_long": "The reset link is valid for 30 minutes; if it runs out, just ask me for a new one.",
                    "next_step": f"Open the email we sent to {mask_email(customer.email)} and choose a new password within 30 minutes.",
                    # "which address did that go to?"
                    "where": f"The reset link went to {mask_email(customer.email)}, the email address on file."}
            self.finish(HelpLoginResult(status="done", summary=self._explained, follow_ups=link, **result))
            return None
        waiting = already_waiting(self.state, customer_id=customer.id, field="unlock", new_value=None, what=_UNLOCK)
        if waiting is not None and not self.gate.pending:
            self.finish(HelpLoginResult(status="queued", summary=waiting[1], pending_change=waiting[0], **result))
            return None
        ending = last_digits(customer.phone)
        go = self.gate.check(
            self, f"unlock:{customer.id}",
            f"{self._explained} The link alone won't unlock the account. To confirm: ask for account {customer.id} to be "
            f"unlocked; we'll call you back at the number on file ending {ending} to confirm it first.",
            ActionFacts(
                what=f"asking for account {customer.id} to be unlocked, with a call back to the number ending {ending}",
                how_long=STEP_UP_HOW, approval=STEP_UP_WHY,
                undo="If you'd rather keep it locked, just say no to the call back.",
            ),
        )
        if go is not True:
            return go
        pending, say = request_step_up(self.state, customer_id=customer.id, field="unlock", new_value=None, what=_UNLOCK)
        self.finish(HelpLoginResult(status="queued", summary=say, unlocked=False, pending_change=pending,
                                    follow_ups=step_up_follow_ups(customer.phone) if pending else {}, **result))
        return None
