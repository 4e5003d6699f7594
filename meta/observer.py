"""The one place hops, turns and routing are recorded: a listener on LiveKit session events.

Domains and tasks only stamp *when* they decided (CallState.note_route / note_return);
this observer turns LiveKit's `agent_handoff` items into hops with their latency, feeds
the Prometheus metrics and keeps the per-turn hop trail that `callcenter call --json` prints.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from livekit.agents import AgentSession
from livekit.agents.llm import AgentHandoff, ChatMessage
from livekit.agents.metrics.usage import LLMModelUsage
from livekit.agents.voice.events import (
    ConversationItemAddedEvent,
    FunctionToolsExecutedEvent,
    SessionUsageUpdatedEvent,
)
from livekit.agents.voice.run_result import RunResult

from callcenter import metrics
from callcenter.llm.embedded import CONFIDENCE_EXTRA, REASON_EXTRA, ROUTE, TRANSFER
from callcenter.llm.protocol import ROUTING_EXTRA
from domains.results import DomainResult
from domains.state import CallState, Hop
from meta.outcome import OutcomeTracker
from meta.voice_metrics import VoiceStageTimer

_CLARIFY_REASONS = {"clarify": "low_confidence", "ask_slot": "missing_slot"}
_FALLBACK_REASONS = {"oos": "oos", "language": "low_confidence", "empty": "low_confidence"}


@dataclass
class TurnRecord:
    index: int
    user: str
    started: float
    hops: list[Hop] = field(default_factory=list)
    replies: list[str] = field(default_factory=list)
    results: list[DomainResult] = field(default_factory=list)
    run: RunResult[Any] | None = None  # LiveKit's own record of the turn, for RunResult.expect


class CallObserver:
    def __init__(self, session: AgentSession, state: CallState, *, provider: str) -> None:
        self.session = session
        self.state = state
        self.provider = provider
        self.turn: TurnRecord | None = None
        self.greeting: list[str] = []
        self._results_seen = 0
        self._call_started = time.perf_counter()
        session.on("conversation_item_added", self._on_item)
        session.on("function_tools_executed", self._on_tools)
        session.on("session_usage_updated", self._on_usage)
        self._llm_tokens: dict[tuple[str, str], tuple[int, int]] = {}
        # Spoken sessions also time each turn's voice stages (end of speech -> first audio).
        self.voice = VoiceStageTimer(session) if session.stt is not None else None
        self.outcome = OutcomeTracker(session, state)  # the call's outcome record, written at its end
        metrics.call_started()

    # --- turns ---------------------------------------------------------------------
    def begin_turn(self, user_text: str) -> TurnRecord:
        self.state.new_turn()
        self.turn = TurnRecord(index=self.state.guard.turn, user=user_text, started=time.perf_counter())
        return self.turn

    def end_turn(self) -> TurnRecord:
        turn = self.turn
        assert turn is not None, "end_turn without begin_turn"
        turn.results = self.state.caller.results[self._results_seen :]
        self._results_seen = len(self.state.caller.results)
        for r in turn.results:
            metrics.specialist_result(domain=r.domain, specialist=r.specialist or "none", status=r.status)
        for hop, outcome in self.state.log.direct_hops:  # parallel lookups ran without task switches
            if hop.path != "return":
                turn.hops.append(hop)
            self.state.log.hops.append(hop)
            metrics.hop(from_agent=hop.from_agent, to_agent=hop.to_agent, path=hop.path, outcome=outcome, seconds=hop.seconds)
        self.state.log.direct_hops.clear()
        for reason in self.state.guard.trips:
            metrics.loop_guard_trip(reason=reason)
            metrics.fallback(reason="loop_guard")
        self.state.guard.trips.clear()
        metrics.turn(seconds=time.perf_counter() - turn.started)
        return turn

    def end_call(self, outcome: str) -> None:
        self.outcome.finish()
        metrics.call_ended(outcome=outcome, seconds=time.perf_counter() - self._call_started)

    # --- events --------------------------------------------------------------------
    def _on_item(self, ev: ConversationItemAddedEvent) -> None:
        item = ev.item
        if isinstance(item, AgentHandoff):
            self._on_handoff(item)
        elif isinstance(item, ChatMessage) and item.role == "assistant":
            text = item.text_content or ""
            (self.turn.replies if self.turn else self.greeting).append(text)
            reason = item.extra.get(REASON_EXTRA)
            confidence = float(item.extra.get(CONFIDENCE_EXTRA) or 0.0)
            if reason in _CLARIFY_REASONS:
                metrics.clarification(reason=_CLARIFY_REASONS[reason])
                if reason == "clarify":
                    metrics.routing_decision(level="meta" if self._at_meta() else "domain", decision="clarify", confidence=confidence)
            elif reason in _FALLBACK_REASONS:
                metrics.fallback(reason=_FALLBACK_REASONS[reason])
                if reason == "oos":
                    metrics.routing_decision(level="meta", decision="oos", confidence=confidence)

    def _at_meta(self) -> bool:
        agent = self.session.current_agent
        return agent is not None and agent.id == "meta"

    def _on_handoff(self, item: AgentHandoff) -> None:
        old, new = item.old_agent_id, item.new_agent_id
        if old is None:
            return  # the session starting, not a transfer
        now = time.perf_counter()
        note = self.state.log.pending_routes.pop(new, None)
        outcome = "ok"
        if note is not None:
            hop = Hop(old, new, note.path, note.confidence, now - note.decided_at)
            if self.turn is not None:
                self.turn.hops.append(hop)
        else:
            done_at, outcome = self.state.log.returning.pop(old, (now, "ok"))
            hop = Hop(old, new, "return", None, now - done_at)
        self.state.log.hops.append(hop)
        metrics.hop(from_agent=hop.from_agent, to_agent=hop.to_agent, path=hop.path, outcome=outcome, seconds=hop.seconds)

    def _on_tools(self, ev: FunctionToolsExecutedEvent) -> None:
        for call in ev.function_calls:
            if not (call.name.startswith(TRANSFER) or call.name.startswith(ROUTE)):
                continue
            info = call.extra.get(ROUTING_EXTRA) or {}
            decision = str(info.get("path", "llm"))
            level = "meta" if call.name.startswith(TRANSFER) else "domain"
            confidence = info.get("confidence")
            metrics.routing_decision(level=level, decision=decision, confidence=float(confidence) if confidence is not None else 0.0)

    def _on_usage(self, ev: SessionUsageUpdatedEvent) -> None:
        # LiveKit 1.8 reports cumulative usage per model: a rise in an LLM's tokens is one
        # completion, booked to the agent that is active now.
        for usage in ev.usage.model_usage:
            if not isinstance(usage, LLMModelUsage):
                continue
            key = (usage.provider, usage.model)
            before_in, before_out = self._llm_tokens.get(key, (0, 0))
            if (usage.input_tokens, usage.output_tokens) == (before_in, before_out):
                continue
            self._llm_tokens[key] = (usage.input_tokens, usage.output_tokens)
            agent = self.session.current_agent
            metrics.llm_call(
                agent=agent.id if agent else "meta",
                provider=self.provider,
                prompt_tokens=usage.input_tokens - before_in,
                completion_tokens=usage.output_tokens - before_out,
            )

