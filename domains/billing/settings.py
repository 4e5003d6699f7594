"""Billing's own settings: the money limits of refunds by phone.

Read from the same `CALLCENTER_*` variables (and `.env`) as the product's settings, so a
deployment sets `CALLCENTER_AUTO_REFUND_LIMIT` as before; the foundation no longer lists them.
The registry finds `SETTINGS` here without importing any task (no LiveKit), as it finds
`ACTIONS`, and the line loads it at start: a bad value stops the start with one line.
"""

from __future__ import annotations

from decimal import Decimal

from pydantic import Field

from callcenter.settings import SettingsSection


class BillingSettings(SettingsSection):
    auto_refund_limit: Decimal = Field(
        Decimal("100.00"), ge=0, le=100000, description="Refunds at or under this amount (USD) are issued without approval."
    )
    refund_window_days: int = Field(90, ge=1, le=3650, description="Charges older than this are not refundable by phone.")
    auto_refund_customer_limit: Decimal = Field(
        Decimal("150.00"), ge=0, le=100000,
        description="Most (USD) one customer is refunded without approval per period, counting pending approvals.",
    )
    auto_refund_period_days: int = Field(30, ge=1, le=365, description="The period of the per-customer auto-refund limit.")
    service_credit_percent: int = Field(
        20, ge=0, le=100, description="Largest service-failure credit, as a percentage of the affected charge."
    )


SETTINGS = BillingSettings
