"""Per-call state shared by every layer of one call (the session's userdata)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from callcenter.routing import IntentRouter
    from callcenter.settings import Settings
    from callcenter.store import Store
    from domains.results import DomainResult


@dataclass(slots=True)
class Hop:
    """One transfer of control, as shown in `callcenter call --json`."""

    from_agent: str
    to_agent: str
    path: str  # fast | llm | embedded | return
    confidence: float | None
    seconds: float = 0.0

    def as_json(self) -> dict[str, Any]:
        return {"from": self.from_agent, "to": self.to_agent, "path": self.path, "confidence": self.confidence}


@dataclass(slots=True)
class RouteNote:
    path: str
    confidence: float | None
    decided_at: float


@dataclass
class CallState:
    store: Store
    settings: Settings
    router: IntentRouter
    durable: Any = None  # workflows.client.DurableWork when durable work is configured
    customer_id: str | None = None
    verified: bool = False
    verification_failures: int = 0
    turn: int = 0
    delegations_this_turn: int = 0
    states_this_turn: set[tuple[str, str]] = field(default_factory=set)
    results: list[DomainResult] = field(default_factory=list)
    hops: list[Hop] = field(default_factory=list)
    pending_routes: dict[str, RouteNote] = field(default_factory=dict)
    returning: dict[str, tuple[float, str]] = field(default_factory=dict)
    loop_guard_trips: list[str] = field(default_factory=list)
    direct_hops: list[tuple[Hop, str]] = field(default_factory=list)  # (hop, outcome) of parallel lookups
    human_requested: bool = False
    stop_delegating: bool = False  # the caller said goodbye or asked for a person this turn
    follow_up: str | None = None  # a new need the caller raised while a task waited for an answer
    started_at: float = field(default_factory=time.perf_counter)

    def new_turn(self) -> None:
        self.turn += 1
        self.delegations_this_turn = 0
        self.states_this_turn.clear()
        self.stop_delegating = False

    def note_route(self, to_agent: str, extra: dict[str, Any] | None) -> RouteNote:
        """Remember how the decision to enter `to_agent` was made; the observer reads it."""
        info = (extra or {}).get("callcenter_route") or {}
        note = RouteNote(
            path=str(info.get("path", "llm")),
            confidence=info.get("confidence"),
            decided_at=time.perf_counter(),
        )
        self.pending_routes[to_agent] = note
        return note

    def note_return(self, from_agent: str, status: str = "info") -> None:
        """Stamp a task's completion; the hop back is labelled by how it ended."""
        outcome = {"failed": "error", "misrouted": "misrouted", "cancelled": "cancelled"}.get(status, "ok")
        self.returning[from_agent] = (time.perf_counter(), outcome)

    def verify(self, customer_id: str) -> None:
        self.customer_id = customer_id
        self.verified = True
