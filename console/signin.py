"""Password sign-in shared by the console and `callcenter operators login`.

Throttles per client address and per account name (any name, known or not), a lockout of
an existing account after repeated failures, one answer for every refusal (a wrong name, a
wrong password, a locked or disabled account read the same, so nobody learns which names
exist), and an audit line for every attempt with its source address. Audit rows for
refused anonymous requests are themselves throttled per address (`AuditThrottle`), so a
flood of posts cannot flood the audit log.
"""

from __future__ import annotations

import threading
import time
from collections import deque

from callcenter.settings import Settings
from callcenter.store import Store
from callcenter.store import operators as ops
from console.accounts import check_password
from workflows import authz

# The one answer to every refused sign-in: it never says which part was wrong.
REFUSED = "Sign-in failed: wrong name or password, or the account is locked for a while after repeated failures."


class SignInError(Exception):
    """Sign-in refused; the message is safe to show (it never says which part was wrong)."""


class RateLimit:
    """At most `limit` hits per `window_s` per key, in memory (one console process)."""

    MAX_KEYS = 50_000  # made-up names must not grow this without bound

    def __init__(self, limit: int = 20, window_s: float = 300.0) -> None:
        self.limit, self.window_s = limit, window_s
        self._hits: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def allow(self, key: str) -> bool:
        now = time.monotonic()
        with self._lock:
            if len(self._hits) >= self.MAX_KEYS:
                self._prune(now)
            q = self._hits.setdefault(key, deque())
            while q and q[0] < now - self.window_s:
                q.popleft()
            if len(q) >= self.limit:
                return False
            q.append(now)
            return True

    def _prune(self, now: float) -> None:
        for k in [k for k, q in self._hits.items() if not q or q[-1] < now - self.window_s]:
            del self._hits[k]
        while len(self._hits) >= self.MAX_KEYS:  # all live: forget the oldest keys
            del self._hits[next(iter(self._hits))]


class AuditThrottle:
    """At most `limit` audit rows per address per window for refused anonymous requests; the
    first one over the limit writes a single 'audit_throttled' row, the rest write nothing."""

    def __init__(self, limit: int = 10, window_s: float = 300.0) -> None:
        self.rows = RateLimit(limit, window_s)
        self.notes = RateLimit(1, window_s)

    def add(self, store: Store, address: str, **row: str | None) -> None:
        if self.rows.allow(address):
            store.add_audit(**row)  # type: ignore[arg-type]
        elif self.notes.allow(address):
            store.add_audit(subject=str(row.get("subject") or "-"), action="audit_throttled", actor="-",
                            reason=f"more refused requests from {address}; not audited one by one for a while")


class Throttles:
    """The console's sign-in throttles, from settings."""

    def __init__(self, settings: Settings) -> None:
        w = settings.console_login_window_s
        self.per_address = RateLimit(settings.console_login_per_address, w)
        self.per_account = RateLimit(settings.console_login_per_account, w)
        self.audit = AuditThrottle(settings.console_audit_refusals_per_address, w)


def sign_in(store: Store, settings: Settings, name: str, password: str, *, source: str,
            address: str = "local") -> ops.Operator:
    """The account, or SignInError(REFUSED). Every outcome is audited with the source address."""
    name = authz.clean(name or "", 64).strip().lower()
    op = ops.get_operator(store, name) if name else None
    ok = check_password(op, password or "")  # always hashes: a wrong name costs the same time
    subject = f"operator:{name or '-'}"
    where = f"{source} from {authz.clean(address, 64)}"
    if op is not None and ops.is_locked(op):
        store.add_audit(subject=subject, action="sign_in_refused", actor=name, role=op.role,
                        reason=f"account locked until {op.locked_until} ({where})")
        raise SignInError(REFUSED)
    if op is None or not ok or op.disabled:
        locked = op is not None and ops.note_failed_login(
            store, op.name, max_failures=settings.console_login_failures, lockout_s=settings.console_lockout_s)
        store.add_audit(subject=subject, action="sign_in_failed", actor=name or "-", role=op.role if op else None,
                        reason=("wrong password; account now locked" if locked else
                                "disabled account" if op is not None and op.disabled and ok else
                                "wrong name or password") + f" ({where})")
        raise SignInError(REFUSED)
    ops.note_good_login(store, op.name)
    store.add_audit(subject=subject, action="sign_in", actor=op.name, role=op.role, reason=where)
    return op
