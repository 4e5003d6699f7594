"""The typed repository: every read and write of the store, as parametrised SQL.

One database shared by the line, the Temporal worker and the operator console: the SQLite
file in the data folder (embedded default) or a PostgreSQL server (CALLCENTER_DATABASE_URL)
for a deployment of many pods. Same SQL, same API; see engine.py for how it runs on each.
"""

from __future__ import annotations

import contextlib
import hashlib
import secrets
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from callcenter.redact import mask, mask_json
from callcenter.store import locks, migrate
from callcenter.store import models as m
from callcenter.store.engine import (
    Conn,
    DatabaseTarget,
    Result,
    StoreError,
    StoreUnavailable,
    connect,
    make_engine,
    safe_url,
)
from callcenter.store.safety import SafetyStoreMixin
from callcenter.store.spool import Spool

T = TypeVar("T")
__all__ = ["Store", "StoreError", "StoreUnavailable", "now_iso"]


def _db_problem(path: Path, exc: sqlite3.DatabaseError) -> str:
    text = str(exc).lower()
    if "readonly" in text or "read-only" in text:
        return f"the database {path} is read-only; the line needs to write to it"
    if "not a database" in text or "malformed" in text or "corrupt" in text:
        return f"the database {path} is not a readable callcenter database (corrupt or truncated); move it away to start fresh"
    if "unable to open" in text:
        return f"cannot open the database {path}"
    return f"the database {path} cannot be used ({type(exc).__name__})"


def now_iso() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def _target(where: Path | str | DatabaseTarget) -> Path | DatabaseTarget:
    if isinstance(where, str) and "://" in where:
        return DatabaseTarget(url=where, data_dir=Path("."))
    return where if isinstance(where, DatabaseTarget) else Path(where)


class Store(SafetyStoreMixin):
    def __init__(self, path: Path | str | DatabaseTarget, *, seed_demo: bool = True,
                 schemas: Sequence[migrate.SchemaBranch] = ()) -> None:
        """Open (and, unless the target says not to, upgrade) the foundation's tables and each
        of `schemas` (the domains' own, handed in by a composition root; a domain's stand-in
        also checks its own when it is built)."""
        target = _target(path)
        self._seed_demo = seed_demo
        if isinstance(target, DatabaseTarget):
            self.target: DatabaseTarget | None = target
            # Local keys and caches still live in the data folder; the data is on the server.
            self.path = target.data_dir / "callcenter.server-db"
            self.where = safe_url(target.url)
        else:
            self.target, self.path, self.where = None, target, str(target)
            self._prepare_file()
        self.engine = make_engine(target)
        self.dialect = self.engine.dialect.name
        # Row locks where the server has them; SQLite's BEGIN IMMEDIATE already serialises writers.
        self.for_update = " FOR UPDATE" if self.dialect == "postgresql" else ""
        self._auto = Conn(self.engine)
        # Requests taken while the database is down wait here, one folder per database.
        self.spool = Spool(self.path.parent / "outbox" / hashlib.sha256(self.where.encode()).hexdigest()[:12], self._apply_held)
        self._migrate_on_start = target.migrate_on_start if isinstance(target, DatabaseTarget) else True
        self._branches: set[str] = set()  # domain schema branches found current in this process
        try:
            migrate.ensure(self.engine, seed_demo=seed_demo, migrate=self._migrate_on_start, where=self.where)
        except DBAPIError as exc:
            self.close()
            raise self._problem(exc) from None
        except PoolTimeout:
            self.close()
            raise StoreUnavailable(f"the database {self.where} did not answer in time") from None
        for branch in schemas:
            try:
                self.ensure_schema(branch)
            except StoreError:
                self.close()
                raise
        if self.spool.held():  # held by an earlier run of this process while the database was down
            self.spool.start()

    def _prepare_file(self) -> None:
        # Every bad local state is one clear line, never a traceback (issue 10).
        if self.path.is_dir():
            raise StoreError(f"the database path {self.path} is a directory, not a database file")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError):
            raise StoreError(f"the data directory {self.path.parent} is a file, not a directory") from None
        except OSError as exc:
            raise StoreError(f"cannot create the data directory {self.path.parent}: {exc.strerror}") from None

    def _problem(self, exc: DBAPIError) -> StoreError:
        if self.dialect == "sqlite" and isinstance(exc.orig, sqlite3.DatabaseError):
            return StoreError(_db_problem(self.path, exc.orig))
        if exc.connection_invalidated or type(exc.orig).__name__ in ("OperationalError", "InterfaceError"):
            # Never the server's text: it can carry the user name or host of the URL.
            return StoreUnavailable(f"the database {self.where} cannot be reached ({type(exc.orig).__name__})")
        return StoreError(f"the database {self.where} refused a request ({type(exc.orig).__name__})")

    # --- plumbing --------------------------------------------------------------------
    def _conn(self) -> Conn:
        """Statements that commit one by one (each its own short transaction)."""
        return self._auto

    @contextmanager
    def transaction(self) -> Iterator[Conn]:
        """All or nothing; on SQLite the write lock is taken at the start (BEGIN IMMEDIATE)."""
        try:
            conn = connect(self.engine, write=True)
        except DBAPIError as exc:
            raise self._problem(exc) from None
        except PoolTimeout:
            raise StoreUnavailable(f"the database {self.where} has no free connection") from None
        with conn:
            with conn.begin():
                yield Conn(self.engine, conn)

    def customer_lock(self, customer_id: str, timeout_s: float = 10.0) -> contextlib.AbstractContextManager[None]:
        """One decision at a time per customer, across threads, processes and pods (locks.py):
        a check over several rows and the write it allows (billing's per-customer limit)."""
        key = f"customer:{customer_id.upper()}"
        if self.dialect == "sqlite":
            return locks.file_lock(locks.folder_for(Path(self.engine.url.database or self.path)), key, timeout_s)
        return locks.server_lock(self.engine, key, timeout_s)

    def close(self) -> None:
        spool = getattr(self, "spool", None)
        if spool is not None:
            spool.close()
        engine = getattr(self, "engine", None)
        if engine is not None:
            engine.dispose()

    def ensure_schema(self, branch: migrate.SchemaBranch) -> None:
        """A domain's own tables, checked (and upgraded, and seeded in a new demo database)
        the way the foundation's are on open; once per branch per store."""
        if branch.name in self._branches:
            return
        try:
            migrate.ensure_branch(self.engine, branch, seed_demo=self._seed_demo, migrate=self._migrate_on_start, where=self.where)
        except DBAPIError as exc:
            raise self._problem(exc) from None
        except PoolTimeout:
            raise StoreUnavailable(f"the database {self.where} did not answer in time") from None
        self._branches.add(branch.name)

    def execute(self, sql: str, args: Sequence[Any] = ()) -> Result:
        """One statement committed on its own; `transaction()` for several at once."""
        return self._conn().execute(sql, args)

    @property
    def schema_version(self) -> str | None:
        """The Alembic revision of the database (migrate.HEAD when current)."""
        return migrate.current(self.engine)

    # Typed reads, for the store's own tables and a domain's (its embedded stand-in).
    def fetch_one(self, cls: type[T], sql: str, *args: Any) -> T | None:
        row = self._conn().execute(sql, args).fetchone()
        return cls(**dict(row)) if row else None

    def fetch_all(self, cls: type[T], sql: str, *args: Any) -> list[T]:
        return [cls(**dict(r)) for r in self._conn().execute(sql, args).fetchall()]

    # --- customers -------------------------------------------------------------------
    def get_customer(self, customer_id: str) -> m.Customer | None:
        return self.fetch_one(m.Customer, "SELECT * FROM customers WHERE id = ?", customer_id.upper())

    def find_customer_by_email(self, email: str) -> m.Customer | None:
        return self.fetch_one(m.Customer, "SELECT * FROM customers WHERE lower(email) = lower(?)", email)

    def find_customer_by_phone(self, phone: str) -> m.Customer | None:
        return self.fetch_one(m.Customer, "SELECT * FROM customers WHERE phone = ?", phone)

    def update_email(self, customer_id: str, email: str) -> None:
        with self.transaction() as conn:
            conn.execute("UPDATE customers SET email = ? WHERE id = ?", (email, customer_id))
            conn.execute(
                "INSERT INTO profile_changes (customer_id, field, changed_at) VALUES (?, 'email', ?)",
                (customer_id, now_iso()),
            )

    def update_phone(self, customer_id: str, phone: str) -> None:
        with self.transaction() as conn:
            conn.execute("UPDATE customers SET phone = ? WHERE id = ?", (phone, customer_id))
            conn.execute(
                "INSERT INTO profile_changes (customer_id, field, changed_at) VALUES (?, 'phone', ?)",
                (customer_id, now_iso()),
            )

    def profile_changes(self, customer_id: str) -> list[str]:
        rows = self._conn().execute(
            "SELECT field FROM profile_changes WHERE customer_id = ? ORDER BY id", (customer_id,)
        )
        return [r[0] for r in rows]

    def set_locked(self, customer_id: str, locked: bool) -> None:
        self._conn().execute("UPDATE customers SET locked = ? WHERE id = ?", (int(locked), customer_id))

    def close_account(self, customer_id: str) -> None:
        self._set_flag(customer_id, "closed", 1)

    def reset_two_factor(self, customer_id: str) -> None:
        self._set_flag(customer_id, "two_factor", 0)

    def _set_flag(self, customer_id: str, column: str, value: int) -> None:
        cur = self._conn().execute(f"UPDATE customers SET {column} = ? WHERE id = ?", (value, customer_id.upper()))  # noqa: S608 - a constant of this class
        if cur.rowcount != 1:
            raise ValueError("unknown customer")  # no id in the message: it reaches the outcome's detail

    def recent_logins(self, customer_id: str, days: int = 7) -> list[m.LoginEvent]:
        since = (datetime.now(UTC) - timedelta(days=days)).isoformat()
        rows = self._conn().execute(
            "SELECT * FROM login_events WHERE customer_id = ? AND at >= ? ORDER BY at DESC",
            (customer_id, since),
        ).fetchall()
        return [m.LoginEvent(**{**dict(r), "success": bool(r["success"])}) for r in rows]

    # --- tickets ---------------------------------------------------------------------
    def create_ticket(self, *, customer_id: str | None, kind: str, summary: str, ticket_id: str | None = None) -> m.Ticket:
        """Open a ticket (idempotent by id). With the database down it is held on local disk under
        its id and opened when the database is back; the returned ticket's status is 'held'."""
        tid = ticket_id or f"T-{secrets.token_hex(3).upper()}"
        args = {"ticket_id": tid, "customer_id": customer_id, "kind": kind, "summary": mask(summary)[:500], "at": now_iso()}
        try:
            self._insert_ticket(**args)
        except StoreUnavailable:
            self.spool.hold("create_ticket", tid, args)
            return m.Ticket(tid, customer_id, kind, args["summary"], "held", args["at"], args["at"])
        ticket = self.get_ticket(tid)
        assert ticket is not None
        return ticket

    def _insert_ticket(self, *, ticket_id: str, customer_id: str | None, kind: str, summary: str, at: str) -> None:
        self._conn().execute(
            "INSERT INTO tickets VALUES (?, ?, ?, ?, 'open', ?, ?) ON CONFLICT DO NOTHING",
            (ticket_id, customer_id, kind, summary, at, at),
        )

    def get_ticket(self, ticket_id: str) -> m.Ticket | None:
        return self.fetch_one(m.Ticket, "SELECT * FROM tickets WHERE id = ?", ticket_id.upper())

    def list_tickets(self, customer_id: str | None = None, kind: str | None = None) -> list[m.Ticket]:
        sql, args = "SELECT * FROM tickets WHERE 1=1", []
        if customer_id is not None:
            sql, args = sql + " AND customer_id = ?", [*args, customer_id]
        if kind is not None:
            sql, args = sql + " AND kind = ?", [*args, kind]
        return self.fetch_all(m.Ticket, sql + " ORDER BY created_at DESC, id", *args)

    def set_ticket_status(self, ticket_id: str, status: str) -> None:
        self._conn().execute(
            "UPDATE tickets SET status = ?, updated_at = ? WHERE id = ?", (status, now_iso(), ticket_id)
        )

    # --- durable work outbox, notifications, audit -------------------------------------
    def queue_work(self, *, request_id: str, kind: str, customer_id: str | None, amount_cents: int | None, payload: str) -> m.WorkRequest:
        """Put a request in the outbox (idempotent by id). With the database down it is held on
        local disk and written when the database is back; the returned request's status is 'held'."""
        args = {"request_id": request_id, "kind": kind, "customer_id": customer_id, "amount_cents": amount_cents,
                "payload": mask_json(payload), "at": now_iso()}
        try:
            self._insert_work(**args)
        except StoreUnavailable:
            self.spool.hold("queue_work", request_id, args)
            return m.WorkRequest(request_id, kind, customer_id, amount_cents, args["payload"], "held", args["at"], None)
        req = self.get_work(request_id)
        assert req is not None
        return req

    def _insert_work(self, *, request_id: str, kind: str, customer_id: str | None, amount_cents: int | None, payload: str, at: str) -> None:
        self._conn().execute(
            "INSERT INTO work_requests (id, kind, customer_id, amount_cents, payload, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (request_id, kind, customer_id, amount_cents, payload, at),
        )

    def _apply_held(self, op: str, args: dict[str, Any]) -> None:
        """Write one request held while the database was down (both writes are idempotent)."""
        {"queue_work": self._insert_work, "create_ticket": self._insert_ticket}[op](**args)

    def get_work(self, request_id: str) -> m.WorkRequest | None:
        return self.fetch_one(m.WorkRequest, "SELECT * FROM work_requests WHERE id = ?", request_id)

    def list_work(self, *, status: str | None = None, customer_id: str | None = None) -> list[m.WorkRequest]:
        sql, args = "SELECT * FROM work_requests WHERE 1=1", []
        if status is not None:
            sql, args = sql + " AND status = ?", [*args, status]
        if customer_id is not None:
            sql, args = sql + " AND customer_id = ?", [*args, customer_id]
        return self.fetch_all(m.WorkRequest, sql + " ORDER BY created_at, id", *args)

    def set_work_status(self, request_id: str, status: str) -> None:
        submitted = now_iso() if status == "submitted" else None
        self._conn().execute(
            "UPDATE work_requests SET status = ?, submitted_at = COALESCE(?, submitted_at) WHERE id = ?",
            (status, submitted, request_id),
        )

    def add_notification(self, *, customer_id: str | None, channel: str, body: str, dedupe_key: str) -> bool:
        cur = self._conn().execute(
            "INSERT INTO notifications (customer_id, channel, body, dedupe_key, created_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (customer_id, channel, mask(body, keep_email=True), dedupe_key, now_iso()),
        )
        return cur.rowcount == 1

    def list_notifications(self, customer_id: str | None = None) -> list[m.Notification]:
        if customer_id is None:
            return self.fetch_all(m.Notification, "SELECT * FROM notifications ORDER BY id")
        return self.fetch_all(m.Notification, "SELECT * FROM notifications WHERE customer_id = ? ORDER BY id", customer_id)

    def add_audit(
        self, *, subject: str, action: str, actor: str, reason: str, role: str | None = None,
        customer_id: str | None = None,
    ) -> None:
        self._conn().execute(
            "INSERT INTO audit_log (subject, action, actor, reason, at, role, customer_id)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (subject, action, actor, mask(reason), now_iso(), role, customer_id),
        )

    def audit_for(self, subject: str) -> list[m.AuditEntry]:
        return self.fetch_all(m.AuditEntry, "SELECT * FROM audit_log WHERE subject = ? ORDER BY id", subject)
