"""Schema versions by Alembic: check on open, upgrade once, seed a new demo database.

Upgrades run in one transaction. On PostgreSQL a transaction-scoped advisory lock makes
pods that start together (or a hook Job and a pod) take turns: the first upgrades, the
others find the schema current. On SQLite BEGIN IMMEDIATE does the same for processes.
"""

from __future__ import annotations

import logging
from pathlib import Path

from sqlalchemy import inspect
from sqlalchemy.engine import Connection, Engine

from callcenter.store.engine import Conn, StoreError, connect
from callcenter.store.schema import MIGRATIONS
from callcenter.store.seed import seed

# The newest revision in migrations/versions (tests/store checks they agree).
HEAD = "0003"
KNOWN = ("0001", "0002", "0003")
_LOCK = 7_261_650_130  # pg_advisory_xact_lock key of schema upgrades: any constant, used only here
SCRIPTS = Path(__file__).parent / "migrations"
# Alembic announces every plugin and step at INFO; `callcenter db upgrade` says what it did.
logging.getLogger("alembic").setLevel(logging.WARNING)


def revision(conn: Connection) -> str | None:
    """The schema revision, None for a database Alembic has not seen ("legacy" or empty)."""
    if not inspect(conn).has_table("alembic_version"):
        return None
    return conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()


def _check_not_newer(conn: Connection, rev: str | None) -> None:
    legacy = 0
    if conn.dialect.name == "sqlite":
        legacy = int(conn.exec_driver_sql("PRAGMA user_version").scalar() or 0)
    if (rev is not None and rev not in KNOWN) or legacy > len(MIGRATIONS):
        found = rev if rev is not None else f"user_version {legacy}"
        raise StoreError(f"database schema version {found} is newer than this program ({HEAD})")


def current(engine: Engine) -> str | None:
    with connect(engine, write=False) as conn:
        rev = revision(conn)
        _check_not_newer(conn, rev)
        return rev


def upgrade(engine: Engine, *, seed_demo: bool) -> tuple[str | None, str]:
    """Bring the schema to HEAD; returns (revision before, revision after)."""
    from alembic import command
    from alembic.config import Config

    with connect(engine, write=True) as conn, conn.begin():
        if conn.dialect.name == "postgresql":
            conn.exec_driver_sql("SELECT pg_advisory_xact_lock(%s)", (_LOCK,))
        before = revision(conn)
        _check_not_newer(conn, before)
        if before == HEAD:
            return before, HEAD
        fresh = not inspect(conn).has_table("customers")
        cfg = Config()
        cfg.set_main_option("script_location", str(SCRIPTS))
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
        if fresh and seed_demo:
            seed(Conn(engine, conn))
    return before, HEAD


def ensure(engine: Engine, *, seed_demo: bool, migrate: bool, where: str) -> None:
    """Open-time check: current is fine, behind is upgraded (or refused when `migrate` is off)."""
    rev = current(engine)
    if rev == HEAD:
        return
    if not migrate:
        raise StoreError(
            f"the database {where} has schema {rev or 'none'} and this release needs {HEAD}:"
            " run `callcenter db upgrade` (the chart's migration Job does)"
        )
    upgrade(engine, seed_demo=seed_demo)
