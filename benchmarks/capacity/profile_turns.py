"""CPU per text turn, and where it goes: cProfile over scripted calls in one process.

    .venv/bin/python benchmarks/capacity/profile_turns.py [--calls 8] [--top 30] [--sort cumulative]

Drives `meta.session.start_call` + `call.send(...)` over bench_calls.py's script, one call
after another (no concurrency: the point is CPU, not latency). Reports process CPU time per
turn (not wall time: the machine may be shared) with and without the profiler, and the
profile's top entries. One warm-up call runs first so imports and first-use caches are not
counted.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import logging
import pstats
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchmarks.capacity.bench_calls import CUSTOMERS, SCRIPT  # noqa: E402
from callcenter.settings import load_settings  # noqa: E402
from callcenter.store import Store  # noqa: E402
from meta.session import Line, build_line, start_call  # noqa: E402


async def calls(line: Line, n: int) -> int:
    """`n` calls through the script, one after another; returns the turns sent."""
    turns = 0
    for i in range(n):
        call = await start_call(line, customer_id=CUSTOMERS[i % len(CUSTOMERS)])
        for text in SCRIPT[:-1]:  # the last line ("thanks bye") is where bench_calls hangs up
            await call.send(text)
            turns += 1
        await call.close()
    return turns


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--calls", type=int, default=8)
    p.add_argument("--top", type=int, default=30)
    p.add_argument("--sort", default="cumulative", help="pstats sort key: cumulative, tottime, ...")
    args = p.parse_args()
    logging.basicConfig(level=logging.CRITICAL)
    data = Path(tempfile.mkdtemp(prefix="profile-"))
    line = build_line(load_settings(data_dir=data, hold_on_line_s=0), store=Store(data / "p.db"))

    asyncio.run(calls(line, 1))  # warm-up: imports, first-use caches
    cpu0 = time.process_time()
    turns = asyncio.run(calls(line, args.calls))
    plain = (time.process_time() - cpu0) / turns * 1000

    prof = cProfile.Profile()
    cpu0 = time.process_time()
    prof.enable()
    turns = asyncio.run(calls(line, args.calls))
    prof.disable()
    profiled = (time.process_time() - cpu0) / turns * 1000

    out = io.StringIO()
    pstats.Stats(prof, stream=out).strip_dirs().sort_stats(args.sort).print_stats(args.top)
    print(out.getvalue())
    print(f"{turns} turns in {args.calls} calls: CPU per turn {plain:.1f} ms (profiled: {profiled:.1f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
