"""One trace per call, and a correlation id on everything the call causes.

Spans come from the libraries' own OpenTelemetry support: LiveKit's (session, turns, LLM,
tools) and Temporal's `TracingInterceptor` (start workflow, run workflow, activities). This
module adds only what neither can know: the call's root span and one span per level of the
hierarchy (meta -> domain -> specialist), so a trace reads as the call was routed, and the
call id that ties logs, workflow memos and audit rows to that trace.

Off by default: with no provider installed, OpenTelemetry's API hands out non-recording spans
and the calls below cost next to nothing. Span attributes are ids, agent names, routing paths
and outcomes only; never what the caller said or their data (LiveKit's own content attributes
are stripped by its PII filter, installed with `allow_pii=False`).
"""

from __future__ import annotations

import contextlib
import logging
import sys
from collections.abc import Iterator
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from opentelemetry import context as otel_context
from opentelemetry import trace

from callcenter.logsafe import masked_record

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SpanExporter

    from callcenter.settings import Settings

ATTR_CALL_ID = "callcenter.call_id"
ATTR_AGENT = "callcenter.agent"
ATTR_LEVEL = "callcenter.level"
ATTR_PATH = "callcenter.route.path"
ATTR_CONFIDENCE = "callcenter.route.confidence"
ATTR_OUTCOME = "callcenter.outcome"

# The call a piece of work belongs to, for log lines; set where a call's work runs.
CALL_ID: ContextVar[str | None] = ContextVar("callcenter_call_id", default=None)

_installed: TracerProvider | None = None


def _tracer() -> trace.Tracer:
    # The installed provider when there is one (tests install and remove theirs), else the
    # global one: a no-op unless the application set its own.
    return (_installed or trace.get_tracer_provider()).get_tracer("callcenter")


def level_of(agent_id: str) -> str:
    """meta, domain or specialist: agent ids are 'meta', '<domain>' and '<domain>.<task>'."""
    if agent_id == "meta":
        return "meta"
    return "specialist" if "." in agent_id or agent_id == "identity" else "domain"


class CallTrace:
    """The spans of one call: a root, and a stack that follows control down and back up.

    Levels stamp when they hand control down (`enter`) and when a task returns (`leave`);
    LiveKit runs each level's turns as siblings under its session span, so the hierarchy is
    kept here, by explicit parents, rather than by the ambient context.
    """

    def __init__(self, call_id: str) -> None:
        self.call_id = call_id
        self._tracer = _tracer()
        self.root = self._tracer.start_span("call", attributes={ATTR_CALL_ID: call_id})
        meta = self._tracer.start_span("meta", context=trace.set_span_in_context(self.root), attributes=_attrs("meta", call_id))
        self._stack: list[tuple[str, trace.Span]] = [("meta", meta)]
        self._ended = False

    @property
    def current(self) -> trace.Span:
        return self._stack[-1][1]

    def enter(self, agent_id: str, *, path: str = "", confidence: float | None = None) -> None:
        """Control goes down to `agent_id` (a domain or a specialist) under the current level."""
        if self._ended:
            return
        attrs = _attrs(agent_id, self.call_id)
        if path:
            attrs[ATTR_PATH] = path
        if confidence is not None:
            attrs[ATTR_CONFIDENCE] = float(confidence)
        span = self._tracer.start_span(f"{level_of(agent_id)} {agent_id}", context=trace.set_span_in_context(self.current), attributes=attrs)
        self._stack.append((agent_id, span))

    def leave(self, agent_id: str, outcome: str = "ok") -> None:
        """`agent_id` returned; levels it left open (a route that never ran) end with it."""
        if self._ended or all(a != agent_id for a, _ in self._stack[1:]):
            return
        while self._stack[-1][0] != agent_id:
            self._stack.pop()[1].end()
        _, span = self._stack.pop()
        span.set_attribute(ATTR_OUTCOME, outcome)
        if outcome == "error":
            span.set_status(trace.StatusCode.ERROR)
        span.end()

    @contextlib.contextmanager
    def branch(self, agent_id: str, parent: trace.Span | None = None) -> Iterator[trace.Span]:
        """A span for work that runs beside the conversation (parallel lookups)."""
        ctx = trace.set_span_in_context(parent or self.current)
        with self._tracer.start_as_current_span(
            f"{level_of(agent_id)} {agent_id}", context=ctx, attributes=_attrs(agent_id, self.call_id), end_on_exit=True
        ) as span:
            yield span

    @contextlib.contextmanager
    def active(self) -> Iterator[None]:
        """Make the current level the ambient span, so Temporal's interceptor parents under it."""
        token = otel_context.attach(trace.set_span_in_context(self.current))
        id_token = CALL_ID.set(self.call_id)
        try:
            yield
        finally:
            CALL_ID.reset(id_token)
            otel_context.detach(token)

    def end(self, outcome: str = "completed") -> None:
        if self._ended:
            return
        self._ended = True
        while self._stack:
            self._stack.pop()[1].end()
        self.root.set_attribute(ATTR_OUTCOME, outcome)
        self.root.end()


def _attrs(agent_id: str, call_id: str) -> dict[str, str | float]:
    return {ATTR_CALL_ID: call_id, ATTR_AGENT: agent_id, ATTR_LEVEL: level_of(agent_id)}


# --- logs ------------------------------------------------------------------------------
class CallIdFilter(logging.Filter):
    """Stamps `call_id` on every record (`-` outside a call), for `%(call_id)s` in formats."""

    def filter(self, record: logging.LogRecord) -> bool:
        # A record forwarded from a job process keeps the call id it was made with there.
        if getattr(record, "call_id", "-") == "-":
            record.call_id = CALL_ID.get() or "-"
        return True


LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s [call %(call_id)s]: %(message)s"


def install_log_filter() -> None:
    """On every root handler, so records from any logger carry the call id; and on every
    record this process makes, so handlers added later (LiveKit's JSON handler in the worker,
    a job process's log forwarding) carry it too."""
    for handler in logging.getLogger().handlers:
        if not any(isinstance(f, CallIdFilter) for f in handler.filters):
            handler.addFilter(CallIdFilter())
    base = logging.getLogRecordFactory()
    if getattr(base, "stamps_call_id", False):
        return

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = base(*args, **kwargs)
        record.call_id = CALL_ID.get() or "-"
        return masked_record(record)  # caller data masked whoever logs it, before any handler

    factory.stamps_call_id = True  # type: ignore[attr-defined]
    logging.setLogRecordFactory(factory)


# --- providers -------------------------------------------------------------------------
def configure(
    settings: Settings, *, exporter: SpanExporter | None = None, set_global: bool = True, livekit: bool = True,
) -> TracerProvider | None:
    """Install the process's tracer provider from the settings (once); None when tracing is off.

    `exporter` replaces the configured one and `set_global=False` leaves OpenTelemetry's
    global provider alone: tests install OpenTelemetry's in-memory exporter, then `uninstall`.
    `livekit=False` (the standalone Temporal worker, which runs no session) leaves LiveKit's
    tracer alone and unimported: importing livekit.agents is 4 s of a worker's start.
    """
    global _installed
    if _installed is not None:
        return _installed
    if settings.tracing == "off" and exporter is None:
        if livekit:
            _livekit_spans_direct(True)
        return None
    if livekit:
        _livekit_spans_direct(False)
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor

    if exporter is not None:
        processor = SimpleSpanProcessor(exporter)
    elif settings.tracing == "console":
        from opentelemetry.sdk.trace.export import ConsoleSpanExporter

        processor = BatchSpanProcessor(ConsoleSpanExporter(out=sys.stderr))  # stdout is the transcript
    else:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        processor = BatchSpanProcessor(OTLPSpanExporter(endpoint=settings.otlp_endpoint))
    resource = Resource.create({"service.name": settings.service_name})
    provider = TracerProvider(resource=resource)
    provider.add_span_processor(processor)
    if set_global:
        trace.set_tracer_provider(provider)  # for any other instrumented library in the process
    _installed = provider
    if not livekit:
        return provider
    from livekit.agents.telemetry import set_tracer_provider

    # LiveKit gets a provider of its own over the same export: its PII filter (installed with
    # allow_pii=False, else the conversation and tool arguments go on its spans) imports lazily,
    # which Temporal's workflow sandbox refuses when a workflow span ends on the shared one.
    livekit_provider = TracerProvider(resource=resource)
    livekit_provider.add_span_processor(processor)
    set_tracer_provider(livekit_provider, allow_pii=False)
    return provider


def uninstall() -> None:
    """Undo `configure` (tests): later calls, clients and LiveKit sessions trace nothing."""
    global _installed
    if _installed is None:
        return
    from livekit.agents.telemetry import tracer as livekit_tracer

    _livekit_spans_direct(False)
    livekit_tracer.set_provider(trace.NoOpTracerProvider())
    _installed.shutdown()
    _installed = None


_DIRECT = ("start_span", "start_as_current_span", "use_span", "set_provider")


def _livekit_spans_direct(on: bool) -> None:
    """With tracing off, LiveKit's span calls go straight to the OpenTelemetry tracer it wraps.

    LiveKit's tracer binds every span call's arguments to a signature (`inspect`) and looks
    up a conversation id for an attribute, on every hop, although with no provider installed
    nothing records them: about a twentieth of a text turn's CPU (benchmarks/README.md,
    "Capacity per pod"). It offers no switch, so instance attributes shadow those methods of
    its `_DynamicTracer` (livekit-agents 1.8.9) with the wrapped no-op tracer's own, which
    hand out the same non-recording spans. Only while LiveKit's provider is a no-op one and
    no global provider is set; any provider change through LiveKit (`set_tracer_provider`:
    ours in `configure`, LiveKit Cloud's recording, an entrypoint's) first takes the shadows
    away. tests/core/test_tracing.py checks the shape this relies on.
    """
    from livekit.agents.telemetry import tracer as livekit_tracer

    if not on:
        for name in _DIRECT:
            livekit_tracer.__dict__.pop(name, None)
        return
    inner = getattr(livekit_tracer, "_tracer", None)
    provider = getattr(livekit_tracer, "_tracer_provider", None)
    if inner is None or not all(callable(getattr(type(livekit_tracer), n, None)) for n in _DIRECT):
        return  # another LiveKit: leave its tracer as it is
    unset = isinstance(provider, trace.ProxyTracerProvider) and isinstance(trace.get_tracer_provider(), trace.ProxyTracerProvider)
    if not (unset or isinstance(provider, trace.NoOpTracerProvider)):
        return  # something records LiveKit's spans: they keep their attributes

    def set_provider(tracer_provider: trace.TracerProvider) -> None:
        _livekit_spans_direct(False)
        type(livekit_tracer).set_provider(livekit_tracer, tracer_provider)

    livekit_tracer.start_span = inner.start_span  # type: ignore[method-assign]
    livekit_tracer.start_as_current_span = inner.start_as_current_span  # type: ignore[method-assign]
    livekit_tracer.use_span = trace.use_span  # type: ignore[method-assign]
    livekit_tracer.set_provider = set_provider  # type: ignore[method-assign]


def livekit_spans_direct() -> bool:
    """True while LiveKit's span calls bypass its wrapper (tracing off)."""
    from livekit.agents.telemetry import tracer as livekit_tracer

    return "start_span" in livekit_tracer.__dict__


def enabled() -> bool:
    return _installed is not None


def temporal_interceptors() -> list[object]:
    """Temporal's own tracing interceptor when tracing is on: client, workflow and activity spans."""
    if _installed is None:
        return []
    from temporalio.contrib.opentelemetry import TracingInterceptor

    return [TracingInterceptor(_installed.get_tracer("temporalio"))]
