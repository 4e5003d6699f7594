"""`callcenter db upgrade|current`: the schema of the configured database.

Deployments run `db upgrade` once per release (the chart's pre-install/pre-upgrade Job) with
CALLCENTER_DB_MIGRATE_ON_START=false on every pod; one machine never needs it (the SQLite
file is upgraded when a process opens it).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from pathlib import Path

from callcenter.store import migrate
from callcenter.store.engine import DatabaseTarget, make_engine

Where = Callable[[], Path | DatabaseTarget]


def register(subparsers: argparse._SubParsersAction, *,  # type: ignore[type-arg]
             database: Where, schemas: Callable[[], Sequence[migrate.SchemaBranch]] = tuple) -> None:
    """`database` names the configured database when a command runs (the settings' `db_path`),
    and `schemas` gives the domains' own schema branches: both from the composition root, so
    the store imports no settings (the settings name the store's DatabaseTarget)."""
    db = subparsers.add_parser("db", help="the database schema: upgrade it to this release, or show its revision")
    sub = db.add_subparsers(dest="db_cmd", required=True)
    p = sub.add_parser("upgrade", help="apply this release's migrations (safe to run from several places at once)")
    p.add_argument("--no-demo-data", action="store_true",
                   help="do not write the demo customers into a new, empty database")
    p.set_defaults(func=_cmd_upgrade, schemas=schemas, database=database)
    p = sub.add_parser("current", help="print the database's schema revision and this release's")
    p.set_defaults(func=_cmd_current, schemas=schemas, database=database)


def _engine_and_where(database: Where) -> tuple[object, str]:
    target = database()
    if not isinstance(target, DatabaseTarget):
        target.parent.mkdir(parents=True, exist_ok=True)
    return make_engine(target), str(target)


def _cmd_upgrade(args: argparse.Namespace) -> int:
    from sqlalchemy.exc import DBAPIError

    from callcenter.store.engine import StoreUnavailable

    engine, where = _engine_and_where(args.database)
    steps: list[tuple[str, str | None, str]] = []
    try:
        steps.append(("schema", *migrate.upgrade(engine, seed_demo=not args.no_demo_data)))  # type: ignore[arg-type]
        for branch in args.schemas():
            steps.append((f"{branch.name} schema", *migrate.upgrade_branch(engine, branch, seed_demo=not args.no_demo_data)))  # type: ignore[arg-type]
    except DBAPIError as exc:
        raise StoreUnavailable(f"the database {where} cannot be used ({type(exc.orig).__name__})") from None
    finally:
        engine.dispose()  # type: ignore[attr-defined]
    for what, before, after in steps:
        if before == after:
            print(f"database {where}: {what} {after} is current")
        else:
            print(f"database {where}: {what} {before or 'none'} -> {after}")
    return 0


def _cmd_current(args: argparse.Namespace) -> int:
    engine, where = _engine_and_where(args.database)
    try:
        found = [("schema", migrate.current(engine), migrate.HEAD)]  # type: ignore[arg-type]
        found += [(f"{b.name} schema", migrate.branch_revision(engine, b), b.head) for b in args.schemas()]  # type: ignore[arg-type]
    finally:
        engine.dispose()  # type: ignore[attr-defined]
    for what, rev, head in found:
        state = "current" if rev == head else f"needs `callcenter db upgrade` to {head}"
        print(f"database {where}: {what} {rev or 'none'} ({state})")
    return 0 if all(rev == head for _, rev, head in found) else 1
