"""Operator decision credentials, checked inside the approval workflow's update validator.

The console (or the CLI, with an operator token) mints a short-lived grant: an HS256 JWT
bound to one request, one action, the operator, their role, approval limit and linked
customer account. The validator verifies it with the keys the worker trusts, so an update
typed into the `temporal` CLI with a made-up operator or role is refused.

This module is imported by workflow code (passed through the sandbox): it reads no clock,
file or environment. Keys and the refusal sink are process state the worker sets up.
"""

from __future__ import annotations

import threading
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import jwt

ISSUER = "callcenter-console"
ALGORITHM = "HS256"
# Names the system itself writes as decider ("auto" for timeouts); people may not use them.
RESERVED_NAMES = frozenset({"auto", "system", "line", "root", "admin", "temporal"})
ROLE_RANK = {"agent": 0, "supervisor": 1, "manager": 2}

_keys: list[bytes] = []
_sinks: dict[str, Callable[[dict[str, Any]], None]] = {}
_lock = threading.Lock()


class GrantError(ValueError):
    """A decision credential is missing, forged, expired or bound to something else."""


@dataclass(frozen=True)
class Grant:
    request_id: str
    action: str  # "approve" | "deny"
    operator: str
    role: str
    limit_cents: int
    customer_id: str | None  # the operator's own customer account, if linked
    expires: int  # unix seconds
    grant_id: str


# --- keys and refusal sink (worker-process state) ---------------------------------------------
def trust(keys: list[bytes]) -> None:
    """Accept grants signed with these keys (the first signs; the rest allow key rotation)."""
    with _lock:
        for k in keys:
            if k and k not in _keys:
                _keys.append(k)


def trusted_keys() -> list[bytes]:
    return list(_keys)


def register_sink(task_queue: str, sink: Callable[[dict[str, Any]], None]) -> None:
    """Where a worker on `task_queue` sends refused decisions (written to the audit log)."""
    _sinks[task_queue] = sink


def unregister_sink(task_queue: str) -> None:
    _sinks.pop(task_queue, None)


def report_refusal(task_queue: str, record: dict[str, Any]) -> None:
    sink = _sinks.get(task_queue)
    if sink is not None:
        try:
            sink(record)
        except Exception:  # noqa: BLE001 - auditing must never change a validator's answer
            pass


# --- minting and verifying -------------------------------------------------------------------
def mint(key: bytes, grant: Grant) -> str:
    claims = {
        "iss": ISSUER, "sub": grant.operator, "rid": grant.request_id, "act": grant.action,
        "role": grant.role, "lim": grant.limit_cents, "cust": grant.customer_id,
        "exp": grant.expires, "jti": grant.grant_id,
    }
    return jwt.encode(claims, key, algorithm=ALGORITHM)


def verify(token: str, now: datetime, keys: list[bytes] | None = None) -> Grant:
    """The grant in `token`, or GrantError with a plain sentence. `now` is the workflow's clock."""
    if not isinstance(token, str) or not token:
        raise GrantError("a signed operator credential is required (sign in to the console or use an operator token)")
    claims: dict[str, Any] | None = None
    for key in keys if keys is not None else _keys:
        try:
            claims = jwt.decode(
                token, key, algorithms=[ALGORITHM], issuer=ISSUER,
                # Expiry is checked below against the workflow clock, not the machine's.
                options={"verify_exp": False, "verify_iat": False, "verify_nbf": False,
                         "require": ["exp", "sub", "rid", "act", "role", "lim"]},
            )
            break
        except jwt.InvalidTokenError:
            continue
    if claims is None:
        raise GrantError("the operator credential is not valid (forged, or signed with another key)")
    try:
        grant = Grant(
            request_id=str(claims["rid"]), action=str(claims["act"]), operator=str(claims["sub"]),
            role=str(claims["role"]), limit_cents=int(claims["lim"]),
            customer_id=str(claims["cust"]) if claims.get("cust") else None,
            expires=int(claims["exp"]), grant_id=str(claims.get("jti") or ""),
        )
    except (TypeError, ValueError):
        raise GrantError("the operator credential is malformed") from None
    if grant.expires < int(now.timestamp()):
        raise GrantError("the operator credential has expired; decide again")
    return grant


# --- text shown to people ----------------------------------------------------------------------
def clean(text: object, limit: int | None = None) -> str:
    """Neutralise control characters (newlines, escape sequences, bidi overrides) so stored text
    cannot forge audit lines, rewrite a terminal or reorder what an operator reads."""
    out = []
    for ch in str(text if text is not None else ""):
        cat = unicodedata.category(ch)
        if ch in "\n\r\t":
            out.append(" ")
        elif cat in ("Cc", "Cf", "Zl", "Zp"):
            out.append("\ufffd")
        else:
            out.append(ch)
    s = "".join(out)
    return s if limit is None or len(s) <= limit else s[: limit - 1] + "…"


def is_reserved(name: str) -> bool:
    return name.strip().lower() in RESERVED_NAMES


__all__ = ["ALGORITHM", "Grant", "GrantError", "RESERVED_NAMES", "ROLE_RANK", "clean", "is_reserved",
           "mint", "register_sink", "report_refusal", "trust", "trusted_keys", "verify"]
