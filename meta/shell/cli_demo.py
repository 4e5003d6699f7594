"""`callcenter reset-demo`: start the demo again from the seeded customers.

Deletes this data dir's database and the local Temporal dev server's history (the demo's
state); keeps the trained router cache and the console's signing keys. Refused while a
line or `callcenter temporal-server` is running on the data dir.
"""

from __future__ import annotations

import argparse
import sys

from callcenter.settings import get_settings

_SUFFIXES = ("", "-wal", "-shm", "-journal")


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "reset-demo", help="forget every call, request and operator: the demo customers as first seeded",
        description="Delete the data dir's database and local Temporal history; the next run seeds the "
        "demo customers again. The router cache is kept. Refused while a local Temporal server runs.",
    )
    p.set_defaults(func=cmd_reset_demo)


def cmd_reset_demo(args: argparse.Namespace) -> int:
    from workflows.devserver import DISCOVERY_FILE, discover

    settings = get_settings()
    data = settings.data_dir
    if settings.database_url is not None:
        # A shared server holds other pods' calls too: the demo reset only ever deletes local files.
        print("error: reset-demo resets the SQLite file of the data dir; CALLCENTER_DATABASE_URL names a "
              "database server, which it does not touch (unset it to reset the local demo)", file=sys.stderr)
        return 2
    running = discover(data)
    if running:
        print(f"error: a local Temporal server is running at {running} for {data}; end the call "
              "or stop `callcenter temporal-server` first", file=sys.stderr)
        return 1
    removed = []
    for base in (settings.db_path, data / "temporal.sqlite3"):
        for suffix in _SUFFIXES:
            path = base.with_name(base.name + suffix)
            if path.exists():
                path.unlink()
                removed.append(path.name)
    (data / DISCOVERY_FILE).unlink(missing_ok=True)  # a stale address of a server that is gone
    if settings.temporal_address:
        print(f"note: requests on the Temporal server at {settings.temporal_address} are not touched",
              file=sys.stderr)
    print(f"reset {data}: " + (", ".join(removed) if removed else "nothing to remove")
          + "; the next call starts from the seeded demo customers")
    return 0
