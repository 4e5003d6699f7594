"""Operator logic: the pending queue, one request in detail, approve/deny, resolve tickets.

Expected problems (unknown id, finished workflow, rejected decision, Temporal down) raise
ConsoleError with one line for the operator; the CLI prints it without a traceback.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from temporalio.client import (
    Client,
    WorkflowExecutionStatus,
    WorkflowUpdateFailedError,
    WorkflowUpdateRPCTimeoutOrCancelledError,
)
from temporalio.exceptions import ApplicationError
from temporalio.service import RPCError, RPCStatusCode

from callcenter.redact import mask
from callcenter.store import Store
from callcenter.store import durable as d
from callcenter.store.operators import Operator
from console.accounts import Target, grant_for
from workflows import authz
from workflows.client import RPC_TIMEOUT, TemporalUnavailable
from workflows.models import (
    ESCALATION_KIND,
    SA_AMOUNT,
    SA_CUSTOMER,
    SA_KIND,
    SA_STATE,
    SAFE_ID,
    Decision,
    DecisionResult,
    Resolution,
    ticket_workflow_id,
)
from workflows.workflows import CHECKING


class ConsoleError(Exception):
    """An expected problem, said in one line."""


@dataclass
class QueueItem:
    request_id: str
    kind: str
    state: str
    customer_id: str | None
    amount_cents: int | None
    age_s: int
    caller_reason: str
    policy_finding: str
    requested_by: str
    submitted_at: str
    audit: list[dict[str, Any]] = field(default_factory=list)
    decided_by: str | None = None
    decision_reason: str | None = None
    detail: str | None = None
    escalations: int | None = None
    first_approval: str | None = None
    deadline_s: int | None = None  # seconds per escalation level, from the request's policy


def _rpc_error(err: RPCError, what: str) -> ConsoleError:
    if err.status == RPCStatusCode.NOT_FOUND:
        return ConsoleError(f"no such request: {what}")
    if err.status in (RPCStatusCode.UNAVAILABLE, RPCStatusCode.DEADLINE_EXCEEDED):
        return ConsoleError(f"cannot reach Temporal: {err.message.splitlines()[0][:160]}")
    return ConsoleError(f"Temporal refused: {err.message.splitlines()[0][:160]}")


# Ended in Temporal without the workflow's own last word: the search attribute still says
# what it said before (e.g. "pending"), so the execution's status is what an operator sees.
T = TypeVar("T")
_ENDED = {WorkflowExecutionStatus.TERMINATED: "terminated", WorkflowExecutionStatus.CANCELED: "canceled",
          WorkflowExecutionStatus.TIMED_OUT: "timed_out", WorkflowExecutionStatus.FAILED: "failed"}


def _item(ex: Any, memo: dict[str, Any]) -> QueueItem:
    sa = ex.typed_search_attributes
    started = ex.start_time or datetime.now(UTC)
    return QueueItem(
        request_id=ex.id, kind=sa.get(SA_KIND) or "?", state=_ENDED.get(ex.status) or sa.get(SA_STATE) or "?",
        customer_id=sa.get(SA_CUSTOMER), amount_cents=sa.get(SA_AMOUNT),
        age_s=int((datetime.now(UTC) - started).total_seconds()),
        # Caller and operator text is neutralised here, once, for every display (CLI, HTML, JSON);
        # masked again too: requests filed by older versions had a weaker mask.
        caller_reason=mask(authz.clean(memo.get("caller_reason"))), policy_finding=authz.clean(memo.get("policy_finding")),
        requested_by=authz.clean(memo.get("requested_by")), submitted_at=started.replace(microsecond=0).isoformat(),
        decided_by=authz.clean(memo["decided_by"]) if memo.get("decided_by") else None,
        decision_reason=authz.clean(memo["decision_reason"]) if memo.get("decision_reason") else None,
        detail=authz.clean(memo["detail"]) if memo.get("detail") else None,
        first_approval=authz.clean(memo["first_approval"]) if memo.get("first_approval") else None,
        deadline_s=int(memo["deadline_s"]) if memo.get("deadline_s") else None,
    )


async def list_queue(
    client: Client, *, states: tuple[str, ...] = ("pending", "escalated"), kind: str | None = None,
    customer_id: str | None = None, min_amount_cents: int | None = None,
) -> list[QueueItem]:
    """Approvals waiting for an operator, oldest first (one list call; no worker needed).
    Filters become search-attribute conditions, so the server does the filtering."""
    q = "WorkflowType = 'ApprovalWorkflow' AND ExecutionStatus = 'Running'"
    if states:
        q += " AND RequestState IN (" + ", ".join(f"'{s}'" for s in states) + ")"
    for name, value in (("RequestKind", kind), ("CustomerId", customer_id)):
        if value is not None:
            if not SAFE_ID.match(value):
                raise ConsoleError(f"malformed filter value: {value!r}")
            q += f" AND {name} = '{value}'"
    if min_amount_cents is not None:
        q += f" AND AmountCents >= {int(min_amount_cents)}"
    items: list[QueueItem] = []
    try:
        async for ex in client.list_workflows(q, rpc_timeout=RPC_TIMEOUT):
            items.append(_item(ex, dict(await ex.memo())))
    except RPCError as err:
        raise _rpc_error(err, "queue") from None
    return sorted(items, key=lambda i: -i.age_s)


async def queue_changes(client: Client, since: datetime) -> tuple[list[QueueItem], set[str]]:
    """What changed since `since`: approvals started after it and still waiting, and the ids
    of approvals that finished after it. Two small listings instead of the whole queue."""
    at = since.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    new_q = ("WorkflowType = 'ApprovalWorkflow' AND ExecutionStatus = 'Running'"
             f" AND RequestState IN ('pending', 'escalated') AND StartTime > '{at}'")
    gone_q = f"WorkflowType = 'ApprovalWorkflow' AND CloseTime > '{at}'"
    new: list[QueueItem] = []
    gone: set[str] = set()
    try:
        async for ex in client.list_workflows(new_q, rpc_timeout=RPC_TIMEOUT):
            new.append(_item(ex, dict(await ex.memo())))
        async for ex in client.list_workflows(gone_q, rpc_timeout=RPC_TIMEOUT):
            gone.add(ex.id)
    except RPCError as err:
        raise _rpc_error(err, "queue") from None
    return new, gone


async def show(client: Client, store: Store, request_id: str) -> QueueItem:
    if not SAFE_ID.match(request_id):
        raise ConsoleError(f"malformed request id: {request_id!r}")
    handle, desc = await _describe(client, request_id, request_id, approval=True)
    item = _item(desc, dict(await desc.memo()))
    if desc.status == WorkflowExecutionStatus.RUNNING:
        try:  # the live view (escalation count); needs a worker, so it is optional
            view = await handle.query("state", rpc_timeout=timedelta(seconds=1))
            item.escalations = int(view.get("escalations", 0))
        except Exception:
            pass
    item.audit = [{k: mask(authz.clean(v), keep_email=True) if isinstance(v, str) else v for k, v in asdict(a).items()}
                  for a in store.audit_for(request_id)]
    last = d.latest_outcome(store, request_id)
    if last is not None and item.detail is None:
        item.detail = last.detail
    return item


def _refuse(store: Store, request_id: str, verdict: str, op: Operator, why: str, reason: str,
            customer_id: str | None = None) -> ConsoleError:
    """Refusals before the workflow is reached are audited here (the worker audits its own)."""
    store.add_audit(subject=authz.clean(request_id, 128), action=f"{verdict}_refused", actor=op.name, role=op.role,
                    customer_id=customer_id, reason=authz.clean(f"{why}; said: {reason}", 1200))
    return ConsoleError(f"refused: {why}")


async def decide(
    client: Client, store: Store, request_id: str, *, verdict: str, operator: Operator, reason: str,
    key: bytes, grant_ttl_s: int = 120,
) -> DecisionResult:
    """Send approve/deny as an update with a signed credential for this operator, request and
    verb; the workflow's validator verifies it and accepts or refuses at once."""
    if verdict not in ("approve", "deny"):
        raise ConsoleError(f"unknown decision {verdict!r}")
    if not SAFE_ID.match(request_id):
        raise _refuse(store, request_id, verdict, operator, "malformed request id", reason)
    # The reason goes into the workflow's history, memo and the audit: a card or ZIP an operator
    # pastes from the call is masked before it leaves the console.
    reason = mask(authz.clean(reason or "").strip(), keep_email=True)
    if not reason:
        raise _refuse(store, request_id, verdict, operator, "a reason is required", reason)
    if len(reason) > 1000:
        raise _refuse(store, request_id, verdict, operator, "the reason is too long (1000 characters at most)", reason[:200])
    if operator.disabled or authz.is_reserved(operator.name):
        raise _refuse(store, request_id, verdict, operator, "this account may not decide", reason)
    handle, desc = await _describe(client, request_id, request_id, approval=True)
    customer = desc.typed_search_attributes.get(SA_CUSTOMER)
    if desc.status != WorkflowExecutionStatus.RUNNING:
        memo = dict(await desc.memo())
        state = desc.typed_search_attributes.get(SA_STATE) or desc.status.name.lower()
        by = f" by {authz.clean(memo['decided_by'])}" if memo.get("decided_by") else ""
        raise _refuse(store, request_id, verdict, operator, f"already decided: {state}{by}", reason, customer)
    memo = dict(await desc.memo())
    if store.get_work(request_id) is None:
        # The workflow refuses it too (admission); said here before a credential is issued.
        raise _refuse(store, request_id, verdict, operator, "the line filed no such request", reason, customer)

    res = await send_update(handle, operator, approval_target(desc, memo), verdict, key, grant_ttl_s,
                            lambda grant: Decision(operator.name, reason, operator.role, grant), DecisionResult)
    if res.state == "awaiting_second_approval":
        # The final decision is audited by the workflow's activity with both names; the
        # first approval is audited here, when it happens.
        store.add_audit(subject=request_id, action="approved_first", actor=operator.name, role=operator.role,
                        customer_id=customer, reason=reason)
    return res


async def _describe(client: Client, wid: str, what: str, *, approval: bool) -> tuple[Any, Any]:
    """The workflow's handle and Temporal's describe of its current run, or one line why not."""
    handle = client.get_workflow_handle(wid)
    try:
        desc = await handle.describe(rpc_timeout=RPC_TIMEOUT)
    except RPCError as err:
        raise _rpc_error(err, what) from None
    if approval and desc.workflow_type != "ApprovalWorkflow":
        raise ConsoleError(f"{what} is a {desc.workflow_type}, not an approval")
    return handle, desc


async def send_update(handle: Any, operator: Operator, target: Target, verb: str, key: bytes, ttl_s: int,
                      payload: Callable[[str], Any], result_type: type | None) -> Any:
    """The one way an operator's update (approve, deny, resolve) reaches a workflow: a sealed
    credential for this operator, verb and run, made anew for each attempt, and the
    workflow's refusal said in one line."""
    async def send() -> Any:
        grant, gid = grant_for(operator, target, verb, key, ttl_s)
        # One id per attempt: a repeated decision is checked again (and refused) rather than
        # answered from the first attempt's cached result.
        return await handle.execute_update(verb, payload(grant), id=f"{verb}-{operator.name}-{gid}",
                                           result_type=result_type, rpc_timeout=timedelta(seconds=10))

    try:
        return await _while_admitting(send)
    except WorkflowUpdateFailedError as err:
        cause = err.cause
        msg = cause.message if isinstance(cause, ApplicationError) else str(cause or err)
        raise ConsoleError(f"refused: {authz.clean(msg)}") from None
    except WorkflowUpdateRPCTimeoutOrCancelledError:
        raise ConsoleError(
            f"no worker answered in 10 s; the decision is kept and applied when a worker runs ({target.request_id})"
        ) from None
    except RPCError as err:
        if err.status == RPCStatusCode.NOT_FOUND:
            raise ConsoleError(f"{target.request_id} finished before the decision arrived") from None
        raise _rpc_error(err, target.request_id) from None


async def _while_admitting(send: Callable[[], Awaitable[T]], budget_s: float = 5.0) -> T:
    """`send()`, again while the workflow answers that its first activity is still checking the
    request against the line's record (tens of milliseconds after it starts)."""
    deadline = time.monotonic() + budget_s
    pause = 0.05
    while True:
        try:
            return await send()
        except WorkflowUpdateFailedError as err:
            cause = err.cause
            if not (isinstance(cause, ApplicationError) and cause.message == CHECKING) or time.monotonic() > deadline:
                raise
        await asyncio.sleep(pause)  # the activity's own round trip; nothing to wait on from here
        pause = min(pause * 2, 0.5)


def approval_target(desc: Any, memo: dict[str, Any]) -> Target:
    """What an approval's credential is bound to, from Temporal's describe of its run. A
    workflow whose search attributes or memo differ from its input refuses it."""
    sa = desc.typed_search_attributes
    return Target(workflow_id=desc.id, run_id=desc.run_id, request_id=desc.id, kind=sa.get(SA_KIND) or "",
                  record_id=str(memo.get("record_id") or memo.get("charge_id") or ""),
                  amount_cents=sa.get(SA_AMOUNT), customer_id=sa.get(SA_CUSTOMER) or "",
                  step="second" if memo.get("first_approval") else "first")


def ticket_target(desc: Any, ticket_id: str) -> Target:
    return Target(workflow_id=desc.id, run_id=desc.run_id, request_id=ticket_id, kind=ESCALATION_KIND,
                  customer_id=desc.typed_search_attributes.get(SA_CUSTOMER) or "", step="")


async def resolve_ticket(client: Client, store: Store, ticket_id: str, *, operator: Operator, resolution: str,
                         key: bytes, grant_ttl_s: int = 60) -> dict[str, Any]:
    """Send `resolve` with a sealed credential for this operator, ticket and workflow run."""
    if not SAFE_ID.match(ticket_id):
        raise ConsoleError(f"malformed ticket id: {ticket_id!r}")
    if not (resolution or "").strip():
        raise ConsoleError("--resolution must not be empty")
    if operator.disabled or authz.is_reserved(operator.name):
        raise ConsoleError("refused: this account may not resolve tickets")
    handle, desc = await _describe(client, ticket_workflow_id(ticket_id), ticket_id, approval=False)
    if desc.status != WorkflowExecutionStatus.RUNNING:
        by = (await desc.memo()).get("decided_by")
        raise ConsoleError(f"ticket {ticket_id} is already closed" + (f" (resolved by {authz.clean(by)})" if by else ""))
    text = mask(resolution.strip(), keep_email=True)
    return await send_update(handle, operator, ticket_target(desc, ticket_id), "resolve", key, grant_ttl_s,
                             lambda grant: Resolution(operator.name, text, operator.role, grant), None)


async def list_tickets(client: Client) -> list[QueueItem]:
    q = "WorkflowType = 'TicketWorkflow' AND ExecutionStatus = 'Running'"
    items: list[QueueItem] = []
    try:
        async for ex in client.list_workflows(q, rpc_timeout=RPC_TIMEOUT):
            memo = dict(await ex.memo())
            it = _item(ex, memo)
            it.caller_reason = mask(authz.clean(memo.get("summary")))
            items.append(it)
    except RPCError as err:
        raise _rpc_error(err, "tickets") from None
    return sorted(items, key=lambda i: -i.age_s)


__all__ = ["ConsoleError", "QueueItem", "TemporalUnavailable", "approval_target", "decide", "list_queue",
           "list_tickets", "resolve_ticket", "send_update", "show", "ticket_target"]
