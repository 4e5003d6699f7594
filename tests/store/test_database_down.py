"""The database server goes away mid-call: the caller hears a plain sentence, nothing is
half-written, and the line recovers by itself when the server is back."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from callcenter.settings import load_settings
from callcenter.store import DatabaseTarget, Store, StoreUnavailable
from domains.billing.ledger import Ledger
from meta.session import build_line, start_call

sys.path.insert(0, str(Path(__file__).parent))
import pg  # noqa: E402

from tests.conftest import require  # noqa: E402


@pytest.fixture
def own_server():  # noqa: ANN201 - a cluster this test may stop and start
    why = pg.missing()
    require("PostgreSQL", why is None, why or "")
    with pg.running() as server:
        yield server


def _start(server: pg.LocalPostgres) -> None:
    server._run(pg._bin("pg_ctl") or "pg_ctl", "-D", str(server.data), "-l", str(server.dir / "log"), "-o",  # noqa: SLF001
                f"-c listen_addresses=127.0.0.1 -p {server.port} -c unix_socket_directories={server.dir}", "-w", "start")


def _stop(server: pg.LocalPostgres) -> None:
    server._run(pg._bin("pg_ctl") or "pg_ctl", "-D", str(server.data), "-m", "fast", "-w", "stop")  # noqa: SLF001


async def test_caller_hears_a_sentence_and_the_line_recovers(own_server, tmp_path: Path, router_cache: Path) -> None:  # noqa: ANN001
    shutil.copytree(router_cache, tmp_path / "models")
    store = Store(DatabaseTarget(url=own_server.new_database(), data_dir=tmp_path, connect_timeout_s=2, pool_timeout_s=2))
    line = build_line(load_settings(data_dir=tmp_path, hold_on_line_s=0), store=store)
    call = await start_call(line, customer_id="C1001")
    try:
        _stop(own_server)
        with pytest.raises(StoreUnavailable, match="cannot be reached") as err:
            store.get_customer("C1001")
        assert "\n" not in str(err.value)  # one line, the driver's own text (host, user) left out
        turn = await call.send("um i was charged twice for the starter plan")
        said = " ".join(turn.replies)
        assert "nothing was changed" in said or "try again" in said, said
        assert "Traceback" not in said and "psycopg" not in said.lower()
        _start(own_server)
        # Back: the pool drops its dead connections (pre-ping) and the same line just works.
        turn = await call.send("i was charged twice for the starter plan")
        assert "To confirm" in " ".join(turn.replies), turn.replies
        turn = await call.send("yes")
        assert "refunded" in " ".join(turn.replies), turn.replies
        assert len(Ledger(store).list_refunds("C1001")) == 1
    finally:
        await call.close()
        store.close()


def _wait_for(what: str, check, timeout_s: float = 60.0):  # noqa: ANN001, ANN202 - a condition, not a fixed sleep
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if (got := check()) is not None:
            return got
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


async def test_a_request_made_while_the_database_is_down_is_held_and_lands(own_server, tmp_path: Path, router_cache: Path) -> None:  # noqa: ANN001
    shutil.copytree(router_cache, tmp_path / "models")
    store = Store(DatabaseTarget(url=own_server.new_database(), data_dir=tmp_path, connect_timeout_s=2, pool_timeout_s=2))
    line = build_line(load_settings(data_dir=tmp_path, hold_on_line_s=0), store=store)
    call = await start_call(line, customer_id="C1001")
    try:
        turn = await call.send("um i was charged twice for the starter plan")
        assert "To confirm" in " ".join(turn.replies), turn.replies
        _stop(own_server)  # the caller's "yes" arrives with the database gone
        turn = await call.send("yeah go ahead")
        said = " ".join(turn.replies)
        found = re.search(r"your reference is (T-[0-9A-F]{6})", said)
        assert found and "nothing was changed" in said, said
        assert len(store.spool.held()) == 1  # kept on this process's disk, not lost
        _start(own_server)
        ticket = _wait_for("the held call back to land", lambda: store.get_ticket(found.group(1)))
        assert (ticket.kind, ticket.customer_id, ticket.status) == ("callback", "C1001", "open")
        assert "billing.refund" in ticket.summary  # a colleague knows which request to pick up
        _wait_for("the spool to empty", lambda: True if not store.spool.held() else None)
        assert Ledger(store).list_refunds("C1001") == []  # nothing was paid while the database was down
    finally:
        await call.close()
        store.close()


def test_an_outbox_request_held_by_a_process_that_died_lands_on_restart(own_server, tmp_path: Path) -> None:  # noqa: ANN001
    target = DatabaseTarget(url=own_server.new_database(), data_dir=tmp_path, connect_timeout_s=2, pool_timeout_s=2)
    store = Store(target)
    _stop(own_server)
    held = store.queue_work(request_id="refund-CH-1002-D", kind="refund", customer_id="C1002", amount_cents=24900,
                            payload=json.dumps({"charge_id": "CH-1002-D", "caller_reason": "card 4111 1111 1111 1111"}))
    assert held.status == "held"
    [path] = store.spool.held()
    assert "4111" not in path.read_text() and (path.stat().st_mode & 0o077) == 0  # masked, this user's only
    store.close()  # the process ends before the database is back
    _start(own_server)
    again = Store(target)  # the next start writes what the last one held
    try:
        work = _wait_for("the held request", lambda: again.get_work("refund-CH-1002-D"))
        assert (work.kind, work.customer_id, work.amount_cents, work.status) == ("refund", "C1002", 24900, "queued")
        _wait_for("the spool to empty", lambda: True if not again.spool.held() else None)
        again.queue_work(request_id="refund-CH-1002-D", kind="refund", customer_id="C1002", amount_cents=1, payload="{}")
        assert again.get_work("refund-CH-1002-D").amount_cents == 24900  # replaying twice writes once
    finally:
        again.close()


def test_sqlite_locked_by_another_process_holds_the_request(tmp_path: Path) -> None:
    db = tmp_path / "line.sqlite3"
    store = Store(db)
    # Another process takes the file's write lock and keeps it past the busy timeout.
    locker = subprocess.Popen(
        [sys.executable, "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1], isolation_level=None);"
         " c.execute('BEGIN EXCLUSIVE'); print('locked', flush=True); sys.stdin.readline()", str(db)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    try:
        assert locker.stdout is not None and locker.stdout.readline().strip() == "locked"
        ticket = store.create_ticket(customer_id="C1001", kind="callback", summary="Call back: billing.refund was unavailable")
        assert ticket.status == "held" and len(store.spool.held()) == 1
    finally:
        assert locker.stdin is not None
        locker.stdin.close()  # the other writer lets go
        locker.wait(timeout=30)
    try:
        landed = _wait_for("the held ticket", lambda: store.get_ticket(ticket.id))
        assert (landed.kind, landed.customer_id, landed.status) == ("callback", "C1001", "open")
    finally:
        store.close()


async def test_an_approval_asked_for_while_the_database_is_down_tells_the_caller_and_lands(own_server, tmp_path: Path, router_cache: Path) -> None:  # noqa: ANN001
    """Without Temporal the outbox is the only record of an approval request: held, then written."""
    from domains.durable import request_approval
    from domains.state import CallState

    shutil.copytree(router_cache, tmp_path / "models")
    store = Store(DatabaseTarget(url=own_server.new_database(), data_dir=tmp_path, connect_timeout_s=2, pool_timeout_s=2))
    line = build_line(load_settings(data_dir=tmp_path, hold_on_line_s=0), store=store)
    state = CallState(store=store, settings=line.settings, router=line.router, ports=line.ports)
    state.caller.verify("C1002")
    try:
        _stop(own_server)  # the database goes away between the read-back and the caller's yes
        outcome = await request_approval(
            state, kind="refund", request_id="refund-CH-1002-D", amount_cents=24900, record_id="CH-1002-D",
            policy_finding="duplicate above the auto-refund limit", requested_by="billing.refund",
            what="a refund of $249.00 for charge CH-1002-D", caller_reason="i was charged twice",
        )
        assert outcome.status == "needs_approval" and "refund-CH-1002-D" in outcome.summary, outcome
        assert "nothing has been done yet" in outcome.summary
        _start(own_server)
        work = _wait_for("the held approval request", lambda: store.get_work("refund-CH-1002-D"))
        assert (work.kind, work.customer_id, work.amount_cents, work.status) == ("refund", "C1002", 24900, "queued")
        assert json.loads(work.payload)["record_id"] == "CH-1002-D"
        assert [p.request_id for p in store.pending_work("C1002", "refund")] == ["refund-CH-1002-D"]  # a second ask is refused
    finally:
        store.close()
