"""Schema versions by Alembic: check on open, upgrade once, seed a new demo database.

The foundation's tables are one chain (`migrations/versions`, recorded in `alembic_version`).
A domain that keeps tables of its own (the embedded stand-in behind its port) brings a
`SchemaBranch`: its own revisions in its folder, recorded in its own version table, so a
domain's schema changes without a foundation revision and a new domain adds tables by
adding a folder. The foundation's 0.1 baseline created the first domains' tables before
they had branches; each of those branches starts by creating them only where missing.

Upgrades run in one transaction. On PostgreSQL a transaction-scoped advisory lock makes
pods that start together (or a hook Job and a pod) take turns: the first upgrades, the
others find the schema current. On SQLite BEGIN IMMEDIATE does the same for processes.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import inspect
from sqlalchemy.engine import Connection, Engine

from callcenter.store.engine import Conn, StoreError, connect
from callcenter.store.schema import MIGRATIONS
from callcenter.store.seed import seed

# The newest revision in migrations/versions (tests/store checks they agree).
HEAD = "0005"
KNOWN = ("0001", "0002", "0003", "0004", "0005")
_LOCK = 7_261_650_130  # pg_advisory_xact_lock key of schema upgrades: any constant, used only here
SCRIPTS = Path(__file__).parent / "migrations"
# Alembic announces every plugin and step at INFO; `callcenter db upgrade` says what it did.
logging.getLogger("alembic").setLevel(logging.WARNING)


@dataclass(frozen=True, slots=True)
class SchemaBranch:
    """A domain's own tables: `versions` holds its Alembic revisions (ids of its own, one
    chain ending at `head`), `seed` writes its demo rows into a new demo database (the
    foundation's customers are already there), `marker` is a table of the branch's whose
    rows say the demo data is already written (by an earlier release, say)."""

    name: str
    versions: Path
    head: str
    seed: Callable[[Conn], None] | None = None
    marker: str | None = None

    @property
    def version_table(self) -> str:
        return f"alembic_version_{self.name}"


def revision(conn: Connection, table: str = "alembic_version") -> str | None:
    """The schema revision, None for a database Alembic has not seen ("legacy" or empty)."""
    if not inspect(conn).has_table(table):
        return None
    return conn.exec_driver_sql(f"SELECT version_num FROM {table}").scalar()  # noqa: S608 (a constant of this module)


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
        _lock(conn)
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


def _lock(conn: Connection) -> None:
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql("SELECT pg_advisory_xact_lock(%s)", (_LOCK,))


def upgrade_branch(engine: Engine, branch: SchemaBranch, *, seed_demo: bool) -> tuple[str | None, str]:
    """Bring a domain's branch to its head (after the foundation's); returns (before, after).
    Its demo rows are written once: into a new demo database, never over rows already there."""
    from alembic import command
    from alembic.config import Config

    with connect(engine, write=True) as conn, conn.begin():
        _lock(conn)
        before = revision(conn, branch.version_table)
        if before == branch.head:
            return before, branch.head
        _check_branch_not_newer(branch, before)
        cfg = Config()
        cfg.set_main_option("script_location", str(SCRIPTS))
        cfg.set_main_option("version_locations", str(branch.versions))
        cfg.attributes["connection"] = conn
        cfg.attributes["version_table"] = branch.version_table
        command.upgrade(cfg, branch.head)
        if before is None and seed_demo and branch.seed is not None:
            empty = branch.marker is None or conn.exec_driver_sql(f"SELECT 1 FROM {branch.marker} LIMIT 1").first() is None  # noqa: S608
            if empty:
                branch.seed(Conn(engine, conn))
    return before, branch.head


def _check_branch_not_newer(branch: SchemaBranch, rev: str | None) -> None:
    # A revision this release has no file for was written by a newer one (a rollback).
    if rev is not None and not any(branch.versions.glob(f"{rev}_*.py")):
        raise StoreError(f"database {branch.name} schema version {rev} is newer than this program ({branch.head})")


def branch_revision(engine: Engine, branch: SchemaBranch) -> str | None:
    with connect(engine, write=False) as conn:
        return revision(conn, branch.version_table)


def ensure_branch(engine: Engine, branch: SchemaBranch, *, seed_demo: bool, migrate: bool, where: str) -> None:
    """Open-time check of a domain's branch, as `ensure` for the foundation."""
    rev = branch_revision(engine, branch)
    if rev == branch.head:
        return
    _check_branch_not_newer(branch, rev)
    if not migrate:
        raise StoreError(
            f"the database {where} has {branch.name} schema {rev or 'none'} and this release needs {branch.head}:"
            " run `callcenter db upgrade` (the chart's migration Job does)"
        )
    upgrade_branch(engine, branch, seed_demo=seed_demo)


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
