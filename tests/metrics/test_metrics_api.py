"""callcenter.metrics on its own: exact values, bounded labels, exposition, the HTTP server."""

from __future__ import annotations

import math
import random
import string
import subprocess
import urllib.error
import urllib.request

import pytest
from prometheus_client import REGISTRY, generate_latest

from callcenter import metrics as m


def val(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def series_count() -> int:
    return sum(len(fam.samples) for fam in REGISTRY.collect() if fam.name.startswith("callcenter_"))


def test_hop_counts_and_times_with_exact_buckets() -> None:
    key = dict(from_agent="meta", to_agent="billing", path="fast")
    before = {le: val("callcenter_hop_duration_seconds_bucket", **key, le=le)
              for le in ("0.001", "0.0025", "0.005", "+Inf")}
    n0 = val("callcenter_hops_total", **key, outcome="ok")
    s0 = val("callcenter_hop_duration_seconds_sum", **key)
    m.hop(**key, outcome="ok", seconds=0.002)
    m.hop(**key, outcome="ok", seconds=0.004)
    assert val("callcenter_hops_total", **key, outcome="ok") == n0 + 2
    assert val("callcenter_hop_duration_seconds_sum", **key) == pytest.approx(s0 + 0.006)
    assert val("callcenter_hop_duration_seconds_bucket", **key, le="0.001") == before["0.001"]
    assert val("callcenter_hop_duration_seconds_bucket", **key, le="0.0025") == before["0.0025"] + 1
    assert val("callcenter_hop_duration_seconds_bucket", **key, le="0.005") == before["0.005"] + 2
    assert val("callcenter_hop_duration_seconds_bucket", **key, le="+Inf") == before["+Inf"] + 2


def test_hop_buckets_span_1ms_to_10s() -> None:
    les = sorted(float(s.labels["le"]) for s in REGISTRY.collect()
                 for s in s.samples if s.name == "callcenter_hop_duration_seconds_bucket")
    assert les[0] == 0.001 and 10.0 in les and les[-1] == math.inf


def test_every_function_records_what_it_says() -> None:
    cases = [
        (lambda: m.routing_decision(level="domain", decision="llm", confidence=0.42),
         "callcenter_routing_decisions_total", {"level": "domain", "decision": "llm"}, 1),
        (lambda: m.routing_decision(level="domain", decision="llm", confidence=0.42),
         "callcenter_routing_confidence_bucket", {"level": "domain", "decision": "llm", "le": "0.5"}, 1),
        (m.call_started, "callcenter_calls_started_total", {}, 1),
        (lambda: m.call_ended(outcome="resolved", seconds=30), "callcenter_calls_total", {"outcome": "resolved"}, 1),
        (lambda: m.turn(seconds=0.03), "callcenter_turns_total", {}, 1),
        (lambda: m.turn(seconds=0.03), "callcenter_turn_duration_seconds_bucket", {"le": "0.05"}, 1),
        (lambda: m.fallback(reason="llm_error"), "callcenter_fallbacks_total", {"reason": "llm_error"}, 1),
        (lambda: m.clarification(reason="ambiguous"), "callcenter_clarifications_total", {"reason": "ambiguous"}, 1),
        (lambda: m.loop_guard_trip(reason="repeated_state"), "callcenter_loop_guard_trips_total",
         {"reason": "repeated_state"}, 1),
        (lambda: m.specialist_result(domain="billing", specialist="refund", status="done"),
         "callcenter_specialist_results_total", {"domain": "billing", "specialist": "billing.refund", "status": "done"}, 1),
        (lambda: m.llm_call(agent="meta", provider="embedded", prompt_tokens=120, completion_tokens=7),
         "callcenter_llm_tokens_total", {"agent": "meta", "provider": "embedded", "type": "prompt"}, 120),
        (lambda: m.llm_call(agent="meta", provider="embedded", prompt_tokens=120, completion_tokens=7),
         "callcenter_llm_calls_total", {"agent": "meta", "provider": "embedded"}, 1),
        (lambda: m.approval_pending(kind="refund", delta=2), "callcenter_approvals_pending", {"kind": "refund"}, 2),
        (lambda: m.approval_decision(kind="refund", decision="approved", seconds=90),
         "callcenter_approval_decision_duration_seconds_bucket", {"kind": "refund", "le": "120.0"}, 1),
        (lambda: m.workflow_outcome(workflow="approval", outcome="completed"),
         "callcenter_workflow_outcomes_total", {"workflow": "approval", "outcome": "completed"}, 1),
    ]
    for fn, name, labels, delta in cases:
        before = val(name, **labels)
        fn()
        assert val(name, **labels) == pytest.approx(before + delta), (name, labels)


def test_calls_active_gauge_goes_up_and_down() -> None:
    a0 = val("callcenter_calls_active")
    m.call_started()
    m.call_started()
    assert val("callcenter_calls_active") == a0 + 2
    m.call_ended(outcome="resolved", seconds=1)
    m.call_ended(outcome="abandoned", seconds=1)
    assert val("callcenter_calls_active") == a0


def test_set_approvals_pending_is_absolute_and_never_negative() -> None:
    m.set_approvals_pending("close_account", 3)
    assert val("callcenter_approvals_pending", kind="close_account") == 3
    m.set_approvals_pending("close_account", -1)
    assert val("callcenter_approvals_pending", kind="close_account") == 0


def test_bad_numbers_do_not_poison_histograms() -> None:
    s0 = val("callcenter_turn_duration_seconds_sum")
    c0 = val("callcenter_turn_duration_seconds_count")
    m.turn(seconds=float("nan"))
    m.turn(seconds=-5.0)
    assert val("callcenter_turn_duration_seconds_sum") == s0
    assert val("callcenter_turn_duration_seconds_count") == c0 + 1  # the negative one, as 0 s
    m.routing_decision(level="meta", decision="fast", confidence=7.0)  # clamped to 1.0
    assert not math.isnan(val("callcenter_routing_confidence_sum", level="meta", decision="fast"))


def test_unknown_label_values_become_other() -> None:
    before = val("callcenter_hops_total", from_agent="meta", to_agent="other", path="other", outcome="other")
    m.hop(from_agent="meta", to_agent="I want my money back!", path="telepathy", outcome="Exploded",
          seconds=0.01)
    assert val("callcenter_hops_total", from_agent="meta", to_agent="other", path="other",
               outcome="other") == before + 1
    assert m.PATHS("fast") == "fast" and m.PATHS("FAST") == "other" and m.PATHS(None) == "other"
    assert m.AGENTS(["unhashable"]) == "other"


def test_open_vocabulary_admits_identifiers_up_to_its_cap() -> None:
    v = m.Vocabulary("t", ["a"], cap=2)
    assert [v("b.c"), v("d"), v("e"), v("b.c"), v("Has Space"), v("")] == ["b.c", "d", "other", "b.c", "other", "other"]
    assert v.values == {"a", "b.c", "d", "other"}
    v.register(["z", "not valid!"])
    assert v("z") == "z" and v("not valid!") == "other"


def test_cardinality_is_bounded_whatever_callers_pass() -> None:
    # Customer ids and free text passed into every label: the series count may grow only
    # by the vocabularies' caps, and a second flood adds nothing at all.
    rnd = random.Random(4)

    def junk() -> str:
        kind = rnd.randrange(3)
        if kind == 0:
            return f"cust_{rnd.randrange(10**9)}"
        if kind == 1:
            return " ".join(rnd.choice(["refund", "my", "card", "PLEASE", "$300"]) for _ in range(4))
        return "".join(rnd.choice(string.ascii_lowercase) for _ in range(8))

    def flood() -> None:
        for _ in range(3000):
            m.hop(from_agent=junk(), to_agent=junk(), path=junk(), outcome=junk(), seconds=0.01)
            m.specialist_result(domain=junk(), specialist=junk(), status=junk())
            m.fallback(reason=junk())
            m.llm_call(agent=junk(), provider=junk(), prompt_tokens=1, completion_tokens=1)
            m.approval_decision(kind=junk(), decision=junk(), seconds=1)
            m.workflow_outcome(workflow=junk(), outcome=junk())

    flood()
    after_first = series_count()
    flood()
    assert series_count() == after_first
    for vocab in (m.AGENTS, m.DOMAINS, m.REASONS, m.PROVIDERS, m.KINDS, m.WORKFLOWS):
        assert len(vocab.values) <= vocab.max_size
        assert all(m._IDENT.match(v) for v in vocab.values)


def test_disabled_records_nothing() -> None:
    t0 = val("callcenter_turns_total")
    m.set_enabled(False)
    try:
        m.turn(seconds=0.1)
        m.hop(from_agent="meta", to_agent="billing", path="fast", outcome="ok", seconds=0.1)
    finally:
        m.set_enabled(True)
    assert val("callcenter_turns_total") == t0


def test_names_follow_prometheus_conventions() -> None:
    fams = {f.name: f for f in REGISTRY.collect() if f.name.startswith("callcenter_")}
    for name, fam in fams.items():
        if fam.type == "counter":
            assert any(s.name == f"{name}_total" for s in fam.samples) or not fam.samples, name
        if fam.type == "histogram":
            assert name.endswith("_seconds") or name == "callcenter_routing_confidence", name
        assert not any(s.name.endswith("_created") for s in fam.samples), name


def test_exposition_passes_promtool_check_metrics(promtool: str) -> None:
    out = subprocess.run([promtool, "check", "metrics"], input=generate_latest(REGISTRY),
                         capture_output=True, timeout=60)
    said = (out.stdout + out.stderr).decode()
    # promtool exits 1 on a parse error and 3 on lint problems. The process registry also
    # holds other libraries' series (LiveKit's, once a worker ran in this process), whose
    # lint findings are theirs: ours must have none, and nothing may fail to parse.
    assert out.returncode in (0, 3), said
    assert [ln for ln in said.splitlines() if ln.startswith("callcenter_")] == [], said


def test_promtool_check_metrics_fails_on_a_broken_exposition(promtool: str) -> None:
    # the check above can fail: a cut-off label value is a parse error with exit 1
    broken = b'# HELP callcenter_x_total x\n# TYPE callcenter_x_total counter\ncallcenter_x_total{a="1 1\n'
    out = subprocess.run([promtool, "check", "metrics"], input=broken, capture_output=True, timeout=60)
    assert out.returncode == 1 and b"parsing error" in out.stdout + out.stderr


def test_serve_exposes_metrics_and_healthz_on_a_free_port() -> None:
    server = m.serve(0)
    try:
        assert server.port > 0
        body = urllib.request.urlopen(server.url, timeout=5).read().decode()
        assert "callcenter_hops_total" in body and "# TYPE callcenter_hop_duration_seconds histogram" in body
        assert urllib.request.urlopen(f"http://127.0.0.1:{server.port}/healthz", timeout=5).read() == b"ok\n"
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(f"http://127.0.0.1:{server.port}/nope", timeout=5)
        assert err.value.code == 404
    finally:
        server.close()
    with pytest.raises(OSError):
        urllib.request.urlopen(server.url, timeout=2)
    server.close()  # idempotent
