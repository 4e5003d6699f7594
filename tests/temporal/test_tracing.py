"""One trace per call (issue 15): meta -> domain -> specialist -> workflow -> activity, read
from OpenTelemetry's in-memory exporter, with the call id on the root, the workflow's memo and
the activity's log lines, and no caller data on any span."""

from __future__ import annotations

import asyncio
import logging
import uuid
from pathlib import Path

import pytest
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from callcenter import tracing
from callcenter.settings import Settings
from callcenter.store import Store
from meta.actions import durable_actions
from meta.session import build_line, start_call
from workflows.client import DurableWork, connect
from workflows.devserver import LocalTemporal
from workflows.worker import ensure_worker

from .conftest import decide_as, eventually


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("router-cache")


@pytest.fixture
def charge(store: Store) -> str:
    new = f"CH-1002-{uuid.uuid4().hex[:6].upper()}"
    store._conn().execute("UPDATE charges SET id = ? WHERE id = 'CH-1002-D'", (new,))
    return new


def chain(spans: list[ReadableSpan], leaf: ReadableSpan) -> list[str]:
    """Span names from the root down to `leaf`."""
    by_id = {s.context.span_id: s for s in spans}
    names = [leaf.name]
    node = leaf
    while node.parent is not None and node.parent.span_id in by_id:
        node = by_id[node.parent.span_id]
        names.append(node.name)
    return names[::-1]


async def test_a_refund_call_is_one_trace_from_meta_to_the_activity(
    temporal: LocalTemporal, client, settings: Settings, store: Store, model_dir: Path,  # noqa: ANN001
    charge: str, exporter: InMemorySpanExporter, caplog: pytest.LogCaptureFixture,
) -> None:
    traced = await connect(settings, address=temporal.address)  # after configure: takes the interceptor
    caplog.set_level(logging.INFO)
    caplog.handler.addFilter(tracing.CallIdFilter())
    line = build_line(settings.model_copy(update={"data_dir": model_dir, "hold_on_line_s": 8}), store=store)
    async with ensure_worker(traced, store, settings.temporal_task_queue, actions=durable_actions(), settings=settings):
        call = await start_call(line, customer_id="C1002", durable=DurableWork(settings, store, client=traced, actions=durable_actions()))
        call_id = call.state.call_id

        async def operator() -> None:
            await eventually(lambda: _started(traced, f"refund-{charge}"), timeout=15)
            await decide_as(client, store, f"refund-{charge}", verdict="approve", operator="maria", reason="duplicate")

        op = asyncio.create_task(operator())
        asked = await call.send("um yeah so i got charged twice for the same thing")
        assert "To confirm" in " ".join(asked.replies), asked.replies
        done = await call.send("yes please")
        await op
        assert "approved" in " ".join(done.replies), done.replies
        await call.close()
        await eventually(lambda: _named(exporter, "RunActivity:finish_approval"), timeout=15)
        memo = await traced.get_workflow_handle(f"refund-{charge}").describe()
        assert (await memo.memo())["call_id"] == call_id

    spans = list(exporter.get_finished_spans())
    root = next(s for s in spans if s.name == "call")
    assert root.attributes[tracing.ATTR_CALL_ID] == call_id
    # One trace: everything the call caused, LiveKit's and Temporal's spans included.
    activity = next(s for s in spans if s.name == "RunActivity:finish_approval")
    assert activity.context.trace_id == root.context.trace_id
    path = chain(spans, activity)
    assert path[:4] == ["call", "meta", "domain billing", "specialist billing.refund"], path
    workflow_part = [n for n in path[4:] if "Workflow" in n or "Activity" in n]
    assert workflow_part[0] == "StartWorkflow:ApprovalWorkflow" and workflow_part[-1] == "RunActivity:finish_approval", path
    session = next(s for s in spans if s.name == "agent_session")
    assert chain(spans, session)[0] == "call"
    # No caller data on any span: ids, amounts and words the caller said stay out.
    customer = store.get_customer("C1002")
    secrets = ["C1002", customer.name, customer.email, "charged twice", "49.00", "$49"]
    for s in spans:
        for key, value in (s.attributes or {}).items():
            text = str(value)
            assert not any(x in text for x in secrets), (s.name, key, text[:120])
    # The audit row of the decision points back to the call.
    assert [a.call_id for a in store.audit_for(f"refund-{charge}") if a.action == "approved"] == [call_id]
    # The activity's log line (in the worker's thread pool) carries the same call id.
    done_lines = [r for r in caplog.records if r.name == "workflows.activities" and "approved: completed" in r.getMessage()]
    assert [getattr(r, "call_id", None) for r in done_lines] == [call_id]


async def _started(client, workflow_id: str) -> bool:  # noqa: ANN001
    try:
        await client.get_workflow_handle(workflow_id).describe()
        return True
    except Exception:
        return False


def _named(exporter: InMemorySpanExporter, name: str) -> bool:
    return any(s.name == name for s in exporter.get_finished_spans())
