"""Composition root: one `Line` per process (store, router, LLM), one `Call` per caller.

Used by the terminal REPL, the LiveKit worker, the tests and the benchmarks alike, so
every entry point runs the same hierarchy.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any

from livekit.agents import AgentSession, AgentTask, llm
from livekit.agents.voice.run_result import RunResult
from opentelemetry import context as otel_context
from opentelemetry import trace

from callcenter import metrics, tracing
from callcenter.faults import FaultyStore
from callcenter.llm import language, tool_cache
from callcenter.llm.factory import build_llm
from callcenter.routing import IntentRouter
from callcenter.routing.noise import NoiseModel
from callcenter.routing.slots import SlotReader
from callcenter.settings import Settings
from callcenter.spoken import SpokenIds, normalise
from callcenter.store import Store
from callcenter.store.adapters import Ports, load_ports
from domains import registry, writes
from domains.breaker import BREAKER
from domains.state import CallState
from meta.actions import durable_actions
from meta.agent import MetaSupervisor
from meta.observer import CallObserver, TurnRecord
from meta.router import build_router, changing_labels, decided_once, noise_model, topics
from workflows.actions import ActionTable

log = logging.getLogger("callcenter.call")
_QUIET_S = 0.3  # a task has waited for the caller this long with nothing left to say: the turn is over

# Tool steps per LLM turn: a multi-intent turn makes one transfer per need, then speaks.
MAX_TOOL_STEPS = 8


def temporal_down(line: Line) -> Any:
    """Real durable work pointed at a port nothing listens on: Temporal down (fault injection)."""
    from workflows.client import DurableWork

    return DurableWork(line.settings.model_copy(update={"temporal_address": "127.0.0.1:9"}), line.store,
                       actions=line.actions)


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
    actions: ActionTable = field(default_factory=lambda: ActionTable(()))  # the domains' durable actions
    ports: Ports | None = None  # customers, tickets and the domains' own (billing, status): embedded unless CALLCENTER_ADAPTERS says
    sections: dict[type, Any] = field(default_factory=dict)  # each domain's own settings, read at start
    # What its domains let a caller say and the agent read aloud: values of this line, handed
    # down to its calls, its LLM and its speech (never process-wide), so two lines with
    # different domains in one process read each its own.
    slots: SlotReader = field(default_factory=SlotReader)  # "CH-1002-D", "the pro plan", "refund-ch-1001-d"
    ear: SpokenIds = field(default_factory=SpokenIds)  # "CH-1002-D" read aloud as "charge 1 0 0 2 D"


def build_line(settings: Settings, *, store: Store | None = None, llm_override: llm.LLM | None = None) -> Line:
    sections = registry.load_sections()  # first: a bad domain setting stops the start before any work
    store = store or Store(settings.db_path)
    tracing.configure(settings)  # once per process; off unless CALLCENTER_TRACING is set
    tool_cache.install()  # tool schemas and tool discovery once per class, not per hop (once per process)
    plan = settings.fault_plan
    if "store" in plan:
        store = FaultyStore(store, plan["store"])  # type: ignore[assignment]
    BREAKER.threshold, BREAKER.cooldown_s = settings.breaker_threshold, settings.breaker_cooldown_s
    router = decided_once(build_router(settings))  # one routing decision per level per turn
    language.warm()  # the language identifier's model (~1 s) loads now, not on a caller's turn
    metrics.register_agents(agent_ids())
    actions = durable_actions()
    slots = line_slots(actions)
    model = llm_override or build_llm(settings, router=router, topics=topics(), phrases=registry.phrasebook(), slots=slots,
                                      sure_only=changing_labels())
    provider = "embedded" if settings.llm_provider == "embedded" and llm_override is None else settings.llm_provider
    return Line(settings=settings, store=store, router=router, llm=model, provider=provider, noise=noise_model(),
                actions=actions, ports=load_ports(store, settings, registry.port_specs()), sections=sections,
                slots=slots, ear=SpokenIds.of(registry.spoken_ids().items()))


def line_slots(actions: ActionTable | None = None) -> SlotReader:
    """The slots the registry's domains declare, and the request ids of their durable actions."""
    return SlotReader.of(registry.slot_patterns(), (actions or durable_actions()).kinds)


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
        self._orphans: list[asyncio.Future[RunResult]] = []

    @property
    def greeting(self) -> str:
        return " ".join(self.observer.greeting)

    async def send(self, text: str) -> TurnRecord:
        """One caller turn; returns what was said and every hop taken."""
        # Cut here too: text input (session.run(user_input=...)) never reaches the agent's
        # on_user_turn_completed, so without this no model would see a bounded turn.
        text = text[: self.line.settings.max_turn_chars]
        # Typed turns get the same spoken-form normalising as recognised speech (NormalisedSTT).
        text = self.line.router.rejoin(normalise(text))  # and the words a recogniser split, joined
        tracing.CALL_ID.set(self.state.call_id)  # log lines of this turn's work carry the call id
        self.observer.begin_turn(text)
        run = await self._run(text)
        await self._settle()
        turn = self.observer.end_turn()
        turn.run = run
        return turn

    async def _run(self, text: str) -> RunResult | None:
        """The turn's run, bounded in time (issue 10).

        A run normally completes once every agent has spoken or waits for the caller. A need
        queued behind a task that waits for the caller can keep it open although the line is
        only listening; and no turn may take longer than CALLCENTER_TURN_TIMEOUT_S. Either way
        the turn ends with what was said, and the caller's next words go to the waiting task.
        """
        loop = asyncio.get_running_loop()

        run = self.session.run(user_input=text)

        async def whole() -> RunResult:
            return await run

        waiter = asyncio.ensure_future(whole())
        deadline = loop.time() + self.line.settings.turn_timeout_s
        quiet_since: float | None = None
        while True:
            done, _ = await asyncio.wait({waiter}, timeout=0.05)
            if done:
                return waiter.result()
            now = loop.time()
            if self._waiting_for_caller():
                quiet_since = quiet_since or now
                if now - quiet_since >= _QUIET_S:
                    break
            else:
                quiet_since = None
            if now >= deadline:
                log.warning("turn %d of a call took longer than %.0f s; ended it", self.state.guard.turn, self.line.settings.turn_timeout_s)
                break
        # End the run here: LiveKit allows one run at a time, and the caller's next words must
        # reach the waiting task. RunResult has no public way to stop watching, hence the
        # private calls (livekit-agents 1.8); the work itself goes on untouched.
        for handle in list(run._handles):  # noqa: SLF001
            run._unwatch_handle(handle)  # noqa: SLF001
        run._mark_done()  # noqa: SLF001
        await asyncio.wait({waiter}, timeout=1.0)
        if not waiter.done():
            self._orphans.append(waiter)
            return None
        return run

    def _waiting_for_caller(self) -> bool:
        agent = self.session.current_agent
        return isinstance(agent, AgentTask) and self.session.agent_state == "listening" and not self._speech_pending()

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
        # A change still running past its budget (domains/writes.py) finishes before the
        # process may stop, so it lands whole and its outcome reaches the caller.
        await writes.drain(self.state.settings.turn_timeout_s)
        self.state.trace.end(outcome)
        for waiter in self._orphans:
            waiter.cancel()


def _keep_heard(session: AgentSession, state: CallState) -> Any:
    """Record each thing the line says and which agent said it (`CallState.heard`): a read-back
    is confirmed only by a yes to it, not by a yes to a question some other agent asked later."""

    def on_item(event: Any) -> None:
        item = event.item
        if item.type != "message" or item.role != "assistant":
            return
        try:
            agent: str | None = session.current_agent.id
        except RuntimeError:  # before the first agent started
            agent = None
        state.heard.said(agent, item.text_content or "")

    return on_item


async def start_call(
    line: Line,
    *,
    customer_id: str | None = None,
    durable: Any = None,
    session_kwargs: dict[str, Any] | None = None,
    room: Any = None,
    audio: tuple[Any, Any] | None = None,
) -> Call:
    if durable is not None and "temporal" in line.settings.fault_plan:
        durable = temporal_down(line)
    state = CallState(store=line.store, settings=line.settings, router=line.router, durable=durable, ports=line.ports,
                      sections=line.sections, slots=line.slots)
    if customer_id is not None:
        customer = state.ports.customers.get_customer(customer_id)
        if customer is None:
            raise UnknownCustomerError("no customer with that id")
        # A known caller (--customer, or caller ID matched upstream) counts as verified.
        state.caller.verify(customer.id)
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
    session.on("conversation_item_added", _keep_heard(session, state))
    if audio is not None:  # caller audio in, agent audio out, without a room
        session.input.audio, session.output.audio = audio
    tracing.CALL_ID.set(state.call_id)
    # LiveKit's session span (and its turns, LLM and tool spans) go under the call's root span:
    # one trace per call. LiveKit attaches its own context inside start(); ours is undone here.
    token = otel_context.attach(trace.set_span_in_context(state.trace.root))
    try:
        if room is None:
            await session.start(MetaSupervisor(state=state, noise=line.noise))
        else:
            await session.start(MetaSupervisor(state=state, noise=line.noise), room=room)
    finally:
        otel_context.detach(token)
    call = Call(line, state, session, observer)
    await call._settle()
    return call
