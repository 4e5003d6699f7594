"""The call side of durable work: ask for approval, hold briefly, or promise a callback.

With Temporal configured (`CallState.durable`), requests become workflows; without it the
request is kept in the store's outbox, so it is never lost, and submitted later.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from callcenter.redact import mask
from callcenter.routing.discourse import FollowUp
from domains.intent import approval_wait
from domains.state import CallState

log = logging.getLogger("callcenter.durable")


@dataclass(frozen=True, slots=True)
class ApprovalOutcome:
    status: str  # needs_approval | queued | done | refused
    summary: str
    request_id: str
    # Answers to the caller's follow-ups about a request left waiting ("how long until someone
    # approves that?"): from the approval settings, not "I don't have a firm time".
    follow_ups: dict[FollowUp, str] = field(default_factory=dict)


async def request_approval(
    state: CallState,
    *,
    kind: str,
    request_id: str,
    amount_cents: int | None,
    policy_finding: str,
    requested_by: str,
    what: str,
    record_id: str | None = None,
    caller_reason: str = "",
    say: Callable[[str], object] | None = None,
) -> ApprovalOutcome:
    customer_id = state.caller.customer_id or ""
    # Caller words reach the operator console, the Temporal memo and history: masked first.
    caller_reason = mask(caller_reason)[:300]
    if state.durable is None:
        state.store.queue_work(
            request_id=request_id,
            kind=kind,
            customer_id=customer_id,
            amount_cents=amount_cents,
            payload=json.dumps({"record_id": record_id, "policy_finding": policy_finding, "requested_by": requested_by,
                                "caller_reason": caller_reason}),
        )
        return ApprovalOutcome("needs_approval", _pending(what, request_id), request_id, _waiting(state))

    from workflows.client import ApprovalRequest

    req = ApprovalRequest(
        kind=kind,
        customer_id=customer_id,
        amount_cents=amount_cents,
        record_id=record_id,
        caller_reason=caller_reason,
        policy_finding=policy_finding,
        requested_by=requested_by,
        request_id=request_id,
        call_id=state.call_id,
    )
    with state.trace.active():  # Temporal's spans go under this specialist's
        submitted = await state.durable.submit_approval(req)
    if submitted.status == "queued":
        return ApprovalOutcome("queued", _queued(what, request_id), request_id, _waiting(state))
    hold = state.settings.hold_on_line_s
    if hold > 0:
        if say is not None:  # silence on a phone line sounds like a dropped call
            say(f"That needs a supervisor's approval. I've asked one; please hold for up to {hold:.0f} second{'s' if round(hold) != 1 else ''}.")
        status = await state.durable.wait_for_decision(request_id, hold)
    else:
        status = await state.durable.status(request_id)
    if status.state in ("approved", "completed"):
        return ApprovalOutcome("done", f"Good news: a supervisor approved {what}, and it's done.", request_id)
    if status.state == "failed":
        return ApprovalOutcome(
            "failed", f"A supervisor approved {what}, but it couldn't be carried out; a colleague will follow up. Your reference is {request_id}.", request_id
        )
    if status.state == "denied":
        return ApprovalOutcome("refused", f"A supervisor reviewed {what} and couldn't approve it. Nothing was changed.", request_id)
    return ApprovalOutcome("needs_approval", _pending(what, request_id), request_id, _waiting(state))


def _waiting(state: CallState) -> dict[FollowUp, str]:
    return {
        "how_long": approval_wait(state),
        "next_step": "Nothing more for you to do: a supervisor reviews the request, and we'll email you the outcome.",
        "why": "Changes like this one are checked by a person before they happen; that's our policy.",
    }


def _pending(what: str, request_id: str) -> str:
    return (
        f"{what[0].upper() + what[1:]} needs a supervisor's approval, so nothing has been done yet. "
        f"Your reference is {request_id}. We'll let you know by email as soon as it's decided."
    )


def _queued(what: str, request_id: str) -> str:
    return (
        f"I've recorded your request for {what}; your reference is {request_id}. It needs a "
        "supervisor's approval and will be followed up, and we'll email you the outcome."
    )


__all__ = ["ApprovalOutcome", "request_approval"]
