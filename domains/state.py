"""Per-call state shared by every layer of one call (the session's userdata)."""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from callcenter.tracing import CallTrace

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
    caller_line: str | None = None  # the calling number when the line knows it (SIP); throttles guessing across calls
    call_id: str = field(default_factory=lambda: uuid.uuid4().hex[:12])
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
    trace: CallTrace = field(init=False, repr=False)  # this call's spans (no-op unless tracing is on)

    def __post_init__(self) -> None:
        self.trace = CallTrace(self.call_id)

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
        self.trace.enter(to_agent, path=note.path, confidence=note.confidence)
        return note

    def note_return(self, from_agent: str, status: str = "info") -> None:
        """Stamp a task's completion; the hop back is labelled by how it ended."""
        outcome = {"failed": "error", "misrouted": "misrouted", "cancelled": "cancelled"}.get(status, "ok")
        self.returning[from_agent] = (time.perf_counter(), outcome)
        self.trace.leave(from_agent, outcome)

    @property
    def line_key(self) -> str:
        """Who is calling, for throttling: a digest of the calling line, else this call's session."""
        from callcenter.logsafe import ref

        return ref(self.caller_line) if self.caller_line else f"session:{self.call_id}"

    def verify(self, customer_id: str) -> None:
        self.customer_id = customer_id
        self.verified = True
