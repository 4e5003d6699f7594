"""What a Temporal outage costs the conversation: the timings the tests used to assert.

1. Operator-side calls with Temporal unreachable (a closed port): submit an approval, open
   an escalation, read both statuses, list a customer's requests; all answered from the
   outbox and the store.
2. A whole caller turn that needs an approval ("I was charged twice" for C1002, $249) with
   Temporal unreachable and a 5 s hold allowed: the caller must not be held for the hold.

    .venv/bin/python benchmarks/approvals/bench_outage.py --n 50 --turns 10
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from callcenter.settings import load_settings  # noqa: E402
from callcenter.store import Store  # noqa: E402
from meta.actions import durable_actions  # noqa: E402
from meta.session import build_line, start_call  # noqa: E402
from workflows.client import ApprovalRequest, DurableWork, EscalationRequest  # noqa: E402
from workflows.devserver import free_port  # noqa: E402


def summary(xs: list[float]) -> dict[str, float]:
    xs = sorted(xs)
    return {"p50_ms": round(statistics.median(xs) * 1000, 1),
            "p95_ms": round(xs[min(len(xs) - 1, int(0.95 * (len(xs) - 1)))] * 1000, 1),
            "max_ms": round(xs[-1] * 1000, 1)}


async def operator_side(n: int, data: Path) -> dict[str, float]:
    settings = load_settings(data_dir=data, temporal_address=f"127.0.0.1:{free_port()}")
    store = Store(settings.db_path)
    down = DurableWork(settings, store, actions=durable_actions())
    times = []
    for i in range(n):
        rid = f"refund-down-{uuid.uuid4().hex[:8]}"
        t0 = time.perf_counter()
        assert (await down.submit_approval(ApprovalRequest(
            "refund", "C1002", 24900, "charged twice", "duplicate", "billing/refund", rid, record_id="CH-1002-D"))).status == "queued"
        tid = f"T-D{i:05d}"
        assert (await down.open_escalation(EscalationRequest(tid, "C1002", "webhooks stuck"))).status == "queued"
        assert (await down.status(rid)).state == "queued"
        assert (await down.ticket_status(tid)).state == "queued"
        await down.find_for_customer("C1002")
        times.append(time.perf_counter() - t0)
    store.close()
    return summary(times)


async def caller_turns(turns: int, data: Path) -> dict[str, float]:
    times = []
    for i in range(turns):
        d = data / f"turn-{i}"
        settings = load_settings(data_dir=data, temporal_address=f"127.0.0.1:{free_port()}", hold_on_line_s=5)
        store = Store(d / "store.sqlite3")
        line = build_line(settings, store=store)  # the router model is cached in data/models
        call = await start_call(line, customer_id="C1002", durable=DurableWork(settings, store, actions=durable_actions()))
        t0 = time.perf_counter()
        turn = await call.send("I was charged twice")
        times.append(time.perf_counter() - t0)
        assert "recorded" in " ".join(turn.replies), turn.replies
        await call.close()
        store.close()
    return summary(times)


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=50, help="operator-side rounds")
    ap.add_argument("--turns", type=int, default=10, help="caller turns")
    args = ap.parse_args()
    logging.disable(logging.WARNING)  # every call logs the expected outage
    with tempfile.TemporaryDirectory(prefix="cc-outage-") as tmp:
        data = Path(tmp)
        out = {"operator_side_round": await operator_side(args.n, data),
               "caller_turn_needing_approval": await caller_turns(args.turns, data)}
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    asyncio.run(main())
