"""`callcenter db upgrade|current`: the schema of the configured database.

Deployments run `db upgrade` once per release (the chart's pre-install/pre-upgrade Job) with
CALLCENTER_DB_MIGRATE_ON_START=false on every pod; one machine never needs it (the SQLite
file is upgraded when a process opens it).
"""

from __future__ import annotations

import argparse

from callcenter.settings import get_settings
from callcenter.store import migrate
from callcenter.store.engine import DatabaseTarget, make_engine


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    db = subparsers.add_parser("db", help="the database schema: upgrade it to this release, or show its revision")
    sub = db.add_subparsers(dest="db_cmd", required=True)
    p = sub.add_parser("upgrade", help="apply this release's migrations (safe to run from several places at once)")
    p.add_argument("--no-demo-data", action="store_true",
                   help="do not write the demo customers into a new, empty database")
    p.set_defaults(func=_cmd_upgrade)
    p = sub.add_parser("current", help="print the database's schema revision and this release's")
    p.set_defaults(func=_cmd_current)


def _engine_and_where() -> tuple[object, str]:
    target = get_settings().db_path
    if not isinstance(target, DatabaseTarget):
        target.parent.mkdir(parents=True, exist_ok=True)
    return make_engine(target), str(target)


def _cmd_upgrade(args: argparse.Namespace) -> int:
    from sqlalchemy.exc import DBAPIError

    from callcenter.store.engine import StoreUnavailable

    engine, where = _engine_and_where()
    try:
        before, after = migrate.upgrade(engine, seed_demo=not args.no_demo_data)  # type: ignore[arg-type]
    except DBAPIError as exc:
        raise StoreUnavailable(f"the database {where} cannot be used ({type(exc.orig).__name__})") from None
    finally:
        engine.dispose()  # type: ignore[attr-defined]
    if before == after:
        print(f"database {where}: schema {after} is current")
    else:
        print(f"database {where}: schema {before or 'none'} -> {after}")
    return 0


def _cmd_current(args: argparse.Namespace) -> int:
    engine, where = _engine_and_where()
    try:
        rev = migrate.current(engine)  # type: ignore[arg-type]
    finally:
        engine.dispose()  # type: ignore[attr-defined]
    state = "current" if rev == migrate.HEAD else f"needs `callcenter db upgrade` to {migrate.HEAD}"
    print(f"database {where}: schema {rev or 'none'} ({state})")
    return 0 if rev == migrate.HEAD else 1
