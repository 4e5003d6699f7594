"""Operator accounts, console sessions, CLI tokens and the audit search: parametrised SQL.

Session ids and tokens are random secrets handed to the operator once; the store keeps only
their SHA-256, so a copy of the database cannot be replayed as a login.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from callcenter.store import models as m
from callcenter.store.repository import Store, now_iso


@dataclass(frozen=True, slots=True)
class Operator:
    name: str
    password_hash: str | None
    role: str
    limit_cents: int
    customer_id: str | None
    oidc_subject: str | None
    disabled: bool
    failed_logins: int
    locked_until: str | None
    created_at: str


@dataclass(frozen=True, slots=True)
class Session:
    operator: Operator
    csrf: str
    expires_at: str


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _at(offset_s: float) -> str:
    return (datetime.now(UTC) + timedelta(seconds=offset_s)).replace(microsecond=0).isoformat()


# --- accounts ---------------------------------------------------------------------------------
def add_operator(
    store: Store, *, name: str, role: str, limit_cents: int, password_hash: str | None,
    customer_id: str | None = None, oidc_subject: str | None = None,
) -> Operator:
    store._conn().execute(
        "INSERT INTO operators (name, password_hash, role, limit_cents, customer_id, oidc_subject, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        (name, password_hash, role, limit_cents, customer_id, oidc_subject, now_iso()),
    )
    op = get_operator(store, name)
    assert op is not None
    return op


def get_operator(store: Store, name: str) -> Operator | None:
    return store.fetch_one(Operator, "SELECT * FROM operators WHERE name = ?", name)


def find_by_oidc(store: Store, subject: str) -> Operator | None:
    return store.fetch_one(Operator, "SELECT * FROM operators WHERE oidc_subject = ?", subject)


def list_operators(store: Store) -> list[Operator]:
    return store.fetch_all(Operator, "SELECT * FROM operators ORDER BY name")


def set_disabled(store: Store, name: str, disabled: bool) -> bool:
    cur = store._conn().execute("UPDATE operators SET disabled = ? WHERE name = ?", (int(disabled), name))
    if disabled:
        store._conn().execute("DELETE FROM operator_sessions WHERE operator = ?", (name,))
        store._conn().execute("UPDATE operator_tokens SET revoked = 1 WHERE operator = ?", (name,))
    return cur.rowcount == 1


def set_password_hash(store: Store, name: str, password_hash: str) -> None:
    store._conn().execute("UPDATE operators SET password_hash = ? WHERE name = ?", (password_hash, name))


def note_failed_login(store: Store, name: str, *, max_failures: int, lockout_s: int) -> bool:
    """Count a failure; lock the account after `max_failures` in a row. True if now locked."""
    with store.transaction() as conn:
        row = conn.execute("SELECT failed_logins FROM operators WHERE name = ?" + store.for_update, (name,)).fetchone()
        if row is None:
            return False
        n = int(row[0]) + 1
        locked = n >= max_failures
        conn.execute(
            "UPDATE operators SET failed_logins = ?, locked_until = ? WHERE name = ?",
            (0 if locked else n, _at(lockout_s) if locked else None, name),
        )
    return locked


def note_good_login(store: Store, name: str) -> None:
    store._conn().execute("UPDATE operators SET failed_logins = 0, locked_until = NULL WHERE name = ?", (name,))


def is_locked(op: Operator) -> bool:
    return bool(op.locked_until) and op.locked_until > now_iso()  # type: ignore[operator]


# --- console sessions ---------------------------------------------------------------------------
def create_session(store: Store, operator: str, *, idle_s: int, max_s: int) -> tuple[str, str]:
    """A new session: (secret id for the cookie, CSRF token). The absolute end is fixed now."""
    sid, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    store._conn().execute(
        "INSERT INTO operator_sessions (id_hash, operator, csrf, created_at, last_seen, expires_at)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (digest(sid), operator, csrf, now_iso(), now_iso(), _at(max_s)),
    )
    return sid, csrf


def get_session(store: Store, sid: str, *, idle_s: int) -> Session | None:
    """The live session, touched; None when unknown, idle too long, past its end or disabled."""
    row = store._conn().execute(
        "SELECT operator, csrf, last_seen, expires_at FROM operator_sessions WHERE id_hash = ?", (digest(sid),)
    ).fetchone()
    if row is None:
        return None
    now = now_iso()
    idle_end = (datetime.fromisoformat(row["last_seen"]) + timedelta(seconds=idle_s)).isoformat()
    op = get_operator(store, row["operator"])
    if row["expires_at"] <= now or idle_end <= now or op is None or op.disabled:
        end_session(store, sid)
        return None
    # Touch at most every 15 s: the live queue polls every 2 s, and a write per poll would
    # contend with the worker for the database for nothing.
    if (datetime.fromisoformat(now) - datetime.fromisoformat(row["last_seen"])).total_seconds() >= 15:
        store._conn().execute("UPDATE operator_sessions SET last_seen = ? WHERE id_hash = ?", (now, digest(sid)))
    return Session(op, row["csrf"], row["expires_at"])


def end_session(store: Store, sid: str) -> None:
    store._conn().execute("DELETE FROM operator_sessions WHERE id_hash = ?", (digest(sid),))


def expire_sessions_of(store: Store, operator: str) -> None:
    """Make every session of `operator` already expired (tests, and an admin's kill switch)."""
    store._conn().execute(
        "UPDATE operator_sessions SET expires_at = ? WHERE operator = ?", (_at(-1), operator))


# --- CLI tokens -------------------------------------------------------------------------------
def create_token(store: Store, operator: str, *, ttl_h: int) -> str:
    token = "cco_" + secrets.token_urlsafe(32)
    store._conn().execute(
        "INSERT INTO operator_tokens (id_hash, operator, created_at, expires_at) VALUES (?, ?, ?, ?)",
        (digest(token), operator, now_iso(), _at(ttl_h * 3600)),
    )
    return token


def operator_for_token(store: Store, token: str) -> Operator | None:
    row = store._conn().execute(
        "SELECT operator FROM operator_tokens WHERE id_hash = ? AND revoked = 0 AND expires_at > ?",
        (digest(token), now_iso()),
    ).fetchone()
    op = get_operator(store, row[0]) if row else None
    return op if op is not None and not op.disabled else None


# --- audit search -----------------------------------------------------------------------------
def search_audit(
    store: Store, *, actor: str | None = None, subject: str | None = None, customer_id: str | None = None,
    action: str | None = None, limit: int = 500,
) -> list[m.AuditEntry]:
    """Newest first. Text filters match a substring (actor, request), ids match exactly."""
    where, args = [], []
    if actor:
        where.append("actor LIKE ? ESCAPE '\\'")
        args.append("%" + _like(actor) + "%")
    if subject:
        where.append("subject LIKE ? ESCAPE '\\'")
        args.append("%" + _like(subject) + "%")
    if customer_id:
        where.append("customer_id = ?")
        args.append(customer_id)
    if action:
        where.append("action LIKE ? ESCAPE '\\'")
        args.append(_like(action) + "%")
    sql = "SELECT * FROM audit_log" + (" WHERE " + " AND ".join(where) if where else "")
    return store.fetch_all(m.AuditEntry, sql + " ORDER BY id DESC LIMIT ?", *args, int(limit))


def _like(s: str) -> str:
    return s.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
