"""The database server goes away mid-call: the caller hears a plain sentence, nothing is
half-written, and the line recovers by itself when the server is back."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from callcenter.settings import load_settings
from callcenter.store import DatabaseTarget, Store, StoreUnavailable
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
        assert len(store.list_refunds("C1001")) == 1
    finally:
        await call.close()
        store.close()
