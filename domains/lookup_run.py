"""One guarded way to run a specialist's read-only lookup, for every caller of it.

A lookup reads the account store or the incident feed, which may hang or fail. Whoever runs
one (the parallel fan-out, a digression answered during a pending question, a question put to
a specialist that changes things) runs it the same way: in a worker thread so the call's
event loop keeps serving audio, under a timeout, behind the per-agent circuit breaker, with
the configured fault plan applied (chaos tests), and logging the exception's type only
(messages may carry caller data).
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass

from callcenter.faults import apply_sync
from domains.base import Lookup
from domains.breaker import BREAKER
from domains.results import SpecialistResult
from domains.state import CallState

log = logging.getLogger("callcenter.lookup")


@dataclass(frozen=True, slots=True)
class LookupRun:
    result: SpecialistResult | None  # None: it did not answer (see outcome)
    outcome: str  # "ok", "timeout", "error" ("error" also when the breaker is open)
    seconds: float


async def run_lookup(state: CallState, agent: str, lookup: Lookup, words: str, timeout_s: float) -> LookupRun:
    """Run ``lookup`` for the call's caller; never raises."""
    if not BREAKER.allows(agent):  # failing again and again: don't make the caller wait on it
        return LookupRun(None, "error", 0.0)
    fault = state.settings.fault_plan.get(agent)

    def work() -> SpecialistResult:
        apply_sync(fault)
        return lookup(state.ports, state.caller.customer_id, words=words)

    started = time.perf_counter()
    try:
        result = await asyncio.wait_for(asyncio.to_thread(work), timeout_s)
    except TimeoutError:
        log.warning("lookup %s timed out", agent)
        BREAKER.failure(agent)
        return LookupRun(None, "timeout", time.perf_counter() - started)
    except Exception as exc:  # the type only: messages may carry caller data
        log.error("lookup %s failed: %s", agent, type(exc).__name__)
        BREAKER.failure(agent)
        return LookupRun(None, "error", time.perf_counter() - started)
    BREAKER.success(agent)
    return LookupRun(result, "ok", time.perf_counter() - started)

