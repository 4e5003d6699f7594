"""Two line processes and a Temporal worker process on one PostgreSQL, as in a deployment.

Every process is the installed `callcenter` command with its own data dir (its own pod):
the only thing they share is CALLCENTER_DATABASE_URL (and the Temporal server).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from callcenter.store import DatabaseTarget, Store
from domains.billing.ledger import Ledger
from domains.billing.schema import SCHEMA as BILLING
from tests.conftest import CALLCENTER, callcenter, cli_env
from workflows.devserver import LocalTemporal


def _until(check, timeout: float = 60, every: float = 0.2):  # noqa: ANN001, ANN202
    end = time.monotonic() + timeout
    while not (value := check()):
        if time.monotonic() > end:
            raise AssertionError("condition not met in time")
        time.sleep(every)
    return value


@pytest.fixture
def temporal(tmp_path: Path) -> Iterator[LocalTemporal]:
    import asyncio

    server = LocalTemporal(tmp_path / "temporal", write_discovery=False)
    asyncio.run(server.start())
    try:
        yield server
    finally:
        asyncio.run(server.stop())


@pytest.fixture
def deployment(tmp_path: Path, postgres, temporal: LocalTemporal, router_cache: Path):  # noqa: ANN001, ANN201
    url = postgres.new_database()
    shared = {
        "CALLCENTER_DATABASE_URL": url, "CALLCENTER_DB_MIGRATE_ON_START": "false",
        "CALLCENTER_TEMPORAL_ADDRESS": temporal.address, "CALLCENTER_TEMPORAL_TASK_QUEUE": "shared-db",
        "CALLCENTER_HOLD_ON_LINE_S": "0", "CALLCENTER_WORKER_METRICS_PORT": "0",
        "CALLCENTER_TEMPORAL_SDK_METRICS_PORT": "0", "CALLCENTER_METRICS_PORT": "0",
        # Decision credentials are signed by the console/CLI and checked by the worker: one key.
        "CALLCENTER_CONSOLE_SECRET": "a-test-signing-secret-of-enough-length-0123456789",
    }

    def pod(name: str) -> dict[str, str]:
        data = tmp_path / name
        if not data.exists():
            shutil.copytree(router_cache, data / "models")
        return cli_env(data, **shared)

    job = callcenter("db", "upgrade", env=pod("migrate-job"))  # the chart's pre-install hook
    assert job.returncode == 0 and "schema none -> " in job.stdout, job.stderr
    assert f"billing schema none -> {BILLING.head}" in job.stdout, job.stdout  # the domains' tables too
    assert "technical schema none -> t0001" in job.stdout, job.stdout
    log = (tmp_path / "worker.log").open("w")  # a file, not a pipe nobody reads: logs never block it
    worker = subprocess.Popen([CALLCENTER, "temporal-worker"], env=pod("worker"), stdout=log, stderr=log)
    store = Store(DatabaseTarget(url=url, data_dir=tmp_path / "test"))
    try:
        yield pod, store
    finally:
        worker.send_signal(signal.SIGTERM)
        try:
            worker.wait(30)
        except subprocess.TimeoutExpired:
            worker.kill()
        log.close()
        store.close()


def _turns(proc: subprocess.CompletedProcess[str]) -> list[dict]:
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


def _call(env: dict[str, str], customer: str, words: str) -> list[dict]:
    return _turns(callcenter("call", "--json", "--customer", customer, input=words, env=env, timeout=180))


@pytest.mark.timeout(900)  # a dozen real processes; each call loads the line (about 10-40 s here)
def test_two_lines_and_a_worker_share_one_database(deployment) -> None:  # noqa: ANN001
    pod, store = deployment
    line_a, line_b, operator = pod("line-a"), pod("line-b"), pod("operator")

    # Line A: Grace's duplicate charge is above the automatic limit: an approval is filed.
    asked = _call(line_a, "C1002", "um i was charged twice\nyes\n")
    assert [(r["specialist"], r["status"]) for r in asked[-1]["results"]] == [("refund", "needs_approval")]
    [work] = store.list_work(customer_id="C1002")

    # An operator (a third process) decides; the worker process pays it into the shared database.
    made = callcenter("operators", "add", "maria", "--role", "manager", "--password-stdin", env=operator,
                      input="correct horse battery staple\n")
    assert made.returncode == 0, made.stderr
    token = callcenter("operators", "token", "maria", env=operator).stdout.strip()
    decided = callcenter("approvals", "approve", work.id, "--reason", "duplicate charge", "--token", token,
                         env=operator, timeout=60)
    assert decided.returncode == 0, decided.stderr
    _until(lambda: Ledger(store).list_refunds("C1002"))
    assert [(r.charge_id, r.approved_by) for r in Ledger(store).list_refunds("C1002")] == [("CH-1002-D", "maria")]

    # Line B, a later call: it sees the decision the other processes wrote.
    later = _call(line_b, "C1002", "uh what happened to my refund\n")
    assert "approved and paid" in later[-1]["reply"], later[-1]["reply"]

    # Both lines take Ada's refund of the same duplicate charge at the same moment: paid once.
    procs = [subprocess.Popen([CALLCENTER, "call", "--json", "--customer", "C1001"], env=env, text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for env in (line_a, line_b)]
    outs = [p.communicate("i was charged twice for the starter plan\nyes\n", timeout=180) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], [e for _, e in outs]
    refunds = [r for r in Ledger(store).list_refunds("C1001") if r.charge_id == "CH-1001-D"]
    assert len(refunds) == 1 and refunds[0].amount_cents == 4900


@pytest.mark.timeout(600)
def test_killing_a_line_mid_refund_loses_nothing(deployment) -> None:  # noqa: ANN001
    pod, store = deployment
    # Temporal is unreachable from this line, so the request can only live in the outbox.
    env = {**pod("line-a"), "CALLCENTER_TEMPORAL_ADDRESS": "127.0.0.1:9"}
    line = subprocess.Popen([CALLCENTER, "call", "--json", "--customer", "C1002"], env=env, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert line.stdin and line.stdout
    line.stdin.write("uh i was charged twice\n")
    line.stdin.flush()
    json.loads(line.stdout.readline())  # the read-back question
    line.stdin.write("yes\n")
    line.stdin.flush()
    # Killed the moment the request is written, before it can say anything or submit it.
    _until(lambda: store.list_work(customer_id="C1002"), timeout=120, every=0.02)
    os.kill(line.pid, signal.SIGKILL)
    line.wait(10)
    # The worker process (another pod) finds it in the shared outbox and submits it, once.
    [work] = _until(lambda: [w for w in store.list_work(customer_id="C1002") if w.status == "submitted"], timeout=60)
    assert work.amount_cents == 24900
    status = callcenter("approvals", "show", work.id, env=pod("operator"), timeout=60)
    assert status.returncode == 0 and "pending" in status.stdout, status.stdout + status.stderr
    assert Ledger(store).list_refunds("C1002") == []  # nothing paid without a decision
