"""Fault injection: make a specialist, the store, Temporal or the LLM fail or slow down on demand.

`CALLCENTER_FAULTS` is a list of `target=fault` items separated by `;` or `,`:

    billing.balance=error      the specialist's tool raises (any agent id of a specialist)
    technical.api_errors=slow:2  ... or takes 2 more seconds
    store=error | store=slow:0.5  every store call raises StoreError, or is delayed
    temporal=down              durable work behaves as if Temporal were unreachable
    llm=error                  every LLM request fails

It exists so the monitor-and-re-plan behaviour (retry, fallback, circuit breaker) can be
exercised on a running line and in the tests' fault matrix; it is off unless set.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any


class InjectedFault(RuntimeError):
    """Raised where a fault was injected; never carries caller data."""


@dataclass(frozen=True, slots=True)
class Fault:
    kind: str  # error | slow | down
    seconds: float = 0.0


def parse(spec: str | None) -> dict[str, Fault]:
    """`target=fault` items; ValueError names the item that is not understood."""
    plan: dict[str, Fault] = {}
    for raw in (spec or "").replace(",", ";").split(";"):
        item = raw.strip()
        if not item:
            continue
        target, _, fault = item.partition("=")
        target, fault = target.strip(), fault.strip()
        kind, _, arg = fault.partition(":")
        if not target or kind not in ("error", "slow", "down") or (kind == "slow") != bool(arg):
            raise ValueError(f"fault item {item!r}: expected target=error, target=down or target=slow:SECONDS")
        seconds = float(arg) if arg else 0.0
        if not 0 <= seconds <= 600:
            raise ValueError(f"fault item {item!r}: seconds must be between 0 and 600")
        plan[target] = Fault(kind, seconds)
    return plan


def apply_sync(fault: Fault | None) -> None:
    """Act out a fault in synchronous code (a store call)."""
    if fault is None:
        return
    if fault.kind == "slow":
        time.sleep(fault.seconds)
    else:
        raise InjectedFault(f"injected {fault.kind}")


class FaultyStore:
    """Wraps a store so every public method acts out the `store` fault first."""

    def __init__(self, store: Any, fault: Fault) -> None:
        self._store = store
        self._fault = fault

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._store, name)
        if name.startswith("_") or name in ("path", "close") or not callable(attr):
            return attr

        def faulty(*args: Any, **kwargs: Any) -> Any:
            apply_sync(self._fault)
            return attr(*args, **kwargs)

        return faulty
