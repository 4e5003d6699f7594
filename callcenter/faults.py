"""Fault injection: make a specialist, the store, Temporal or the LLM fail or slow down on demand.

`CALLCENTER_FAULTS` is a list of `target=fault` items separated by `;` or `,`:

    billing.balance=error      the specialist's tool raises (any agent id of a specialist)
    technical.api_errors=slow:2  ... or takes 2 more seconds
    store=error | store=slow:0.5  every store call raises StoreError, or is delayed
    temporal=down              durable work behaves as if Temporal were unreachable
    llm=error | llm=slow:S     the hosted LLM endpoint fails, or stalls (the embedded LLM answers)

It exists so the monitor-and-re-plan behaviour (retry, fallback, circuit breaker) can be
exercised on a running line and in the tests' fault matrix; it is off unless set.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from livekit.agents import APIConnectionError, llm
from livekit.agents.types import DEFAULT_API_CONNECT_OPTIONS, APIConnectOptions


class InjectedFault(RuntimeError):
    """Raised where a fault was injected; never carries caller data."""


@dataclass(frozen=True, slots=True)
class Fault:
    kind: str  # error | slow | down
    seconds: float = 0.0


@lru_cache(maxsize=8)
def parse(spec: str | None) -> Mapping[str, Fault]:
    """`target=fault` items; ValueError names the item that is not understood.

    Cached: every guarded tool call asks for the plan, and the setting never changes.
    """
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
    return MappingProxyType(plan)  # shared by every caller of the cache: read-only


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
        # ensure_schema is bookkeeping (a set lookup once checked): the query after it acts out the fault once.
        if name.startswith("_") or name in ("path", "close", "ensure_schema") or not callable(attr):
            return attr

        def faulty(*args: Any, **kwargs: Any) -> Any:
            apply_sync(self._fault)
            return attr(*args, **kwargs)

        return faulty


class FaultyLLM(llm.LLM):
    """An LLM endpoint that is down (`llm=error`) or slow (`llm=slow:S`)."""

    def __init__(self, inner: llm.LLM, fault: Fault) -> None:
        super().__init__()
        self._inner = inner
        self._fault = fault

    @property
    def model(self) -> str:
        return self._inner.model

    @property
    def provider(self) -> str:
        return self._inner.provider

    def chat(self, *, chat_ctx: llm.ChatContext, tools: list[llm.Tool] | None = None,
             conn_options: APIConnectOptions = DEFAULT_API_CONNECT_OPTIONS, **kwargs: Any) -> llm.LLMStream:
        return _FaultyStream(self, chat_ctx=chat_ctx, tools=tools or [], conn_options=conn_options)


class _FaultyStream(llm.LLMStream):
    async def _run(self) -> None:
        owner: FaultyLLM = self._llm  # type: ignore[assignment]
        if owner._fault.kind != "slow":
            raise APIConnectionError("injected fault: the LLM endpoint is unreachable", retryable=False)
        await asyncio.sleep(owner._fault.seconds)
        async with owner._inner.chat(chat_ctx=self._chat_ctx, tools=list(self._tools), conn_options=self._conn_options) as inner:
            async for chunk in inner:
                self._event_ch.send_nowait(chunk)
