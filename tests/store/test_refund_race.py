"""Callers of one customer confirming refunds at the same moment, each in its own `callcenter
call` process on one store (the SQLite file, or one PostgreSQL as pods share it): what is paid
without approval never exceeds the per-customer limit, and the rest goes to a supervisor.

Each charge is a duplicate of $100, at the per-charge limit, so each alone is paid at once;
the customer's limit of $150 allows one of them. Every process first hears its read-back;
only when all of them have, all say "yes" together.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from callcenter.store import DatabaseTarget, Store
from domains.billing.ledger import Ledger
from tests.conftest import CALLCENTER, cli_env

CALLERS = 3
CUSTOMER = "C1005"


def _duplicates(store: Store) -> list[str]:
    """Three $100 duplicate pairs on the customer's bill; returns the later charge of each."""
    now = datetime.now(UTC).replace(microsecond=0)
    later = []
    for i in range(1, CALLERS + 1):
        at = now - timedelta(days=i)
        store.execute("INSERT INTO charges VALUES (?, ?, 10000, ?, ?, NULL)", (f"CH-1005-A{i}", CUSTOMER, f"Add-on {i}", at.isoformat()))
        store.execute("INSERT INTO charges VALUES (?, ?, 10000, ?, ?, NULL)",
                      (f"CH-1005-B{i}", CUSTOMER, f"Add-on {i}", (at + timedelta(minutes=3)).isoformat()))
        later.append(f"CH-1005-B{i}")
    return later


def _turn(proc: subprocess.Popen[str]) -> dict:
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line, proc.stderr.read() if proc.stderr else "the call ended early"
    return json.loads(line)


@pytest.mark.timeout(600)  # several real line processes on two shared cores
def test_callers_confirming_together_never_exceed_the_customer_limit(
    store: Store, target: Path | DatabaseTarget, tmp_path: Path, router_cache: Path,
) -> None:
    charges = _duplicates(store)
    procs = []
    for i in range(len(charges)):
        # Its own data folder each (a pod each); one database: the server, or one SQLite file.
        url = target.url if isinstance(target, DatabaseTarget) else f"sqlite:///{target}"
        data = tmp_path / f"line-{i}"
        shutil.copytree(router_cache, data / "models")
        # Every query 100 ms slower, as on a loaded database server: the calls' reads overlap as
        # they do under load (the race was first seen with no fault, less often).
        env = cli_env(data, CALLCENTER_DATABASE_URL=url, CALLCENTER_FAULTS="store=slow:0.1")
        procs.append(subprocess.Popen([CALLCENTER, "call", "--json", "--no-durable", "--customer", CUSTOMER], env=env,
                                      text=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE))
    try:
        for proc, charge in zip(procs, charges, strict=True):
            assert proc.stdin is not None
            _turn(proc)  # the greeting
            proc.stdin.write(f"um please refund charge {charge}\n")
            proc.stdin.flush()
        for proc, charge in zip(procs, charges, strict=True):
            asked = _turn(proc)
            assert f"a refund of $100.00 for the duplicate charge {charge}" in asked["reply"], asked
            assert "supervisor" not in asked["reply"]  # each alone is within every limit
        for proc in procs:  # all confirm at the same moment
            assert proc.stdin is not None
            proc.stdin.write("yes\n")
            proc.stdin.flush()
        said = [_turn(proc)["reply"] for proc in procs]
        for i, proc in enumerate(procs):
            # A call that read the ledger after another was paid hears the new read-back (it
            # needs a supervisor now) and confirms that too.
            if "To confirm" in said[i] and "supervisor's approval" in said[i]:
                assert proc.stdin is not None
                proc.stdin.write("yes\n")
                proc.stdin.flush()
                said[i] = _turn(proc)["reply"]
        for proc in procs:
            assert proc.stdin is not None
            proc.stdin.close()
            assert proc.wait(120) == 0, proc.stderr.read() if proc.stderr else ""
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
    refunds = Ledger(store).list_refunds(CUSTOMER)
    auto = sum(r.amount_cents for r in refunds if r.approved_by is None)
    assert auto <= 15000, (refunds, said)
    assert [r.amount_cents for r in refunds] == [10000], said  # one paid at once ...
    waiting = store.pending_work(CUSTOMER, "refund")
    assert sorted(w.record_id or "" for w in waiting) == sorted(set(charges) - {refunds[0].charge_id})  # ... the rest asked
    assert sum("I've refunded $100.00" in s for s in said) == 1
    assert sum("needs a supervisor's approval" in s for s in said) == CALLERS - 1, said
