"""The small base every domain shares: specs, the specialist task and the supervisor task.

A domain is a folder with a `DOMAIN = DomainSpec(...)` in its `__init__.py`; the registry
lists them. Supervisors route with the fast classifier in `llm_node` and fall through to
the session's LLM (hosted or embedded) when unsure.
"""

from __future__ import annotations

import logging
import re
from collections.abc import AsyncIterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Generic, TypeVar

from livekit.agents import Agent, AgentTask, ModelSettings, RunContext, function_tool, llm

from callcenter.llm.embedded import (
    FRONT_DESK_TOOL,
    LEAVE_TOOL,
    ROUTE,
    fresh_user_text,
    route_call,
    user_texts,
)
from callcenter.routing.slots import extract_slots
from domains.results import DomainResult, SpecialistResult
from domains.state import CallState

log = logging.getLogger("callcenter.domains")
R = TypeVar("R", bound=SpecialistResult)

MAX_SPECIALIST_ATTEMPTS = 4
TOPIC_CHANGE_CONFIDENCE = 0.8
MAX_SUPERVISOR_TURNS = 3
GOODBYE = "No problem, I've left that there. Thanks for calling, goodbye!"


# Mid-request the caller is usually answering a question ("yes", "C1001 94107"), which the
# intent classifier was not trained on; leaving is therefore read from explicit phrases only.
_GOODBYE = re.compile(
    r"^\W*(ok(ay)?,?\s+)?(bye|good\s?bye|that'?s (all|it)|that is (all|it)|nothing else|never ?mind,? bye|"
    r"i ha(ve|ta) to go|gotta go|hang(ing)? up|forget it)\b", re.I
)
_HUMAN = re.compile(
    r"\b(talk|speak|connect|transfer|put)\b.{0,30}\b(human|person|agent|representative|operator|someone|manager)\b"
    r"|^\W*(human|operator|representative|agent|a person|real person)\W*(please)?\W*$", re.I
)


def caller_wants_out(latest: str) -> str | None:
    """'goodbye' or 'human' when the caller's newest words explicitly say so."""
    if _HUMAN.search(latest):
        return "human"
    if _GOODBYE.search(latest):
        return "goodbye"
    return None


def book_callback(state: CallState, reason: str) -> str:
    """Record a callback ticket for a person to call back; returns what to tell the caller."""
    ticket = state.store.create_ticket(customer_id=state.customer_id, kind="callback", summary=f"Caller asked for a person: {reason[:200]}")
    state.human_requested = True
    return (
        f"I've booked a call back from one of my colleagues; your reference is {ticket.id}. "
        "They'll call you within one business day."
    )


def leave_summary(state: CallState, reason: str) -> str:
    state.stop_delegating = True  # the rest of this turn's needs wait (goodbye) or go to the person
    return book_callback(state, "asked mid-request") if reason == "human" else GOODBYE


@dataclass(frozen=True)
class SpecialistSpec:
    name: str
    task: type[SpecialistTask[Any]]
    description: str  # the routing tool's docstring: a prompt for a hosted LLM
    topic: str  # how the clarifying question names it: "a refund or a double charge"
    requires_identity: bool = True


@dataclass(frozen=True)
class DomainSpec:
    name: str
    description: str  # the meta-supervisor's transfer tool docstring
    topic: str
    supervisor: type[DomainSupervisorTask]
    specialists: tuple[SpecialistSpec, ...]
    utterances: Path  # folder with train.jsonl / test.jsonl
    instructions: str = ""
    labels: tuple[str, ...] = field(init=False, default=())

    def __post_init__(self) -> None:
        object.__setattr__(self, "labels", tuple(f"{self.name}/{s.name}" for s in self.specialists))

    def specialist(self, name: str) -> SpecialistSpec | None:
        return next((s for s in self.specialists if s.name == name), None)


class SpecialistTask(AgentTask[R], Generic[R]):
    """A specialist: does one job against the store and completes with a typed result.

    Subclasses set `result_type` and define their tools; a tool either returns a sentence
    (a question for the caller: the task stays) or calls `self.finish(result)`.
    """

    result_type: ClassVar[type[SpecialistResult]] = SpecialistResult
    instructions: ClassVar[str] = ""

    def __init__(self, *, state: CallState, agent_id: str, chat_ctx: llm.ChatContext | None = None) -> None:
        super().__init__(instructions=self.instructions or f"You are the {agent_id} specialist.", chat_ctx=chat_ctx or llm.ChatContext())
        self._id = agent_id
        self.state = state
        self.attempts = 0

    async def on_enter(self) -> None:
        try:
            self.session.generate_reply()
        except Exception as exc:  # an exception here would leave the parent blocked forever
            self.fail(exc)

    @property
    def caller_words(self) -> str:
        """The caller's latest words to this specialist: the operator sees them with an approval."""
        return next(iter(user_texts(self.chat_ctx)), "")

    @property
    def customer_id(self) -> str:
        assert self.state.customer_id is not None, "identity is verified before a specialist starts"
        return self.state.customer_id

    def finish(self, result: R) -> None:
        if not self.done():
            self.state.note_return(self.id, result.status)
            self.complete(result)

    def fail(self, exc: BaseException) -> None:
        # Only the exception type is logged: messages may carry caller data.
        log.error("specialist %s failed: %s", self.id, type(exc).__name__)
        self.finish(self.result_type(status="failed", summary=_FAILED))  # type: ignore[arg-type]

    async def llm_node(
        self, chat_ctx: llm.ChatContext, tools: list[llm.Tool], model_settings: ModelSettings
    ) -> AsyncIterable[llm.ChatChunk | str]:
        # A caller who says goodbye or asks for a person mid-question is let go at once,
        # whatever the LLM would have made of it.
        fresh = fresh_user_text(chat_ctx) if self.attempts else None
        wish = (caller_wants_out(fresh) or self._topic_change(fresh)) if fresh else None
        if wish is not None:
            yield _chunk(route_call(LEAVE_TOOL, {"reason": wish}, path="fast", confidence=None))
            return
        async for chunk in Agent.default.llm_node(self, chat_ctx, tools, model_settings):
            yield chunk

    def _topic_change(self, latest: str) -> str | None:
        """'topic' when, instead of answering our question, the caller raised another need."""
        if extract_slots(latest).as_dict():
            return None  # ids, amounts, yes/no: an answer, not a new topic
        router = self.state.router
        intent = router.classify(latest)
        own = self.id.replace(".", "/", 1)
        if intent.domain in ("meta", "oos") or intent.label == own:
            return None
        return "topic" if intent.confidence >= max(router.threshold, TOPIC_CHANGE_CONFIDENCE) else None

    @function_tool(name=LEAVE_TOOL)
    async def _leave_topic(self, reason: str) -> None:
        """Stop this request because the caller wants to end the call, talk to a person, or raised another need instead.

        Args:
            reason: "goodbye" if the caller is ending the call, "human" if they asked for a person, "topic" if they asked about something else.
        """
        if reason == "topic":
            self.state.follow_up = self.caller_words
            self.finish(self.result_type(status="cancelled", summary=""))  # type: ignore[arg-type]
            return
        self.finish(self.result_type(status="cancelled", summary=leave_summary(self.state, reason)))  # type: ignore[arg-type]

    def another_attempt(self) -> bool:
        """Count a turn that did not finish; give up after a few so a call cannot stall here."""
        self.attempts += 1
        if self.attempts >= MAX_SPECIALIST_ATTEMPTS:
            self.finish(self.result_type(status="unclear", summary=_GAVE_UP))  # type: ignore[arg-type]
            return False
        return True


_FAILED = "Sorry, something went wrong on my side with that request; nothing was changed."
_GAVE_UP = "I couldn't complete that over the phone, so I've noted it for a colleague to follow up."


def guarded(fn: Any) -> Any:
    """Wrap a specialist tool so an exception ends the task with a 'failed' result."""
    import functools

    @functools.wraps(fn)
    async def wrapper(self: SpecialistTask[Any], *args: Any, **kwargs: Any) -> Any:
        try:
            return await fn(self, *args, **kwargs)
        except Exception as exc:
            self.fail(exc)
            return None

    return wrapper


class DomainSupervisorTask(AgentTask[DomainResult]):
    """Routes one request to one of its domain's specialists and returns a DomainResult."""

    spec: ClassVar[DomainSpec]

    def __init__(self, *, state: CallState, request: str, chat_ctx: llm.ChatContext | None = None) -> None:
        tools: list[llm.Tool] = [self._route_tool(s) for s in self.spec.specialists]
        tools.append(function_tool(self._to_front_desk, name=FRONT_DESK_TOOL, description=_FRONT_DESK_DOC))
        names = ", ".join(s.name for s in self.spec.specialists)
        super().__init__(
            instructions=(
                f"You are the {self.spec.name} supervisor. {self.spec.instructions} Route the caller's "
                f"request to exactly one specialist ({names}) with the matching route tool. If it is "
                f"unclear, ask one short clarifying question. If it does not belong to {self.spec.name}, "
                f"call {FRONT_DESK_TOOL}. The request: {request!r}"
            ),
            chat_ctx=chat_ctx or llm.ChatContext(),
            tools=tools,
        )
        self._id = self.spec.name
        self.state = state
        self.request = request
        self.user_turns = 0
        self._first_turn = True
        # The caller's message this request came from: lower levels reuse its id so their
        # copy of it is not merged back into the parent's history as a second message.
        origin = next((i for i in reversed(self.chat_ctx.items) if i.type == "message" and i.role == "user"), None)
        self._origin_id = origin.id if origin else None

    async def on_enter(self) -> None:
        try:
            self.session.generate_reply()
        except Exception as exc:
            self._finish(DomainResult(domain=self.spec.name, specialist=None, status="failed", summary=_FAILED))
            log.error("supervisor %s failed to start: %s", self.id, type(exc).__name__)

    async def on_user_turn_completed(self, turn_ctx: llm.ChatContext, new_message: llm.ChatMessage) -> None:
        self.user_turns += 1

    def _finish(self, result: DomainResult) -> None:
        if not self.done():
            self.state.note_return(self.id, result.status)
            self.complete(result)

    async def llm_node(
        self, chat_ctx: llm.ChatContext, tools: list[llm.Tool], model_settings: ModelSettings
    ) -> AsyncIterable[llm.ChatChunk | str]:
        first = self._first_turn
        self._first_turn = False
        latest = next(iter(user_texts(chat_ctx)), "")
        text = self.request if first else latest
        router = self.state.router
        if self.state.stop_delegating:
            # Queued behind a need whose caller said goodbye (tool calls of one turn start
            # together and wait for their turn), so stop before doing anything.
            yield _chunk(route_call(FRONT_DESK_TOOL, {"reason": "stopped"}, path="fast", confidence=None))
            return
        fresh = None if first else fresh_user_text(chat_ctx)
        wish = caller_wants_out(fresh) if fresh else None
        if wish is not None:
            yield _chunk(route_call(FRONT_DESK_TOOL, {"reason": wish}, path="fast", confidence=None))
            return
        if self.user_turns >= MAX_SUPERVISOR_TURNS:
            yield _chunk(route_call(FRONT_DESK_TOOL, {"reason": "unclear"}, path="fast", confidence=None))
            return
        intent = router.classify(text, within=self.spec.name)
        if intent.confidence >= router.threshold and self.spec.specialist(intent.name):
            yield _chunk(route_call(f"{ROUTE}{intent.name}", {}, path="fast", confidence=round(intent.confidence, 4)))
            return
        overall = router.classify(text)
        if overall.domain not in (self.spec.name, "meta", "oos") and overall.confidence >= router.threshold:
            yield _chunk(route_call(FRONT_DESK_TOOL, {"reason": f"belongs to {overall.domain}"}, path="fast", confidence=round(overall.confidence, 4)))
            return
        if first and text != latest:
            # The LLM must see the part of the caller's turn that was delegated here.
            chat_ctx = chat_ctx.copy()
            chat_ctx.add_message(role="user", content=text)
        async for chunk in Agent.default.llm_node(self, chat_ctx, tools, model_settings):
            yield chunk

    def _route_tool(self, spec: SpecialistSpec) -> llm.Tool:
        async def route(context: RunContext) -> None:
            agent_id = f"{self.spec.name}.{spec.name}"
            try:
                if spec.requires_identity and not self.state.verified:
                    from domains.identity import VerifyIdentityTask

                    self.state.note_route("identity", context.function_call.extra)
                    identity = await VerifyIdentityTask(state=self.state, chat_ctx=said(self._latest_user()))
                    if identity.status != "done":
                        self._finish(DomainResult(domain=self.spec.name, specialist=spec.name, status="unverified", summary=identity.summary, result=identity))
                        return None
                self.state.note_route(agent_id, context.function_call.extra)
                result = await spec.task(state=self.state, agent_id=agent_id, chat_ctx=said(*self._request_texts()))
            except Exception as exc:
                log.error("routing to %s failed: %s", agent_id, type(exc).__name__)
                result = spec.task.result_type(status="failed", summary=_FAILED)  # type: ignore[call-arg]
            self._finish(DomainResult(domain=self.spec.name, specialist=spec.name, status=result.status, summary=result.summary, result=result))
            return None

        return function_tool(route, name=f"{ROUTE}{spec.name}", description=spec.description)

    def _latest_user(self) -> tuple[str, str | None]:
        msg = next((i for i in reversed(self.chat_ctx.items) if i.type == "message" and i.role == "user"), None)
        return (msg.text_content or "", msg.id) if msg else (self.request, None)

    def _request_texts(self) -> list[tuple[str, str | None]]:
        """What the specialist needs to hear: the delegated request, plus any clarification."""
        texts = [(self.request, self._origin_id)]
        if self.user_turns:
            texts.append(self._latest_user())
        return texts

    async def _to_front_desk(self, reason: str) -> None:
        suggested = reason.removeprefix("belongs to ").strip() if reason.startswith("belongs to ") else None
        if reason == "stopped":
            status, summary = "cancelled", ""
        elif reason in ("goodbye", "human"):
            status, summary = "cancelled", leave_summary(self.state, reason)
        else:
            status = "misrouted" if suggested else "unclear"
            summary = "" if suggested else _UNCLEAR.format(domain=self.spec.name)
            if suggested and self.user_turns:
                # The caller's newest words, not the original request, are what to route.
                self.state.follow_up = self._latest_user()[0]
        self._finish(DomainResult(domain=self.spec.name, specialist=None, status=status, summary=summary, suggested_domain=suggested))
        return None


_UNCLEAR = "I wasn't able to work out what you need from {domain}, so I've noted it for a colleague to call you back."
_FRONT_DESK_DOC = """Hand the request back to the front desk when it does not belong to this department or stays unclear.

Args:
    reason: "belongs to <domain>" (billing, technical or account) when another department owns it, "goodbye" or "human" when the caller wants to end the call or talk to a person, otherwise "unclear".
"""


def said(*messages: tuple[str, str | None]) -> llm.ChatContext:
    """A fresh context holding only these caller words, as (text, id of the original message).

    Lower levels see just the part of the call that was delegated to them: older turns
    would lend them slots (an amount, an id) that belong to another request.
    """
    ctx = llm.ChatContext()
    for text, item_id in messages:
        if text:
            if item_id:
                ctx.add_message(role="user", content=text, id=item_id)
            else:
                ctx.add_message(role="user", content=text)
    return ctx


def recent_context(chat_ctx: llm.ChatContext, max_items: int = 6) -> llm.ChatContext:
    """The last few caller/agent messages, without tool calls or instructions."""
    ctx = chat_ctx.copy(exclude_function_call=True, exclude_instructions=True, exclude_handoff=True)
    return ctx.truncate(max_items=max_items)


def _chunk(call: llm.FunctionToolCall) -> llm.ChatChunk:
    return llm.ChatChunk(id=call.call_id, delta=llm.ChoiceDelta(role="assistant", tool_calls=[call]))
