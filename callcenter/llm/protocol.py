"""The hierarchy's control protocol as types: how a routing decision was made, and why a
task hands a request back.

It sits beside the embedded LLM because that is the lowest layer that writes it (into a
tool call's `extra`); the domains and meta/ read it from here, so the key and the reasons
are spelled once.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

ROUTING_EXTRA = "callcenter_route"  # FunctionCall.extra key: how the routing decision was made
# FunctionCall.extra key: the specialist a transfer is settled on before its supervisor reads
# it (a multi-need turn's other needs took the other close reading: meta/agenda.py)
SETTLED_EXTRA = "callcenter_settled"
# A route's extra: the words of the needs to route after it, one at a time ("ja" to "It sounds like
# you'd like the plan change and your account locked": the plan change, then the lock).
THEN_EXTRA = "callcenter_then"


@dataclass(frozen=True, slots=True)
class RouteDecision:
    """One routing decision at one level: where to, how it was decided, how sure."""

    target: str  # a tool name or agent id ("transfer_to_billing", "billing")
    path: str  # "fast" (classifier, no LLM) | "embedded" | "llm" (a hosted LLM decided)
    confidence: float | None = None

    def extra(self) -> dict[str, Any]:
        """The tool call's `extra`, as the observer and the next level read it."""
        return {ROUTING_EXTRA: {"path": self.path, "confidence": self.confidence}}

    @classmethod
    def from_extra(cls, target: str, extra: dict[str, Any] | None) -> RouteDecision:
        """A call without the key was made by a hosted LLM."""
        info = (extra or {}).get(ROUTING_EXTRA) or {}
        return cls(target, str(info.get("path", "llm")), info.get("confidence"))


class LeaveReason(StrEnum):
    """Why a task hands a request back up (the `reason` argument of the leave tools)."""

    GOODBYE = "goodbye"  # the caller is ending the call
    HUMAN = "human"  # the caller asked for a person
    TOPIC = "topic"  # a specialist: the caller moved to another need
    STOPPED = "stopped"  # a supervisor: the turn's delegations were stopped
    CANCELLED = "cancelled"  # a supervisor: the caller took the request back at its question
    MISROUTED = "belongs to"  # a supervisor: another department owns it ("belongs to billing")
    UNCLEAR = "unclear"


_MISROUTED = f"{LeaveReason.MISROUTED.value} "


@dataclass(frozen=True, slots=True)
class Leave:
    reason: LeaveReason
    domain: str | None = None  # for MISROUTED: the department suggested

    @property
    def wire(self) -> str:
        """As a tool argument, the words a hosted LLM is told to use."""
        return f"{_MISROUTED}{self.domain}" if self.reason is LeaveReason.MISROUTED else self.reason.value

    @classmethod
    def parse(cls, text: str) -> Leave:
        """A leave tool's `reason` as sent by the fast path or by an LLM (free text)."""
        said = (text or "").strip()
        if said.lower().startswith(LeaveReason.MISROUTED.value):
            domain = said[len(LeaveReason.MISROUTED.value):].strip()
            return cls(LeaveReason.MISROUTED, domain) if domain else cls(LeaveReason.UNCLEAR)
        try:
            return cls(LeaveReason(said.lower()))
        except ValueError:
            return cls(LeaveReason.UNCLEAR)
