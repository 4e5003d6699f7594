"""A real Prometheus server (Debian's) on 127.0.0.1 scrapes our processes."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
import urllib.request
from pathlib import Path

import yaml

ALERTS = Path(__file__).resolve().parents[2] / "deploy/helm/callcenter/files/alerts.yaml"


def _start_exporter(port: int) -> subprocess.Popen:
    code = textwrap.dedent(f"""
        import sys, time
        from callcenter import metrics as m
        server = m.serve({port})
        m.call_started()
        m.hop(from_agent="meta", to_agent="billing", path="fast", outcome="ok", seconds=0.004)
        print("ready", flush=True)
        sys.stdin.read()   # serve until the test closes stdin
        server.close()
    """)
    proc = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "ready"
    return proc


def test_prometheus_loads_the_alert_rules_and_scrapes_serve(prometheus_factory, port: int) -> None:
    proc = _start_exporter(port)
    try:
        prom = prometheus_factory({"callcenter-agent": [f"127.0.0.1:{port}"]})
        result = prom.wait_for('callcenter_hops_total{job="callcenter-agent",to_agent="billing"}')
        assert float(result[0]["value"][1]) == 1.0
        assert prom.wait_for('up{job="callcenter-agent"} == 1')
        assert prom.wait_for("callcenter_calls_active == 1")
        groups = prom.api("rules")["data"]["groups"]
        loaded = {r["name"]: r["health"] for g in groups for r in g["rules"]}
        expected = {r["alert"] for g in yaml.safe_load(ALERTS.read_text())["groups"] for r in g["rules"]}
        assert set(loaded) == expected
        time.sleep(2)  # a couple of evaluations
        groups = prom.api("rules")["data"]["groups"]
        assert all(r["health"] == "ok" for g in groups for r in g["rules"]), groups
    finally:
        proc.stdin.close()
        proc.wait(timeout=10)
    # the exporter shut its port
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
        raise AssertionError("metrics port still open")
    except OSError:
        pass
