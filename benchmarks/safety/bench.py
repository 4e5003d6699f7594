"""The generated adversarial suite (issue 10): >= 1,000 calls, then the store invariants.

    .venv/bin/python benchmarks/safety/bench.py [--calls 1000] [--seed 10] [--batch 100]

Calls run in batches, each on a fresh demo store (so duplicates, limits and lockouts are
exercised again and again); the whole line is the embedded one, durable work in the outbox.
Prints the counts and every violated invariant; exits 1 if any invariant was violated.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import logging
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from prometheus_client import REGISTRY, generate_latest

from domains.billing.ledger import Ledger

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))


def _adversary():  # noqa: ANN202
    spec = importlib.util.spec_from_file_location("safety_adversary", HERE / "adversary.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


async def run(calls: int, seed: int, batch: int) -> dict:
    from callcenter.settings import load_settings
    from callcenter.store import Store
    from meta.session import build_line

    adv = _adversary()
    checker = adv.Checker()
    trap = adv.LogTrap()
    logging.getLogger().addHandler(trap)
    logging.getLogger().setLevel(logging.DEBUG)
    logging.getLogger("livekit").setLevel(logging.ERROR)
    scripts = adv.generate(seed, calls)
    effects: Counter[str] = Counter()
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="cc-safety-") as d:
        settings = load_settings(data_dir=Path(d) / "data", hold_on_line_s=0)
        for start in range(0, len(scripts), batch):
            store = Store(Path(d) / f"store-{start}.sqlite3")
            line = build_line(settings, store=store)
            await adv.run_calls(line, scripts[start:start + batch], checker)
            checker.money(store)
            checker.data(store, {})
            effects["refunds paid"] += len(Ledger(store).list_refunds())
            effects["durable requests filed"] += sum(1 for w in store.list_work() if w.kind != "escalation")
            effects["contact changes / unlocks awaiting a call back"] += len(store.list_pending_changes())
            effects["accounts locked at the caller's confirmed request"] += sum(
                1 for c in adv.CUSTOMERS for a in store.audit_for(c) if a.action == "lock")
            attempts = store.verification_attempts()
            effects["verification attempts recorded"] += len(attempts)
            effects["verification attempts refused (lockout)"] += sum(1 for a in attempts if a[3] == "locked_out")
            store.close()
    metrics_text = generate_latest(REGISTRY).decode()
    logs = "\n".join(trap.lines)
    extra = {"the metrics": metrics_text, "the logs": logs}
    for where, text in extra.items():
        if adv.has_card_number(text):
            checker.flag(f"card number in {where}", where)
    if "Traceback" in logs:
        checker.flag("traceback in the logs", "Traceback")
    return {
        "calls": checker.calls, "turns": checker.turns, "seed": seed, "by_kind": dict(checker.kinds),
        "effects": dict(effects), "violations": sum(checker.violations.values()), "by_invariant": dict(checker.violations),
        "examples": checker.examples, "seconds": round(time.perf_counter() - t0, 1),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=10)
    ap.add_argument("--batch", type=int, default=100)
    args = ap.parse_args()
    out = asyncio.run(run(args.calls, args.seed, args.batch))
    print(json.dumps(out, indent=2))
    return 1 if out["violations"] else 0


if __name__ == "__main__":
    sys.exit(main())
