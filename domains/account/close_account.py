"""Account closure: always needs an operator's approval; nothing closes from the call itself."""

from __future__ import annotations

from dataclasses import dataclass

from livekit.agents import function_tool

from domains.durable import request_approval
from domains.results import SpecialistResult
from domains.specialist import SpecialistTask, guarded


@dataclass(kw_only=True)
class CloseAccountResult(SpecialistResult):
    request_id: str | None = None


class CloseAccountTask(SpecialistTask[CloseAccountResult]):
    result_type = CloseAccountResult
    instructions = "You take account closure requests. Confirm the caller wants to close the account, then call close_account with confirm=true."
    _asked = False

    @function_tool
    @guarded
    async def close_account(self, confirm: bool | None = None) -> str | None:
        """Ask for the caller's account to be closed (an operator approves it).

        Args:
            confirm: True once the caller has confirmed they want the account closed; false if they changed their mind.
        """
        if confirm is False:
            self.finish(CloseAccountResult(status="info", summary="No problem, your account stays open."))
            return None
        if confirm is not True or not self._asked:
            self._asked = True
            if not self.another_attempt():
                return None
            return "Closing the account ends your subscription and deletes your data after 30 days. Are you sure you want to close it?"
        outcome = await request_approval(
            self.state, say=self.session.say, caller_reason=self.caller_words, kind="close_account", request_id=f"close_account-{self.customer_id}", amount_cents=None,
            policy_finding="account closure always requires operator approval", requested_by=self.id,
            what="closing your account",
        )
        self.finish(CloseAccountResult(status=outcome.status, summary=outcome.summary, request_id=outcome.request_id))  # type: ignore[arg-type]
        return None
