"""Store reads and writes the safety policy needs (migration step 3 and open durable work).

A mixin of `Store`: verification attempts (throttling across calls), contact changes that
wait for a step-up call back, and the durable requests still open, whose amounts a domain's
policy counts (billing's refund limits count approvals not yet paid).
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from callcenter.store.engine import Conn

# Outcomes after which an approval no longer holds money back (it was paid or it never will be).
_FINAL = ("completed", "denied", "failed")


@dataclass(frozen=True, slots=True)
class PendingWork:
    """A durable request that still holds its amount back: asked for, not yet done or refused."""

    request_id: str
    record_id: str | None  # the business record it acts on (ApprovalRequest.record_id)
    amount_cents: int


@dataclass(frozen=True, slots=True)
class PendingChange:
    id: str
    customer_id: str
    field: str
    new_value: str | None
    status: str
    created_at: str
    decided_at: str | None


def _since(seconds: float) -> str:
    return (datetime.now(UTC) - timedelta(seconds=seconds)).replace(microsecond=0).isoformat()


class SafetyStoreMixin:
    """Mixed into `callcenter.store.Store`; `_conn` and `transaction` come from it."""

    def _conn(self) -> Conn:  # pragma: no cover - provided by Store
        raise NotImplementedError

    # --- verification attempts -----------------------------------------------------------
    def record_verification(self, *, customer_id: str | None, line: str, outcome: str, actor: str) -> None:
        at = datetime.now(UTC).replace(microsecond=0).isoformat()
        self._conn().execute(
            "INSERT INTO verification_attempts (at, customer_id, line, outcome, actor) VALUES (?, ?, ?, ?, ?)",
            (at, customer_id.upper() if customer_id else None, line, outcome, actor),
        )

    def verification_failures(self, *, customer_id: str | None = None, line: str | None = None, window_s: float) -> int:
        """Failed attempts in the window: a customer's after its latest success, a line's all of them."""
        column, value = ("customer_id", customer_id.upper()) if customer_id else ("line", line)
        if value is None:
            return 0
        since = _since(window_s)
        if column == "line":
            return int(self._conn().execute(
                "SELECT COUNT(*) FROM verification_attempts WHERE line = ? AND outcome != 'success' AND at >= ?", (value, since),
            ).fetchone()[0])
        last_ok = self._conn().execute(
            f"SELECT MAX(id) FROM verification_attempts WHERE {column} = ? AND outcome = 'success' AND at >= ?",  # noqa: S608
            (value, since),
        ).fetchone()[0] or 0
        row = self._conn().execute(
            f"SELECT COUNT(*) FROM verification_attempts WHERE {column} = ? AND outcome != 'success'"  # noqa: S608
            " AND at >= ? AND id > ?",
            (value, since, last_ok),
        ).fetchone()
        return int(row[0])

    def check_verification(self, *, key: str, line: str, matched: bool, actor: str, window_s: float, limit: int) -> str:
        """Decide and record one identity attempt in one transaction; returns its outcome.

        `key` is the account the caller's identifier named (or the claim itself when it named
        none), so a customer number, an email and a phone of one account share one count;
        `line` is the calling line (or the call's session). `locked_out` if either has had
        `limit` failures in the window (the account's since its last success; the line's all
        of them: a success on one account does not clear a line guessing others), else
        `success` or `failure` as `matched` says. Two calls guessing at the same moment take turns.
        """
        key, since = key.upper(), _since(window_s)
        with self.transaction() as conn:  # type: ignore[attr-defined]
            if self.dialect == "postgresql":  # type: ignore[attr-defined]
                for k in sorted({f"verify:{key}", f"verify-line:{line}"}):
                    conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", (k,))
            last_ok = conn.execute(
                "SELECT MAX(id) FROM verification_attempts WHERE customer_id = ? AND outcome = 'success' AND at >= ?",
                (key, since),
            ).fetchone()[0] or 0
            by_account = conn.execute(
                "SELECT COUNT(*) FROM verification_attempts WHERE customer_id = ? AND outcome != 'success' AND at >= ? AND id > ?",
                (key, since, last_ok),
            ).fetchone()[0]
            by_line = conn.execute(
                "SELECT COUNT(*) FROM verification_attempts WHERE line = ? AND outcome != 'success' AND at >= ?", (line, since),
            ).fetchone()[0]
            outcome = "locked_out" if max(int(by_account), int(by_line)) >= limit else ("success" if matched else "failure")
            conn.execute(
                "INSERT INTO verification_attempts (at, customer_id, line, outcome, actor) VALUES (?, ?, ?, ?, ?)",
                (datetime.now(UTC).replace(microsecond=0).isoformat(), key, line, outcome, actor),
            )
        return outcome

    def verification_attempts(self, *, customer_id: str | None = None, line: str | None = None) -> list[tuple[str, str | None, str, str]]:
        sql, args = "SELECT at, customer_id, line, outcome FROM verification_attempts WHERE 1=1", []
        if customer_id is not None:
            sql, args = sql + " AND customer_id = ?", [*args, customer_id.upper()]
        if line is not None:
            sql, args = sql + " AND line = ?", [*args, line]
        return [tuple(r) for r in self._conn().execute(sql + " ORDER BY id", args).fetchall()]  # type: ignore[misc]

    # --- step-up: contact changes wait for a call back to the number on file -------------
    def add_pending_change(self, *, customer_id: str, field: str, new_value: str | None) -> PendingChange:
        cid = f"PC-{secrets.token_hex(4).upper()}"
        at = datetime.now(UTC).replace(microsecond=0).isoformat()
        self._conn().execute(
            "INSERT INTO pending_changes (id, customer_id, field, new_value, created_at) VALUES (?, ?, ?, ?, ?)",
            (cid, customer_id, field, new_value, at),
        )
        change = self.pending_change(cid)
        assert change is not None
        return change

    def pending_change(self, change_id: str) -> PendingChange | None:
        row = self._conn().execute("SELECT * FROM pending_changes WHERE id = ?", (change_id,)).fetchone()
        return PendingChange(**dict(row)) if row else None

    def list_pending_changes(self, customer_id: str | None = None) -> list[PendingChange]:
        sql, args = "SELECT * FROM pending_changes", []
        if customer_id is not None:
            sql, args = sql + " WHERE customer_id = ?", [customer_id]
        return [PendingChange(**dict(r)) for r in self._conn().execute(sql + " ORDER BY created_at, id", args).fetchall()]

    def resolve_pending_change(self, change_id: str, *, confirmed: bool, actor: str) -> str:
        """After the call back: apply the change if the account holder confirmed it; returns the new status.

        `applied`, `rejected`, or `conflict` (the new email is already another account's:
        said to the colleague on the call back, never to the caller who asked).
        """
        change = self.pending_change(change_id)
        if change is None or change.status != "awaiting_callback":
            raise ValueError("no such pending change awaiting a call back")
        at = datetime.now(UTC).replace(microsecond=0).isoformat()
        with self.transaction() as conn:  # type: ignore[attr-defined]
            # Re-read under the row lock: two colleagues confirming at once apply it once.
            now = conn.execute(
                "SELECT status FROM pending_changes WHERE id = ?" + self.for_update, (change_id,)  # type: ignore[attr-defined]
            ).fetchone()
            if now is None or now["status"] != "awaiting_callback":
                raise ValueError("no such pending change awaiting a call back")
            status = "applied" if confirmed else "rejected"
            if confirmed and change.field == "email":
                taken = conn.execute(
                    "SELECT 1 FROM customers WHERE lower(email) = lower(?) AND id != ?", (change.new_value, change.customer_id)
                ).fetchone()
                if taken:
                    status = "conflict"
                else:
                    conn.execute("UPDATE customers SET email = ? WHERE id = ?", (change.new_value, change.customer_id))
            elif confirmed and change.field == "phone":
                conn.execute("UPDATE customers SET phone = ? WHERE id = ?", (change.new_value, change.customer_id))
            elif confirmed and change.field == "unlock":
                conn.execute("UPDATE customers SET locked = 0 WHERE id = ?", (change.customer_id,))
            if status == "applied" and change.field in ("email", "phone"):
                conn.execute(
                    "INSERT INTO profile_changes (customer_id, field, changed_at) VALUES (?, ?, ?)", (change.customer_id, change.field, at)
                )
            conn.execute("UPDATE pending_changes SET status = ?, decided_at = ? WHERE id = ?", (status, at, change_id))
            conn.execute(
                "INSERT INTO audit_log (subject, action, actor, reason, at) VALUES (?, ?, ?, ?, ?)",
                (change.customer_id, f"step_up:{change.field}:{status}", actor, f"call back for {change_id}", at),
            )
        return status

    # --- caps on what one caller may file -----------------------------------------------------------
    def claim_request(
        self, *, kind: str, call_id: str, customer_id: str | None, line: str | None, per_call: int, per_day: int,
    ) -> str | None:
        """Record that the caller files one more `kind` unless a cap is reached; returns None
        when recorded, else which cap: "call" or "day".

        Per call, and per 24 hours per customer (or, for a caller not verified, per calling
        line). Counted and written in one transaction, so callers of one customer filing at the
        same moment in several processes cannot pass the cap together.
        """
        since = _since(24 * 3600)
        with self.transaction() as conn:  # type: ignore[attr-defined]
            if self.dialect == "postgresql":  # type: ignore[attr-defined]
                keys = {f"claim:{kind}:{call_id}", f"claim:{kind}:{customer_id or line}"}
                for k in sorted(keys):
                    conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", (k,))
            in_call = conn.execute("SELECT COUNT(*) FROM caller_requests WHERE call_id = ? AND kind = ?",
                                   (call_id, kind)).fetchone()[0]
            if int(in_call) >= per_call:
                return "call"
            column, who = ("customer_id", customer_id) if customer_id else ("line", line)
            if who is not None:
                today = conn.execute(
                    f"SELECT COUNT(*) FROM caller_requests WHERE {column} = ? AND kind = ? AND at >= ?",  # noqa: S608
                    (who, kind, since),
                ).fetchone()[0]
                if int(today) >= per_day:
                    return "day"
            conn.execute(
                "INSERT INTO caller_requests (at, kind, call_id, customer_id, line) VALUES (?, ?, ?, ?, ?)",
                (datetime.now(UTC).replace(microsecond=0).isoformat(), kind, call_id, customer_id, line),
            )
        return None

    def caller_requests(self, *, customer_id: str | None = None, call_id: str | None = None) -> list[tuple[str, str]]:
        """(kind, call id) of what was filed, oldest first."""
        sql, args = "SELECT kind, call_id FROM caller_requests WHERE 1=1", []
        if customer_id is not None:
            sql, args = sql + " AND customer_id = ?", [*args, customer_id]
        if call_id is not None:
            sql, args = sql + " AND call_id = ?", [*args, call_id]
        return [(r[0], r[1]) for r in self._conn().execute(sql + " ORDER BY id", args).fetchall()]

    # --- durable work still open -------------------------------------------------------------------
    def pending_work(self, customer_id: str, kind: str) -> list[PendingWork]:
        """Requests of `kind` asked for and not yet carried out, denied or failed."""
        rows = self._conn().execute(
            "SELECT w.id, w.amount_cents, w.payload FROM work_requests w WHERE w.kind = ?"
            " AND w.customer_id = ? AND w.status != 'invalid' AND NOT EXISTS (SELECT 1 FROM durable_outcomes o"
            f" WHERE o.request_id = w.id AND o.state IN ({', '.join('?' * len(_FINAL))}))",
            (kind, customer_id, *_FINAL),
        ).fetchall()
        out = []
        for r in rows:
            try:
                payload = json.loads(r["payload"])
            except ValueError:
                payload = {}
            # The outbox's two payload formats, each with the pre-0.2 key (see ApprovalRequest).
            request = payload.get("request") or {}
            record = payload.get("record_id") or payload.get("charge_id") or request.get("record_id") or request.get("charge_id")
            out.append(PendingWork(r["id"], record, int(r["amount_cents"] or 0)))
        return out
