"""The line's own policy: verification, caps per caller, approval limits and timing (a domain's money limits live in its folder)."""

from __future__ import annotations

from decimal import Decimal
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings

from callcenter.config.base import CONFIG


class PolicySettings(BaseSettings):
    """Read by the line (verification, caps) and the approval workflows (limits, four-eyes, timeouts)."""

    model_config = CONFIG

    verification_lockout_failures: int = Field(
        5, ge=1, le=50, description="Failed verifications per customer or calling line before a lockout."
    )
    verification_lockout_s: int = Field(
        900, ge=60, le=86400 * 7, description="Seconds failures are counted and a lockout lasts."
    )
    # What one caller may file: per call, and per customer (an unverified caller: per calling line) per day.
    max_tickets_per_call: int = Field(3, ge=1, le=100, description="Tickets a caller may open on one call.")
    max_tickets_per_day: int = Field(6, ge=1, le=1000, description="Tickets one customer may open by phone in 24 hours.")
    max_pending_changes_per_call: int = Field(
        2, ge=1, le=100, description="Account changes waiting for a call back (unlock, email, phone) a caller may ask for on one call."
    )
    max_pending_changes_per_day: int = Field(
        3, ge=1, le=1000, description="Account changes waiting for a call back one customer may ask for in 24 hours."
    )
    max_callbacks_per_call: int = Field(1, ge=1, le=100, description="Call-backs from a colleague a caller may book on one call.")
    max_callbacks_per_day: int = Field(
        3, ge=1, le=1000, description="Call-backs one customer (or calling line, unverified) may book in 24 hours."
    )
    approval_limit_agent: Decimal = Field(Decimal("500"), ge=0, description="Largest amount an 'agent' operator may approve.")
    approval_limit_supervisor: Decimal = Field(Decimal("5000"), ge=0, description="Largest amount a 'supervisor' may approve.")
    approval_limit_manager: Decimal = Field(Decimal("100000"), ge=0, description="Largest amount a 'manager' may approve.")
    approval_timeout_s: int = Field(3600, ge=1, description="Seconds an approval waits before escalating.")
    approval_escalations: int = Field(1, ge=0, le=5, description="Escalations before an approval is auto-denied.")
    hold_on_line_s: float = Field(10.0, ge=0, le=300, description="Seconds a caller may wait on the line for a decision.")
    ticket_sla_s: int = Field(86400, ge=1, description="Seconds before an engineering ticket breaches its SLA.")
    fcr_window_days: int = Field(
        7, ge=1, le=90,
        description="First-contact resolution: a need the same caller raised in a call within this many days is a repeat contact.",
    )

    four_eyes_above: Decimal = Field(
        Decimal("1000"), ge=0, description="Approvals above this amount (USD) need two operators, the second a supervisor or manager."
    )
    approval_min_role: dict[str, Literal["agent", "supervisor", "manager"]] = Field(
        default_factory=dict,
        description='The lowest role that may decide a request kind, as JSON, e.g. {"refund": "supervisor"};'
        " overrides the domain's own (a two-factor reset or closure: supervisor). The workflow enforces it.",
    )
    ticket_resolve_min_role: Literal["agent", "supervisor", "manager"] = Field(
        "agent", description="The lowest operator role that may resolve a ticket."
    )
    reconcile_every_s: float = Field(
        15.0, ge=1, le=3600,
        description="Seconds between the worker's checks for requests ended in Temporal outside the line and the console.",
    )


    def approval_limit(self, role: str) -> Decimal:
        limits = {
            "agent": self.approval_limit_agent,
            "supervisor": self.approval_limit_supervisor,
            "manager": self.approval_limit_manager,
        }
        return limits.get(role, Decimal("0"))
