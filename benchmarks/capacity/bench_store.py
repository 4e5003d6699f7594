"""The refund and approval path of the store on SQLite vs PostgreSQL, in the same run.

    .venv/bin/python benchmarks/capacity/bench_store.py [--ops 300] [--threads 1 8 32] [--postgres-url URL]

Without --postgres-url a throwaway PostgreSQL cluster is started from Debian's package
(as tests/store does: initdb in a temp dir, 127.0.0.1, fsync off: the numbers are the
SQL path and round trips, not the disk). For each backend and
thread count (threads share one Store, as a line process's calls do):
  refund    record_refund on its own charge: charge row lock, idempotency check, sum, insert
  same      record_refund by every thread on ONE charge (one is paid, the rest refused): contention
  decide    an operator's decision as the worker writes it: apply_once with the effect,
            audit line, notification and outcome row in one transaction
  policy    the refund policy's reads on a turn: pending approvals + refunded since
Reports operations/s and latency p50/p95 per operation.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "store"))

from callcenter.store import DatabaseTarget, Store  # noqa: E402
from callcenter.store import durable as d  # noqa: E402


def _charges(store: Store, prefix: str, n: int) -> list[str]:
    ids = [f"CH-{prefix}-{i}" for i in range(n)]
    with store.transaction() as conn:
        for cid in ids:
            conn.execute("INSERT INTO charges VALUES (?, 'C1003', 1000, 'bench', '2026-01-01T00:00:00+00:00', NULL)", (cid,))
    return ids


def _run(threads: int, ops: int, op: Callable[[int], None]) -> tuple[float, list[float]]:
    latencies: list[float] = []
    lock = threading.Lock()
    per = max(1, ops // threads)

    def work(t: int) -> None:
        mine = []
        for i in range(per):
            start = time.perf_counter()
            op(t * per + i)
            mine.append(time.perf_counter() - start)
        with lock:
            latencies.extend(mine)

    workers = [threading.Thread(target=work, args=(t,)) for t in range(threads)]
    start = time.perf_counter()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return time.perf_counter() - start, latencies


def _p(lat: list[float], q: float) -> float:
    return statistics.quantiles(lat, n=100)[int(q) - 1] * 1000 if len(lat) >= 2 else lat[0] * 1000


def bench(name: str, target: Path | DatabaseTarget, ops: int, threads: list[int]) -> list[str]:
    store = Store(target)
    rows = []
    for t in threads:
        charges = _charges(store, f"{t}", ops)
        tag = f"{name}-{t}"

        def refund(i: int, charges: list[str] = charges, tag: str = tag) -> None:
            store.record_refund(charge_id=charges[i], amount_cents=1000, reason="bench", idempotency_key=f"{tag}-{i}")

        [one] = _charges(store, f"same-{t}", 1)

        def same(i: int, one: str = one, tag: str = tag) -> None:
            try:
                store.record_refund(charge_id=one, amount_cents=1000, reason="bench", idempotency_key=f"{tag}-same-{i}")
            except ValueError:
                pass  # already refunded: the expected answer for all but one

        def decide(i: int, tag: str = tag) -> None:
            key = f"{tag}-req-{i}"
            d.apply_once(store, key=f"{key}:decided", request_id=key, kind="refund", customer_id="C1003",
                         state="completed", decided_by="maria", effect=d.ticket_status_effect("T-NONE", "resolved"),
                         audit=d.Audit(key, "approved", "maria", "bench", "manager", "C1003"),
                         notice=d.Notice("C1003", "approved", f"{key}:decided"))

        def policy(i: int) -> None:
            store.pending_work("C1003", "refund")
            store.refunded_since("C1003", "2026-01-01T00:00:00+00:00")

        for label, op in (("refund", refund), ("same", same), ("decide", decide), ("policy", policy)):
            wall, lat = _run(t, ops, op)
            rows.append(f"| {name} | {t} | {label} | {len(lat) / wall:,.0f} | {_p(lat, 50):.2f} ms | {_p(lat, 95):.2f} ms |")
        paid = [r for r in store.list_refunds("C1003") if r.charge_id == one]
        assert len(paid) == 1, f"{name}: {len(paid)} refunds of one charge"  # exactly once, also under load
    store.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ops", type=int, default=300)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 8, 32])
    parser.add_argument("--postgres-url", default=None)
    args = parser.parse_args()
    rows = ["| backend | threads | path | ops/s | p50 | p95 |", "|---|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as tmp:
        rows += bench("sqlite", Path(tmp) / "bench.sqlite3", args.ops, args.threads)
        pool = max(args.threads)
        if args.postgres_url:
            rows += bench("postgresql", DatabaseTarget(args.postgres_url, Path(tmp), pool_size=pool), args.ops, args.threads)
        else:
            import pg

            with pg.running() as server:
                url = server.new_database()
                rows += bench("postgresql", DatabaseTarget(url, Path(tmp), pool_size=pool), args.ops, args.threads)
    print("\n".join(rows))


if __name__ == "__main__":
    main()
