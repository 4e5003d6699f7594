"""What recording Prometheus metrics costs per caller turn (budget: at most 2%).

    .venv/bin/python benchmarks/metrics/bench_overhead.py [--rounds 60] [--json]

Runs whole calls through the real hierarchy (meta.session, embedded LLM, no Temporal) in
one process, alternating two modes call by call so machine noise hits both alike:

  on    callcenter.metrics as shipped;
  noop  every recording function of callcenter.metrics replaced by a function that does
        nothing (what the observer would cost if it recorded nothing).

It reports turn latency per mode and two estimates of the overhead:
  * A/B: each "on" call is paired with the "noop" call run right next to it; the median
    of the paired latency ratios, end to end, with a bootstrap interval that shows how
    far the machine's noise reaches;
  * direct: time spent inside the recording functions per turn, measured with a
    perf_counter around each call, divided by the median turn latency (precise; it
    slightly over-counts, since it includes the timer itself).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
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
# one level, a multi-intent turn over two domains, a fast technical turn, oos, a vague "hmm".
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


async def one_call(line: Any, script: list[str], rec: Recorders | None = None) -> list[float]:
    """Latency of each scripted turn; with ``rec`` also each turn's share spent recording."""
    from meta.session import start_call

    call = await start_call(line, customer_id="C1001")
    out = []
    for text in script:
        ns0 = rec.ns if rec else 0
        t0 = time.perf_counter()
        await call.send(text)
        dt = time.perf_counter() - t0
        out.append((rec.ns - ns0) / 1e9 / dt if rec else dt)
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
    by_pos: dict[str, list[list[float]]] = {m: [[] for _ in SCRIPT] for m in lat}
    call_total: dict[str, list[float]] = {m: [] for m in lat}
    timed_turns: list[float] = []
    share_by_pos: list[list[float]] = [[] for _ in SCRIPT]
    try:
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
                    call_total[mode].append(sum(turns))
                    for pos, t in enumerate(turns):
                        by_pos[mode][pos].append(t)
        rec.timed()
        for _ in range(max(10, rounds // 2)):
            shares = await one_call(line, SCRIPT, rec)
            timed_turns += shares
            for pos, share in enumerate(shares):
                share_by_pos[pos].append(share)
    finally:  # never leave the process with no-op or timed recorders
        rec.shipped()
        line.store.close()

    med_off = statistics.median(lat["noop"])
    by_fn = {n: {"calls_per_turn": len(v) / len(timed_turns), "median_ns": statistics.median(v),
                 "mean_ns": statistics.fmean(v)} for n, v in rec.samples.items() if v}
    typical_ns = sum(f["calls_per_turn"] * f["median_ns"] for f in by_fn.values())
    mean_ns = rec.ns / len(timed_turns)
    ratios = [a / b for a, b in zip(call_total["on"], call_total["noop"], strict=True)]
    ab = (statistics.median(ratios) - 1) * 100
    lo, hi = _bootstrap_ci(ratios)
    return {
        "turns_per_mode": len(lat["on"]),
        "turn_ms": {m: {"p50": statistics.median(v) * 1e3, "mean": statistics.fmean(v) * 1e3,
                        "p95": pct(v, 0.95) * 1e3} for m, v in lat.items()},
        "ab_overhead_pct": ab,
        "ab_overhead_pct_ci95": [lo, hi],
        "recordings_per_turn": rec.calls / len(timed_turns),
        "recording_us_per_turn_typical": typical_ns / 1e3,
        "recording_us_per_turn_mean": mean_ns / 1e3,
        "direct_overhead_pct": typical_ns / 1e9 / med_off * 100,
        "direct_overhead_pct_upper": mean_ns / 1e9 / med_off * 100,
        # per turn type: the median share of that turn's own latency spent recording
        "direct_share_pct_by_turn": {text: statistics.median(v) * 100
                                     for text, v in zip(SCRIPT, share_by_pos, strict=True)},
        "ns_per_call_by_function": by_fn,
    }


def _bootstrap_ci(ratios: list[float], n: int = 1000) -> tuple[float, float]:
    """95% bootstrap interval of the paired A/B overhead in percent: how far noise reaches."""
    rnd = random.Random(0)
    vals = sorted((statistics.median(rnd.choices(ratios, k=len(ratios))) - 1) * 100 for _ in range(n))
    return vals[int(0.025 * n)], vals[int(0.975 * n) - 1]


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
    lo, hi = res["ab_overhead_pct_ci95"]
    print(f"A/B overhead, median of paired calls (on/noop back to back): {res['ab_overhead_pct']:+.2f}%"
          f" (95% bootstrap interval {lo:+.2f}% .. {hi:+.2f}%: machine noise)")
    print(f"direct: {res['recordings_per_turn']:.1f} recordings/turn,"
          f" {res['recording_us_per_turn_typical']:.0f} us/turn typical (medians)"
          f" = {res['direct_overhead_pct']:.2f}% of a p50 turn;"
          f" upper bound (means, incl. timer/GC/thread switches) {res['direct_overhead_pct_upper']:.2f}%")
    for name, f in res["ns_per_call_by_function"].items():
        print(f"    {name:18s} {f['calls_per_turn']:5.2f}/turn  median {f['median_ns']:7.0f} ns"
              f"  mean {f['mean_ns']:7.0f} ns")
    print("share of each turn's own latency spent recording (median):")
    for text, share in res["direct_share_pct_by_turn"].items():
        print(f"    {share:5.2f}%  {text}")
    worst = max(res["direct_share_pct_by_turn"].values())
    print("budget <= 2% per turn:", "OK" if worst <= 2 else "OVER", f"(worst turn type {worst:.2f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
