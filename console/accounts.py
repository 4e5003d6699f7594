"""Operator accounts: who they are, what they may approve, and the credentials they carry.

Passwords are argon2id hashes (argon2-cffi, the `console` extra). The role and approval
limit are properties of the account; a decision credential copies them, signed.
"""

from __future__ import annotations

import re
import secrets
import time
from dataclasses import dataclass
from decimal import Decimal

from callcenter.settings import Settings
from callcenter.store import Store
from callcenter.store import operators as ops
from workflows import authz

NAME = re.compile(r"^[a-z0-9][a-z0-9_.@\-]{1,63}$")
ROLES = ("agent", "supervisor", "manager")


class AccountError(ValueError):
    """A bad account request, said in one line."""


def _hasher():  # noqa: ANN202 - argon2 is an optional dependency
    try:
        from argon2 import PasswordHasher
    except ImportError:
        raise AccountError("operator accounts need the console extra: pip install 'callcenter[console]'") from None
    return PasswordHasher()


def check_policy(password: str, *, name: str = "", min_score: int = 4) -> None:
    """Refuse short, common and breached-pattern passwords: zxcvbn's strength estimate
    (its shipped lists of common passwords, names and words, with repeats, sequences,
    keyboard patterns, dates and l33t), with the operator's own name as a known word."""
    from zxcvbn import zxcvbn

    if len(password) < 12:
        raise AccountError("a password needs at least 12 characters")
    if len(password) > 256:
        raise AccountError("a password has at most 256 characters")
    words = [w for w in re.split(r"[^a-z0-9]+", name.lower()) if w] + ["callcenter", "operator", "console"]
    result = zxcvbn(password[:100], user_inputs=words)
    if result["score"] < min_score:
        hint = (result.get("feedback") or {}).get("warning") or "it is easy to guess"
        raise AccountError(f"this password is too easy to guess ({hint.rstrip('.').lower()}); use a longer"
                           " phrase of unrelated words")


def hash_password(password: str, *, name: str = "", min_score: int = 4) -> str:
    check_policy(password, name=name, min_score=min_score)
    return _hasher().hash(password)


# Checked against a dummy hash when the account does not exist, so a wrong name and a wrong
# password take the same time.
_DUMMY: list[str] = []


def check_password(op: ops.Operator | None, password: str) -> bool:
    from argon2.exceptions import InvalidHashError, VerificationError

    ph = _hasher()
    if not _DUMMY:
        _DUMMY.append(ph.hash(secrets.token_hex(16)))
    target = op.password_hash if op is not None and op.password_hash else _DUMMY[0]
    try:
        ok = ph.verify(target, password)
    except (VerificationError, InvalidHashError):
        ok = False
    return ok and op is not None and bool(op.password_hash)


def add_account(
    store: Store, settings: Settings, *, name: str, role: str, password: str | None,
    limit: Decimal | None = None, customer_id: str | None = None, oidc_subject: str | None = None,
) -> ops.Operator:
    name = name.strip().lower()
    if not NAME.match(name):
        raise AccountError("an operator name is 2-64 lower-case letters, digits or . _ - @")
    if authz.is_reserved(name):
        raise AccountError(f"{name!r} is reserved for the system")
    if role not in ROLES:
        raise AccountError(f"role must be one of: {', '.join(ROLES)}")
    ceiling = settings.approval_limit(role)
    limit = ceiling if limit is None else limit
    if limit < 0 or limit > ceiling:
        raise AccountError(f"a {role}'s limit is between $0 and ${ceiling:,} (CALLCENTER_APPROVAL_LIMIT_{role.upper()})")
    if password is None and oidc_subject is None:
        raise AccountError("give a password or an OIDC subject")
    if ops.get_operator(store, name) is not None:
        raise AccountError(f"operator {name!r} exists already")
    return ops.add_operator(
        store, name=name, role=role, limit_cents=int(limit * 100),
        password_hash=(hash_password(password, name=name, min_score=settings.operator_password_min_score)
                       if password is not None else None),
        customer_id=customer_id or None, oidc_subject=oidc_subject or None,
    )


@dataclass(frozen=True, slots=True)
class Target:
    """Exactly what a decision is about, as the operator saw it (Temporal's describe of the
    running workflow): the credential is bound to it, and the workflow compares."""

    workflow_id: str
    run_id: str
    request_id: str
    kind: str
    record_id: str = ""
    amount_cents: int | None = None
    customer_id: str = ""
    step: str = "first"  # approvals: "first" | "second" (four-eyes); tickets: ""


def grant_for(op: ops.Operator, target: Target, action: str, key: bytes, ttl_s: int) -> tuple[str, str]:
    """(sealed decision credential, its id). The role and limit come from the account."""
    gid = secrets.token_hex(12)
    token = authz.seal(key, authz.Grant(
        workflow_id=target.workflow_id, run_id=target.run_id, request_id=target.request_id, action=action,
        step=target.step, kind=target.kind, record_id=target.record_id or "", amount_cents=target.amount_cents,
        request_customer=target.customer_id or "", operator=op.name, role=op.role, limit_cents=op.limit_cents,
        customer_id=op.customer_id, expires=int(time.time()) + ttl_s, grant_id=gid,
    ))
    return token, gid
