"""Composition root: one `Line` per process (store, router, LLM), one `Call` per caller.

Used by the terminal REPL, the LiveKit worker, the tests and the benchmarks alike, so
every entry point runs the same hierarchy.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from livekit.agents import AgentSession, llm

from callcenter import metrics
from callcenter.faults import FaultyStore
from callcenter.llm.factory import build_llm
from callcenter.routing import IntentRouter
from callcenter.routing.noise import NoiseModel
from callcenter.settings import Settings
from callcenter.store import Store
from domains import registry
from domains.breaker import BREAKER
from domains.state import CallState
from meta.agent import MetaSupervisor
from meta.observer import CallObserver, TurnRecord
from meta.router import build_router, noise_model, topics

# Tool steps per LLM turn: a multi-intent turn makes one transfer per need, then speaks.
MAX_TOOL_STEPS = 8


def temporal_down(line: Line) -> Any:
    """Real durable work pointed at a port nothing listens on: Temporal down (fault injection)."""
    from workflows.client import DurableWork

    return DurableWork(line.settings.model_copy(update={"temporal_address": "127.0.0.1:9"}), line.store)


class UnknownCustomerError(ValueError):
    """--customer named an id that is not in the store."""


@dataclass
class Line:
    settings: Settings
    store: Store
    router: IntentRouter
    llm: llm.LLM
    provider: str
    noise: NoiseModel | None = None


def build_line(settings: Settings, *, store: Store | None = None, llm_override: llm.LLM | None = None) -> Line:
    store = store or Store(settings.db_path)
    plan = settings.fault_plan
    if "store" in plan:
        store = FaultyStore(store, plan["store"])  # type: ignore[assignment]
    BREAKER.threshold, BREAKER.cooldown_s = settings.breaker_threshold, settings.breaker_cooldown_s
    router = build_router(settings)
    metrics.register_agents(agent_ids())
    model = llm_override or build_llm(settings, router=router, topics=topics())
    provider = "embedded" if settings.llm_provider == "embedded" and llm_override is None else settings.llm_provider
    return Line(settings=settings, store=store, router=router, llm=model, provider=provider, noise=noise_model())


def agent_ids() -> list[str]:
    ids = ["meta", "identity"]
    for d in registry.DOMAINS:
        ids.append(d.name)
        ids.extend(f"{d.name}.{s.name}" for s in d.specialists)
    return ids


class Call:
    """One caller on the line: a text session over the full hierarchy."""

    def __init__(self, line: Line, state: CallState, session: AgentSession, observer: CallObserver) -> None:
        self.line = line
        self.state = state
        self.session = session
        self.observer = observer

    @property
    def greeting(self) -> str:
        return " ".join(self.observer.greeting)

    async def send(self, text: str) -> TurnRecord:
        """One caller turn; returns what was said and every hop taken."""
        # Cut here too: text input (session.run(user_input=...)) never reaches the agent's
        # on_user_turn_completed, so without this no model would see a bounded turn.
        text = text[: self.state.settings.max_turn_chars]
        self.observer.begin_turn(text)
        run = await self.session.run(user_input=text)
        await self._settle()
        turn = self.observer.end_turn()
        turn.run = run
        return turn

    async def _settle(self) -> None:
        # A task that completes from a tool lets run() return before its parent has spoken;
        # wait until the agent is idle again so every reply belongs to this turn.
        for _ in range(200):
            await asyncio.sleep(0)
            if self.session.agent_state in ("listening", "idle") and not self._speech_pending():
                return
            await asyncio.sleep(0.005)

    def _speech_pending(self) -> bool:
        speech = self.session.current_speech
        return speech is not None and not speech.done()

    async def close(self, outcome: str = "completed") -> None:
        self.observer.end_call(outcome)
        await self.session.aclose()


async def start_call(
    line: Line,
    *,
    customer_id: str | None = None,
    durable: Any = None,
    session_kwargs: dict[str, Any] | None = None,
    room: Any = None,
) -> Call:
    if durable is not None and "temporal" in line.settings.fault_plan:
        durable = temporal_down(line)
    state = CallState(store=line.store, settings=line.settings, router=line.router, durable=durable)
    if customer_id is not None:
        customer = line.store.get_customer(customer_id)
        if customer is None:
            raise UnknownCustomerError("no customer with that id")
        # A known caller (--customer, or caller ID matched upstream) counts as verified.
        state.verify(customer.id)
    kwargs: dict[str, Any] = {
        "llm": line.llm,
        "vad": None,
        "turn_handling": {"turn_detection": "manual"},
        "userdata": state,
        "max_tool_steps": MAX_TOOL_STEPS,
    }
    kwargs.update(session_kwargs or {})
    session: AgentSession = AgentSession(**kwargs)
    observer = CallObserver(session, state, provider=line.provider)
    if room is None:
        await session.start(MetaSupervisor(state=state, noise=line.noise))
    else:
        await session.start(MetaSupervisor(state=state, noise=line.noise), room=room)
    call = Call(line, state, session, observer)
    await call._settle()
    return call
