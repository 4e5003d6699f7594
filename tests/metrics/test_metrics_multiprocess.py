"""The agent worker's /metrics merges its job processes: the real worker (LiveKit's process
pool, `AgentServer.run(unregistered=True)`), two calls as two fake jobs in spawned job
processes, and one scrape of the worker's own /metrics. The callcenter series must merge
into the same bounded series (no per-process `pid` label) and add up exactly."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.request
from pathlib import Path

from livekit import rtc  # noqa: F401 - livekit.protocol needs the rtc package loaded first
from livekit.agents import JobExecutorType
from livekit.protocol import models
from prometheus_client.parser import text_string_to_metric_families

from callcenter.settings import load_settings
from meta.worker import build_server
from tests.conftest import free_port

CALLS = {
    "C1001": ["uh hi i was charged twice", "thanks bye"],
    "C1003": ["is the service down right now"],
}


async def _wait_file(path: Path, runner: asyncio.Task, timeout: float = 120) -> dict:
    deadline = time.monotonic() + timeout
    while not path.exists():
        if runner.done():
            runner.result()
        assert time.monotonic() < deadline, f"no report from the job ({path.name})"
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.05)  # written in one call; let it close
    return json.loads(path.read_text())


async def test_job_processes_merge_into_the_worker_metrics(tmp_path: Path, data_dir: Path) -> None:
    port = free_port()
    settings = load_settings(data_dir=data_dir, hold_on_line_s=0, metrics_port=port)
    server = build_server(settings, executor=JobExecutorType.PROCESS, port=0, idle_processes=0)
    started = asyncio.Event()
    server.once("worker_started", lambda: started.set())
    runner = asyncio.create_task(server.run(devmode=False, unregistered=True))
    try:
        await asyncio.wait_for(started.wait(), 120)
        reports = []
        for i, (customer, turns) in enumerate(CALLS.items()):
            path = tmp_path / f"report-{i}.json"
            script = {"turns": turns, "customer": customer, "report": str(path)}
            room = models.Room(sid=f"RM_mp{i}", name=f"mp-{i}", metadata=json.dumps(script))
            await server.simulate_job(f"mp-{i}", fake_job=True, room_info=room)
            reports.append(await _wait_file(path, runner))
        assert all(r["ok"] for r in reports), reports

        def scrape() -> str:
            return urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()

        # the job processes end their calls on their own schedule: wait for both to be counted
        deadline = time.monotonic() + 30
        while True:
            body = await asyncio.to_thread(scrape)
            samples = [s for fam in text_string_to_metric_families(body)
                       if fam.name.startswith("callcenter_") for s in fam.samples]

            def value(name: str, samples=samples, **labels: str) -> float:
                return sum(s.value for s in samples if s.name == name and labels.items() <= s.labels.items())

            if value("callcenter_calls_total") == 2 or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.2)
    finally:
        await server.aclose()
        if not runner.done():
            runner.cancel()
        await asyncio.gather(runner, return_exceptions=True)

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
