"""Crashes: the worker SIGKILLed while a workflow waits and while its activity runs, and the
dev server killed and restarted on the same database. Each ends with exactly one effect."""

from __future__ import annotations

import tempfile
from pathlib import Path

from callcenter.settings import load_settings
from callcenter.store import Store
from callcenter.store import durable as d
from domains.billing.ledger import Ledger
from meta.actions import durable_actions
from tests.conftest import refund_request
from workflows.client import DurableWork, connect
from workflows.devserver import LocalTemporal, free_port
from workflows.worker import ensure_worker

from .conftest import TemporalWorkerCommand, WorkerProcess, eventually, signed, uid


def effects(store: Store, request_id: str) -> tuple[int, int, int]:
    refunds = [r for r in Ledger(store).list_refunds("C1002") if r.idempotency_key.startswith(request_id)]
    notes = [n for n in store.list_notifications("C1002") if n.dedupe_key.startswith(request_id)]
    audits = [a for a in store.audit_for(request_id) if a.action == "approved"]
    return len(refunds), len(notes), len(audits)


async def test_worker_killed_while_waiting(client, settings, store, temporal) -> None:
    work = DurableWork(settings, store, client=client, actions=durable_actions())
    w1 = TemporalWorkerCommand(settings)
    try:
        await w1.wait_ready()
        req = refund_request(uid("refund-kw"))
        await work.submit_approval(req)
        handle = client.get_workflow_handle(req.request_id)
        await eventually(lambda: _timer_started(handle))
        w1.kill()
        w2 = TemporalWorkerCommand(settings)
        await w2.wait_ready()
        await handle.execute_update("approve", await signed(client, store, req.request_id, "approve", "maria", "dup", "agent"))
        assert (await work.wait_for_decision(req.request_id, 20)).state == "completed"
        assert effects(store, req.request_id) == (1, 1, 1)
    finally:
        w1.stop()
        if "w2" in locals():
            w2.stop()


async def _timer_started(handle) -> bool:  # noqa: ANN001
    hist = await handle.fetch_history()
    return any(e.HasField("timer_started_event_attributes") for e in hist.events)


async def test_worker_killed_mid_activity_pays_once(client, settings, store, temporal, tmp_path: Path) -> None:
    work = DurableWork(settings, store, client=client, actions=durable_actions())
    marker = tmp_path / "refund-written"
    w1 = WorkerProcess(temporal.address, settings.temporal_task_queue, settings.db_path, pause_marker=marker)
    try:
        await w1.wait_ready()
        req = refund_request(uid("refund-ka"))
        await work.submit_approval(req)
        await client.get_workflow_handle(req.request_id).execute_update("approve", await signed(client, store, req.request_id, "approve", "maria", "dup", "agent"))
        await eventually(marker.exists, timeout=15)
        w1.kill()  # the refund row is written; the activity never reports completion
        assert effects(store, req.request_id)[0] == 1
        w2 = TemporalWorkerCommand(settings)  # the real command picks up the retry
        await w2.wait_ready()
        # The heartbeat timeout (4 s) expires, the activity is retried on w2 and finds the refund.
        st = await work.wait_for_decision(req.request_id, 30)
        assert st.state == "completed", st
        assert effects(store, req.request_id) == (1, 1, 1)
        assert len(d.outcomes_for(store, req.request_id)) == 1
    finally:
        w1.stop()
        if "w2" in locals():
            w2.stop()


async def test_dev_server_killed_and_restarted_on_same_db() -> None:
    with tempfile.TemporaryDirectory(prefix="cc-restart-") as tmp:
        data = Path(tmp)
        settings = load_settings(data_dir=data, temporal_task_queue="restart")
        store = Store(settings.db_path)
        port = free_port()
        server = LocalTemporal(data, port=port)
        await server.start()
        try:
            client = await connect(settings, address=server.address)
            work = DurableWork(settings, store, client=client, actions=durable_actions())
            req = refund_request("refund-restart")
            async with ensure_worker(client, store, settings.temporal_task_queue, actions=durable_actions(), settings=settings):
                await work.submit_approval(req)
                await eventually(lambda: _timer_started(client.get_workflow_handle(req.request_id)))
                server.kill()  # SIGKILL: no clean shutdown
                # While it is down the line still answers, from the store.
                down = DurableWork(settings, store, address=server.address, actions=durable_actions())
                assert (await down.status(req.request_id)).state == "pending"
                await server.start()  # same port, same SQLite file
                # The worker's client reconnects by itself; the waiting workflow is intact.
                await eventually(lambda: _query_ok(client, req.request_id), timeout=30, every=0.3)
                await client.get_workflow_handle(req.request_id).execute_update("approve", await signed(client, store, req.request_id, "approve", "maria", "dup", "agent"))
                assert (await work.wait_for_decision(req.request_id, 20)).state == "completed"
            assert effects(store, req.request_id) == (1, 1, 1)
        finally:
            await server.stop()


async def _query_ok(client, wid: str) -> bool:  # noqa: ANN001
    try:
        return (await client.get_workflow_handle(wid).query("state"))["state"] == "pending"
    except Exception:
        return False
