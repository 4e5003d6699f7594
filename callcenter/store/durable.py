"""Exactly-once effects of durable work (Temporal activities) and their recorded outcomes.

An activity may run more than once (a worker dies after writing but before reporting), so
every effect is written together with a `durable_outcomes` row keyed by an idempotency key
derived from the workflow id, in one transaction: a retry finds the row and does nothing.
The same rows let the line answer "what happened to my request?" while Temporal is down.
Functions take a Store so repository.py stays untouched.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from callcenter.redact import mask
from callcenter.store.engine import Conn
from callcenter.store.repository import Store, now_iso


@dataclass(frozen=True, slots=True)
class Outcome:
    key: str
    request_id: str
    kind: str
    customer_id: str | None
    state: str
    decided_by: str | None
    reason: str | None
    detail: str | None
    at: str


_COLUMNS = "key, request_id, kind, customer_id, state, decided_by, reason, detail, at"


@dataclass(frozen=True, slots=True)
class Audit:
    subject: str
    action: str
    actor: str
    reason: str
    role: str | None = None
    customer_id: str | None = None
    call_id: str | None = None  # the call that asked; None for an operator's own action


@dataclass(frozen=True, slots=True)
class Notice:
    customer_id: str | None
    body: str
    dedupe_key: str
    channel: str = "sms"


# An effect runs inside the transaction and may return a detail string (e.g. a refund id).
Effect = Callable[[Conn], str | None]


def apply_once(
    store: Store,
    *,
    key: str,
    request_id: str,
    kind: str,
    customer_id: str | None,
    state: str,
    decided_by: str | None = None,
    reason: str | None = None,
    detail: str | None = None,
    effect: Effect | None = None,
    audit: Audit | None = None,
    notice: Notice | None = None,
) -> tuple[Outcome, bool]:
    """Run `effect`, write the audit entry, the notification and the outcome, all or nothing.

    Returns (outcome, created_now); a second call with the same key returns the first outcome
    and changes nothing.
    """
    with store.transaction() as conn:
        if store.dialect == "postgresql":
            # One writer per key across every pod: a retried activity on another worker waits
            # here and then finds the outcome row (SQLite's BEGIN IMMEDIATE already serialises).
            conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", (key,))
        row = conn.execute(f"SELECT {_COLUMNS} FROM durable_outcomes WHERE key = ?", (key,)).fetchone()
        if row:
            return Outcome(**dict(row)), False
        if effect is not None:
            detail = effect(conn) or detail
        at = now_iso()
        if audit is not None:
            conn.execute(
                "INSERT INTO audit_log (subject, action, actor, reason, at, role, customer_id, call_id)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (audit.subject, audit.action, audit.actor, mask(audit.reason), at, audit.role, audit.customer_id,
                 audit.call_id),
            )
        if notice is not None:
            conn.execute(
                "INSERT INTO notifications (customer_id, channel, body, dedupe_key, created_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (notice.customer_id, notice.channel, mask(notice.body, keep_email=True), notice.dedupe_key, at),
            )
        # An operator's reason and an effect's detail may quote the caller: masked like every stored text.
        reason, detail = (mask(reason) if reason else reason), (mask(detail) if detail else detail)
        outcome = Outcome(key, request_id, kind, customer_id, state, decided_by, reason, detail, at)
        conn.execute(
            "INSERT INTO durable_outcomes (key, request_id, kind, customer_id, state, decided_by,"
            " reason, detail, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (key, request_id, kind, customer_id, state, decided_by, reason, detail, at),
        )
        return outcome, True


def _order(store: Store) -> str:
    # Insertion order breaks same-second ties: SQLite's rowid, PostgreSQL's identity column.
    return "rowid" if store.dialect == "sqlite" else "seq"


def get_outcome(store: Store, key: str) -> Outcome | None:
    row = store._conn().execute(f"SELECT {_COLUMNS} FROM durable_outcomes WHERE key = ?", (key,)).fetchone()
    return Outcome(**dict(row)) if row else None


def latest_outcome(store: Store, request_id: str) -> Outcome | None:
    """The newest recorded step of a request (escalated, then completed/denied/...)."""
    row = store._conn().execute(
        f"SELECT {_COLUMNS} FROM durable_outcomes WHERE request_id = ? ORDER BY at DESC, {_order(store)} DESC LIMIT 1",
        (request_id,),
    ).fetchone()
    return Outcome(**dict(row)) if row else None


def outcomes_for(store: Store, request_id: str) -> list[Outcome]:
    rows = store._conn().execute(
        f"SELECT {_COLUMNS} FROM durable_outcomes WHERE request_id = ? ORDER BY at, {_order(store)}", (request_id,)
    ).fetchall()
    return [Outcome(**dict(r)) for r in rows]


# The ticket workflow's own effect; a domain's effects live with its actions (domains/*/actions.py).
def ticket_status_effect(ticket_id: str, status: str) -> Effect:
    def run(conn: Conn) -> None:
        conn.execute(
            "UPDATE tickets SET status = ?, updated_at = ? WHERE id = ?", (status, now_iso(), ticket_id)
        )

    return run
