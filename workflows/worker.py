"""The Temporal worker: `callcenter temporal-worker`, or in-process on the embedded default.

The standalone process also serves /metrics, /healthz and /readyz (prometheus_client) on
`worker_metrics_port`, the SDK's own metrics on `temporal_sdk_metrics_port`, keeps the
pending-approvals gauge current, and flushes the store outbox while Temporal was away.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import hashlib
import logging
import signal
import sys
from collections.abc import AsyncIterator, Sequence
from datetime import timedelta
from pathlib import Path

from temporalio.client import Client
from temporalio.runtime import PrometheusConfig, Runtime, TelemetryConfig
from temporalio.service import RPCError, RPCStatusCode
from temporalio.worker import Worker
from temporalio.worker.workflow_sandbox import SandboxedWorkflowRunner, SandboxRestrictions

from callcenter import metrics_server, tracing
from callcenter.settings import Settings
from callcenter.store import Store
from callcenter.store.adapters import PortSpec
from workflows import authz, observe
from workflows.actions import ActionTable
from workflows.activities import CallcenterActivities
from workflows.client import DurableWork, TemporalUnavailable, connect
from workflows.correlation import CallIdInterceptor
from workflows.models import SEARCH_ATTRIBUTES
from workflows.reconcile import Reconciler
from workflows.workflows import ApprovalWorkflow, TicketWorkflow

log = logging.getLogger(__name__)

WORKFLOWS = [ApprovalWorkflow, TicketWorkflow]


def audit_refusals(store: Store, task_queue: str) -> None:
    """Refused decisions, whatever path they came by, go to the store's audit log. The
    validator only enqueues; one thread writes, so a slow disk never stalls a workflow task."""
    pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="refusal-audit")

    def sink(rec: dict) -> None:
        pool.submit(store.add_audit, subject=rec["subject"], action=rec["action"], actor=rec["actor"],
                    reason=rec["reason"], role=rec.get("role"), customer_id=rec.get("customer_id"))

    authz.register_sink(task_queue, sink)


def build_worker(
    client: Client, store: Store, task_queue: str, *, actions: ActionTable, max_concurrent_activities: int = 16,
    keys: list[bytes] | None = None, port_specs: Sequence[PortSpec] | None = None, settings: Settings | None = None,
) -> Worker:
    """The worker, with the domains' durable actions (`actions`) and their own ports
    (`port_specs`, by default those the action table brings) given by the composition root."""
    from callcenter.settings import get_settings
    from callcenter.store.adapters import load_ports
    from workflows.keys import signing_keys

    # Decision credentials are verified inside the workflow with these keys.
    authz.trust(keys if keys is not None else signing_keys(store.path.parent, get_settings().console_secret))
    audit_refusals(store, task_queue)
    # Approved effects go through the same ports as the line (CALLCENTER_ADAPTERS), so a
    # company's billing system pays the refunds an operator approves.
    settings = get_settings() if settings is None else settings
    acts = CallcenterActivities(store, actions, settings=settings,
                                ports=load_ports(store, settings, actions.ports if port_specs is None else port_specs))
    return Worker(
        client,
        task_queue=task_queue,
        workflows=WORKFLOWS,
        # authz holds the trusted keys and the refusal sink: the sandbox must see this
        # process's module, not a fresh copy with no keys.
        workflow_runner=SandboxedWorkflowRunner(
            restrictions=SandboxRestrictions.default.with_passthrough_modules("workflows.authz", "cryptography")),
        activities=[acts.admit_request, acts.admit_ticket, acts.finish_approval, acts.record_escalation,
                    acts.ticket_step],
        activity_executor=concurrent.futures.ThreadPoolExecutor(max_concurrent_activities),
        # Tracing spans come from the client's interceptors (see client.connect); this one
        # stamps the call id on activity log lines.
        interceptors=[CallIdInterceptor()],
        max_concurrent_activities=max_concurrent_activities,
        # A dead worker's sticky queue is abandoned after this long instead of the default
        # 10 s, so a restarted worker resumes waiting approvals within about a second.
        sticky_queue_schedule_to_start_timeout=timedelta(seconds=1),
        build_id=workflow_build_id(),
    )


def workflow_build_id() -> str:
    """A hash of the workflow code's own source files. Left unset, the SDK compiles every
    loaded module to hash it, 3-5 s of a worker's start on an idle 2-core machine and more
    under load (a CI run's readiness wait ran out). Only code that runs inside workflows decides replay, so only it
    is hashed."""
    digest = hashlib.sha256()
    for module in (ApprovalWorkflow.__module__, "workflows.models", authz.__name__):
        digest.update(Path(sys.modules[module].__file__ or "").read_bytes())
    return f"callcenter-{digest.hexdigest()[:16]}"


class _Health:
    """State the /readyz probe reports; flipped by the worker loop."""

    def __init__(self) -> None:
        self.ready = False


async def register_search_attributes(client: Client) -> None:
    """Create the custom search attributes if missing (self-hosted clusters; the local dev
    server gets them on its command line). Temporal Cloud needs them created by its admin."""
    from temporalio.api.enums.v1 import IndexedValueType
    from temporalio.api.operatorservice.v1 import (
        AddSearchAttributesRequest,
        ListSearchAttributesRequest,
    )

    kinds = {"Keyword": IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD, "Int": IndexedValueType.INDEXED_VALUE_TYPE_INT}
    missing = {k: kinds[v] for k, v in SEARCH_ATTRIBUTES.items()}
    try:
        have = await client.operator_service.list_search_attributes(
            ListSearchAttributesRequest(namespace=client.namespace), timeout=timedelta(seconds=5))
        missing = {k: v for k, v in missing.items() if k not in have.custom_attributes}
    except RPCError:
        pass  # some servers (the time-skipping test server) cannot list: try to add all
    if not missing:
        return
    try:
        await client.operator_service.add_search_attributes(
            AddSearchAttributesRequest(namespace=client.namespace, search_attributes=missing),
            timeout=timedelta(seconds=5))
        log.info("registered search attributes %s", ", ".join(missing))
    except RPCError as err:
        if err.status != RPCStatusCode.ALREADY_EXISTS:
            log.warning("could not register search attributes (%s); create them with"
                        " `temporal operator search-attribute create`: %s", err.message, ", ".join(missing))


async def count_pending(client: Client, kinds: tuple[str, ...]) -> dict[str, int]:
    out: dict[str, int] = {}
    for kind in kinds:
        q = (f"WorkflowType = 'ApprovalWorkflow' AND ExecutionStatus = 'Running'"
             f" AND RequestKind = '{kind}' AND RequestState IN ('pending', 'escalated')")
        out[kind] = (await client.count_workflows(q, rpc_timeout=timedelta(seconds=5))).count
    return out


async def housekeeping(
    client: Client, settings: Settings, store: Store, actions: ActionTable, every_s: float | None = None,
) -> None:
    """Pending gauge from the source of truth, outbox flush while Temporal was away, and the
    reconciler (requests terminated or cancelled in Temporal outside the line and console)."""

    work = DurableWork(settings, store, actions=actions, client=client)
    reconciler = Reconciler(client, store)
    while True:
        with contextlib.suppress(Exception):
            for kind, n in (await count_pending(client, actions.kinds)).items():
                observe.approvals_pending(kind, n)
        with contextlib.suppress(Exception):
            sent = await work.flush_outbox()
            if sent:
                log.info("submitted %d queued request(s) from the outbox", sent)
        with contextlib.suppress(Exception):
            await reconciler.once()
        await asyncio.sleep(every_s or settings.reconcile_every_s)


def sdk_runtime(settings: Settings) -> Runtime | None:
    if not settings.temporal_sdk_metrics_port:
        return None
    return Runtime(telemetry=TelemetryConfig(metrics=PrometheusConfig(
        bind_address=f"0.0.0.0:{settings.temporal_sdk_metrics_port}", durations_as_seconds=True,
    )))


async def run_worker(
    settings: Settings, *, actions: ActionTable, address: str | None = None, stop: asyncio.Event | None = None,
    port_specs: Sequence[PortSpec] | None = None,
) -> int:
    """Run until SIGINT/SIGTERM (or `stop`); returns an exit code."""

    # Before connect: the client takes Temporal's tracing interceptor. No LiveKit session runs here.
    tracing.configure(settings, livekit=False)
    store = Store(settings.db_path)
    health = _Health()
    # /metrics /healthz /readyz: the foundation's small server, ready once the worker polls.
    probes = (metrics_server.serve(settings.worker_metrics_port, addr="0.0.0.0", ready=lambda: health.ready)
              if settings.worker_metrics_port else None)
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    runtime = sdk_runtime(settings)  # once: it binds its port for the process lifetime
    try:
        client = None
        while client is None and not stop.is_set():
            try:
                client = await connect(settings, address=address, runtime=runtime, timeout_s=5)
            except TemporalUnavailable as err:
                log.warning("%s; retrying in 2 s", err)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), 2)
        if client is None:
            return 0
        await register_search_attributes(client)
        from workflows.keys import signing_keys

        worker = build_worker(client, store, settings.temporal_task_queue, actions=actions, port_specs=port_specs,
                              keys=signing_keys(settings.data_dir, settings.console_secret), settings=settings)
        async with worker:
            health.ready = True
            log.info("worker on task queue %r at %s", settings.temporal_task_queue,
                     client.service_client.config.target_host)
            chores = asyncio.create_task(housekeeping(client, settings, store, actions))
            await stop.wait()
            health.ready = False
            chores.cancel()
        return 0
    finally:
        if probes is not None:
            probes.close()
        store.close()


@contextlib.asynccontextmanager
async def ensure_worker(
    client: Client, store: Store, task_queue: str, *, actions: ActionTable, port_specs: Sequence[PortSpec] | None = None,
    settings: Settings | None = None,
) -> AsyncIterator[None]:
    """Run an in-process worker for the duration of the block (the embedded line)."""
    worker = build_worker(client, store, task_queue, actions=actions, port_specs=port_specs, settings=settings)
    async with worker:
        yield
