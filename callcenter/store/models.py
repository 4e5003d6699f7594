"""Typed rows returned by the repository. Money is integer cents.

A domain's own records live in its folder (billing's in domains/billing/records.py,
technical's in domains/technical/records.py)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Customer:
    id: str
    name: str
    email: str
    phone: str
    zip_code: str
    birth_date: str
    locked: bool
    closed: bool
    two_factor: bool
    api_key_prefix: str
    created_at: str

    @property
    def first_name(self) -> str:
        return self.name.split()[0]


@dataclass(frozen=True, slots=True)
class LoginEvent:
    id: int
    customer_id: str
    at: str
    success: bool
    country: str


@dataclass(frozen=True, slots=True)
class Ticket:
    id: str
    customer_id: str | None
    kind: str
    summary: str
    status: str
    created_at: str
    updated_at: str


@dataclass(frozen=True, slots=True)
class WorkRequest:
    id: str
    kind: str
    customer_id: str | None
    amount_cents: int | None
    payload: str
    status: str
    created_at: str
    submitted_at: str | None


@dataclass(frozen=True, slots=True)
class Notification:
    id: int
    customer_id: str | None
    channel: str
    body: str
    dedupe_key: str
    created_at: str
    sent_at: str | None


@dataclass(frozen=True, slots=True)
class AuditEntry:
    id: int
    subject: str
    action: str
    actor: str
    reason: str
    at: str
    role: str | None = None
    customer_id: str | None = None
    call_id: str | None = None  # the call that caused it (its trace and log lines carry the same id)
