"""The agent worker's /metrics merges its job processes: the real worker (LiveKit's process
pool, `AgentServer.run(unregistered=True)`), two calls as two fake jobs in spawned job
processes, and one scrape of the worker's own /metrics. The callcenter series must merge
into the same bounded series (no per-process `pid` label) and add up exactly.

The worker runs in a fresh interpreter, as `callcenter worker start` does: LiveKit sets
PROMETHEUS_MULTIPROC_DIR and starts its process pool once per process, so a worker started
inside the test process would inherit whatever earlier tests left there.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

from tests.conftest import ROOT, cli_env, free_port

CALLS = {
    "C1001": ["uh hi i was charged twice", "yes please", "thanks bye"],
    "C1003": ["is the service down right now"],
}

WORKER = """
import asyncio, json, sys, time, urllib.request
from pathlib import Path
from livekit import rtc  # noqa: F401 - livekit.protocol needs the rtc package loaded first
from livekit.agents import JobExecutorType
from livekit.protocol import models
from callcenter.settings import get_settings
from meta.shell.livekit_worker import build_server

async def main(calls, out, tmp):
    settings = get_settings()
    port = settings.metrics_port
    server = build_server(settings, executor=JobExecutorType.PROCESS, port=0, idle_processes=0)
    started = asyncio.Event()
    server.once("worker_started", lambda: started.set())
    runner = asyncio.create_task(server.run(devmode=False, unregistered=True))
    try:
        await asyncio.wait_for(started.wait(), 120)
        reports = []
        for i, (customer, turns) in enumerate(calls.items()):
            path = Path(tmp) / f"report-{i}.json"
            room = models.Room(sid=f"RM_mp{i}", name=f"mp-{i}",
                               metadata=json.dumps({"turns": turns, "customer": customer, "report": str(path)}))
            await server.simulate_job(f"mp-{i}", fake_job=True, room_info=room)
            deadline = time.monotonic() + 120
            while not path.exists():
                assert time.monotonic() < deadline and not runner.done(), "no report from the job"
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.05)
            reports.append(json.loads(path.read_text()))
        # the job processes end their calls on their own schedule: wait until both count
        deadline = time.monotonic() + 30
        while True:
            body = await asyncio.to_thread(
                lambda: urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode())
            ended = sum(float(ln.rsplit(" ", 1)[1]) for ln in body.splitlines()
                        if ln.startswith("callcenter_calls_total{"))
            if ended == len(calls) or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.2)
        Path(out).write_text(json.dumps({"reports": reports, "metrics": body}))
    finally:
        await server.aclose()
        if not runner.done():
            runner.cancel()
        await asyncio.gather(runner, return_exceptions=True)

asyncio.run(main(json.loads(sys.argv[1]), sys.argv[2], sys.argv[3]))
"""


def test_job_processes_merge_into_the_worker_metrics(tmp_path: Path, data_dir: Path) -> None:
    out = tmp_path / "scrape.json"
    env = cli_env(data_dir, CALLCENTER_METRICS_PORT=str(free_port()), CALLCENTER_HOLD_ON_LINE_S="0")
    proc = subprocess.run([sys.executable, "-c", WORKER, json.dumps(CALLS), str(out), str(tmp_path)],
                          env=env, cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stderr[-3000:]
    got = json.loads(out.read_text())
    reports = got["reports"]
    assert all(r["ok"] for r in reports), reports
    samples = [s for fam in text_string_to_metric_families(got["metrics"])
               if fam.name.startswith("callcenter_") for s in fam.samples]

    def value(name: str, **labels: str) -> float:
        return sum(s.value for s in samples if s.name == name and labels.items() <= s.labels.items())

    assert not [s for s in samples if "pid" in s.labels], "a per-process label leaked"
    hops = sum(len(r["hops"]) for r in reports)
    assert value("callcenter_calls_started_total") == 2
    assert value("callcenter_calls_total", outcome="completed") == 2
    assert value("callcenter_calls_active") == 0  # livesum over the job processes: both ended
    assert value("callcenter_turns_total") == sum(len(t) for t in CALLS.values())
    # each forward hop in the reports also returns: the series count both directions
    assert value("callcenter_hops_total") == 2 * hops
    assert value("callcenter_hops_total", from_agent="meta", to_agent="billing") == 1
    assert value("callcenter_hops_total", from_agent="meta", to_agent="technical") == 1
    assert value("callcenter_specialist_results_total", specialist="billing.refund", status="done") == 1
    assert value("callcenter_specialist_results_total", specialist="technical.service_status", status="info") == 1
