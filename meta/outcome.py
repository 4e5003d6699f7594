"""How a call ended, for the people who run the line: one outcome record per call.

The tracker watches one call from its start (the observer creates it): the tickets the
call opens for a person (through a recording wrapper on the call's tickets port, so each is
tied to the agent that opened it), whether the caller was put through to a person, and at
the end the typed results, the hops and whether the line was still waiting on the caller.
From those it writes a `CallRecord` to the store (callcenter/store/outcomes.py: the
definitions) and counts the same record in Prometheus, so both always agree.

Call-back reasons are bounded categories taken from what opened the ticket, never from the
caller's words: the line's generic call-back tickets by their source (a caller asking for a
person, a service that was unavailable, a change not confirmed in time, a routing loop),
and a domain's own follow-up tickets by their kind (engineering, security, ...), which are
code constants.
"""

from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from livekit.agents import AgentTask, get_job_context
from livekit.agents.voice.events import FunctionToolsExecutedEvent

from callcenter import metrics
from callcenter.store import outcomes
from callcenter.store.outcomes import CallRecord, NeedRecord, iso

log = logging.getLogger("callcenter.outcome")

# The line's own call-back tickets (kind "callback"), by the fixed start of their summary.
_SOURCES = (
    (re.compile(r"^Caller asked for a person"), "asked_for_person"),
    (re.compile(r"^Call back: \S+ was unavailable"), "service_unavailable"),
    (re.compile(r"^Call back: \S+ did not answer in time"), "change_unconfirmed"),
    (re.compile(r"^Routing loop"), "routing_loop"),
)
_KIND = re.compile(r"^[a-z][a-z0-9_]{0,31}$")
TRANSFER_TOOL = "request_human"


def callback_reason(kind: str, summary: str) -> str:
    """The bounded category of a ticket opened for a person."""
    if kind == "callback":
        return next((reason for pattern, reason in _SOURCES if pattern.match(summary)), "other")
    return kind if _KIND.match(kind) else "other"


@dataclass(frozen=True)
class _Ticket:
    agent: str | None  # the agent that was active when it was opened
    reason: str


class _RecordingTickets:
    """The call's tickets port: the line's own, noting each ticket this call opens."""

    def __init__(self, inner: Any, tracker: OutcomeTracker) -> None:
        self._inner = inner
        self._tracker = tracker

    def create_ticket(self, **kwargs: Any) -> Any:
        ticket = self._inner.create_ticket(**kwargs)
        self._tracker.note_ticket(str(kwargs.get("kind", "")), str(kwargs.get("summary", "")))
        return ticket

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


class OutcomeTracker:
    def __init__(self, session: Any, state: Any) -> None:
        self.session = session
        self.state = state
        self.started_at = datetime.now(UTC)
        self._t0 = time.perf_counter()
        self.tickets: list[_Ticket] = []
        self.transfer_started = False
        self.record: CallRecord | None = None
        # The LiveKit worker's own scripted calls (its self-check, in a fake job) are no caller's.
        job = get_job_context(required=False)
        self.counted = not (job is not None and job.is_fake_job())
        state.ports = replace(state.ports, tickets=_RecordingTickets(state.ports.tickets, self))
        session.on("function_tools_executed", self._on_tools)

    def note_ticket(self, kind: str, summary: str) -> None:
        agent = self.session.current_agent
        reason = callback_reason(kind, summary)
        self.tickets.append(_Ticket(agent.id if agent is not None else None, reason))
        metrics.callback_reason_seen(reason)

    def _on_tools(self, ev: FunctionToolsExecutedEvent) -> None:
        from meta.voice_transfer import TRANSFERRING

        for call, output in ev.zipped():
            if call.name == TRANSFER_TOOL and output is not None and TRANSFERRING in output.output:
                self.transfer_started = True

    # --- the end of the call ---------------------------------------------------------
    def finish(self) -> CallRecord | None:
        """Classify the call, write its record and count it (once; never raises)."""
        if self.record is not None:
            return self.record
        try:
            call = self.classify()
            if not self.counted:
                self.record = call
                return call
            try:
                call = outcomes.record(self.state.store, call, window_days=self.state.settings.fcr_window_days)
            except Exception as exc:  # the store is down: Prometheus still counts the call
                log.warning("could not store the outcome of a call: %s", type(exc).__name__)
            self.record = call
            metrics.call_outcome(
                outcome=call.outcome, handle_s=call.handle_s, reason=call.callback_reason,
                needs=[(n.domain, n.outcome, _contact(call, n)) for n in call.needs],
            )
            return call
        except Exception:
            log.exception("could not classify a call's outcome")
            return None

    def _waiting_on(self) -> str | None:
        """The agent that waits for the caller's answer mid-task, if the line is waiting."""
        agent = self.session.current_agent
        speech = self.session.current_speech
        if isinstance(agent, AgentTask) and self.session.agent_state == "listening" and (speech is None or speech.done()):
            return agent.id
        return None

    def classify(self) -> CallRecord:
        state = self.state
        turns = state.guard.turn
        waiting = self._waiting_on()
        reached = list(dict.fromkeys(h.to_agent for h in state.log.hops if h.path != "return" and "." in h.to_agent))
        last = {f"{r.domain}.{r.specialist}": r for r in state.caller.results if r.specialist}
        open_need = _open_need(waiting, state.log.hops, reached)
        if open_need is not None and open_need not in reached:
            reached.append(open_need)
        needs = [self._need(n, last.get(n), open_need) for n in reached]
        call_tickets = [t for t in self.tickets if t.agent not in reached]
        person_asked = any(t.reason == "asked_for_person" for t in self.tickets)
        reason = next((t.reason for t in self.tickets), None)
        if turns == 0 or waiting is not None:
            outcome, reason = "abandoned", None
        elif self.transfer_started and not person_asked:
            outcome, reason = "transferred", None
        elif call_tickets or any(n.outcome == "callback" for n in needs):
            outcome = "callback"
            reason = reason or next((n.callback_reason for n in needs if n.callback_reason), "other")
        else:
            outcome = outcomes.worst([n.outcome for n in needs] + ["resolved"])
            reason = None
        ended = datetime.now(UTC)
        return CallRecord(
            call_id=state.call_id, started_at=iso(self.started_at), ended_at=iso(ended),
            customer_id=state.caller.customer_id, outcome=outcome, handle_s=round(time.perf_counter() - self._t0, 3),
            turns=turns, callback_reason=reason, needs=tuple(needs),
        )

    def _need(self, need: str, result: Any, open_need: str | None) -> NeedRecord:
        domain = need.split(".")[0]
        if need == open_need:
            return NeedRecord(need, domain, "abandoned")
        mine = [t.reason for t in self.tickets if t.agent == need]
        status = result.status if result is not None else None
        data = result.result.data() if result is not None and result.result is not None else {}
        if mine:
            return NeedRecord(need, domain, "callback", mine[0])
        if status == "needs_approval" or (status == "queued" and data.get("request_id")):
            return NeedRecord(need, domain, "pending_approval")
        if status in ("queued", "failed"):
            return NeedRecord(need, domain, "callback", "service_unavailable" if status == "failed" else "other")
        return NeedRecord(need, domain, "resolved")


def _open_need(waiting: str | None, hops: list[Any], reached: list[str]) -> str | None:
    """The need the caller left unanswered: the specialist waiting, or for a domain
    supervisor or identity check that waits, the domain it was serving."""
    if waiting is None:
        return None
    if "." in waiting:
        return waiting
    if waiting == "identity":  # verifying the caller for the domain that asked
        into = [h.from_agent for h in hops if h.to_agent == "identity" and h.path != "return"]
        return into[-1].split(".")[0] if into else None
    return waiting


def _contact(call: CallRecord, need: NeedRecord) -> str:
    if not call.customer_id:
        return "unknown_caller"
    return "repeat" if need.is_repeat else "first"
