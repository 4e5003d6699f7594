"""Concurrent text calls: p95 turn latency, CPU per turn and memory per call as calls grow.

    .venv/bin/python benchmarks/capacity/bench_calls.py [--calls 25 50 100 150] [--procs 1 2] [--think-s 4] [--seconds 40] [--no-gc-freeze]

Each call is a caller who says something every `think-s` seconds (jittered), cycling
through realistic needs (balance, status, API errors, a clarification, a follow-up), as
LiveKit's thread executor would run them: many calls on one event loop sharing one line.
With `--procs 2` the calls are split over two worker processes (two pods, or one pod per
core), which is how a 2-core machine uses both cores: one event loop holds one core.
Reports per level: turns completed, turn latency p50/p95 (over all processes), CPU
seconds per turn (the processes' own CPU time / turns) and resident memory added per call.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import multiprocessing
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from callcenter.settings import load_settings  # noqa: E402
from callcenter.store import Store  # noqa: E402
from meta.session import build_line, start_call  # noqa: E402

NO_GC_FREEZE = False  # set from --no-gc-freeze
SCRIPT = ["whats my balance", "is the service down right now", "my api calls keep failing", "how come", "my bill", "thanks bye"]
CUSTOMERS = ["C1001", "C1002", "C1003", "C1005"]


def rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def caller(line, i: int, think: float, until: float, latencies: list[float]) -> None:  # noqa: ANN001
    rng = random.Random(i)
    call = await start_call(line, customer_id=CUSTOMERS[i % len(CUSTOMERS)])
    await asyncio.sleep(rng.uniform(0, think))
    turn = 0
    while time.perf_counter() < until:
        text = SCRIPT[turn % len(SCRIPT)]
        if text == "thanks bye":
            await call.close()
            call = await start_call(line, customer_id=CUSTOMERS[(i + turn) % len(CUSTOMERS)])
        else:
            started = time.perf_counter()
            await call.send(text)
            latencies.append(time.perf_counter() - started)
        turn += 1
        await asyncio.sleep(think * rng.uniform(0.7, 1.3))
    await call.close()


async def level(n: int, think: float, seconds: float, data: Path, first: int = 0) -> tuple[list[float], float, float]:
    """`n` calls in this process; returns (turn latencies, CPU seconds, RSS MB added)."""
    settings = load_settings(data_dir=data, hold_on_line_s=0)
    store = Store(data / f"cap-{first}-{n}.db")
    line = build_line(settings, store=store)
    gc.collect()
    if not NO_GC_FREEZE:
        gc.freeze()  # as the worker's prewarm does (meta/shell/livekit_worker.py)
    before, cpu0 = rss_mb(), time.process_time()
    latencies: list[float] = []
    until = time.perf_counter() + seconds
    await asyncio.gather(*(caller(line, first + i, think, until, latencies) for i in range(n)))
    cpu, after = time.process_time() - cpu0, rss_mb()
    store.close()
    return latencies, cpu, after - before


def _in_process(args: tuple[int, float, float, str, int, bool]) -> tuple[list[float], float, float]:
    global NO_GC_FREEZE
    n, think, seconds, data, first, NO_GC_FREEZE = args
    logging.basicConfig(level=logging.CRITICAL)
    return asyncio.run(level(n, think, seconds, Path(data), first))


def spread(n: int, procs: int, think: float, seconds: float, data: Path) -> tuple[int, float, float, float, float]:
    """`n` calls over `procs` processes at once: (turns, p50 ms, p95 ms, CPU ms per turn, RSS MB per call)."""
    shares = [n // procs + (1 if k < n % procs else 0) for k in range(procs)]
    jobs = [(share, think, seconds, str(data), sum(shares[:k]), NO_GC_FREEZE) for k, share in enumerate(shares)]
    with multiprocessing.get_context("spawn").Pool(procs) as pool:
        results = pool.map(_in_process, jobs)
    lat = sorted(x for r in results for x in r[0])
    cpu = sum(r[1] for r in results)
    p50 = statistics.median(lat) * 1000
    p95 = lat[int(0.95 * (len(lat) - 1))] * 1000
    return len(lat), p50, p95, cpu / len(lat) * 1000, sum(r[2] for r in results) / n


async def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--calls", type=int, nargs="+", default=[25, 50, 100, 150])
    p.add_argument("--think-s", type=float, default=4.0)
    p.add_argument("--seconds", type=float, default=40.0)
    p.add_argument("--procs", type=int, nargs="+", default=[1], help="worker processes the calls are split over")
    p.add_argument("--no-gc-freeze", action="store_true", help="leave the line in the collector's reach (before the worker froze it)")
    args = p.parse_args()
    global NO_GC_FREEZE
    NO_GC_FREEZE = args.no_gc_freeze
    logging.basicConfig(level=logging.CRITICAL)
    data = Path(tempfile.mkdtemp(prefix="capacity-"))
    build_line(load_settings(data_dir=data), store=Store(data / "warm.db"))  # train the router once
    print(f"load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; a caller speaks every ~{args.think_s:.0f} s")
    print("| processes | concurrent calls | turns | turn p50 | turn p95 | CPU per turn | RSS added per call |")
    print("|---|---|---|---|---|---|---|")
    for procs in args.procs:
        for n in args.calls:
            turns, p50, p95, cpu_ms, per_call = spread(n, procs, args.think_s, args.seconds, data)
            print(f"| {procs} | {n} | {turns} | {p50:.0f} ms | {p95:.0f} ms | {cpu_ms:.1f} ms | {per_call:.2f} MB |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
