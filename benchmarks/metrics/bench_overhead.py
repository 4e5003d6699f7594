"""What recording Prometheus metrics costs per caller turn (budget: at most 2%).

    .venv/bin/python benchmarks/metrics/bench_overhead.py [--rounds 60] [--json]

Runs whole calls through the real hierarchy (meta.session, embedded LLM, no Temporal) in
one process, alternating two modes call by call so machine noise hits both alike:

  on    callcenter.metrics as shipped;
  noop  every recording function of callcenter.metrics replaced by a function that does
        nothing (what the observer would cost if it recorded nothing).

It reports turn latency per mode and two estimates of the overhead:
  * A/B: median turn latency on vs noop (end to end, but noisy on a shared machine);
  * direct: time spent inside the recording functions per turn, measured with a
    perf_counter around each call, divided by the median turn latency (precise; it
    slightly over-counts, since it includes the timer itself).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from callcenter import metrics

RECORDERS = ["hop", "routing_decision", "call_started", "call_ended", "turn", "fallback",
             "clarification", "loop_guard_trip", "specialist_result", "llm_call",
             "approval_pending", "set_approvals_pending", "approval_decision", "workflow_outcome"]

# Side-effect free turns (no refunds), so every call sees the same store and routes:
# one level, a multi-intent turn over two domains, a fast technical turn, oos, unclear.
SCRIPT = ["what is my balance?",
          "what is my balance and also the API keeps returning 500 errors",
          "the API keeps returning 500 errors",
          "what's the weather in Paris tomorrow?",
          "hmm"]


class Recorders:
    """Swap callcenter.metrics' recording functions: shipped, no-op, or timed."""

    def __init__(self) -> None:
        self.real: dict[str, Callable[..., None]] = {n: getattr(metrics, n) for n in RECORDERS}
        self.calls = 0
        self.ns = 0
        self.samples: dict[str, list[int]] = {n: [] for n in RECORDERS}

    def shipped(self) -> None:
        for name, fn in self.real.items():
            setattr(metrics, name, fn)

    def noop(self) -> None:
        def nothing(*_a: Any, **_k: Any) -> None:
            return None

        for name in self.real:
            setattr(metrics, name, nothing)

    def timed(self) -> None:
        def wrap(fn: Callable[..., None], samples: list[int]) -> Callable[..., None]:
            def timed_fn(*a: Any, **k: Any) -> None:
                t0 = time.perf_counter_ns()
                fn(*a, **k)
                dt = time.perf_counter_ns() - t0
                self.ns += dt
                self.calls += 1
                samples.append(dt)
            return timed_fn

        for name, fn in self.real.items():
            setattr(metrics, name, wrap(fn, self.samples[name]))


async def one_call(line: Any, script: list[str]) -> list[float]:
    from meta.session import start_call

    call = await start_call(line, customer_id="C1001")
    out = []
    for text in script:
        t0 = time.perf_counter()
        await call.send(text)
        out.append(time.perf_counter() - t0)
    await call.close("resolved")
    return out


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


async def run(rounds: int, warmup: int) -> dict[str, Any]:
    from callcenter.settings import Settings
    from meta.session import build_line

    line = build_line(Settings(data_dir=Path(tempfile.mkdtemp(prefix="bench-metrics-"))))
    rec = Recorders()
    lat: dict[str, list[float]] = {"on": [], "noop": []}
    for i in range(warmup + rounds):
        # ABBA ordering: neither mode always runs first (caches, GC, CPU boost).
        order = ("on", "noop") if i % 2 == 0 else ("noop", "on")
        for mode in order:
            if mode == "on":
                rec.shipped()
            else:
                rec.noop()
            turns = await one_call(line, SCRIPT)
            if i >= warmup:
                lat[mode] += turns
    rec.timed()
    timed_turns: list[float] = []
    for _ in range(max(10, rounds // 2)):
        timed_turns += await one_call(line, SCRIPT)
    rec.shipped()
    line.store.close()

    med_on, med_off = statistics.median(lat["on"]), statistics.median(lat["noop"])
    per_turn_ns = rec.ns / len(timed_turns)
    return {
        "turns_per_mode": len(lat["on"]),
        "turn_ms": {m: {"p50": statistics.median(v) * 1e3, "mean": statistics.fmean(v) * 1e3,
                        "p95": pct(v, 0.95) * 1e3} for m, v in lat.items()},
        "ab_overhead_pct_p50": (med_on / med_off - 1) * 100,
        "ab_overhead_pct_mean": (statistics.fmean(lat["on"]) / statistics.fmean(lat["noop"]) - 1) * 100,
        "recordings_per_turn": rec.calls / len(timed_turns),
        "recording_us_per_turn": per_turn_ns / 1e3,
        "recording_ns_per_call": rec.ns / max(1, rec.calls),
        "ns_per_call_by_function": {n: {"calls_per_turn": len(v) / len(timed_turns),
                                        "median_ns": statistics.median(v), "mean_ns": statistics.fmean(v)}
                                    for n, v in rec.samples.items() if v},
        "direct_overhead_pct": per_turn_ns / 1e9 / med_off * 100,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=60, help="calls per mode (5 turns each)")
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    import logging

    logging.disable(logging.WARNING)  # LiveKit's deprecation notices, once per call
    res = asyncio.run(run(args.rounds, args.warmup))
    if args.json:
        print(json.dumps(res, indent=2))
        return 0
    t = res["turn_ms"]
    print(f"turns per mode: {res['turns_per_mode']}")
    for mode in ("on", "noop"):
        print(f"  {mode:5s} turn latency p50 {t[mode]['p50']:.2f} ms  mean {t[mode]['mean']:.2f} ms"
              f"  p95 {t[mode]['p95']:.2f} ms")
    print(f"A/B overhead: {res['ab_overhead_pct_p50']:+.2f}% (p50), {res['ab_overhead_pct_mean']:+.2f}% (mean)")
    print(f"direct: {res['recordings_per_turn']:.1f} recordings/turn x {res['recording_ns_per_call']:.0f} ns"
          f" = {res['recording_us_per_turn']:.1f} us/turn = {res['direct_overhead_pct']:.3f}% of a p50 turn")
    for name, f in res["ns_per_call_by_function"].items():
        print(f"    {name:18s} {f['calls_per_turn']:5.2f}/turn  median {f['median_ns']:7.0f} ns"
              f"  mean {f['mean_ns']:7.0f} ns")
    print("budget: <= 2% ->", "OK" if res["direct_overhead_pct"] <= 2 else "OVER")
    return 0


if __name__ == "__main__":
    sys.exit(main())
