"""`Intent`: one reading of a caller's text, what the router returns and what the rules that
re-read it (rereading.py) take and give."""

from __future__ import annotations

from dataclasses import dataclass

from callcenter.routing.calibration import OOS


@dataclass(frozen=True, slots=True)
class Intent:
    label: str  # "billing/refund", "meta/greeting", or "oos"
    confidence: float  # calibrated probability of `label` (0..1)
    text: str  # the (segment of) text this intent was read from
    alternatives: tuple[tuple[str, float], ...] = ()  # next best (label, prob), up to 3

    @property
    def domain(self) -> str:
        return self.label.split("/", 1)[0] if self.label != OOS else OOS

    @property
    def name(self) -> str:
        return self.label.split("/", 1)[1] if "/" in self.label else ""

    @property
    def in_scope(self) -> bool:
        return self.label != OOS
