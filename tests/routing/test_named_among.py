"""Of two close readings, the one the caller named is meant (callcenter/routing/frames.named_among)."""

from __future__ import annotations

from callcenter.routing.frames import named_among

CLOSE = ["billing/refund", "billing/invoices", "billing/refund_status"]


def test_the_named_reading_wins() -> None:
    assert named_among("uh i need a refund for the february one", CLOSE) == "billing/refund"
    assert named_among("any news on the status of my refund", CLOSE) == "billing/refund_status"


def test_no_name_no_choice() -> None:
    assert named_among("that thing from last month", CLOSE) is None
