"""Account closure: read back and confirmed by the caller, then an operator approves it."""

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
class CloseAccountResult(SpecialistResult):
    request_id: str | None = None


WHAT_IF = (
    "You can close your account whenever you like: you ask us, a supervisor reviews the request, the subscription "
    "ends, and the account's data is deleted 30 days later. Nothing has been changed. Would you like to close it "
    "now?"
)
# "is there no way to pause it?": asked at the read-back, or right after what closing would do
PAUSE = ("There's no way to pause an account, I'm afraid. If it's the cost, moving to a cheaper plan keeps your "
         "account and its data; or you can leave it as it is for now.")


class CloseAccountTask(SpecialistTask[CloseAccountResult]):
    result_type = CloseAccountResult
    instructions = "You take account closure requests. Call close_account; it reads the request back and files it once the caller confirms."

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.gate = ActionGate()

    @function_tool
    @guarded
    async def close_account(self, confirm: bool | None = None) -> str | None:
        """Ask for the caller's account to be closed (the caller confirms a read-back; an operator approves it).

        Args:
            confirm: True once the caller has confirmed they want the account closed; false if they changed their mind.
        """
        refused = account_refusal(self)
        if refused is not None:
            self.finish(CloseAccountResult(status="refused", summary=refused))
            return None
        if self.asks_what_if:
            # "can i close my account later?" is answered, not filed.
            self.finish(CloseAccountResult(status="info", summary=WHAT_IF, offer="close my account", follow_ups={"pause": PAUSE}))
            return None
        go = self.gate.check(
            self, f"close:{self.customer_id}",
            f"To confirm: close account {self.customer_id}. That ends the subscription and deletes its data after 30 days, "
            "and a supervisor reviews it first.",
            ActionFacts(
                what="the request to close your account",
                approval="closing an account ends its subscription and deletes its data, so a supervisor always reviews it first.",
                undo="Until a supervisor has approved it you can call us to withdraw it; after 30 days the data is deleted for good.",
                pause=PAUSE,
            ),
        )
        if go is not True:
            return go
        outcome = await request_approval(
            self.state, say=self.session.say, caller_reason=self.request_words, kind="close_account", request_id=f"close_account-{self.customer_id}", amount_cents=None,
            policy_finding="account closure always requires operator approval; caller confirmed the read-back", requested_by=self.id,
            what="closing your account",
        )
        self.finish(CloseAccountResult(status=outcome.status, summary=outcome.summary, request_id=outcome.request_id, follow_ups=outcome.follow_ups))  # type: ignore[arg-type]
        return None
