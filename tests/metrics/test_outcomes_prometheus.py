"""The line's KPIs in a real Prometheus: a line process serves calls with known outcomes, the
shipped recording rules and every "Line outcomes" panel query give the expected numbers,
and the store behind that line holds the same outcome records."""

from __future__ import annotations

import importlib.util
import json
import math
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import ModuleType

import pytest

from callcenter.store import Store
from callcenter.store.outcomes import iso, kpis
from tests.conftest import cli_env, free_port
from tests.metrics.test_metrics_prometheus import _healthy, _more_scrapes, _stop, _wait

ROOT = Path(__file__).resolve().parents[2]
# customer, turns, the outcome it must have
CALLS = [
    ("C1001", ["what's my balance"], "resolved"),
    ("C1003", ["i need this escalated to your engineering team the api is broken"], "callback"),
    ("C1001", ["i was charged twice"], "abandoned"),  # hangs up while the refund waits for a yes
    ("C1001", ["how much do i owe right now"], "resolved"),  # a repeat of the first call's need
    ("C1002", ["you guys billed me two times for the same thing", "yes please"], "pending_approval"),
]


def _builder() -> ModuleType:
    spec = importlib.util.spec_from_file_location("outcomes_builder", ROOT / "deploy/monitoring/build_outcomes_dashboard.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _value(prom, expr: str) -> dict[str, float]:  # noqa: ANN001
    res = prom.query(expr)
    assert res["status"] == "success", (expr, res)
    return {json.dumps(r["metric"], sort_keys=True): float(r["value"][1]) for r in res["data"]["result"]}


def _one(prom, expr: str) -> float:  # noqa: ANN001
    [v] = _value(prom, expr).values()
    return v


def test_kpis_in_prometheus_match_the_calls_and_the_store(prometheus_factory, tmp_path: Path, data_dir: Path) -> None:
    port = free_port()
    # No Temporal listening: the approval waits in the store's outbox, as when Temporal is away.
    env = cli_env(data_dir, CALLCENTER_LOG_LEVEL="WARNING", CALLCENTER_TEMPORAL_ADDRESS=f"127.0.0.1:{free_port()}",
                  CALLCENTER_HOLD_ON_LINE_S="0")
    log = (tmp_path / "line.log").open("w")
    line = subprocess.Popen([sys.executable, str(Path(__file__).with_name("line_process.py")), str(port)], env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, cwd=ROOT, text=True)
    try:
        assert json.loads(line.stdout.readline())["ready"]
        _wait(lambda: _healthy(port), "the line's /metrics", timeout=60)
        prom = prometheus_factory({"callcenter-agent-worker": [f"127.0.0.1:{port}"]})
        prom.wait_for('up{job="callcenter-agent-worker"} == 1')
        _more_scrapes(prom)  # series seen at 0 before the first call, so every increase counts
        for customer, turns, _ in CALLS:
            line.stdin.write(json.dumps({"customer": customer, "turns": turns}) + "\n")
            line.stdin.flush()
            json.loads(line.stdout.readline())
        prom.wait_value("sum(callcenter_call_outcomes_total)", len(CALLS), timeout=60)
        prom.wait_value('sum(callcenter_need_contacts_total{contact="repeat"})', 1)
        _more_scrapes(prom)

        # The recording rules (evaluated every second here), against the known outcomes.
        ratio = _wait(lambda: _value(prom, "namespace:callcenter_call_outcomes:ratio_1h"), "recorded outcome ratios")
        by_outcome = {json.loads(k)["outcome"]: v for k, v in ratio.items()}
        assert by_outcome == pytest.approx({"resolved": 0.4, "callback": 0.2, "abandoned": 0.2,
                                            "pending_approval": 0.2, "transferred": 0.0})
        assert _one(prom, "namespace:callcenter_containment:ratio_1d") == pytest.approx(0.4)
        assert _one(prom, "namespace:callcenter_first_contact_resolution:ratio_1d") == pytest.approx(0.8)
        domains = {json.loads(k)["domain"]: v for k, v in _value(prom, "namespace_domain:callcenter_containment:ratio_1d").items()}
        assert domains["billing"] == pytest.approx(0.5) and domains["technical"] == pytest.approx(0.0)
        fcr = {json.loads(k)["domain"]: v for k, v in
               _value(prom, "namespace_domain:callcenter_first_contact_resolution:ratio_1d").items()}
        assert fcr["billing"] == pytest.approx(0.75) and fcr["technical"] == pytest.approx(1.0)
        # A reason first seen in this process was born with its first call back, which no
        # increase() can see (metrics.callback_reason_seen); the count itself is exact.
        assert _one(prom, 'callcenter_callback_reasons_total{reason="engineering"}') == 1
        assert _value(prom, 'namespace_reason:callcenter_callback_reasons:increase_1d{reason="engineering"}')

        # Every panel of "Line outcomes" runs; the KPI stats say what the calls did.
        builder = _builder()
        stats = {}
        for title, _ref, expr in builder.panel_queries(json.loads(builder.OUT.read_text()), rate_interval="2m", range_="1h"):
            values = _value(prom, expr)
            if title in ("Containment", "First-contact resolution", "Transfer rate", "Call-back rate", "Abandonment"):
                [stats[title]] = values.values()
            elif title not in ("Time to approval (median)", "Time to approval by request kind (median)"):
                assert values and any(math.isfinite(v) for v in values.values()), (title, expr)
        assert stats == pytest.approx({"Containment": 0.4, "First-contact resolution": 0.8, "Transfer rate": 0.0,
                                       "Call-back rate": 0.2, "Abandonment": 0.2})
    finally:
        _stop(line)
        log.close()

    # The same line's store: the records behind those numbers, and the same KPIs.
    store = Store(data_dir / "callcenter.sqlite3")
    try:
        now = datetime.now(UTC)
        k = kpis(store, iso(now - timedelta(hours=1)), iso(now + timedelta(minutes=1)))
        assert k["line"].outcomes == {"resolved": 2, "callback": 1, "abandoned": 1, "pending_approval": 1, "transferred": 0}
        assert k["line"].containment == pytest.approx(stats["Containment"]) == 0.4
        assert k["line"].first_contact_resolution == pytest.approx(stats["First-contact resolution"])
        assert k["billing"].containment == pytest.approx(domains["billing"])
        assert k["line"].top_callback_reasons() == [("engineering", 1)]
    finally:
        store.close()
