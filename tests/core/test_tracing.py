"""One trace per call in the text line (issue 15): the hierarchy as spans, parallel lookups as
sibling branches, the call id on log lines, and nothing at all when tracing is off."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from callcenter import tracing
from callcenter.settings import Settings
from callcenter.store import Store
from meta.session import build_line, start_call

THREE = "uh whats my balance and is the service down and also why are my api calls failing"


def parent_name(spans: list[ReadableSpan], span: ReadableSpan) -> str | None:
    by_id = {s.context.span_id: s for s in spans}
    return by_id[span.parent.span_id].name if span.parent and span.parent.span_id in by_id else None


async def test_a_three_level_call_nests_meta_domain_specialist(
    settings: Settings, store: Store, exporter: InMemorySpanExporter
) -> None:
    call = await start_call(build_line(settings, store=store), customer_id="C1001")
    await call.send("um so like what do i owe you guys right now")
    await call.send("ok thanks bye")
    await call.close()
    spans = list(exporter.get_finished_spans())
    names = {s.name: s for s in spans}
    assert parent_name(spans, names["meta"]) == "call"
    assert parent_name(spans, names["domain billing"]) == "meta"
    specialist = names["specialist billing.balance"]
    assert parent_name(spans, specialist) == "domain billing"
    assert specialist.attributes[tracing.ATTR_PATH] in ("fast", "embedded", "llm")
    assert specialist.attributes[tracing.ATTR_OUTCOME] == "ok"
    assert parent_name(spans, names["agent_session"]) == "call"  # LiveKit's spans join the call's trace
    assert len({s.context.trace_id for s in spans}) == 1
    assert names["call"].attributes[tracing.ATTR_CALL_ID] == call.state.call_id
    for s in spans:  # what the caller said never reaches a span
        assert not any("owe you" in str(v) for v in (s.attributes or {}).values()), s.name


async def test_parallel_lookups_are_sibling_branches_and_a_failure_is_marked(
    settings: Settings, tmp_path: Path, exporter: InMemorySpanExporter, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.handler.addFilter(tracing.CallIdFilter())
    broken = settings.model_copy(update={"faults": "billing.balance=error"})
    call = await start_call(build_line(broken, store=Store(tmp_path / "s.db")), customer_id="C1001")
    await call.send(THREE)
    await call.close()
    spans = list(exporter.get_finished_spans())
    branches = {s.name: s for s in spans if s.name.startswith("specialist ")}
    assert {"specialist billing.balance", "specialist technical.service_status", "specialist technical.api_errors"} <= set(branches)
    for s in branches.values():
        assert parent_name(spans, s).startswith("domain ")
    assert branches["specialist billing.balance"].attributes[tracing.ATTR_OUTCOME] == "error"
    assert branches["specialist technical.api_errors"].attributes[tracing.ATTR_OUTCOME] == "ok"
    # The failed branch's log line (written in a worker thread) names the call.
    failed = [r for r in caplog.records if r.levelno >= logging.ERROR and "billing.balance" in r.getMessage()]
    assert failed and {getattr(r, "call_id", None) for r in failed} == {call.state.call_id}


async def test_tracing_off_records_nothing(settings: Settings, store: Store) -> None:
    assert not tracing.enabled() and tracing.configure(settings) is None
    call = await start_call(build_line(settings, store=store), customer_id="C1001")
    turn = await call.send("whats my balance")
    await call.close()
    assert "$0.00" in " ".join(turn.replies)
    assert not call.state.trace.root.is_recording()


async def test_with_tracing_off_livekit_spans_skip_its_wrapper(settings: Settings, store: Store) -> None:
    # callcenter/tracing.py shadows three methods of LiveKit's tracer while tracing is off;
    # this fails if LiveKit 1.8's tracer no longer has the shape that relies on.
    from livekit.agents.telemetry import tracer as livekit_tracer
    from livekit.agents.telemetry.traces import _DynamicTracer

    assert isinstance(livekit_tracer, _DynamicTracer) and hasattr(livekit_tracer, "_tracer")
    assert all(callable(getattr(_DynamicTracer, n)) for n in ("start_span", "start_as_current_span", "use_span"))
    call = await start_call(build_line(settings, store=store), customer_id="C1001")
    assert tracing.livekit_spans_direct()
    turn = await call.send("whats my balance")
    await call.close()
    assert "$0.00" in " ".join(turn.replies)
    assert not livekit_tracer.start_span("x").is_recording()


def test_tracing_on_gives_livekit_its_own_span_calls_back(settings: Settings, store: Store) -> None:
    build_line(settings, store=store)
    assert tracing.livekit_spans_direct()
    exporter = InMemorySpanExporter()
    tracing.configure(settings, exporter=exporter, set_global=False)
    try:
        assert not tracing.livekit_spans_direct()
        from livekit.agents.telemetry import tracer as livekit_tracer

        livekit_tracer.start_span("agent_turn").end()
        assert [s.name for s in exporter.get_finished_spans()] == ["agent_turn"]
    finally:
        tracing.uninstall()
    assert not tracing.livekit_spans_direct()


def test_a_provider_livekit_is_given_directly_gets_its_spans(settings: Settings, store: Store) -> None:
    # LiveKit Cloud's recording (or an entrypoint) calls LiveKit's set_tracer_provider itself.
    from livekit.agents.telemetry import set_tracer_provider
    from livekit.agents.telemetry import tracer as livekit_tracer
    from opentelemetry import trace
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor

    build_line(settings, store=store)
    assert tracing.livekit_spans_direct()
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    try:
        set_tracer_provider(provider)
        assert not tracing.livekit_spans_direct()
        livekit_tracer.start_span("agent_turn").end()
        assert [s.name for s in exporter.get_finished_spans()] == ["agent_turn"]
        tracing.configure(settings)  # tracing off in our settings: LiveKit's provider is kept
        assert not tracing.livekit_spans_direct()
    finally:
        livekit_tracer.set_provider(trace.NoOpTracerProvider())
        provider.shutdown()
