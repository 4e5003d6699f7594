"""A real Prometheus server (Debian's) on 127.0.0.1 scrapes our processes."""

from __future__ import annotations

import json
import math
import signal
import subprocess
import sys
import textwrap
import time
import urllib.request
from pathlib import Path

import yaml

from tests.conftest import cli_env, free_port

ALERTS = Path(__file__).resolve().parents[2] / "deploy/helm/callcenter/files/alerts.yaml"
RECORDING_RULES = ALERTS.with_name("recording_rules.yaml")


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
        prom = prometheus_factory({"callcenter-agent-worker": [f"127.0.0.1:{port}"]})
        result = prom.wait_for('callcenter_hops_total{job="callcenter-agent-worker",to_agent="billing"}')
        assert float(result[0]["value"][1]) == 1.0
        assert prom.wait_for('up{job="callcenter-agent-worker"} == 1')
        assert prom.wait_for("callcenter_calls_active == 1")
        groups = prom.api("rules")["data"]["groups"]
        loaded = {r["name"]: r["health"] for g in groups for r in g["rules"]}
        expected = {r.get("alert") or r["record"] for path in (ALERTS, RECORDING_RULES)
                    for g in yaml.safe_load(path.read_text())["groups"] for r in g["rules"]}
        assert set(loaded) == expected
        # every rule evaluated at least once (Prometheus reports year 1 before the first)
        groups = _wait(lambda: _evaluated(prom), "every alert rule evaluated")
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


# --- the whole line, scraped for real ------------------------------------------------------
ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent / "callcenter"
TURNS = ["what is my balance?",
         "I was charged twice and also the API keeps returning 500 errors",
         "yes",  # the refund is read back; the caller's yes files it
         "what's the weather in Paris tomorrow?",
         "hmm"]
# Round two repeats every kind of turn except the refund, already requested by then.
TURNS_AGAIN = ["what is my balance and also the API keeps returning 500 errors",
               "the API keeps returning 500 errors",
               "what's the weather in Paris tomorrow?",
               "hmm"]


def _env(data_dir: Path, **extra: str) -> dict[str, str]:
    return cli_env(data_dir, CALLCENTER_LOG_LEVEL="WARNING", **extra)


def _evaluated(prom) -> list[dict] | None:  # noqa: ANN001
    groups = prom.api("rules")["data"]["groups"]
    done = all(not r["lastEvaluation"].startswith("0001") for g in groups for r in g["rules"])
    return groups if done else None


def _scrapes(prom) -> int:  # noqa: ANN001
    """Scrapes so far of the target scraped least (each target is scraped every second)."""
    res = prom.query('min(count_over_time(up{job=~"callcenter.*"}[30m]))')["data"]["result"]
    return int(float(res[0]["value"][1])) if res else 0


def _more_scrapes(prom, n: int = 2) -> None:  # noqa: ANN001
    """Wait until every target was scraped ``n`` more times: a condition, not a sleep."""
    start = _scrapes(prom)
    _wait(lambda: _scrapes(prom) >= start + n, f"{n} more scrapes of every target")


def _wait(pred, what: str, timeout: float = 30.0):  # noqa: ANN001, ANN202
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = pred()
        if value:
            return value
        time.sleep(0.2)
    raise TimeoutError(what)


def _healthy(port: int) -> bool:
    try:
        return urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=1).status == 200
    except OSError:
        return False


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        if proc.stdin and not proc.stdin.closed:
            proc.stdin.close()
        else:
            proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_prometheus_scrapes_a_running_call_and_every_panel_has_data(
        prometheus_factory, dashboard_builder, tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    procs: list[subprocess.Popen] = []

    def start(args: list[str], env: dict[str, str], **kw) -> subprocess.Popen:  # noqa: ANN003
        log = (tmp_path / f"proc{len(procs)}.log").open("w")
        proc = subprocess.Popen(args, env=env, stderr=log, cwd=ROOT, text=True, **kw)
        procs.append(proc)
        return proc

    try:
        # Temporal dev server, then a standalone worker with both metrics endpoints.
        start([str(BIN), "temporal-server"], _env(data), stdout=subprocess.DEVNULL)
        info = _wait(lambda: (data / "temporal.json").exists() and json.loads((data / "temporal.json").read_text()),
                     "temporal dev server")
        address = info["address"]
        worker_port, sdk_port, call_port, line_port = (free_port() for _ in range(4))
        start([str(BIN), "temporal-worker"],
              _env(data, CALLCENTER_WORKER_METRICS_PORT=str(worker_port),
                   CALLCENTER_TEMPORAL_SDK_METRICS_PORT=str(sdk_port), CALLCENTER_TEMPORAL_ADDRESS=address),
              stdout=subprocess.DEVNULL)
        # A line process that serves whole calls (completed-call metrics), like the agent worker.
        line = start([sys.executable, str(Path(__file__).with_name("line_process.py")), str(line_port)],
                     _env(data, CALLCENTER_TEMPORAL_ADDRESS=address, CALLCENTER_HOLD_ON_LINE_S="0"),
                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        # The call under test: refunds need approval, and the caller does not hold.
        call = start([str(BIN), "call", "--json", "--customer", "C1001", "--metrics-port", str(call_port)],
                     _env(data, CALLCENTER_TEMPORAL_ADDRESS=address, CALLCENTER_AUTO_REFUND_LIMIT="0",
                          CALLCENTER_HOLD_ON_LINE_S="0"),
                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert json.loads(call.stdout.readline())["turn"] == 0  # greeting: the call is up
        assert json.loads(line.stdout.readline())["ready"]
        for port in (worker_port, sdk_port, call_port, line_port):
            _wait(lambda p=port: _healthy(p), f"metrics on {port}", timeout=60)

        prom = prometheus_factory({
            "callcenter-agent-worker": [f"127.0.0.1:{call_port}", f"127.0.0.1:{line_port}"],
            # one job for both worker endpoints, as the chart's ServiceMonitor names them
            "callcenter-temporal-worker": [f"127.0.0.1:{worker_port}", f"127.0.0.1:{sdk_port}"],
        })
        prom.wait_for('count(up{job=~"callcenter.*"} == 1) == 4', timeout=30)
        _more_scrapes(prom)  # a couple of scrapes before anything happens, so rates have a base

        # Two rounds of traffic with scrapes in between: Prometheus only sees an increase
        # on series it scraped before (a series born at 1 has a rate of 0), as in production.
        def talk(texts: list[str]) -> tuple[int, list[str]]:
            hops, requests = 0, []
            for text in texts:
                call.stdin.write(text + "\n")
                call.stdin.flush()
                turn = json.loads(call.stdout.readline())
                hops += 2 * len(turn["hops"])  # the trail lists hops down; each one returns
                requests += [r["data"]["request_id"] for r in turn["results"] if r["status"] == "needs_approval"]
            return hops, requests

        def whole_call(customer: str, texts: list[str]) -> list[str]:
            line.stdin.write(json.dumps({"customer": customer, "turns": texts}) + "\n")
            line.stdin.flush()
            done = json.loads(line.stdout.readline())
            return [r["data"]["request_id"] for r in done["results"] if r["status"] == "needs_approval"]

        def spoken_call(customer: str, texts: list[str]) -> None:
            # Feeds the voice panels: local TTS -> caller audio -> local STT -> the line.
            line.stdin.write(json.dumps({"customer": customer, "say": texts}) + "\n")
            line.stdin.flush()
            json.loads(line.stdout.readline())

        def approve(request_id: str) -> None:
            # Decisions need an operator account and its token (role and limit come from it).
            env = _env(data, CALLCENTER_TEMPORAL_ADDRESS=address)
            subprocess.run([str(BIN), "operators", "add", "op1", "--role", "supervisor", "--password-stdin"],
                           env=env, input="a long enough password\n", capture_output=True, text=True, timeout=60)
            token = subprocess.run([str(BIN), "operators", "token", "op1"], env=env, capture_output=True,
                                   text=True, timeout=60).stdout.strip()
            out = subprocess.run([str(BIN), "approvals", "approve", request_id, "--reason", "double charge confirmed",
                                  "--token", token], env=env, capture_output=True, text=True, timeout=60)
            assert out.returncode == 0, out.stderr

        inst = f'instance="127.0.0.1:{call_port}"'
        hops1, requests = talk(TURNS)
        assert len(requests) == 1, "Ada's duplicate charge needs approval with the limit at $0"
        whole_call("C1003", [t for t in TURNS if t != "yes"])  # Alan's service credit: asked, never confirmed
        spoken_call("C1005", ["What is my balance?", "Is the service down right now?"])
        approve(requests[0])
        prom.wait_value('sum(callcenter_approval_decisions_total{decision="approved",kind="refund"})', 1)
        prom.wait_value(f"sum(callcenter_hops_total{{{inst}}})", hops1)
        _more_scrapes(prom)

        hops2, _ = talk(TURNS_AGAIN)
        requests = whole_call("C1002", TURNS[1:3])
        assert len(requests) == 1, "Grace's duplicate charge is above the auto-refund limit"
        approve(requests[0])

        # Exact values, read back from Prometheus for the running call process.
        prom.wait_value(f"sum(callcenter_hops_total{{{inst}}})", hops1 + hops2)
        prom.wait_value(f"callcenter_turns_total{{{inst}}}", len(TURNS) + len(TURNS_AGAIN))
        prom.wait_value(f"callcenter_calls_active{{{inst}}}", 1)  # still on the line
        prom.wait_value(f"callcenter_calls_started_total{{{inst}}}", 1)
        prom.wait_value('sum(callcenter_approval_decisions_total{decision="approved",kind="refund"})', 2)
        prom.wait_value('sum(callcenter_workflow_outcomes_total{workflow="approval",outcome="completed"})', 2)
        prom.wait_for('sum({__name__=~"temporal_workflow_completed(_total)?"}) >= 2')
        prom.wait_value("sum(callcenter_call_duration_seconds_count)", 3)  # two typed, one spoken
        _more_scrapes(prom, 1)  # one more scrape everywhere

        # Every panel query of the shipped dashboard parses, runs and returns data.
        dash = json.loads((ROOT / "deploy/helm/callcenter/files/dashboard.json").read_text())
        empty, no_numbers = [], []
        for title, ref, expr in dashboard_builder.panel_queries(dash, rate_interval="2m"):
            res = prom.query(expr)
            assert res["status"] == "success", (title, ref, expr, res)
            values = [float(r["value"][1]) for r in res["data"]["result"]]
            if not values:
                empty.append((title, ref, expr))
            elif not any(math.isfinite(v) for v in values):
                no_numbers.append((title, ref, expr, values))
        assert empty == [], "panel queries without data"
        assert no_numbers == [], "panel queries with only NaN/Inf"

        # Healthy line: the shipped alert rules evaluate and none fires.
        firing = prom.query('ALERTS{alertstate="firing"}')["data"]["result"]
        assert firing == []
    finally:
        for proc in reversed(procs):
            _stop(proc)
