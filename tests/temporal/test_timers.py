"""Long timers on the time-skipping test server: approval timeout -> escalate -> auto-deny,
and a ticket's SLA breach. Hours pass in well under a second."""

from __future__ import annotations

import shutil
import sys
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from temporalio.testing import WorkflowEnvironment

from callcenter.settings import load_settings
from callcenter.store import Store
from callcenter.store import durable as d
from domains.billing.ledger import Ledger
from meta.actions import durable_actions
from workflows.client import ApprovalRequest, DurableWork, EscalationRequest
from workflows.models import ticket_workflow_id
from workflows.worker import ensure_worker, register_search_attributes

from .conftest import admitted, signed

TEST_SERVER = Path(sys.executable).parent / "temporal-test-server"


@pytest.fixture(scope="module")
async def env() -> AsyncIterator[WorkflowEnvironment]:
    path = str(TEST_SERVER) if TEST_SERVER.exists() else shutil.which("temporal-test-server")
    e = await WorkflowEnvironment.start_time_skipping(test_server_existing_path=path)
    # Unregistered attributes make the test server retry the workflow task forever: register
    # first, with the worker's own start-up step (what a fresh self-hosted cluster gets).
    await register_search_attributes(e.client)
    await register_search_attributes(e.client)  # idempotent
    try:
        yield e
    finally:
        await e.shutdown()


async def test_timeout_escalates_once_then_auto_denies(env: WorkflowEnvironment, tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path, temporal_task_queue=f"ts-{uuid.uuid4().hex[:6]}",
                             approval_timeout_s=3600, approval_escalations=1)
    store = Store(settings.db_path)
    work = DurableWork(settings, store, client=env.client, actions=durable_actions())
    req = ApprovalRequest("refund", "C1002", 24900, "charged twice", "duplicate",
                          "billing/refund", "refund-CH-1002-D-ts", record_id="CH-1002-D")
    async with ensure_worker(env.client, store, settings.temporal_task_queue, actions=durable_actions(), settings=settings):
        assert (await work.submit_approval(req)).status == "pending"
        await admitted(env.client, req.request_id)
        # Time skips on its own only for handles the test env started; skip explicitly.
        await env.sleep(2 * 3600 + 60)
        result = await env.client.get_workflow_handle(req.request_id).result()
    assert (result["state"], result["decided_by"]) == ("denied", "auto")
    assert "7200 s" in result["reason"]  # one timeout, one escalation, a second timeout
    assert [(a.action, a.actor) for a in store.audit_for(req.request_id)] == [("escalated", "system"), ("auto_denied", "auto")]
    assert [o.state for o in d.outcomes_for(store, req.request_id)] == ["escalated", "denied"]
    assert not Ledger(store).list_refunds("C1002")
    assert len([n for n in store.list_notifications("C1002") if n.dedupe_key.startswith(req.request_id)]) == 1


async def test_decision_after_escalation_still_counts(env: WorkflowEnvironment, tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path, temporal_task_queue=f"ts-{uuid.uuid4().hex[:6]}",
                             approval_timeout_s=600, approval_escalations=2)
    store = Store(settings.db_path)
    work = DurableWork(settings, store, client=env.client, actions=durable_actions())
    req = ApprovalRequest("two_factor_reset", "C1001", None, "new phone", "verified", "account/2fa", "2fa-C1001-ts")
    async with ensure_worker(env.client, store, settings.temporal_task_queue, actions=durable_actions(), settings=settings):
        await work.submit_approval(req)
        handle = env.client.get_workflow_handle(req.request_id)
        await admitted(env.client, req.request_id)  # its deadline starts once the line's record is checked
        await env.sleep(700)  # past the first deadline: escalated
        assert (await handle.query("state"))["state"] == "escalated"
        await handle.execute_update("approve", await signed(env.client, store, req.request_id, "approve", "boss", "ok", "manager", ttl_s=3 * 3600))
        result = await handle.result()
    assert result["state"] == "completed"
    assert [a.action for a in store.audit_for(req.request_id)] == ["escalated", "approved"]
    assert not store.get_customer("C1001").two_factor


async def test_ticket_sla_breach_then_resolution(env: WorkflowEnvironment, tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path, temporal_task_queue=f"ts-{uuid.uuid4().hex[:6]}", ticket_sla_s=86400)
    store = Store(settings.db_path)
    work = DurableWork(settings, store, client=env.client, actions=durable_actions())
    async with ensure_worker(env.client, store, settings.temporal_task_queue, actions=durable_actions(), settings=settings):
        res = await work.open_escalation(EscalationRequest("T-TS0001", "C1003", "5xx on /v2/orders since the deploy"))
        assert res.request_id == "T-TS0001"
        handle = env.client.get_workflow_handle(ticket_workflow_id("T-TS0001"))
        await admitted(env.client, ticket_workflow_id("T-TS0001"))
        await env.sleep(86400 + 60)
        assert (await handle.query("state"))["state"] == "escalated"
        assert store.get_ticket("T-TS0001").status == "breached"
        await handle.execute_update("resolve", await signed(env.client, store, "T-TS0001", "resolve", "eng-ana", "rolled back the deploy", ttl_s=3 * 86400))
        result = await handle.result()
    assert (result["state"], result["sla_breached"]) == ("completed", True)
    assert store.get_ticket("T-TS0001").status == "resolved"
    bodies = [n.body for n in store.list_notifications("C1003")]
    assert any("taking longer" in b for b in bodies) and any("rolled back the deploy" in b for b in bodies)
