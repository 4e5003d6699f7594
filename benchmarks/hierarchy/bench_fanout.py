"""A three-need read-only turn, sequential tasks vs parallel lookups, with backend latency.

    .venv/bin/python benchmarks/hierarchy/bench_fanout.py [--turns 20] [--latency-ms 0 100]

Every store read the three lookups make is delayed by the given latency (a remote billing,
status or usage system); the turn is timed from the caller's words to the spoken answer.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from callcenter.settings import load_settings  # noqa: E402
from callcenter.store import Store  # noqa: E402
from meta.session import build_line, start_call  # noqa: E402

TURN = "whats my balance and is the service down and also why are my api calls failing"
# The store's own read, and the queries the domains' embedded systems (billing's ledger,
# technical's status board) run through it: one delay per query, as a remote system's call.
READS = ("get_customer", "fetch_one", "fetch_all", "execute")


class RemoteStore(Store):
    latency = 0.0

    def __getattribute__(self, name: str):  # noqa: ANN204
        attr = super().__getattribute__(name)
        if name in READS and type(self).latency:
            def slow(*a, **k):
                time.sleep(type(self).latency)
                return attr(*a, **k)
            return slow
        return attr


async def run(parallel: bool, latency: float, turns: int, data: Path) -> list[float]:
    RemoteStore.latency = 0.0
    settings = load_settings(data_dir=data, parallel_lookups=parallel)
    store = RemoteStore(data / f"{parallel}-{latency}.db")
    line = build_line(settings, store=store)
    out = []
    for _ in range(turns):
        call = await start_call(line, customer_id="C1001")
        RemoteStore.latency = latency
        started = time.perf_counter()
        turn = await call.send(TURN)
        out.append(time.perf_counter() - started)
        RemoteStore.latency = 0.0
        assert len(turn.results) == 3, turn.replies
        await call.close()
    return out


async def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--turns", type=int, default=20)
    p.add_argument("--latency-ms", type=float, nargs="+", default=[0.0, 100.0])
    args = p.parse_args()
    logging.basicConfig(level=logging.CRITICAL)
    data = Path(tempfile.mkdtemp(prefix="fanout-"))
    print("| backend latency per read | sequential tasks p50 / p95 | parallel lookups p50 / p95 |")
    print("|---|---|---|")
    for ms in args.latency_ms:
        row = []
        for parallel in (False, True):
            t = sorted(await run(parallel, ms / 1000, args.turns, data))
            row.append(f"{statistics.median(t) * 1000:.0f} / {t[int(0.95 * (len(t) - 1))] * 1000:.0f} ms")
        print(f"| {ms:.0f} ms | {row[0]} | {row[1]} |")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
