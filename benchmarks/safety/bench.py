"""The generated adversarial suite (issues 10 and 24): >= 1,000 calls, then the store invariants.

    .venv/bin/python benchmarks/safety/bench.py [--calls 1000] [--seed 10] [--batch 100]
        [--concurrent-rounds 30] [--processes 4] [--database-url postgresql+psycopg://...]

Two parts. The concurrent part first (`race.py`): several processes, one store (a
SQLite file, or the PostgreSQL of `--database-url`), callers of one customer acting at the
same moment. Then the sequential part: calls in batches, each on a fresh demo store with one
account closed (so duplicates, limits, lockouts and closure are exercised again and again),
including cards, ZIPs and birth dates in every format (`formats`). The whole line is the
embedded one, durable work in the outbox. Prints the counts and every violated invariant;
exits 1 if any invariant was violated.
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
    said: list[str] = []
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="cc-safety-") as d:
        settings = load_settings(data_dir=Path(d) / "data", hold_on_line_s=0)
        for start in range(0, len(scripts), batch):
            store = Store(Path(d) / f"store-{start}.sqlite3")
            line = build_line(settings, store=store)
            adv.close_for_batch(store, line.ports)  # one closed account in every batch
            checker.secrets = []
            await adv.run_calls(line, scripts[start:start + batch], checker)
            checker.money(store)
            checker.data(store, {}, checker.secrets)
            checker.caps(store)
            checker.lockouts(store)
            checker.closure(store)
            said += checker.secrets
            effects["refunds paid"] += len(Ledger(store).list_refunds())
            effects["durable requests filed"] += sum(1 for w in store.list_work() if w.kind != "escalation")
            effects["contact changes / unlocks awaiting a call back"] += len(store.list_pending_changes())
            effects["accounts locked at the caller's confirmed request"] += sum(
                1 for c in adv.CUSTOMERS for a in store.audit_for(c) if a.action == "lock")
            attempts = store.verification_attempts()
            effects["verification attempts recorded"] += len(attempts)
            effects["verification attempts refused (lockout)"] += sum(1 for a in attempts if a[3] == "locked_out")
            store.close()
    effects.update(checker.told)
    metrics_text = generate_latest(REGISTRY).decode()
    logs = "\n".join(trap.lines)
    extra = {"the metrics": adv.metric_labels(metrics_text), "the logs": logs}
    for where, text in extra.items():
        if adv.has_card_number(text):
            checker.flag(f"card number in {where}", where)
        for secret in said:
            if adv.said_in(secret, text):
                checker.flag(f"ZIP, birth date or card said in a turn found in {where}", secret)
    if "Traceback" in logs:
        checker.flag("traceback in the logs", "Traceback")
    return {
        "calls": checker.calls, "turns": checker.turns, "seed": seed, "by_kind": dict(checker.kinds),
        "effects": dict(effects), "violations": sum(checker.violations.values()), "by_invariant": dict(checker.violations),
        "examples": checker.examples, "seconds": round(time.perf_counter() - t0, 1),
    }


def concurrent_part(rounds: int, processes: int, seed: int, database_url: str | None) -> dict:
    spec = importlib.util.spec_from_file_location("safety_race", HERE / "race.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # the processes unpickle its dataclasses by module name
    spec.loader.exec_module(mod)
    checker = _adversary().Checker()
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="cc-safety-race-") as d:
        where = database_url or str(Path(d) / "shared.sqlite3")
        effects = mod.run(where, Path(d) / "data", rounds=rounds, processes=processes, seed=seed, checker=checker)
    return {"store": "postgresql" if database_url else "sqlite", **effects, "violations": sum(checker.violations.values()),
            "by_invariant": dict(checker.violations), "examples": checker.examples,
            "seconds": round(time.perf_counter() - t0, 1)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=1000, help="calls of the sequential part")
    ap.add_argument("--seed", type=int, default=10)
    ap.add_argument("--batch", type=int, default=100)
    ap.add_argument("--concurrent-rounds", type=int, default=30, help="rounds of the concurrent part (0: skip it)")
    ap.add_argument("--processes", type=int, default=4, help="line processes of the concurrent part")
    ap.add_argument("--database-url", default=None, help="the concurrent part on this PostgreSQL instead of a SQLite file")
    args = ap.parse_args()
    # First: it forks its processes before this one builds any line.
    race = concurrent_part(args.concurrent_rounds, args.processes, args.seed, args.database_url) if args.concurrent_rounds else None
    out = asyncio.run(run(args.calls, args.seed, args.batch))
    if race is not None:
        out["concurrent"] = race
        out["calls"] += race["calls"]
        out["violations"] += race["violations"]
    print(json.dumps(out, indent=2))
    return 1 if out["violations"] else 0


if __name__ == "__main__":
    sys.exit(main())
