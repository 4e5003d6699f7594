"""Prometheus metrics of the call center: one module, module-level recording functions.

Everything lives on prometheus_client's default REGISTRY because LiveKit's AgentServer
(``prometheus_port=``) and :func:`serve` both expose that registry.

Cardinality is bounded by construction: every label value goes through a
:class:`Vocabulary`. Closed vocabularies (path, outcome, level, ...) accept only their
listed values; open ones (agent ids, approval kinds, workflow names) accept listed values
plus at most ``cap`` further identifier-shaped values (``billing.refund``), first come
first served. Anything else - customer ids beyond the cap, free text, empty strings -
is recorded as ``"other"``. So the number of series of every metric is at most the product
of its label vocabularies' sizes (+1 for "other"), whatever callers pass.

Recording is cheap: the labelled child of each metric is cached per normalized label
tuple, so a hot call is a dict lookup plus prometheus_client's lock-protected add.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable, Iterable
from typing import Any

from prometheus_client import Counter, Gauge, Histogram, disable_created_metrics

from callcenter.metrics_server import MetricsServer, serve

__all__ = [
    "MetricsServer", "Vocabulary", "approval_decision", "approval_pending", "call_ended",
    "call_started", "circuit_state", "clarification", "fallback", "hop", "llm_call", "loop_guard_trip",
    "register_agents", "request_ended_outside", "routing_decision", "serve", "set_approvals_pending", "set_enabled",
    "specialist_result", "turn", "voice_stage", "workflow_outcome", "call_outcome", "callback_reason_seen",
]

log = logging.getLogger(__name__)

# `_created` samples double the series count of every counter and histogram and nobody
# queries them here; this is process-wide, which is what we want in our own processes.
disable_created_metrics()

OTHER = "other"
_IDENT = re.compile(r"^[a-z][a-z0-9_]{0,31}(\.[a-z][a-z0-9_]{0,31}){0,2}$")


class Vocabulary:
    """The allowed values of one label; unknown values become ``"other"``."""

    __slots__ = ("_allowed", "_cap", "_lock", "_extra", "_warned", "name")

    def __init__(self, name: str, values: Iterable[str], *, cap: int = 0) -> None:
        self.name = name
        self._allowed: frozenset[str] = frozenset(values) | {OTHER}
        self._cap = cap            # how many unlisted identifier-shaped values may join
        self._extra = 0
        self._warned = False
        self._lock = threading.Lock()

    def __call__(self, value: object) -> str:
        try:
            if value in self._allowed:   # the hot path: one frozenset lookup
                return value  # type: ignore[return-value]
        except TypeError:                # unhashable garbage
            return OTHER
        return self._admit(value)

    def _admit(self, value: object) -> str:
        if not isinstance(value, str) or self._extra >= self._cap or not _IDENT.match(value):
            return OTHER
        with self._lock:
            if value in self._allowed:
                return value
            if self._extra >= self._cap:
                if not self._warned:
                    self._warned = True
                    log.warning("metrics label %s is full (%d extra values); "
                                "further new values are recorded as 'other'", self.name, self._cap)
                return OTHER
            self._extra += 1
            self._allowed = self._allowed | {value}
            return value

    def register(self, values: Iterable[str]) -> None:
        """Add known values (from a fixed registry); they do not count against the cap."""
        good = {v for v in values if isinstance(v, str) and _IDENT.match(v)}
        with self._lock:
            self._allowed = self._allowed | good

    @property
    def values(self) -> frozenset[str]:
        return self._allowed

    @property
    def max_size(self) -> int:
        """Upper bound of distinct values this label can ever take (excluding register())."""
        return len(self._allowed) + max(0, self._cap - self._extra)


# --- label vocabularies -----------------------------------------------------------------
# "none": a domain answered without a specialist. The domains' and specialists' names are
# registered by the composition root (register_agents), from domains/registry.py.
AGENTS = Vocabulary("agent", ["meta", "identity", "none"], cap=64)
DOMAINS = Vocabulary("domain", ["meta", "identity"], cap=16)
PATHS = Vocabulary("path", ["fast", "llm", "embedded", "return"])
HOP_OUTCOMES = Vocabulary("outcome", ["ok", "error", "loop_guard", "misrouted", "timeout",
                                      "cancelled", "fallback", "clarify", "oos"])
LEVELS = Vocabulary("level", ["meta", "domain"])
DECISIONS = Vocabulary("decision", ["fast", "llm", "embedded", "clarify", "oos"])
CALL_OUTCOMES = Vocabulary("outcome", ["resolved", "completed", "escalated", "transferred",
                                       "abandoned", "fallback", "error", "timeout"])
REASONS = Vocabulary("reason", [
    "low_confidence", "ambiguous", "multi_intent", "missing_slot", "oos", "no_route",
    "llm_error", "tool_error", "timeout", "loop_guard", "max_delegations", "repeated_state",
    "max_depth", "verification_failed", "error", "slot_stalled",
], cap=16)
STATUSES = Vocabulary("status", [
    # domains.results.Status, the statuses specialists return:
    "done", "info", "needs_approval", "queued", "refused", "unverified", "unclear",
    "misrouted", "failed",
    # and a few generic ones for callers outside the domains layer:
    "ok", "error", "timeout", "cancelled", "partial",
])
PROVIDERS = Vocabulary("provider", ["embedded", "openai", "azure", "groq", "ollama",
                                    "anthropic", "google", "livekit", "fast"], cap=8)
# Request kinds: the ticket workflow's, and the domains' durable actions (register_kinds).
KINDS = Vocabulary("kind", ["escalation"], cap=16)
APPROVAL_DECISIONS = Vocabulary("decision", ["approved", "denied", "expired", "timeout",
                                             "cancelled", "escalated", "auto_denied"])
WORKFLOWS = Vocabulary("workflow", ["approval", "ticket"], cap=16)
# Voice: each stage is timed from the end of the caller's speech.
VOICE_STAGES = Vocabulary("stage", ["transcript", "end_of_turn", "llm_first_output", "first_audio"])
# How a call ended for the caller (callcenter/store/outcomes.py), and the line's KPIs' labels.
LINE_OUTCOMES = Vocabulary("outcome", ["resolved", "pending_approval", "callback", "transferred", "abandoned"])
CONTACTS = Vocabulary("contact", ["first", "repeat", "unknown_caller"])
CALLBACK_REASONS = Vocabulary("reason", ["asked_for_person", "service_unavailable", "change_unconfirmed",
                                         "routing_loop"], cap=16)
# How a durable request ended outside the line and the console (see workflows/reconcile.py).
ENDED_OUTSIDE_HOW = Vocabulary("how", ["terminated", "canceled", "not_filed"])
WORKFLOW_OUTCOMES = Vocabulary("outcome", ["completed", "approved", "denied", "failed",
                                           "cancelled", "timed_out", "terminated",
                                           "continued_as_new", "expired"])


def register_agents(ids: Iterable[str]) -> None:
    """Declare the agent ids of the fixed agent registry (``meta``, ``billing.refund``...).

    Optional: unlisted identifier-shaped ids are admitted up to a cap anyway, but
    registering keeps the cap free for surprises.
    """
    ids = list(ids)
    AGENTS.register(ids)
    DOMAINS.register(i.split(".", 1)[0] for i in ids)
    if _enabled:
        # Every specialist's breaker exists from the start (closed, never tripped), so the
        # dashboard and the alert see 0 rather than no data.
        for agent in ids:
            if "." in agent:
                CIRCUIT_OPEN.labels(specialist=AGENTS(agent)).set(0)
                CIRCUIT_TRIPS.labels(specialist=AGENTS(agent))
        # Each domain's outcome series too: Prometheus cannot see a counter's first increment
        # if the series appears with it, and the KPI ratios would miss it.
        for domain in {DOMAINS(i.split(".", 1)[0]) for i in ids if "." in i}:
            for outcome in LINE_OUTCOMES.values - {OTHER}:
                NEED_OUTCOMES.labels(domain, outcome)
            for contact in CONTACTS.values - {OTHER}:
                NEED_CONTACTS.labels(domain, contact)
            DOMAIN_HANDLE_SECONDS.labels(domain)


def register_kinds(kinds: Iterable[str]) -> None:
    """Declare the request kinds of the domains' durable actions (``domains.registry``);
    their pending-approvals series exist at 0 from the start."""
    kinds = list(kinds)
    KINDS.register(kinds)
    for kind in kinds:
        APPROVALS_PENDING.labels(KINDS(kind))


# --- the metrics --------------------------------------------------------------------------
_NS = "callcenter"
_HOP_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
_TURN_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)
_CALL_BUCKETS = (5.0, 15.0, 30.0, 60.0, 120.0, 300.0, 600.0, 1200.0, 1800.0, 3600.0)
_CONFIDENCE_BUCKETS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 0.99, 1.0)
# Human decisions: seconds (auto policy) to a day (next business day).
_DECISION_BUCKETS = (1.0, 5.0, 15.0, 30.0, 60.0, 120.0, 300.0, 600.0, 1800.0, 3600.0,
                     7200.0, 14400.0, 43200.0, 86400.0)

HOPS = Counter("hops", "Transfers of control between agents (meta->domain, domain->specialist, returns).",
               ["from_agent", "to_agent", "path", "outcome"], namespace=_NS)
HOP_SECONDS = Histogram("hop_duration_seconds", "Time a hop took, from decision to the target agent running.",
                        ["from_agent", "to_agent", "path"], namespace=_NS, buckets=_HOP_BUCKETS)
ROUTING = Counter("routing_decisions", "Routing decisions by level and how they were decided.",
                  ["level", "decision"], namespace=_NS)
CONFIDENCE = Histogram("routing_confidence", "Classifier confidence (0..1) of routing decisions.",
                       ["level", "decision"], namespace=_NS, buckets=_CONFIDENCE_BUCKETS)
# Gauges say how they combine across LiveKit's job processes in multiprocess mode
# (PROMETHEUS_MULTIPROC_DIR): the default would add a `pid` label, one series per process.
CALLS_ACTIVE = Gauge("calls_active", "Calls in progress.", namespace=_NS, multiprocess_mode="livesum")
CALLS_STARTED = Counter("calls_started", "Calls started.", namespace=_NS)
CALLS = Counter("calls", "Calls completed, by outcome.", ["outcome"], namespace=_NS)
CALL_SECONDS = Histogram("call_duration_seconds", "Duration of completed calls.",
                         namespace=_NS, buckets=_CALL_BUCKETS)
TURNS = Counter("turns", "Caller turns answered.", namespace=_NS)
TURN_SECONDS = Histogram("turn_duration_seconds", "Time from end of caller turn to the answer.",
                         namespace=_NS, buckets=_TURN_BUCKETS)
FALLBACKS = Counter("fallbacks", "Fallback answers given instead of a routed one.", ["reason"], namespace=_NS)
CLARIFICATIONS = Counter("clarifications", "Clarifying questions asked instead of a guess.",
                         ["reason"], namespace=_NS)
LOOP_GUARD = Counter("loop_guard_trips", "Loop guard trips (too many delegations, repeated state).",
                     ["reason"], namespace=_NS)
SPECIALIST = Counter("specialist_results", "Typed results returned by specialist tasks.",
                     ["domain", "specialist", "status"], namespace=_NS)
LLM_CALLS = Counter("llm_calls", "LLM completions requested.", ["agent", "provider"], namespace=_NS)
LLM_TOKENS = Counter("llm_tokens", "LLM tokens used.", ["agent", "provider", "type"], namespace=_NS)
# Set from one source of truth (the Temporal worker counts pending workflows), so processes
# that report it agree: max, not sum.
CIRCUIT_OPEN = Gauge("circuit_open", "1 while a specialist's circuit breaker is open (callers get the fallback).",
                     ["specialist"], namespace=_NS, multiprocess_mode="livemax")
CIRCUIT_TRIPS = Counter("circuit_trips", "Times a specialist's circuit breaker opened.", ["specialist"], namespace=_NS)
APPROVALS_PENDING = Gauge("approvals_pending", "Approvals waiting for an operator.", ["kind"],
                          namespace=_NS, multiprocess_mode="livemax")
APPROVAL_DECISIONS_TOTAL = Counter("approval_decisions", "Operator (or timeout) approval decisions.",
                                   ["kind", "decision"], namespace=_NS)
APPROVAL_SECONDS = Histogram("approval_decision_duration_seconds", "Time from approval request to decision.",
                             ["kind"], namespace=_NS, buckets=_DECISION_BUCKETS)
# 0.8 s is the industry budget for first audio; 1.5 s our floor on 2 cores; 2 s the alert.
_VOICE_BUCKETS = (0.1, 0.2, 0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0)
VOICE_STAGE_SECONDS = Histogram(
    "voice_stage_seconds", "Time from the end of the caller's speech to a stage of the reply "
    "(transcript, end_of_turn, llm_first_output, first_audio).",
    ["stage"], namespace=_NS, buckets=_VOICE_BUCKETS)
WORKFLOW_OUTCOMES_TOTAL = Counter("workflow_outcomes", "Durable workflows finished, by outcome.",
                                  ["workflow", "outcome"], namespace=_NS)
# Line outcomes, counted once per call as its outcome record is written (meta/outcome.py).
CALL_OUTCOMES_TOTAL = Counter("call_outcomes", "Calls ended, by how they ended for the caller "
                              "(resolved, pending_approval, callback, transferred, abandoned).", ["outcome"], namespace=_NS)
CALL_HANDLE_SECONDS = Histogram("call_handle_seconds", "Handle time of ended calls, by outcome.", ["outcome"],
                                namespace=_NS, buckets=_CALL_BUCKETS)
NEED_OUTCOMES = Counter("need_outcomes", "Needs handled (one per specialist a call reached), by domain and outcome.",
                        ["domain", "outcome"], namespace=_NS)
NEED_CONTACTS = Counter("need_contacts", "Needs handled, by whether the same verified caller raised the same need "
                        "within the FCR window (first, repeat; unknown_caller: never verified).",
                        ["domain", "contact"], namespace=_NS)
DOMAIN_HANDLE_SECONDS = Histogram("domain_handle_seconds", "Handle time of the calls that handled a need of the domain.",
                                  ["domain"], namespace=_NS, buckets=_CALL_BUCKETS)
CALLBACK_REASONS_TOTAL = Counter("callback_reasons", "Calls a person follows up, by reason (a bounded category).",
                                 ["reason"], namespace=_NS)
REQUESTS_ENDED_OUTSIDE = Counter(
    "requests_ended_outside", "Durable requests ended outside the line and the console: terminated or cancelled"
    " in Temporal, or started by hand without the line filing them (refused).", ["kind", "how"], namespace=_NS)

# Series that should exist at 0 from the start, so rates and ratios in alerts and the
# dashboard read 0 rather than "no data" before the first event (few, closed label sets).
for _level in LEVELS.values - {OTHER}:
    for _decision in DECISIONS.values - {OTHER}:
        ROUTING.labels(_level, _decision)
for _outcome in ("resolved", "escalated", "abandoned", "error"):
    CALLS.labels(_outcome)
for _reason in ("low_confidence", "oos", "llm_error", "loop_guard"):
    FALLBACKS.labels(_reason)
for _reason in ("low_confidence", "ambiguous", "missing_slot"):
    CLARIFICATIONS.labels(_reason)
for _reason in ("max_delegations", "repeated_state"):
    LOOP_GUARD.labels(_reason)
for _stage in VOICE_STAGES.values - {OTHER}:
    VOICE_STAGE_SECONDS.labels(_stage)
for _outcome in LINE_OUTCOMES.values - {OTHER}:
    CALL_OUTCOMES_TOTAL.labels(_outcome)
    CALL_HANDLE_SECONDS.labels(_outcome)
for _reason in CALLBACK_REASONS.values - {OTHER}:
    CALLBACK_REASONS_TOTAL.labels(_reason)
for _how in ENDED_OUTSIDE_HOW.values - {OTHER}:
    REQUESTS_ENDED_OUTSIDE.labels("escalation", _how)

_enabled = True


def set_enabled(flag: bool) -> None:
    """Turn recording on or off process-wide (the overhead benchmark's no-op baseline)."""
    global _enabled
    _enabled = bool(flag)


def _seconds(value: float) -> float:
    # A clock going backwards or a NaN must not poison a histogram's sum.
    return value if value >= 0.0 else 0.0


_children: dict[tuple, Any] = {}


def _child(metric: Any, *labels: str) -> Any:
    # Keys are normalized values, so this dict is bounded like the series themselves.
    key = (id(metric), *labels)
    child = _children.get(key)
    if child is None:
        child = _children[key] = metric.labels(*labels)
    return child


def _site(cache: dict[tuple, tuple], key: tuple, norm: Callable[[tuple], tuple],
          build: Callable[[tuple], tuple]) -> tuple:
    """The children one hot call site updates, looked up by the caller's raw label values.

    Saves normalizing and resolving every label on every call. Only keys that are already
    valid label values are cached, so the cache is bounded like the series themselves.
    """
    try:
        hit = cache.get(key)
    except TypeError:  # an unhashable label value
        hit = None
    if hit is None:
        normalized = norm(key)
        hit = build(normalized)
        if normalized == key:
            cache[key] = hit
    return hit


def _hop_norm(k: tuple) -> tuple:
    return AGENTS(k[0]), AGENTS(k[1]), PATHS(k[2]), HOP_OUTCOMES(k[3])


def _hop_build(n: tuple) -> tuple:
    return HOPS.labels(*n), HOP_SECONDS.labels(*n[:3])


def _routing_norm(k: tuple) -> tuple:
    return LEVELS(k[0]), DECISIONS(k[1])


def _routing_build(n: tuple) -> tuple:
    return ROUTING.labels(*n), CONFIDENCE.labels(*n)


def _llm_norm(k: tuple) -> tuple:
    return AGENTS(k[0]), PROVIDERS(k[1])


def _llm_build(n: tuple) -> tuple:
    return LLM_CALLS.labels(*n), LLM_TOKENS.labels(*n, "prompt"), LLM_TOKENS.labels(*n, "completion")


_hop_site: dict[tuple, tuple] = {}
_routing_site: dict[tuple, tuple] = {}
_llm_site: dict[tuple, tuple] = {}


# --- recording API ----------------------------------------------------------------------------
def hop(*, from_agent: str, to_agent: str, path: str, outcome: str, seconds: float) -> None:
    """One transfer of control. path: fast|llm|embedded|return; outcome: ok|error|loop_guard|..."""
    if not _enabled:
        return
    count, duration = _site(_hop_site, (from_agent, to_agent, path, outcome), _hop_norm, _hop_build)
    count.inc()
    if seconds == seconds:  # not NaN
        duration.observe(seconds if seconds >= 0.0 else 0.0)


def routing_decision(*, level: str, decision: str, confidence: float) -> None:
    """A router decided. level: meta|domain; decision: fast|llm|embedded|clarify|oos."""
    if not _enabled:
        return
    count, conf = _site(_routing_site, (level, decision), _routing_norm, _routing_build)
    count.inc()
    if confidence == confidence:
        conf.observe(min(1.0, max(0.0, confidence)))


def call_started() -> None:
    if not _enabled:
        return
    CALLS_ACTIVE.inc()
    CALLS_STARTED.inc()


def call_ended(*, outcome: str, seconds: float) -> None:
    """A call finished (pair with exactly one :func:`call_started`)."""
    if not _enabled:
        return
    CALLS_ACTIVE.dec()
    _child(CALLS, CALL_OUTCOMES(outcome)).inc()
    if seconds == seconds:
        CALL_SECONDS.observe(_seconds(seconds))


def turn(*, seconds: float) -> None:
    if not _enabled:
        return
    TURNS.inc()
    if seconds == seconds:
        TURN_SECONDS.observe(_seconds(seconds))


def fallback(*, reason: str) -> None:
    if _enabled:
        _child(FALLBACKS, REASONS(reason)).inc()


def clarification(*, reason: str) -> None:
    if _enabled:
        _child(CLARIFICATIONS, REASONS(reason)).inc()


def loop_guard_trip(*, reason: str) -> None:
    if _enabled:
        _child(LOOP_GUARD, REASONS(reason)).inc()


def circuit_state(*, specialist: str, open_: bool) -> None:
    """A specialist's circuit breaker opened (open_=True) or closed again."""
    if not _enabled:
        return
    label = AGENTS(specialist)
    CIRCUIT_OPEN.labels(specialist=label).set(1 if open_ else 0)
    if open_:
        CIRCUIT_TRIPS.labels(specialist=label).inc()


def specialist_result(*, domain: str, specialist: str, status: str) -> None:
    """A specialist returned. ``specialist`` is its agent id (``billing.refund``) or its
    short name within ``domain`` (``refund``); the label is always the agent id."""
    if not _enabled:
        return
    if isinstance(specialist, str) and specialist not in ("", "none") and "." not in specialist:
        specialist = f"{domain}.{specialist}"
    _child(SPECIALIST, DOMAINS(domain), AGENTS(specialist), STATUSES(status)).inc()


def llm_call(*, agent: str, provider: str, prompt_tokens: int, completion_tokens: int) -> None:
    if not _enabled:
        return
    calls, prompt, completion = _site(_llm_site, (agent, provider), _llm_norm, _llm_build)
    calls.inc()
    if prompt_tokens > 0:
        prompt.inc(prompt_tokens)
    if completion_tokens > 0:
        completion.inc(completion_tokens)


def approval_pending(*, kind: str, delta: int) -> None:
    """An approval was requested (+1) or left the queue (-1)."""
    if _enabled:
        _child(APPROVALS_PENDING, KINDS(kind)).inc(delta)


def set_approvals_pending(kind: str, n: int) -> None:
    """Set the queue depth from a source of truth (e.g. a periodic count of pending workflows)."""
    if _enabled:
        _child(APPROVALS_PENDING, KINDS(kind)).set(max(0, n))


def approval_decision(*, kind: str, decision: str, seconds: float) -> None:
    """An approval was decided (approved|denied|expired|...) after ``seconds`` of waiting."""
    if not _enabled:
        return
    k = KINDS(kind)
    _child(APPROVAL_DECISIONS_TOTAL, k, APPROVAL_DECISIONS(decision)).inc()
    if seconds == seconds:
        _child(APPROVAL_SECONDS, k).observe(_seconds(seconds))


def voice_stage(*, stage: str, seconds: float) -> None:
    """One spoken turn reached a stage `seconds` after the caller stopped speaking."""
    if _enabled and seconds == seconds:
        _child(VOICE_STAGE_SECONDS, VOICE_STAGES(stage)).observe(_seconds(seconds))


def workflow_outcome(*, workflow: str, outcome: str) -> None:
    if _enabled:
        _child(WORKFLOW_OUTCOMES_TOTAL, WORKFLOWS(workflow), WORKFLOW_OUTCOMES(outcome)).inc()


def callback_reason_seen(reason: str) -> None:
    """A call opened a ticket for a person: its reason's series exists (at 0) from now on, so
    Prometheus, which cannot see a counter's first increment, sees the call's at its end.
    A reason's first call back after a process start is still missed when both happen
    between two scrapes; the store's records (and the console) are exact."""
    if _enabled:
        _child(CALLBACK_REASONS_TOTAL, CALLBACK_REASONS(reason))


def call_outcome(*, outcome: str, handle_s: float, reason: str | None,
                 needs: Iterable[tuple[str, str, str]]) -> None:
    """A call's outcome record: how it ended, its handle time, a call-back reason, and per
    need (domain, need outcome, contact: first|repeat|unknown_caller)."""
    if not _enabled:
        return
    label = LINE_OUTCOMES(outcome)
    _child(CALL_OUTCOMES_TOTAL, label).inc()
    if handle_s == handle_s:
        _child(CALL_HANDLE_SECONDS, label).observe(_seconds(handle_s))
    if label == "callback":
        _child(CALLBACK_REASONS_TOTAL, CALLBACK_REASONS(reason or OTHER)).inc()
    domains = set()
    for domain, need_outcome, contact in needs:
        d = DOMAINS(domain)
        _child(NEED_OUTCOMES, d, LINE_OUTCOMES(need_outcome)).inc()
        _child(NEED_CONTACTS, d, CONTACTS(contact)).inc()
        domains.add(d)
    for d in domains:
        if handle_s == handle_s:
            _child(DOMAIN_HANDLE_SECONDS, d).observe(_seconds(handle_s))
def request_ended_outside(*, kind: str, how: str) -> None:
    if _enabled:
        _child(REQUESTS_ENDED_OUTSIDE, KINDS(kind), ENDED_OUTSIDE_HOW(how)).inc()
