"""Typed results every specialist and supervisor returns up the hierarchy."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal

from callcenter.routing.discourse import FollowUp  # the follow-up questions a result can answer

Status = Literal[
    "done",  # the action was carried out (refund issued, email changed)
    "info",  # an answer was given, nothing changed
    "needs_approval",  # a human must decide; nothing was done yet
    "queued",  # recorded for follow-up because a backend was unavailable
    "refused",  # policy does not allow it
    "unverified",  # the caller could not be verified
    "unclear",  # we could not work out what was needed
    "misrouted",  # belongs to another domain
    "cancelled",  # the caller stopped (goodbye, or asked for a person instead)
    "failed",  # something broke; nothing was changed
]


@dataclass(kw_only=True)
class SpecialistResult:
    status: Status
    summary: str  # one or two sentences for the caller
    follow_ups: dict[FollowUp, str] = field(default_factory=dict)
    # A what-if answered with facts may end with an offer: the request a plain "yes" (or "ok,
    # do it") to this answer makes, which is then read back like any other (meta/agenda.py).
    offer: str | None = None
    # Words callers name this answer's matter by that it need not say ("when will they ring",
    # "how long till i hear from them" after a call back was booked): a follow-up in them is its.
    about: frozenset[str] = frozenset()

    def data(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        for spoken in ("summary", "status", "follow_ups", "about"):
            out.pop(spoken, None)
        return out


@dataclass(kw_only=True)
class DomainResult:
    domain: str
    specialist: str | None
    status: Status
    summary: str
    result: SpecialistResult | None = None
    suggested_domain: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "domain": self.domain,
            "specialist": self.specialist,
            "status": self.status,
            "data": self.result.data() if self.result else {},
        }
