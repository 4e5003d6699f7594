"""Memory and CPU per concurrent call in LiveKit's own job executors (process and thread).

    .venv/bin/python benchmarks/capacity/bench_executor.py [--executor process thread] [--calls 1 4 8] [--turns 24]

Starts the real worker (`meta.shell.livekit_worker.build_server`) unregistered, as its self-check does,
and runs N scripted text calls at once through LiveKit's `simulate_job`. Each job gets
the worker's prewarm step (`build_line`: store, router, embedded LLM; speech off), then
a read-only call of `--turns` caller turns. The worker's whole process tree is sampled
every 50 ms: PSS (proportional set size: pages shared between job processes, such as
the forkserver's preloaded modules, count once) and CPU time.

Reports per executor and N: the tree's PSS before any job, its peak while the N calls
run, the PSS added per concurrent call, and CPU seconds per call (prewarm included).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil  # LiveKit's own dependency

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from livekit.agents import JobExecutorType  # noqa: E402
from livekit.protocol import models  # noqa: E402

from callcenter.settings import load_settings  # noqa: E402
from callcenter.store import Store  # noqa: E402
from meta.session import build_line  # noqa: E402
from meta.shell.livekit_worker import SELFCHECK_ROOM, build_server  # noqa: E402

# Read-only needs (the same database serves every level): balance, status, errors, bill.
TURNS = ["whats my balance", "is the service down right now", "my api calls keep failing", "how come", "my bill"]


HEADER = ("| executor | concurrent calls | calls ok | tree PSS before | peak PSS | PSS added per call | CPU per call (prewarm + turns) |\n"
          "|---|---|---|---|---|---|---|")


class Tree:
    """This process and its descendants: PSS now, and CPU seconds of every process ever seen."""

    def __init__(self) -> None:
        self.root = psutil.Process()
        self.cpu: dict[int, float] = {}

    def sample(self) -> float:
        pss = 0.0
        for p in [self.root, *self.root.children(recursive=True)]:
            try:
                pss += p.memory_full_info().pss
                t = p.cpu_times()
                self.cpu[p.pid] = t.user + t.system + t.children_user + t.children_system
            except (psutil.NoSuchProcess, psutil.AccessDenied):
                continue
        return pss / 2**20

    def cpu_s(self) -> float:
        return sum(self.cpu.values())


async def level(executor: JobExecutorType, n: int, turns: int, data: Path) -> dict[str, float]:
    settings = load_settings(data_dir=data, hold_on_line_s=0, stt_provider="none", tts_provider="none")
    server = build_server(settings, executor=executor, port=0, metrics=False, idle_processes=0)
    started = asyncio.Event()
    server.once("worker_started", lambda: started.set())
    runner = asyncio.create_task(server.run(devmode=False, unregistered=True))
    tree = Tree()
    try:
        await asyncio.wait_for(started.wait(), 120)
        # One call first, so the baseline already holds what the first call imports once per
        # process (the thread executor's worker process keeps it; a job process never is reused).
        await _run_jobs(server, runner, [data / f"warm-{executor.value}-{n}.json"], 1)
        base, cpu0 = tree.sample(), tree.cpu_s()
        reports = [data / f"job-{executor.value}-{n}-{i}.json" for i in range(n)]
        peak, seconds = await _run_jobs(server, runner, reports, turns, tree)
        tree.sample()
        done = [json.loads(p.read_text()) for p in reports]
        ok = sum(1 for d in done if d["ok"])
        return {"base": base, "peak": max(base, peak), "per_call": (max(base, peak) - base) / n,
                "cpu_per_call": (tree.cpu_s() - cpu0) / n, "ok": ok, "seconds": seconds, "turns": turns}
    finally:
        await server.aclose()
        if not runner.done():
            runner.cancel()
        await asyncio.gather(runner, return_exceptions=True)


async def _run_jobs(server, runner: asyncio.Task, reports: list[Path], turns: int, tree: Tree | None = None) -> tuple[float, float]:  # noqa: ANN001
    """Start one fake job per report path at once; wait for every report. Returns (peak PSS, seconds)."""
    for i, path in enumerate(reports):
            script = {"turns": [TURNS[(i + k) % len(TURNS)] for k in range(turns)], "customer": ["C1001", "C1002", "C1003", "C1005"][i % 4], "report": str(path)}
            room = models.Room(sid=f"RM_{path.stem}", name=f"{SELFCHECK_ROOM}-{path.stem}", metadata=json.dumps(script))
            await server.simulate_job(f"{SELFCHECK_ROOM}-{path.stem}", fake_job=True, room_info=room)
    peak, t0 = 0.0, time.perf_counter()
    while not all(p.exists() for p in reports):
        if runner.done():
            runner.result()
        if time.perf_counter() - t0 > 600:
            raise TimeoutError("calls did not finish in 600 s")
        if tree is not None:
            peak = max(peak, tree.sample())
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.2)  # the job writes its report, then closes its call
    return peak, time.perf_counter() - t0


async def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--executor", nargs="+", choices=["process", "thread"], default=["process", "thread"])
    p.add_argument("--calls", type=int, nargs="+", default=[1, 4, 8])
    p.add_argument("--turns", type=int, default=24)
    p.add_argument("--no-header", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    logging.basicConfig(level=logging.CRITICAL)
    if len(args.executor) > 1 or len(args.calls) > 1:  # each level in a fresh process: no leftovers between them
        print(HEADER)
        for name in args.executor:
            for n in args.calls:
                subprocess.run([sys.executable, __file__, "--executor", name, "--calls", str(n), "--turns", str(args.turns), "--no-header"], check=True)
        return 0
    if not args.no_header:
        print(HEADER)
    data = Path(tempfile.mkdtemp(prefix="capacity-exec-"))
    warm = Store(data / "callcenter.sqlite3")
    build_line(load_settings(data_dir=data), store=warm)  # train the router once; jobs load the cache
    warm.close()
    for name in args.executor:
        for n in args.calls:
            r = await level(JobExecutorType(name), n, args.turns, data)
            print(f"| {name} | {n} | {r['ok']}/{n} | {r['base']:.0f} MB | {r['peak']:.0f} MB | {r['per_call']:.1f} MB | {r['cpu_per_call']:.2f} s |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
