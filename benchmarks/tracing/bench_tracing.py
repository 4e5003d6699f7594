"""What one trace per call costs: turn latency with tracing off, and on (every span exported).

Run:  .venv/bin/python benchmarks/tracing/bench_tracing.py [--calls 100] [--rounds 3]

Off and on alternate in rounds, in one process on the embedded LLM, so a machine that gets
busier or quieter during the run loads both alike. "On" exports every span through a
SimpleSpanProcessor to an exporter that drops them, so the cost measured is creating,
ending and processing spans (LiveKit's, Temporal's are not in a text call) without network.
Reported, not asserted: the numbers go to benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export import SpanExporter, SpanExportResult

from callcenter import tracing
from callcenter.settings import load_settings
from callcenter.store import Store
from meta.session import Line, build_line, start_call

TURNS = ["um what's my balance", "and is the service down", "ok thanks bye"]


class Dropping(SpanExporter):
    def __init__(self) -> None:
        self.count = 0

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        self.count += len(spans)
        return SpanExportResult.SUCCESS


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


async def calls(line: Line, n: int) -> list[float]:
    samples: list[float] = []
    for _ in range(n):
        call = await start_call(line, customer_id="C1001")
        for text in TURNS:
            t0 = time.perf_counter()
            await call.send(text)
            samples.append(time.perf_counter() - t0)
        await call.close()
    return samples


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=100, help="calls per round and mode")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    with tempfile.TemporaryDirectory() as d:
        settings = load_settings(data_dir=Path(d), hold_on_line_s=0, metrics_port=0)
        line = build_line(settings, store=Store(Path(d) / "s.db"))
        await calls(line, 5)  # warm: router trained, code paths loaded
        off: list[float] = []
        on: list[float] = []
        exported = 0
        for _ in range(args.rounds):
            off += await calls(line, args.calls)
            exporter = Dropping()
            tracing.configure(settings, exporter=exporter, set_global=False)
            on += await calls(line, args.calls)
            exported += exporter.count
            tracing.uninstall()
    row = {
        "turns": len(off),
        "off_p50_ms": round(pct(off, 0.5) * 1000, 2), "off_p95_ms": round(pct(off, 0.95) * 1000, 2),
        "on_p50_ms": round(pct(on, 0.5) * 1000, 2), "on_p95_ms": round(pct(on, 0.95) * 1000, 2),
        "spans_per_call": round(exported / (args.calls * args.rounds), 1),
    }
    print(json.dumps(row))


if __name__ == "__main__":
    asyncio.run(main())
