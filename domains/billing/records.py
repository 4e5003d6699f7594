"""Billing's records, as every billing system hands them to the line. Money is integer cents.

A company's billing adapter (docs/adapters.md) returns these, converting from its API's shapes.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Plan:
    id: str
    name: str
    monthly_price_cents: int
    api_rate_limit_per_min: int
    api_monthly_quota: int


@dataclass(frozen=True, slots=True)
class Charge:
    id: str
    customer_id: str
    amount_cents: int
    description: str
    charged_at: str
    invoice_id: str | None


@dataclass(frozen=True, slots=True)
class Invoice:
    id: str
    customer_id: str
    period: str
    amount_cents: int
    status: str
    issued_at: str
    due_at: str


@dataclass(frozen=True, slots=True)
class Refund:
    id: int
    charge_id: str
    customer_id: str
    amount_cents: int
    reason: str
    idempotency_key: str
    approved_by: str | None
    created_at: str
