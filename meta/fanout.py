"""Parallel fan-out of read-only needs, below the conversation.

LiveKit runs one task at a time, so "is the service down, what's my balance and why are my
API calls failing" would otherwise run three lookups one after the other. When every need
of a turn is confidently routed to a specialist with a read-only `lookup`, the lookups run
concurrently in worker threads, each with its own timeout; a branch that fails or times
out is named in the answer while the others still answer. Anything conversational (a
question, a confirmation) never comes here: it goes through the tasks, in sequence.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from callcenter.llm import templates as t
from callcenter.tracing import ATTR_OUTCOME
from domains.base import DomainSpec, SpecialistSpec, fallback
from domains.lookup_run import run_lookup
from domains.results import DomainResult, SpecialistResult
from domains.state import CallState, Hop

log = logging.getLogger("callcenter.fanout")


@dataclass(frozen=True, slots=True)
class Branch:
    domain: DomainSpec
    specialist: SpecialistSpec
    confidence: float
    words: str = ""  # the caller's words for this need (a lookup may read them: integration help)


async def _run(state: CallState, branch: Branch, timeout_s: float) -> tuple[SpecialistResult | None, str, float]:
    agent = f"{branch.domain.name}.{branch.specialist.name}"
    # Each branch is its own meta -> domain -> specialist path in the call's trace.
    with state.trace.branch(branch.domain.name) as domain_span, state.trace.branch(agent, parent=domain_span) as span:
        assert branch.specialist.lookup is not None
        run = await run_lookup(state, agent, branch.specialist.lookup, branch.words, timeout_s)
        span.set_attribute(ATTR_OUTCOME, run.outcome)
        domain_span.set_attribute(ATTR_OUTCOME, run.outcome)
        return run.result, run.outcome, run.seconds


async def fan_out(state: CallState, branches: list[Branch], timeout_s: float, *, closing: bool = True) -> str:
    """Run every branch at once; record hops and results; return one spoken answer
    (ending with "anything else?" unless `closing` is off: more of the turn follows)."""
    outcomes = await asyncio.gather(*(_run(state, b, timeout_s) for b in branches))
    said: list[str] = []
    missed: list[str] = []
    missed_agents: list[str] = []
    for branch, (result, outcome, seconds) in zip(branches, outcomes, strict=True):
        domain, agent = branch.domain.name, f"{branch.domain.name}.{branch.specialist.name}"
        state.log.direct_hops += [
            (Hop("meta", domain, "fast", branch.confidence, 0.0), "ok"),
            (Hop(domain, agent, "fast", branch.confidence, seconds), outcome),
            (Hop(agent, domain, "return", None, 0.0), outcome),
            (Hop(domain, "meta", "return", None, 0.0), outcome),
        ]
        if result is None:
            missed.append(branch.specialist.topic)
            missed_agents.append(agent)
            state.caller.results.append(DomainResult(domain=domain, specialist=branch.specialist.name, status="failed", summary=t.TOOL_FAILED))
            continue
        state.caller.results.append(DomainResult(domain=domain, specialist=branch.specialist.name, status=result.status, summary=result.summary, result=result))
        said.append(result.summary)
    parts: list[str] = []
    if missed:  # named, and a call back booked with which lookups failed: nothing is lost
        parts.append(fallback(state, " ".join(missed_agents), what=_join(missed)))
        if said:
            parts.append("Here's the rest.")
    parts += said
    if closing:
        parts.append(t.ANYTHING_ELSE)
    return " ".join(parts)


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
