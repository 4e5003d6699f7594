"""Exactly-once with writers in many processes (pods), on the same database.

Each process opens its own Store (its own pool), waits at a barrier, then all write at once.
"""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import pytest

from callcenter.store import DatabaseTarget, Store
from callcenter.store import durable as d
from domains.billing.ledger import Ledger

PROCESSES = 4


def _target(where: str, data_dir: str) -> Path | DatabaseTarget:
    return DatabaseTarget(url=where, data_dir=Path(data_dir)) if "://" in where else Path(where)


def _refund(where: str, data_dir: str, key: str, barrier) -> str:  # noqa: ANN001
    store = Store(_target(where, data_dir))
    barrier.wait()
    try:
        _, created = Ledger(store).record_refund(charge_id="CH-1002-D", amount_cents=24900, reason="duplicate",
                                         idempotency_key=key)
        return "paid" if created else "same"
    except ValueError:
        return "refused"
    finally:
        store.close()


def _decide(where: str, data_dir: str, key: str, barrier) -> bool:  # noqa: ANN001
    """A retried approval activity: the refund and its outcome row, by one key."""
    store = Store(_target(where, data_dir))
    barrier.wait()

    def pay(conn) -> str:  # noqa: ANN001
        conn.execute(
            "INSERT INTO refunds (charge_id, customer_id, amount_cents, reason, idempotency_key, created_at)"
            " VALUES ('CH-1001-D', 'C1001', 100, 'approved', ?, 'x')", (f"{key}-{id(conn)}",))
        return "paid"

    _, created = d.apply_once(store, key=key, request_id="R-1", kind="refund", customer_id="C1001",
                              state="completed", effect=pay)
    store.close()
    return created


def _where(target: Path | DatabaseTarget) -> str:
    return target.url if isinstance(target, DatabaseTarget) else str(target)


@pytest.fixture
def pool():  # noqa: ANN201
    ctx = multiprocessing.get_context("fork")
    with ctx.Manager() as manager, ctx.Pool(PROCESSES) as p:
        yield p, manager.Barrier(PROCESSES)


def test_racing_refunds_on_one_charge_pay_once(store: Store, target, tmp_path: Path, pool) -> None:  # noqa: ANN001
    p, barrier = pool
    # Different keys (different calls asking for the same duplicate charge), one charge.
    results = p.starmap(_refund, [(_where(target), str(tmp_path), f"call-{i}", barrier) for i in range(PROCESSES)])
    assert sorted(results) == ["paid"] + ["refused"] * (PROCESSES - 1)
    assert Ledger(store).refunded_cents("CH-1002-D") == 24900


def test_racing_retries_of_one_key_apply_once(store: Store, target, tmp_path: Path, pool) -> None:  # noqa: ANN001
    p, barrier = pool
    created = p.starmap(_decide, [(_where(target), str(tmp_path), "R-1:decided", barrier)] * PROCESSES)
    assert sorted(created) == [False] * (PROCESSES - 1) + [True]
    assert len(Ledger(store).list_refunds("C1001")) == 1
