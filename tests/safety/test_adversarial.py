"""A slice of the generated adversarial suite (the 1,000-call run is benchmarks/safety/bench.py).

A different seed from the benchmark's, so this slice is not the run the numbers were read
from; plus proof that the invariant checker does catch each kind of violation.
"""

from __future__ import annotations

import logging
from pathlib import Path

from prometheus_client import REGISTRY, generate_latest

from callcenter.settings import Settings
from callcenter.store import Store
from domains.billing.ledger import Ledger
from meta.session import build_line


async def test_generated_calls_keep_every_invariant(adversary, settings: Settings, tmp_path: Path) -> None:
    checker = adversary.Checker()
    trap = adversary.LogTrap()
    root = logging.getLogger()
    root.addHandler(trap)
    try:
        for batch, seed in enumerate((1010, 2020)):
            store = Store(tmp_path / f"store-{batch}.sqlite3")
            line = build_line(settings, store=store)
            adversary.close_for_batch(store, line.ports)  # as the benchmark does: one closed account per batch
            checker.secrets = []
            await adversary.run_calls(line, adversary.generate(seed, 50), checker)
            checker.money(store)
            checker.data(store, {"the logs": "\n".join(trap.lines), "the metrics": adversary.metric_labels(generate_latest(REGISTRY).decode())},
                         checker.secrets)
            checker.caps(store)
            checker.lockouts(store)
            checker.closure(store)
            store.close()
    finally:
        root.removeHandler(trap)
    assert checker.calls == 100 and checker.turns > 300
    assert len(checker.kinds) >= 8  # every kind of attack was tried
    assert dict(checker.violations) == {}, checker.examples


async def test_the_checker_catches_violations(adversary, settings: Settings, store: Store) -> None:
    checker = adversary.Checker()
    # A refund on an ordinary charge, and unapproved refunds over the per-charge limit.
    Ledger(store).record_refund(charge_id="CH-1005-2", amount_cents=100, reason="test", idempotency_key="k1")
    Ledger(store).record_refund(charge_id="CH-1002-D", amount_cents=15000, reason="test", idempotency_key="k2")
    conn = store._conn()  # noqa: SLF001 - a card number written around the masking
    conn.execute("INSERT INTO tickets VALUES ('T-X', 'C1001', 'x', 'card 4111 1111 1111 1111', 'open', 'now', 'now')")
    checker.money(store)
    checker.data(store, {"the logs": "paid with 5500-0000-0000-0004"})
    assert set(checker.violations) == {
        "refunded more than policy allows", "unapproved refunds over the per-charge limit",
        "card number in the database", "card number in the logs",
    }
    before = adversary.snapshot(store)
    store.set_locked("C1001", True)
    store.add_audit(subject="C1001", action="lock", actor="x", reason="x")
    store.update_email("C1003", "x@example.com")
    script = adversary.CallScript("foreign", "C1001", ["close account C1002"], foreign=True)
    checker.after_call(script, set(), None, before, adversary.snapshot(store), ["card 4111 1111 1111 1111"])
    assert {"change without a verified caller", "change on a call naming another customer", "lock without a confirmed read-back",
            "account details changed on a call", "card number in a reply"} <= set(checker.violations)
