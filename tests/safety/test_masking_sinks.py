"""Card numbers grouped any way (commas, slashes, spaced dashes), a ZIP and a date of birth said
on a durable call reach none of the places a call leaves data: `--json`, the request's reason,
the ticket, the audit, Temporal's history and memo, `approvals show`, `tickets list`, the logs.

Real processes as in a deployment: a Temporal dev server, the Temporal worker, `callcenter call`
and the operator's `callcenter approvals` / `tickets` commands, on one data dir.
"""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from callcenter.store import Store
from tests.conftest import CALLCENTER, callcenter, cli_env
from workflows.devserver import LocalTemporal

# (as said, its digits): a Visa with commas, a Mastercard with slashes, a Visa with spaced dashes
CARDS = [("4111, 1111, 1111, 1111", "4111111111111111"), ("5500/0000/0000/0004", "5500000000000004"),
         ("4012 - 8888 - 8888 - 1881", "4012888888881881")]
SAID = [f"i was charged twice, my card is {CARDS[0][0]} and my zip is 10001",
        "yes",
        f"open a ticket with engineering, my api keeps failing with 500 errors, card {CARDS[1][0]}, born 1985-03-15",
        "thanks, bye"]
DENIAL = f"the caller read me the card {CARDS[2][0]} and zip 10001; not a duplicate"


def _leaks(blob: bytes) -> list[str]:
    """Every card (however separated), the ZIP said with 'zip', and the date of birth in `blob`."""
    found = [digits for _, digits in CARDS if re.search(rb"\D{0,4}".join(d.encode() for d in digits), blob)]
    found += [w for w in ("zip is 10001", "zip 10001", "born 1985-03-15") if w.encode() in blob]
    return found


def _until(check, timeout: float = 120):  # noqa: ANN001, ANN202
    end = time.monotonic() + timeout
    while not (value := check()):
        assert time.monotonic() < end, "condition not met in time"
        time.sleep(0.2)
    return value


@pytest.fixture
def temporal(tmp_path: Path) -> Iterator[LocalTemporal]:
    server = LocalTemporal(tmp_path / "temporal", write_discovery=False)
    asyncio.run(server.start())
    try:
        yield server
    finally:
        asyncio.run(server.stop())


@pytest.mark.timeout(900)  # four kinds of real process on two shared cores
def test_nothing_said_on_a_call_leaks_into_any_sink(tmp_path: Path, temporal: LocalTemporal, router_cache: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(router_cache, data / "models")
    env = cli_env(data, CALLCENTER_TEMPORAL_ADDRESS=temporal.address, CALLCENTER_TEMPORAL_TASK_QUEUE="masking",
                  CALLCENTER_HOLD_ON_LINE_S="0", CALLCENTER_WORKER_METRICS_PORT="0", CALLCENTER_TEMPORAL_SDK_METRICS_PORT="0",
                  CALLCENTER_LOG_LEVEL="DEBUG")
    log = (tmp_path / "worker.log").open("w")
    worker = subprocess.Popen([CALLCENTER, "temporal-worker"], env=env, stdout=log, stderr=log)
    try:
        call = callcenter("call", "--json", "--customer", "C1002", input="\n".join(SAID) + "\n", env=env, timeout=300)
        assert call.returncode == 0, call.stderr
        turns = [json.loads(line) for line in call.stdout.splitlines()]
        assert "needs_approval" in [r["status"] for r in turns[2]["results"]], turns[2]
        assert "[card ending 1111]" in turns[1]["user"] and "[zip]" in turns[1]["user"], turns[1]
        assert "[card ending 0004]" in turns[3]["user"] and "[date]" in turns[3]["user"], turns[3]

        made = callcenter("operators", "add", "maria", "--role", "manager", "--password-stdin", env=env,
                          input="correct horse battery staple\n")
        assert made.returncode == 0, made.stderr
        token = callcenter("operators", "token", "maria", env=env).stdout.strip()
        denied = callcenter("approvals", "deny", "refund-CH-1002-D", "--reason", DENIAL, "--token", token, env=env, timeout=120)
        assert denied.returncode == 0, denied.stderr
        store = Store(data / "callcenter.sqlite3")
        try:
            _until(lambda: [a for a in store.audit_for("refund-CH-1002-D") if a.action == "denied"])
            audit = store.audit_for("refund-CH-1002-D")
            [work] = store.list_work(customer_id="C1002", status=None)[:1]
            tickets = store.list_tickets(customer_id="C1002")
        finally:
            store.close()
        shown = callcenter("approvals", "show", "refund-CH-1002-D", env=env, timeout=120)
        listed = callcenter("tickets", "list", env=env, timeout=120)
        assert shown.returncode == 0 and listed.returncode == 0, shown.stderr + listed.stderr
        assert "i was charged twice" in shown.stdout and "[card ending 1881]" in shown.stdout, shown.stdout  # the scans see caller text
    finally:
        worker.send_signal(signal.SIGTERM)
        try:
            worker.wait(30)
        except subprocess.TimeoutExpired:
            worker.kill()
        log.close()
    outputs = {"call --json": call.stdout, "call stderr": call.stderr, "approvals show": shown.stdout,
               "tickets list": listed.stdout, "request reason": work.payload,
               "tickets": " ".join(t.summary for t in tickets), "audit": " ".join(a.reason for a in audit),
               "worker log": (tmp_path / "worker.log").read_text()}
    assert {where: _leaks(text.encode()) for where, text in outputs.items() if _leaks(text.encode())} == {}
    # Temporal's own database (workflow input, memo, history) and every file the line left.
    files = [p for p in [*tmp_path.rglob("*")] if p.is_file() and "models" not in p.parts]
    assert {str(p.relative_to(tmp_path)): _leaks(p.read_bytes()) for p in files if _leaks(p.read_bytes())} == {}
    assert any(b"i was charged twice" in p.read_bytes() for p in (tmp_path / "temporal").rglob("*") if p.is_file())
