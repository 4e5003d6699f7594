"""Password sign-in shared by the console and `callcenter operators login`: lockout after
repeated failures, a per-address rate limit, and an audit line for every attempt."""

from __future__ import annotations

import threading
import time
from collections import deque

from callcenter.settings import Settings
from callcenter.store import Store
from callcenter.store import operators as ops
from console.accounts import check_password
from workflows import authz


class SignInError(Exception):
    """Sign-in refused; the message is safe to show (it never says which part was wrong)."""


class RateLimit:
    """At most `limit` attempts per `window_s` per key (the client address), in memory."""

    def __init__(self, limit: int = 20, window_s: float = 300.0) -> None:
        self.limit, self.window_s = limit, window_s
        self._hits: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def allow(self, key: str) -> bool:
        now = time.monotonic()
        with self._lock:
            q = self._hits.setdefault(key, deque())
            while q and q[0] < now - self.window_s:
                q.popleft()
            if len(q) >= self.limit:
                return False
            q.append(now)
            return True


def sign_in(store: Store, settings: Settings, name: str, password: str, *, source: str) -> ops.Operator:
    """The account, or SignInError. Every outcome is audited with the account's role."""
    name = authz.clean(name or "", 64).strip().lower()
    op = ops.get_operator(store, name) if name else None
    ok = check_password(op, password or "")  # always hashes: a wrong name costs the same time
    subject = f"operator:{name or '-'}"
    if op is not None and ops.is_locked(op):
        store.add_audit(subject=subject, action="sign_in_refused", actor=name, role=op.role,
                        reason=f"account locked until {op.locked_until} ({source})")
        raise SignInError("this account is locked after repeated failed sign-ins; try again later")
    if op is None or not ok or op.disabled:
        locked = op is not None and ops.note_failed_login(
            store, op.name, max_failures=settings.console_login_failures, lockout_s=settings.console_lockout_s)
        store.add_audit(subject=subject, action="sign_in_failed", actor=name or "-", role=op.role if op else None,
                        reason=("wrong password; account now locked" if locked else
                                "disabled account" if op is not None and op.disabled and ok else
                                "wrong name or password") + f" ({source})")
        raise SignInError("wrong name or password")
    ops.note_good_login(store, op.name)
    store.add_audit(subject=subject, action="sign_in", actor=op.name, role=op.role, reason=source)
    return op
