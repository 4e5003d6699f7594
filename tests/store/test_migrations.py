"""Alembic migrations: from empty, from the previous release's SQLite file with data in it,
from an older revision on PostgreSQL, and with several processes opening one database at once."""

from __future__ import annotations

import contextlib
import multiprocessing
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic.config import Config
from alembic.script import ScriptDirectory

from callcenter.store import DatabaseTarget, Store, StoreError
from callcenter.store import durable as d
from callcenter.store import operators as ops
from callcenter.store.engine import make_engine
from callcenter.store.migrate import HEAD, SCRIPTS, upgrade, upgrade_branch
from callcenter.store.schema import MIGRATIONS
from callcenter.store.seed import seed
from domains.billing.ledger import Ledger
from domains.billing.schema import SCHEMA as BILLING
from domains.billing.schema import seed as seed_billing
from domains.technical.schema import SCHEMA as TECHNICAL
from domains.technical.schema import seed as seed_technical


def test_head_constant_matches_the_revision_files() -> None:
    cfg = Config()
    cfg.set_main_option("script_location", str(SCRIPTS))
    assert ScriptDirectory.from_config(cfg).get_current_head() == HEAD


def _previous_release_file(path: Path, steps: int = len(MIGRATIONS)) -> None:
    """What release 0.1's Store wrote: its user_version steps run the way it ran them, seeded."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    for step in MIGRATIONS[:steps]:
        for statement in step.split(";"):
            if statement.strip():
                conn.execute(statement)
    conn.execute(f"PRAGMA user_version = {steps}")
    seed(conn)  # type: ignore[arg-type]
    seed_billing(conn)  # type: ignore[arg-type]  # 0.1 seeded billing's and technical's rows in the same step
    seed_technical(conn)  # type: ignore[arg-type]
    conn.execute(
        "INSERT INTO refunds (charge_id, customer_id, amount_cents, reason, idempotency_key, created_at)"
        " VALUES ('CH-1001-D', 'C1001', 4900, 'duplicate', 'old-key', '2026-01-02T00:00:00+00:00')")
    conn.execute("INSERT INTO tickets VALUES ('T-OLD001', 'C1002', 'callback', 'call me', 'open', 'x', 'x')")
    if steps >= 2:
        conn.execute("INSERT INTO durable_outcomes VALUES ('R-9:decided', 'R-9', 'refund', 'C1002', 'completed',"
                     " 'maria', 'ok', 'refund 1', '2026-01-02T00:00:00+00:00')")
    if steps >= 3:
        conn.execute("INSERT INTO operators (name, role, limit_cents, created_at) VALUES ('maria', 'manager', 100000, 'x')")
    conn.execute("COMMIT")
    conn.close()


@pytest.mark.parametrize("steps", [len(MIGRATIONS), 2])
def test_previous_release_sqlite_file_is_upgraded_with_its_data(tmp_path: Path, steps: int) -> None:
    db = tmp_path / "callcenter.sqlite3"
    _previous_release_file(db, steps)
    store = Store(db, schemas=[BILLING, TECHNICAL])
    assert store.schema_version == HEAD
    # The data of the old file is all there, and the new code works on it.
    assert [r.idempotency_key for r in Ledger(store).list_refunds("C1001")] == ["old-key"]
    with pytest.raises(ValueError, match="exceeds"):
        Ledger(store).record_refund(charge_id="CH-1001-D", amount_cents=1, reason="again", idempotency_key="new")
    assert store.get_ticket("T-OLD001").summary == "call me"  # type: ignore[union-attr]
    assert len(Ledger(store).list_plans()) == 3 and len(Ledger(store).list_charges("C1002")) == 4  # not seeded twice
    if steps >= 2:
        assert d.get_outcome(store, "R-9:decided").decided_by == "maria"  # type: ignore[union-attr]
    if steps >= 3:
        assert ops.get_operator(store, "maria").role == "manager"  # type: ignore[union-attr]
    else:  # the missing legacy steps were applied: operators work
        ops.add_operator(store, name="li", role="agent", limit_cents=0, password_hash=None)
    store.close()
    raw = sqlite3.connect(db)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    indexes = {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert {"refunds_by_charge", "work_by_customer"} <= indexes
    # Billing's branch adopted its tables where 0.1 made them: recorded, nothing re-created.
    assert raw.execute("SELECT version_num FROM alembic_version_billing").fetchone()[0] == BILLING.head
    assert raw.execute("SELECT version_num FROM alembic_version_technical").fetchone()[0] == TECHNICAL.head
    assert raw.execute("SELECT COUNT(*) FROM incidents").fetchone()[0] == 2  # not seeded twice


@contextlib.contextmanager
def store_at(target: Path | DatabaseTarget, **kw: object) -> Iterator[Store]:
    store = Store(target, **kw)  # type: ignore[arg-type]
    try:
        yield store
    finally:
        store.close()


def test_a_newer_schema_is_refused(target: Path | DatabaseTarget) -> None:
    Store(target).close()
    store = Store(target)
    with store.transaction() as conn:
        conn.execute("UPDATE alembic_version SET version_num = '9999'")
    store.close()
    with pytest.raises(StoreError, match="newer than this program"):
        Store(target)


def test_a_newer_domain_schema_is_refused(target: Path | DatabaseTarget) -> None:
    with store_at(target, schemas=[BILLING]) as store, store.transaction() as conn:
        conn.execute("UPDATE alembic_version_billing SET version_num = 'b9999'")
    with pytest.raises(StoreError, match="billing schema version b9999 is newer than this program"):
        Store(target, schemas=[BILLING])
    with pytest.raises(StoreError, match="billing schema version b9999 is newer than this program"):
        upgrade_branch(make_engine(target), BILLING, seed_demo=False)  # `db upgrade` of an older release
    Store(target).close()  # the foundation alone still opens


def test_behind_schema_is_refused_when_migrations_belong_to_the_release_job(tmp_path: Path, postgres) -> None:  # noqa: ANN001
    url = postgres.new_database()
    with pytest.raises(StoreError, match="callcenter db upgrade"):
        Store(DatabaseTarget(url=url, data_dir=tmp_path, migrate_on_start=False))
    Store(DatabaseTarget(url=url, data_dir=tmp_path)).close()  # the foundation's tables alone
    # A domain's branch behind is refused the same way, naming the domain.
    with pytest.raises(StoreError, match=r"billing schema none and this release needs b0001: run `callcenter db upgrade`"):
        Store(DatabaseTarget(url=url, data_dir=tmp_path, migrate_on_start=False), schemas=[BILLING])
    Store(DatabaseTarget(url=url, data_dir=tmp_path), schemas=[BILLING]).close()  # the Job's upgrade
    pod = Store(DatabaseTarget(url=url, data_dir=tmp_path, migrate_on_start=False), schemas=[BILLING])
    assert pod.schema_version == HEAD and len(Ledger(pod).list_plans()) == 3  # billing's demo rows, once
    assert len(Ledger(pod).list_charges("C1002")) == 4
    pod.close()


def test_postgres_upgrade_from_an_older_revision_keeps_data(tmp_path: Path, postgres) -> None:  # noqa: ANN001
    from alembic import command

    from callcenter.store.engine import Conn, connect, make_engine

    target = DatabaseTarget(url=postgres.new_database(), data_dir=tmp_path)
    engine = make_engine(target)
    with connect(engine) as conn, conn.begin():  # the database as revision 0001 left it
        cfg = Config()
        cfg.set_main_option("script_location", str(SCRIPTS))
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0001")
        seed(Conn(engine, conn))
        seed_billing(Conn(engine, conn))
        seed_technical(Conn(engine, conn))
        Conn(engine, conn).execute(
            "INSERT INTO refunds (charge_id, customer_id, amount_cents, reason, idempotency_key, created_at)"
            " VALUES ('CH-1002-D', 'C1002', 100, 'x', 'k-old', 'x')")
    assert upgrade(engine, seed_demo=True) == ("0001", HEAD)
    engine.dispose()
    store = Store(target, schemas=[BILLING])
    assert Ledger(store).refunded_cents("CH-1002-D") == 100 and len(Ledger(store).list_plans()) == 3


def _open(url: str, data_dir: str) -> int:
    store = Store(DatabaseTarget(url=url, data_dir=Path(data_dir)))
    n = len(Ledger(store).list_charges("C1001"))
    store.close()
    return n


def test_pods_starting_together_migrate_and_seed_once(tmp_path: Path, postgres) -> None:  # noqa: ANN001
    url = postgres.new_database()
    with multiprocessing.get_context("fork").Pool(4) as pool:
        counts = pool.starmap(_open, [(url, str(tmp_path))] * 4)
    assert counts == [4, 4, 4, 4]  # seeded exactly once, whoever came first


def test_db_current_and_upgrade_name_every_branch(tmp_path: Path) -> None:
    """The release Job's commands, as an SRE runs them: `db current` lists the foundation's
    schema and each domain's, and fails while any is behind; `db upgrade` brings them all."""
    from tests.conftest import callcenter, cli_env

    env = cli_env(tmp_path / "data")
    before = callcenter("db", "current", env=env)
    assert before.returncode == 1, before.stderr
    for what, head in (("schema", HEAD), ("billing schema", BILLING.head), ("technical schema", TECHNICAL.head)):
        assert f": {what} none (needs `callcenter db upgrade` to {head})" in before.stdout, before.stdout
    done = callcenter("db", "upgrade", "--no-demo-data", env=env)
    assert done.returncode == 0 and "billing schema none -> b0001" in done.stdout, done.stdout + done.stderr
    after = callcenter("db", "current", env=env)
    assert after.returncode == 0 and after.stdout.count("(current)") == 3, after.stdout
    again = callcenter("db", "upgrade", env=env)  # idempotent: nothing to do, no demo rows into a live database
    assert again.returncode == 0 and again.stdout.count("is current") == 3, again.stdout
    store = Store(tmp_path / "data" / "callcenter.sqlite3")
    try:
        assert Ledger(store).list_plans() == [] and store.get_customer("C1001") is None
    finally:
        store.close()
