"""Activities: every side effect of the durable workflows, each exactly once per key.

Keys derive from the workflow id (the business request id), never from the attempt or run,
so a retry after a crash, or a second run of the same request, finds the first result.
Sync methods: the store is sync SQLite, and the worker runs them in a thread pool.
"""

from __future__ import annotations

import json
import logging
from dataclasses import asdict
from typing import Any

from temporalio import activity

from callcenter.logsafe import ref
from callcenter.money import dollars
from callcenter.redact import mask
from callcenter.settings import Settings, get_settings
from callcenter.store import Store
from callcenter.store import durable as d
from callcenter.store.adapters import Ports
from workflows import observe
from workflows.actions import ActionTable
from workflows.models import (
    ENDED_OUTSIDE,
    ESCALATION_KIND,
    FINAL_STATES,
    Admission,
    AdmitInput,
    ApprovalRequest,
    EscalateInput,
    FinishInput,
    FinishResult,
    StepResult,
    TicketStep,
    ticket_workflow_id,
)
from workflows.policy import approval_policy

log = logging.getLogger(__name__)


class CallcenterActivities:
    """Activities bound to one Store (decisions, audit, outbox), the line's ports (what the
    effects change: CALLCENTER_ADAPTERS) and the domains' action table (the worker's
    dependencies, given at construction), as in the Temporal samples."""

    def __init__(self, store: Store, actions: ActionTable, ports: Ports | None = None,
                 settings: Settings | None = None) -> None:
        self._store = store
        self._actions = actions
        self._ports = ports or Ports.of(store)  # effects reach a company's systems through these
        self._settings = settings or get_settings()  # the policy in force (admission)

    # --- admission: requests enter only through the line ----------------------------------
    @activity.defn
    def admit_request(self, inp: AdmitInput) -> Admission:
        """Is this approval the one the line filed (its `work_requests` row, written before the
        workflow started)? Yes: the policy from settings. No: audited, and the workflow ends."""
        req = inp.approval
        assert req is not None
        row = self._store.get_work(inp.workflow_id)
        why = _differs(row, inp.workflow_id, req) or self._settled(row, inp.workflow_id)
        action = self._actions.get(req.kind)
        if why is None and action is None:
            why = f"unknown approval kind {req.kind!r}"
        if why is None and action is not None:
            why = action.refusal(req)
        if why is not None:
            return self._refuse(inp, req.kind, req.customer_id, why)
        return Admission(True, policy=approval_policy(self._settings, self._actions))

    @activity.defn
    def admit_ticket(self, inp: AdmitInput) -> Admission:
        req = inp.ticket
        assert req is not None
        row = self._store.get_work(inp.workflow_id)
        filed = _filed(row)
        why = None
        if row is None:
            why = "no request was filed by the line under this id"
        elif row.status == ENDED_OUTSIDE:
            why = "this request was ended in Temporal outside the line; the line files it anew if it is still wanted"
        elif (row.kind != ESCALATION_KIND or inp.workflow_id != ticket_workflow_id(req.ticket_id)
              or row.customer_id != req.customer_id or filed.get("ticket_id") != req.ticket_id):
            why = "the request differs from what the line filed under this id"
        if why is not None:
            return self._refuse(inp, ESCALATION_KIND, req.customer_id, why)
        return Admission(True, resolve_min_role=self._settings.ticket_resolve_min_role)

    def _settled(self, row: Any, request_id: str) -> str | None:
        """A request already decided, or ended outside the line, is not admitted again: the line
        starts each request once, so a second run is someone's `temporal workflow start`."""
        last = d.latest_outcome(self._store, request_id)
        if last is not None and last.state in FINAL_STATES:
            return f"this request was already decided ({last.state})"
        if row is not None and row.status == ENDED_OUTSIDE:
            return "this request was ended in Temporal outside the line; the line files it anew if it is still wanted"
        return None

    def _refuse(self, inp: AdmitInput, kind: str, customer_id: str | None, why: str) -> Admission:
        # Someone started a workflow by hand (or changed one): nothing is decided or paid.
        self._store.add_audit(subject=inp.workflow_id, action="request_refused", actor="temporal",
                              reason=f"{why}; run {inp.run_id}", customer_id=customer_id)
        observe.ended_outside(kind, "not_filed")
        log.warning("request %s refused at admission: not what the line filed", ref(inp.workflow_id))
        return Admission(False, reason=f"refused: {why}")

    @activity.defn
    def finish_approval(self, inp: FinishInput) -> FinishResult:
        """Audit the decision, perform the approved action once, queue the customer notice."""
        req = inp.request
        key = f"{req.request_id}:final"
        action = self._actions.get(req.kind)
        what = self._actions.what(req.kind)
        approved = inp.verdict == "approved"
        audit = d.Audit(req.request_id, inp.verdict, inp.decided_by, inp.reason, inp.role, req.customer_id,
                        call_id=req.call_id or None)
        detail: str | None = None
        effect: d.Effect | None = None
        activity.heartbeat("start")
        state = "completed" if approved else "denied"
        if approved:
            amount = f" of {dollars(req.amount_cents)}" if req.amount_cents else ""
            body = f"Your {what}{amount} was approved and has been carried out."
        else:
            body = f"Your {what} request was reviewed and could not be approved: {inp.reason}"
        try:
            if approved:
                if action is None:
                    raise ValueError(f"unknown approval kind {req.kind!r}")
                refused = action.refusal(req)
                if refused:
                    raise ValueError(refused)
                applied = action.effect(self._ports, req, key, inp.decided_by)
                detail, effect = applied.detail, applied.effect
            activity.heartbeat("effect")
            outcome, created = d.apply_once(
                self._store, key=key, request_id=req.request_id, kind=req.kind, customer_id=req.customer_id,
                state=state, decided_by=inp.decided_by, reason=inp.reason, detail=detail, effect=effect,
                audit=audit, notice=d.Notice(req.customer_id, body, dedupe_key=key),
            )
        except ValueError as err:
            # The action is impossible (charge fully refunded, unknown customer): retrying
            # cannot help. Record the decision and the failure so both stay visible.
            log.warning("approval %s could not be carried out: %s", ref(req.request_id), type(err).__name__)
            outcome, created = d.apply_once(
                self._store, key=key, request_id=req.request_id, kind=req.kind, customer_id=req.customer_id,
                state="failed", decided_by=inp.decided_by, reason=inp.reason, detail=str(err),
                audit=audit, notice=d.Notice(
                    req.customer_id, f"Your {what} was approved but could not be carried out; we will contact you.",
                    dedupe_key=key,
                ),
            )
        if created:
            observe.approval_decided(req.kind, inp.verdict, inp.waited_s)
            observe.workflow_outcome("approval", outcome.state)
            # The worker's log of what was done; the call id (from the request) ties it to the call.
            log.info("approval %s %s: %s", ref(req.request_id), inp.verdict, outcome.state)
        return FinishResult(outcome.state, outcome.detail, created)

    @activity.defn
    def record_escalation(self, inp: EscalateInput) -> StepResult:
        """Nobody decided in time: audit it so supervisors see the request went up a level."""
        req = inp.request
        key = f"{req.request_id}:escalated-{inp.level}"
        _, created = d.apply_once(
            self._store, key=key, request_id=req.request_id, kind=req.kind, customer_id=req.customer_id,
            state="escalated", decided_by=None, reason=f"no decision within {int(inp.waited_s)} s",
            audit=d.Audit(req.request_id, "escalated", "system", f"level {inp.level} after {int(inp.waited_s)} s",
                          call_id=req.call_id or None),
        )
        if created:
            observe.approval_decided(req.kind, "escalated", inp.waited_s)
        return StepResult(created)

    @activity.defn
    def ticket_step(self, inp: TicketStep) -> StepResult:
        """Open, breach or resolve a ticket in the store, with the customer's notice."""
        req = inp.request
        wid = ticket_workflow_id(req.ticket_id)
        key = f"{wid}:{inp.step}"
        if inp.step == "opened":
            # create_ticket is INSERT OR IGNORE: the line may already have written the row.
            self._store.create_ticket(
                customer_id=req.customer_id, kind=req.kind, summary=req.summary, ticket_id=req.ticket_id
            )
            status, state = "open", "pending"
            team = f" with {req.team}" if req.team else ""
            body = f"We opened ticket {req.ticket_id}{team}; we will let you know when it is resolved."
        elif inp.step == "sla_breached":
            status, state = "breached", "escalated"  # tickets table words: open, breached, resolved
            body = f"Ticket {req.ticket_id} is taking longer than we promised; it has been escalated."
        elif inp.step == "resolved":
            status, state = "resolved", "completed"
            body = f"Ticket {req.ticket_id} is resolved: {inp.text}"
        else:
            raise ValueError(f"unknown ticket step {inp.step!r}")
        notice = d.Notice(req.customer_id, body, dedupe_key=key) if req.customer_id else None
        _, created = d.apply_once(
            self._store, key=key, request_id=wid, kind="escalation", customer_id=req.customer_id,
            state=state, decided_by=inp.actor if inp.step == "resolved" else None,
            reason=inp.text, effect=d.ticket_status_effect(req.ticket_id, status),
            audit=d.Audit(wid, inp.step, inp.actor, inp.text[:500], call_id=req.call_id or None), notice=notice,
        )
        if created and inp.step == "resolved":
            observe.workflow_outcome("ticket", "completed")
        return StepResult(created)


def _filed(row: Any) -> dict[str, Any]:
    """The request as the line wrote it in the outbox row (masked), or {}."""
    if row is None:
        return {}
    try:
        data = json.loads(row.payload)
    except ValueError:
        return {}
    if not isinstance(data, dict):
        return {}
    inner = data.get("request")
    return inner if isinstance(inner, dict) else data  # rows written without Temporal: flat


def _differs(row: Any, workflow_id: str, req: ApprovalRequest) -> str | None:
    """Why `req` is not the request the line filed as `row`, or None. The row's payload is
    masked, so text is compared masked too."""
    if row is None:
        return "no request was filed by the line under this id"
    filed = _filed(row)
    ours: dict[str, Any] = asdict(req)
    record = filed.get("record_id") or filed.get("charge_id")
    if (workflow_id != req.request_id or row.kind != req.kind or row.customer_id != req.customer_id
            or row.amount_cents != req.amount_cents or (record or None) != (mask(req.record_id or "", keep_email=True) or None)):
        return "the request differs from what the line filed under this id (kind, customer, amount or record)"
    for name in ("caller_reason", "policy_finding", "requested_by"):
        if name in filed and mask(str(ours[name]), keep_email=True) != filed[name]:
            return f"the request differs from what the line filed under this id ({name.replace('_', ' ')})"
    return None
