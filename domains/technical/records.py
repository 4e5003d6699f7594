"""What the company's status page and API telemetry hand the line (technical's records)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ApiUsage:
    customer_id: str
    day: str
    requests: int
    errors_401: int
    errors_403: int
    errors_429: int
    errors_5xx: int
    peak_per_min: int


@dataclass(frozen=True, slots=True)
class Incident:
    id: str
    service: str
    title: str
    status: str
    started_at: str
    resolved_at: str | None
