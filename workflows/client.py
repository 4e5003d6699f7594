"""The call side's façade over Temporal: submit, wait, ask for status; never lose a request.

Every request is first written to the store's outbox (write-ahead), then started as a workflow
with its business id; if Temporal is unreachable the caller is told it is recorded and the
outbox is flushed later. Every Temporal call has a short timeout so a down server costs the
line at most ~2 s.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from dataclasses import asdict, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from temporalio.client import Client, TLSConfig, WorkflowExecutionStatus, WorkflowFailureError
from temporalio.common import (
    SearchAttributePair,
    TypedSearchAttributes,
    WorkflowIDConflictPolicy,
    WorkflowIDReusePolicy,
)
from temporalio.exceptions import WorkflowAlreadyStartedError
from temporalio.runtime import Runtime
from temporalio.service import RPCError, RPCStatusCode

from callcenter import tracing
from callcenter.logsafe import ref
from callcenter.redact import mask
from callcenter.settings import Settings, SettingsError
from callcenter.store import Store, StoreUnavailable
from callcenter.store import durable as d
from workflows.actions import ActionTable
from workflows.devserver import discover
from workflows.models import (
    ESCALATION_KIND,
    SA_AMOUNT,
    SA_CUSTOMER,
    SA_KIND,
    SA_STATE,
    SAFE_ID,
    ApprovalInput,
    ApprovalPolicy,
    ApprovalRequest,
    EscalationRequest,
    RequestStatus,
    SubmitResult,
    TicketInput,
    ticket_workflow_id,
)
from workflows.policy import approval_policy
from workflows.workflows import ApprovalWorkflow, TicketWorkflow

__all__ = [
    "ApprovalRequest", "DurableWork", "EscalationRequest", "RequestStatus", "SubmitResult",
    "TemporalUnavailable", "connect", "new_ticket_id", "resolve_address",
]

log = logging.getLogger(__name__)

CONNECT_TIMEOUT_S = 2.0
RPC_TIMEOUT = timedelta(seconds=2)


class TemporalUnavailable(RuntimeError):
    """Temporal cannot be reached (down, wrong address, no local server running)."""


def new_ticket_id() -> str:
    return f"T-{secrets.token_hex(3).upper()}"


def resolve_address(settings: Settings) -> str | None:
    """The configured address, else the local dev server a running line started, else None."""
    return settings.temporal_address or discover(settings.data_dir)


async def connect(
    settings: Settings, *, address: str | None = None, runtime: Runtime | None = None,
    timeout_s: float = CONNECT_TIMEOUT_S,
) -> Client:
    """Connect with the settings' namespace, TLS and API key; TemporalUnavailable on failure."""
    target = address or resolve_address(settings)
    if not target:
        raise TemporalUnavailable(_no_server(settings))
    tls = tls_config(settings)
    api_key = settings.temporal_api_key.get_secret_value() if settings.temporal_api_key else None
    try:
        return await asyncio.wait_for(
            Client.connect(target, namespace=settings.temporal_namespace, tls=tls, api_key=api_key,
                           runtime=runtime, interceptors=tracing.temporal_interceptors()),
            timeout_s,
        )
    except (TimeoutError, RuntimeError, OSError, RPCError) as err:
        raise TemporalUnavailable(f"cannot reach Temporal at {target}: {str(err).splitlines()[0][:200]}") from None


def _no_server(settings: Settings) -> str:
    """Why nothing answers, said so the next step is plain. A local server ran here before
    (its history file exists) but stopped: `callcenter call` (and so `bash .ci/demo`) stops
    the one it started when the call ends; the requests wait in that file."""
    if (Path(settings.data_dir) / "temporal.sqlite3").exists():
        return ("no Temporal server is running: the local one stops when `callcenter call` (or `bash .ci/demo`)"
                " ends; its requests are kept. Start it again with `callcenter temporal-server --worker` in"
                " another terminal, then retry")
    return "no Temporal server: set CALLCENTER_TEMPORAL_ADDRESS or start `callcenter temporal-server`"


def tls_config(settings: Settings) -> bool | TLSConfig:
    """TLS for the Temporal connection. A bad mTLS setting is a configuration error, never
    "Temporal is down": SettingsError, so the line does not fall back to the outbox in silence."""
    if settings.temporal_tls_cert or settings.temporal_tls_key:
        return TLSConfig(
            client_cert=_pem(settings.temporal_tls_cert, "CALLCENTER_TEMPORAL_TLS_CERT"),
            client_private_key=_pem(settings.temporal_tls_key, "CALLCENTER_TEMPORAL_TLS_KEY"),
        )
    return bool(settings.temporal_tls or settings.temporal_api_key)


def _pem(path: Path | None, variable: str) -> bytes:
    if path is None:
        raise SettingsError(
            f"{variable} is not set: CALLCENTER_TEMPORAL_TLS_CERT and CALLCENTER_TEMPORAL_TLS_KEY go together"
        )
    try:
        return path.read_bytes()
    except OSError as exc:
        raise SettingsError(f"{variable}: cannot read {path}: {exc.strerror or type(exc).__name__}") from None


def _unavailable(err: BaseException) -> bool:
    if isinstance(err, TemporalUnavailable | TimeoutError | OSError):
        return True
    if isinstance(err, RPCError):
        return err.status in (RPCStatusCode.UNAVAILABLE, RPCStatusCode.DEADLINE_EXCEEDED, RPCStatusCode.CANCELLED)
    return isinstance(err, RuntimeError)  # the bridge's connection errors


def _status_from_execution(wid: str, ex: Any, memo: dict[str, Any]) -> RequestStatus:
    sa: TypedSearchAttributes = ex.typed_search_attributes
    state = sa.get(SA_STATE) or "pending"
    if ex.status in (WorkflowExecutionStatus.FAILED, WorkflowExecutionStatus.TIMED_OUT):
        state = "failed"
    elif ex.status in (WorkflowExecutionStatus.CANCELED, WorkflowExecutionStatus.TERMINATED):
        state = "canceled"
    extra = {k: str(v) for k, v in memo.items() if v is not None and k in (
        "caller_reason", "policy_finding", "requested_by", "record_id", "summary", "detail")}
    if "record_id" not in extra and memo.get("charge_id"):  # started before 0.2 (see ApprovalRequest)
        extra["record_id"] = str(memo["charge_id"])
    return RequestStatus(
        request_id=wid, kind=sa.get(SA_KIND) or "unknown", state=state,
        decided_by=memo.get("decided_by"), reason=memo.get("decision_reason"),
        updated_at=memo.get("updated_at") or (ex.start_time.replace(microsecond=0).isoformat() if ex.start_time else None),
        customer_id=sa.get(SA_CUSTOMER), amount_cents=sa.get(SA_AMOUNT), extra=extra,
    )


class DurableWork:
    """What a specialist uses: submit, wait, status. Connects lazily; never raises for 'down'."""

    def __init__(self, settings: Settings, store: Store, *, actions: ActionTable, client: Client | None = None,
                 address: str | None = None) -> None:
        self.settings = settings
        self.store = store
        self.actions = actions  # the domains' durable actions, from the composition root
        self._client = client
        self._address = address
        self._lock = asyncio.Lock()

    # --- connection ----------------------------------------------------------------------
    async def client(self) -> Client:
        if self._client is None:
            async with self._lock:
                if self._client is None:
                    self._client = await connect(self.settings, address=self._address)
                    # Requests recorded while Temporal was away go out as soon as it is back.
                    asyncio.get_running_loop().create_task(self._flush_quietly())
        return self._client

    async def _flush_quietly(self) -> None:
        try:
            await self.flush_outbox()
        except Exception:
            log.warning("outbox flush failed", exc_info=True)

    async def close(self) -> None:
        self._client = None  # the SDK client has no close; dropping it frees the connection

    def policy(self) -> ApprovalPolicy:
        """Carried in the input for workers older than admission; a current worker reads the
        policy from its own settings when it admits the request (workflows/policy.py)."""
        return approval_policy(self.settings, self.actions)

    # --- approvals -----------------------------------------------------------------------
    async def submit_approval(self, req: ApprovalRequest) -> SubmitResult:
        action = self.actions.get(req.kind)
        if action is None:
            raise ValueError(f"unknown approval kind {req.kind!r}")
        if not SAFE_ID.match(req.request_id) or not SAFE_ID.match(req.customer_id):
            raise ValueError("request_id and customer_id must be short ids (letters, digits, -_.:)")
        refused = action.refusal(req)
        if refused:
            raise ValueError(refused)
        # Caller words go into the workflow's input, memo and history: masked whoever submits.
        req = replace(req, caller_reason=mask(req.caller_reason)[:300])
        payload = json.dumps({"type": "approval", "request": asdict(req)})
        await asyncio.to_thread(
            self.store.queue_work, request_id=req.request_id, kind=req.kind,
            customer_id=req.customer_id, amount_cents=req.amount_cents, payload=payload,
        )
        return await self._submit(req.request_id, payload)

    async def _start_approval(self, client: Client, req: ApprovalRequest, queued_at: str | None) -> None:
        inp = ApprovalInput(req, self.policy(), queued_at or _now())
        sa = [SearchAttributePair(SA_STATE, "pending"), SearchAttributePair(SA_KIND, req.kind),
              SearchAttributePair(SA_CUSTOMER, req.customer_id)]
        if req.amount_cents is not None:
            sa.append(SearchAttributePair(SA_AMOUNT, req.amount_cents))
        memo = {"caller_reason": req.caller_reason, "policy_finding": req.policy_finding,
                "requested_by": req.requested_by, "record_id": req.record_id, "updated_at": inp.submitted_at,
                "call_id": req.call_id,  # the call's trace and log lines carry the same id
                # The console shows the time left before escalation from this.
                "deadline_s": inp.policy.timeout_s}
        await client.start_workflow(
            ApprovalWorkflow.run, inp, id=req.request_id, task_queue=self.settings.temporal_task_queue,
            id_conflict_policy=WorkflowIDConflictPolicy.USE_EXISTING,
            # A finished request is never re-run under the same business id (no second refund).
            id_reuse_policy=WorkflowIDReusePolicy.REJECT_DUPLICATE,
            search_attributes=TypedSearchAttributes(sa), memo=memo, rpc_timeout=RPC_TIMEOUT,
        )

    async def _start_ticket(self, client: Client, req: EscalationRequest, queued_at: str | None) -> None:
        inp = TicketInput(req, self.settings.ticket_sla_s, queued_at or _now())
        sa = [SearchAttributePair(SA_STATE, "pending"), SearchAttributePair(SA_KIND, ESCALATION_KIND)]
        if req.customer_id:
            sa.append(SearchAttributePair(SA_CUSTOMER, req.customer_id))
        await client.start_workflow(
            TicketWorkflow.run, inp, id=ticket_workflow_id(req.ticket_id),
            task_queue=self.settings.temporal_task_queue,
            id_conflict_policy=WorkflowIDConflictPolicy.USE_EXISTING,
            id_reuse_policy=WorkflowIDReusePolicy.REJECT_DUPLICATE,
            search_attributes=TypedSearchAttributes(sa),
            memo={"summary": req.summary, "updated_at": inp.opened_at, "call_id": req.call_id}, rpc_timeout=RPC_TIMEOUT,
        )

    async def _submit(self, request_id: str, payload: str, queued_at: str | None = None) -> SubmitResult:
        data = json.loads(payload)
        try:
            client = await self.client()
            start = (self._start_approval(client, ApprovalRequest(**data["request"]), queued_at)
                     if data["type"] == "approval"
                     else self._start_ticket(client, EscalationRequest(**data["request"]), queued_at))
            await asyncio.wait_for(start, CONNECT_TIMEOUT_S + 0.5)
        except WorkflowAlreadyStartedError:
            # Finished earlier under this business id: report what happened to it.
            await self._mark_submitted(request_id)
            st = await self.status(request_id if data["type"] == "approval" else data["request"]["ticket_id"],
                                   _ticket=data["type"] != "approval")
            return SubmitResult(request_id, st.state)
        except Exception as err:
            # Whatever went wrong, the caller's request is safe in the outbox: tell them it is
            # recorded rather than fail the call. A down server is expected; anything else
            # (e.g. search attributes missing on a new cluster) is an operator's problem.
            if _unavailable(err):
                self._client = None  # reconnect next time
                log.warning("Temporal unavailable, request %s kept in the outbox: %s", ref(request_id), type(err).__name__)
            else:
                log.error("cannot start %s, kept in the outbox: %s", ref(request_id), type(err).__name__)
            return SubmitResult(request_id, "queued")
        await self._mark_submitted(request_id)
        return SubmitResult(request_id, "pending")

    async def _mark_submitted(self, request_id: str) -> None:
        """The workflow runs; mark its outbox row. If the database went down since the row was
        written, the caller still hears the truth (the request is with a person): the row
        stays "queued" and the next outbox flush starts the same business id again, which
        Temporal resolves to the running workflow (USE_EXISTING), and marks it then."""
        try:
            await asyncio.to_thread(self.store.set_work_status, request_id, "submitted")
        except StoreUnavailable:
            log.warning("request %s started; its outbox row is marked at the next flush", ref(request_id))

    async def wait_for_decision(self, request_id: str, timeout_s: float) -> RequestStatus:
        """Wait up to timeout_s for the request to be decided and carried out; else its state now."""
        st = await self.status(request_id)
        if st.state in ("queued", "unknown"):
            return st
        try:
            client = await self.client()
            # The workflow finishes milliseconds after a decision (action + notice): its
            # result is the moment to tell the caller. A long poll, no busy loop.
            await asyncio.wait_for(client.get_workflow_handle(request_id).result(), max(0.0, timeout_s))
        except (TimeoutError, WorkflowFailureError):
            pass
        except Exception as err:
            if not _unavailable(err):
                raise
        return await self.status(request_id)

    async def status(self, request_id: str, *, _ticket: bool = False) -> RequestStatus:
        """The live state from Temporal (describe: no worker needed), else what the store knows."""
        wid = ticket_workflow_id(request_id) if _ticket else request_id
        try:
            client = await self.client()
            desc = await asyncio.wait_for(
                client.get_workflow_handle(wid).describe(rpc_timeout=RPC_TIMEOUT), CONNECT_TIMEOUT_S + 0.5
            )
            st = _status_from_execution(wid, desc, dict(await desc.memo()))
            st.request_id = request_id
            return st
        except Exception as err:
            if isinstance(err, RPCError) and err.status == RPCStatusCode.NOT_FOUND:
                # Never started: still in the outbox, or unknown.
                return await self._stored_status(request_id, wid, _ticket, reachable=True)
            if not _unavailable(err):
                raise
            self._client = None
        return await self._stored_status(request_id, wid, _ticket, reachable=False)

    async def _stored_status(self, request_id: str, wid: str, ticket: bool, *, reachable: bool) -> RequestStatus:
        """What the store knows: outcomes written by activities, and the outbox."""
        def read() -> RequestStatus:
            work = self.store.get_work(wid)
            last = d.latest_outcome(self.store, wid)
            kind = last.kind if last else (work.kind if work else (ESCALATION_KIND if ticket else "unknown"))
            if last is not None:
                return RequestStatus(request_id, kind, last.state, last.decided_by, last.reason, last.at,
                                     customer_id=last.customer_id)
            if work is not None:
                # Queued: waiting for Temporal. Submitted but unreachable now: last known, pending.
                state = "queued" if work.status == "queued" else ("pending" if not reachable else "unknown")
                return RequestStatus(request_id, kind, state, updated_at=work.submitted_at or work.created_at,
                                     customer_id=work.customer_id, amount_cents=work.amount_cents)
            if ticket:
                t = self.store.get_ticket(request_id)
                if t is not None:
                    state = {"open": "pending", "breached": "escalated", "resolved": "completed"}.get(t.status, t.status)
                    return RequestStatus(request_id, kind, state, updated_at=t.updated_at, customer_id=t.customer_id)
            return RequestStatus(request_id, kind, "unknown")

        return await asyncio.to_thread(read)

    async def find_for_customer(self, customer_id: str, kind: str | None = None) -> list[RequestStatus]:
        """The customer's requests, newest first: live from Temporal, else from the store."""
        if not SAFE_ID.match(customer_id) or (kind is not None and not SAFE_ID.match(kind)):
            return []
        found: dict[str, RequestStatus] = {}
        try:
            client = await self.client()
            query = f"CustomerId = '{customer_id}'" + (f" AND RequestKind = '{kind}'" if kind else "")

            async def collect() -> None:
                async for ex in client.list_workflows(query, rpc_timeout=RPC_TIMEOUT, limit=200):
                    st = _status_from_execution(ex.id, ex, dict(await ex.memo()))
                    st.updated_at = st.updated_at or ""
                    found.setdefault(ex.id, st)

            await asyncio.wait_for(collect(), CONNECT_TIMEOUT_S + 1)
        except Exception as err:
            if not _unavailable(err):
                raise
            self._client = None
            found.clear()
            for w in await asyncio.to_thread(self.store.list_work, customer_id=customer_id):
                if kind is None or w.kind == kind:
                    found[w.id] = await self._stored_status(w.id, w.id, w.kind == ESCALATION_KIND, reachable=False)
                    found[w.id].request_id = w.id
            return sorted(found.values(), key=lambda s: s.updated_at or "", reverse=True)
        for w in await asyncio.to_thread(self.store.list_work, customer_id=customer_id, status="queued"):
            if (kind is None or w.kind == kind) and w.id not in found:
                found[w.id] = RequestStatus(w.id, w.kind, "queued", updated_at=w.created_at,
                                            customer_id=w.customer_id, amount_cents=w.amount_cents)
        return sorted(found.values(), key=lambda s: s.updated_at or "", reverse=True)

    # --- tickets tracked under an SLA ----------------------------------------------------
    async def open_escalation(self, req: EscalationRequest) -> SubmitResult:
        if not SAFE_ID.match(req.ticket_id):
            raise ValueError("ticket_id must be a short id")
        wid = ticket_workflow_id(req.ticket_id)
        req = replace(req, summary=mask(req.summary)[:300])  # into the workflow's history: masked
        # The ticket row exists at once, so the caller's ticket number is real even if Temporal is down.
        await asyncio.to_thread(self.store.create_ticket, customer_id=req.customer_id, kind=req.kind,
                                summary=req.summary, ticket_id=req.ticket_id)
        payload = json.dumps({"type": "escalation", "request": asdict(req)})
        await asyncio.to_thread(self.store.queue_work, request_id=wid, kind=ESCALATION_KIND,
                                customer_id=req.customer_id, amount_cents=None, payload=payload)
        res = await self._submit(wid, payload)
        return SubmitResult(req.ticket_id, res.status)

    async def ticket_status(self, ticket_id: str) -> RequestStatus:
        return await self.status(ticket_id, _ticket=True)

    # --- outbox --------------------------------------------------------------------------
    async def flush_outbox(self) -> int:
        """Start every queued request; safe to repeat (business ids make starts idempotent)."""
        sent = 0
        for w in await asyncio.to_thread(self.store.list_work, status="queued"):
            payload = _normalise(w, self.actions.kinds)
            if payload is None:
                # Not a request this version can start: park it for a human instead of
                # retrying it forever (the row and its payload stay in the store).
                log.error("outbox row %s (%s) cannot be submitted; marked 'invalid'", ref(w.id), w.kind)
                await asyncio.to_thread(self.store.set_work_status, w.id, "invalid")
                continue
            res = await self._submit(w.id, payload, queued_at=w.created_at)
            if res.status == "queued":
                break  # still down: keep the rest for the next flush
            sent += 1
        return sent


def _normalise(w: Any, kinds: tuple[str, ...]) -> str | None:
    """The outbox row as this module's payload. Rows written by the line without Temporal
    configured (`--no-durable`) carry only a few fields; the row itself has the rest."""
    try:
        data = json.loads(w.payload)
    except ValueError:
        return None
    if isinstance(data, dict) and data.get("type") in ("approval", "escalation"):
        return w.payload
    if not isinstance(data, dict) or w.kind not in kinds or not w.customer_id:
        return None
    req = ApprovalRequest(
        kind=w.kind, customer_id=w.customer_id, amount_cents=w.amount_cents, record_id=data.get("record_id") or data.get("charge_id"),
        caller_reason=str(data.get("caller_reason") or ""), policy_finding=str(data.get("policy_finding") or ""),
        requested_by=str(data.get("requested_by") or "line"), request_id=w.id,
    )
    return json.dumps({"type": "approval", "request": asdict(req)})


def _now() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()
