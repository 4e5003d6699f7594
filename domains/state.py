"""Per-call state shared by every layer of one call (the session's userdata)."""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from callcenter.llm.protocol import RouteDecision
from callcenter.routing.slots import SHARED, SlotReader
from callcenter.tracing import CallTrace

if TYPE_CHECKING:
    from callcenter.routing import IntentRouter
    from callcenter.settings import Settings
    from callcenter.store import Store
    from callcenter.store.adapters import Ports
    from domains.results import DomainResult

S = TypeVar("S")


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
class Caller:
    """What belongs to the caller: who they are (once verified) and what was done for them."""

    customer_id: str | None = None
    verified: bool = False
    verification_failures: int = 0
    line: str | None = None  # the calling number when the line knows it (SIP); throttles guessing across calls
    results: list[DomainResult] = field(default_factory=list)
    # Who the caller said they are (customer number, email or phone) before the ZIP code was said:
    # kept when the caller turns to a need or starts a new answer before giving it ("c ten oh
    # three ... open an engineering ticket"), so only the ZIP is asked. Never a verified identity:
    # the ZIP must still match.
    claimed: dict[str, str] = field(default_factory=dict)

    def verify(self, customer_id: str) -> None:
        self.customer_id = customer_id
        self.verified = True
        self.claimed = {}



@dataclass
class LoopGuard:
    """What the loop guard counts, per turn, so a call cannot bounce between levels forever."""

    turn: int = 0
    delegations: int = 0  # this turn
    states: set[tuple[str, str]] = field(default_factory=set)  # (domain, request) seen this turn
    trips: list[str] = field(default_factory=list)
    stop_delegating: bool = False  # the caller left mid-turn: the turn's other needs wait
    # The caller answered the read-back and said goodbye in the same breath ("yes. thanks,
    # bye"): the outcome is spoken, then the goodbye, in place of "anything else?".
    farewell: bool = False

    def new_turn(self) -> None:
        self.turn += 1
        self.delegations = 0
        self.states.clear()
        self.stop_delegating = False
        self.farewell = False


@dataclass
class HopLog:
    """How control moved, for the observer (hops, metrics)."""

    hops: list[Hop] = field(default_factory=list)
    pending_routes: dict[str, RouteNote] = field(default_factory=dict)
    returning: dict[str, tuple[float, str]] = field(default_factory=dict)
    direct_hops: list[tuple[Hop, str]] = field(default_factory=list)  # (hop, outcome) of parallel lookups


@dataclass
class Heard:
    """The line's last words to the caller and which agent said them (the session's listener
    in meta/session.py keeps it): a yes confirms only a read-back that was the last thing the
    caller heard, never one followed by another question (a clarifying question, a greeting)."""

    agent: str | None = None
    text: str = ""
    count: int = 0

    def said(self, agent: str | None, text: str) -> None:
        self.agent, self.text, self.count = agent, text, self.count + 1


@dataclass
class CallState:
    # Injected by the composition root (meta/session.py): the same for every call of a line.
    store: Store  # the line's own records: audit, notifications, outbox, verification attempts
    settings: Settings
    router: IntentRouter
    durable: Any = None  # workflows.client.DurableWork when durable work is configured
    ports: Ports = None  # type: ignore[assignment]  # the business systems; None = all on the store
    sections: dict[type, Any] = field(default_factory=dict)  # each domain's own settings, by class
    slots: SlotReader = SHARED  # the line's slot reader (its domains' ids); the shared slots alone without a line
    call_id: str = field(default_factory=lambda: uuid.uuid4().hex[:12])
    caller: Caller = field(default_factory=Caller)
    guard: LoopGuard = field(default_factory=LoopGuard)
    log: HopLog = field(default_factory=HopLog)
    follow_up: str | None = None  # a new need the caller raised while a task waited for an answer
    # Needs the caller took back while another waited for its yes ("forget the two factor
    # part, the closing yes"), as labels: the front desk's agenda drops them (meta/agenda.py).
    dropped_needs: set[str] = field(default_factory=set)
    # The labels of the needs queued behind the one in progress: only these can be taken back
    # that way ("no, leave the plan alone" to the plan's own read-back is a no, not a drop).
    waiting_needs: set[str] = field(default_factory=set)
    # A person asked for before the line knew whom to call back ("agent. representative." from an
    # unknown number): the reason, booked as soon as the caller is verified (meta/agent.py).
    person_waiting: str | None = None
    heard: Heard = field(default_factory=Heard)  # what the caller heard last, and from whom
    trace: CallTrace = field(init=False, repr=False)  # this call's spans (no-op unless tracing is on)

    def __post_init__(self) -> None:
        self.trace = CallTrace(self.call_id)
        if self.ports is None:
            # Built without the line (a unit test): the two shared ports on the store. A
            # domain's own ports (billing's ledger) come only from the line (`Line.ports`).
            from callcenter.store.adapters import Ports

            self.ports = Ports.of(self.store)

    def new_turn(self) -> None:
        self.guard.new_turn()

    def section(self, cls: type[S]) -> S:
        """A domain's own settings (`state.section(BillingSettings)`): the line loads them at
        start; a state built without them (a test, a benchmark) reads them on first use."""
        found = self.sections.get(cls)
        if found is None:
            from callcenter.settings import load_section

            found = self.sections[cls] = load_section(cls)
        return found

    def note_route(self, to_agent: str, extra: dict[str, Any] | None) -> RouteNote:
        """Remember how the decision to enter `to_agent` was made; the observer reads it."""
        decision = RouteDecision.from_extra(to_agent, extra)
        note = RouteNote(path=decision.path, confidence=decision.confidence, decided_at=time.perf_counter())
        self.log.pending_routes[to_agent] = note
        self.trace.enter(to_agent, path=note.path, confidence=note.confidence)
        return note

    def note_return(self, from_agent: str, status: str = "info") -> None:
        """Stamp a task's completion; the hop back is labelled by how it ended."""
        outcome = {"failed": "error", "misrouted": "misrouted", "cancelled": "cancelled"}.get(status, "ok")
        self.log.returning[from_agent] = (time.perf_counter(), outcome)
        self.trace.leave(from_agent, outcome)

    @property
    def line_key(self) -> str:
        """Who is calling, for throttling: a digest of the calling line, else this call's session."""
        from callcenter.logsafe import ref

        return ref(self.caller.line) if self.caller.line else f"session:{self.call_id}"

