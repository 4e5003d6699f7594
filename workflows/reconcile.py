"""Requests ended outside the line and the console: `temporal workflow terminate` or `cancel`.

The store's outbox (`work_requests`) lists every request the line filed. A workflow that
Temporal reports terminated or cancelled without a final outcome in the store was ended
by hand, not decided: the worker audits it (with the identity and reason Temporal recorded),
marks the row `ended_outside`, and counts it (`callcenter_requests_ended_outside_total`,
alerted by `RequestEndedOutsideTheLine`). Idempotent: a row already marked is skipped.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime, timedelta

from temporalio.api.enums.v1 import EventType
from temporalio.client import Client, WorkflowExecutionStatus

from callcenter.logsafe import ref
from callcenter.store import Store
from callcenter.store import durable as d
from workflows import authz, observe
from workflows.client import RPC_TIMEOUT
from workflows.models import ENDED_OUTSIDE as ENDED
from workflows.models import FINAL_STATES as FINAL

log = logging.getLogger(__name__)

# Visibility is eventually consistent: each look reaches a little before the previous one.
OVERLAP = timedelta(minutes=2)


async def _who(client: Client, wid: str, run_id: str | None) -> str:
    """'by <identity>: <reason>' from the history's terminate or cancel-request event."""
    try:
        async for ev in client.get_workflow_handle(wid, run_id=run_id).fetch_history_events():
            if ev.event_type == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED:
                a = ev.workflow_execution_terminated_event_attributes
                return f"by {authz.clean(a.identity or '?', 120)}: {authz.clean(a.reason or 'no reason given', 300)}"
            if ev.event_type == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CANCEL_REQUESTED:
                a = ev.workflow_execution_cancel_requested_event_attributes
                return f"by {authz.clean(a.identity or '?', 120)}: {authz.clean(a.cause or 'no reason given', 300)}"
    except Exception:  # noqa: BLE001 - the audit line is written without the detail
        log.debug("history of %s unreadable", ref(wid), exc_info=True)
    return "by an unknown client"


async def reconcile(client: Client, store: Store, since: datetime) -> int:
    """Audit requests ended in Temporal after `since` outside the line and the console; the count."""
    at = (since - OVERLAP).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    q = ("WorkflowType IN ('ApprovalWorkflow', 'TicketWorkflow')"
         f" AND ExecutionStatus IN ('Terminated', 'Canceled') AND CloseTime > '{at}'")
    found = 0
    async for ex in client.list_workflows(q, rpc_timeout=RPC_TIMEOUT):
        row = await asyncio.to_thread(store.get_work, ex.id)
        if row is None or row.status == ENDED:
            continue  # not the line's (refused at admission, audited then), or already seen
        last = await asyncio.to_thread(d.latest_outcome, store, ex.id)
        if last is not None and last.state in FINAL:
            continue  # decided and carried out; ended afterwards (nothing was skipped)
        how = "terminated" if ex.status == WorkflowExecutionStatus.TERMINATED else "canceled"
        who = await _who(client, ex.id, ex.run_id)
        await asyncio.to_thread(
            store.add_audit, subject=ex.id, action=f"request_{how}_outside", actor="temporal",
            reason=f"{how} in Temporal {who}; no decision by the line or the console", customer_id=row.customer_id)
        await asyncio.to_thread(store.set_work_status, ex.id, ENDED)
        observe.ended_outside(row.kind, how)
        log.warning("request %s was %s in Temporal outside the line and the console", ref(ex.id), how)
        found += 1
    return found


class Reconciler:
    """The worker's periodic look; the first reaches back `lookback` (ended while no worker ran)."""

    def __init__(self, client: Client, store: Store, lookback: timedelta = timedelta(days=7)) -> None:
        self.client, self.store = client, store
        self.since = datetime.now(UTC) - lookback

    async def once(self) -> int:
        started = datetime.now(UTC)
        n = await reconcile(self.client, self.store, self.since)
        self.since = started
        return n
