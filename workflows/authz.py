"""Operator decision credentials, checked inside the workflows' update validators.

The console (or the CLI, with an operator token) issues a short-lived credential bound to
exactly one decision: the workflow id and run, the request id, its kind, record, amount and
customer, the verb, the approver's step (first or second of four-eyes), the operator with
their role, approval limit and linked customer account, an expiry and a random id. It is
sealed with AES-256-GCM under a key derived from the console key: the claims cannot be read
(what Temporal's history and `temporal workflow show` hold is ciphertext) and cannot be
changed or made up without the key. The workflow refuses a credential for another run,
request, record, amount, kind, step or verb, and remembers the credentials it accepted, so
none is spent twice.

This module is imported by workflow code (passed through the sandbox): it reads no clock,
file or environment. Keys and the refusal sink are process state the worker sets up.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import threading
import unicodedata
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

PREFIX = "ccg2."
ALGORITHM = "A256GCM"
_AAD = b"callcenter decision credential v2"
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
    workflow_id: str
    run_id: str
    request_id: str
    action: str  # "approve" | "deny" | "resolve"
    step: str  # "first" | "second" (four-eyes) for approvals; "" for tickets
    kind: str
    record_id: str  # "" when the request names no record
    amount_cents: int | None
    request_customer: str  # the customer the request is about ("" for none)
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


# --- sealing and opening -------------------------------------------------------------------
def _aead(key: bytes) -> AESGCM:
    # A key of its own for credentials, derived from the console key (domain-separated).
    return AESGCM(hmac.new(key, b"callcenter decision credential key v2", hashlib.sha256).digest())


def seal(key: bytes, grant: Grant) -> str:
    """The credential as one opaque string: PREFIX + base64url(nonce + ciphertext + tag)."""
    nonce = os.urandom(12)  # never called from workflow code: only the console and the CLI seal
    body = json.dumps(asdict(grant), separators=(",", ":"), sort_keys=True).encode()
    return PREFIX + base64.urlsafe_b64encode(nonce + _aead(key).encrypt(nonce, body, _AAD)).decode().rstrip("=")


def open_grant(token: str, now: datetime | None, keys: list[bytes] | None = None) -> Grant:
    """The grant sealed in `token`, or GrantError with a plain sentence. `now` is the workflow's
    clock (None: expiry not checked, for remembering a credential already accepted)."""
    if not isinstance(token, str) or not token:
        raise GrantError("a signed operator credential is required (sign in to the console or use an operator token)")
    if not token.startswith(PREFIX) or len(token) > 4096:
        raise GrantError("the operator credential is not valid (forged, or signed with another key)")
    part = token[len(PREFIX):]
    try:
        raw = base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))
    except (ValueError, TypeError):
        raise GrantError("the operator credential is not valid (forged, or signed with another key)") from None
    body: bytes | None = None
    for key in keys if keys is not None else _keys:
        try:
            body = _aead(key).decrypt(raw[:12], raw[12:], _AAD)
            break
        except (InvalidTag, ValueError):
            continue
    if body is None:
        raise GrantError("the operator credential is not valid (forged, or signed with another key)")
    try:
        claims = json.loads(body)
        grant = Grant(**claims)
        if not isinstance(grant.expires, int) or not isinstance(grant.limit_cents, int):
            raise TypeError
    except (TypeError, ValueError):
        raise GrantError("the operator credential is malformed") from None
    if now is not None and grant.expires < int(now.timestamp()):
        raise GrantError("the operator credential has expired; decide again")
    return grant


def digest(token: str) -> str:
    """What a workflow keeps of a credential it accepted: enough to know it again, nothing to reuse."""
    return hashlib.sha256(str(token).encode()).hexdigest()[:32]


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


def rank(role: str) -> int:
    return ROLE_RANK.get(str(role), -1)


__all__ = ["ALGORITHM", "Grant", "GrantError", "RESERVED_NAMES", "ROLE_RANK", "clean", "digest", "is_reserved",
           "open_grant", "rank", "register_sink", "report_refusal", "seal", "trust", "trusted_keys"]
