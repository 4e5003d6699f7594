"""A lock per key (a customer) that holds across threads, processes and pods.

Some decisions read several rows and then write one (billing's per-customer auto-refund
limit: the refunds of every charge of the customer, then the new refund). Two calls for the
same customer deciding at the same moment would both read the old total; a lock per
customer makes them take turns, whichever process or pod they run in, and whatever system
answers the port they write to (the embedded ledger or a company's billing adapter).

- PostgreSQL: a transaction-scoped advisory lock, held on a connection of its own while
  the work runs on others; the server releases it if the process dies.
- SQLite (one file, so one machine): an exclusive `flock` on one of a fixed set of files
  beside the database; the kernel releases it if the process dies.

Waiting is bounded: past `timeout_s` the lock raises `StoreUnavailable` (the caller is told
it couldn't be confirmed, never that it was done).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import time
from collections.abc import Iterator
from pathlib import Path

from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from callcenter.store.engine import StoreUnavailable

STRIPES = 256  # lock files per SQLite database: keys share a file at most 1 in 256 of the time


def _digest(key: str) -> int:
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big")


def folder_for(database: Path) -> Path:
    """Where a SQLite database's lock files live: beside the file, so every process that
    opens that file (whatever its data folder) uses the same locks."""
    return database.parent / f"{database.name}.locks"


@contextlib.contextmanager
def file_lock(folder: Path, key: str, timeout_s: float) -> Iterator[None]:
    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder / f"{_digest(key) % STRIPES:03d}.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        deadline, pause = time.monotonic() + timeout_s, 0.002
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise StoreUnavailable("another request for the same customer is still being decided; try again shortly") from None
                time.sleep(pause)  # polling: a blocking flock could not give up at the deadline
                pause = min(pause * 2, 0.05)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


@contextlib.contextmanager
def server_lock(engine: Engine, key: str, timeout_s: float) -> Iterator[None]:
    try:
        conn = engine.connect()
    except PoolTimeout:
        raise StoreUnavailable("the database has no free connection; try again shortly") from None
    except DBAPIError as exc:
        raise StoreUnavailable(f"the database cannot be reached ({type(exc.orig).__name__})") from None
    with conn, conn.begin():
        try:
            # lock_timeout bounds the wait for the advisory lock too; SET LOCAL ends with the transaction.
            conn.exec_driver_sql(f"SET LOCAL lock_timeout = '{max(1, int(timeout_s * 1000))}ms'")
            # The key's 64-bit digest, computed here: no text of the key reaches the server's logs.
            conn.exec_driver_sql("SELECT pg_advisory_xact_lock(%s)", (_digest(key) - 2**63,))
        except DBAPIError as exc:
            raise StoreUnavailable(f"the customer's records stayed busy ({type(exc.orig).__name__}); try again shortly") from None
        yield


__all__ = ["file_lock", "folder_for", "server_lock"]
