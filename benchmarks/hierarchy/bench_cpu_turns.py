"""CPU milliseconds per turn, by turn type, in this checkout: median and p95 over N fresh calls.

    .venv/bin/python benchmarks/hierarchy/bench_cpu_turns.py [N] [label]

CPU time (`time.process_time`), not wall time, so two checkouts can be compared on a
shared, loaded machine: run them interleaved (old, new, old, new) and compare medians.
Only the public `build_line` / `start_call` / `send` API is used, so the same file runs on
older commits too (copy it there).
"""

from __future__ import annotations

import asyncio
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path

from callcenter.settings import load_settings
from callcenter.store import Store
from meta.session import build_line, start_call

TURNS = {
    "level_1": "hello",  # the meta-supervisor answers
    "level_2": "my bill",  # billing asks balance or invoices
    "level_3": "what's my balance",  # meta -> billing -> balance -> back
    "multi": "my api calls fail with 429 errors, what's my balance and is the service down",
}


async def main(n: int, label: str) -> None:
    data = Path(tempfile.mkdtemp(prefix="cpu-turns-"))
    line = build_line(load_settings(data_dir=data, hold_on_line_s=0), store=Store(data / "s.sqlite3"))
    out: dict[str, tuple[float, float]] = {}
    for name, text in TURNS.items():
        cpu: list[float] = []
        for _ in range(n):
            call = await start_call(line, customer_id="C1001")
            started = time.process_time()
            await call.send(text)
            cpu.append((time.process_time() - started) * 1000)
            await call.close()
        cpu.sort()
        out[name] = (round(statistics.median(cpu), 2), round(cpu[max(0, int(len(cpu) * 0.95) - 1)], 2))
    print(label, out)


if __name__ == "__main__":
    logging.disable(logging.WARNING)
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 100, sys.argv[2] if len(sys.argv) > 2 else ""))
