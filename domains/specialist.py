"""The specialist task: does one job against the store and completes with a typed result."""

from __future__ import annotations

import asyncio
import functools
import logging
import re
from collections.abc import AsyncIterable
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from livekit.agents import Agent, AgentTask, ModelSettings, function_tool, llm

from callcenter.faults import apply_sync
from callcenter.llm.embedded import (
    LEAVE_TOOL,
    fill_tool_call,
    fresh_user_text,
    route_call,
    spoken_outputs,
    tool_parameters,
    user_texts,
)
from callcenter.llm.protocol import Leave, LeaveReason
from callcenter.routing.discourse import ends_call
from callcenter.routing.segment import RETRACTION, after_retraction
from callcenter.routing.slots import SlotReader
from domains import pending
from domains.base import (
    THANKS_BYE,
    cut_turn,
    failure_level,
    fallback,
    leave_summary,
    leaving_reason,
    tool_call_chunk,
)
from domains.breaker import BREAKER
from domains.frame import CANCELLED, stops, takes_back
from domains.intent import ActionGate, is_what_if
from domains.results import SpecialistResult
from domains.state import CallState
from domains.writes import WriteUnconfirmed, run_write

if TYPE_CHECKING:
    from callcenter.routing import Intent

log = logging.getLogger("callcenter.domains")
R = TypeVar("R", bound=SpecialistResult)

MAX_SPECIALIST_ATTEMPTS = 4
TOPIC_CHANGE_CONFIDENCE = 0.8
# Caller turns a specialist hears after the request that brought it here; past this many
# without finishing, the loop guard ends the task (a slot question cannot hold a call).
MAX_TURNS_HEARD = 6


# Words that ask the line to do the thing, said after a question about it.
_ASKS_TO_ACT = re.compile(
    r"\b(?:move|switch|change|put|upgrade|downgrade|bump|sign\s+me\s+up|do\s+it|go\s+ahead|let'?s\s+do|i'?ll\s+take"
    r"|i\s+want|i'?d\s+like|we\s+want|we'?d\s+like|please\s+do)\b", re.I)


class SpecialistTask(AgentTask[R], Generic[R]):
    """A specialist: does one job against the store and completes with a typed result.

    Subclasses set `result_type` and define their tools; a tool either returns a sentence
    (a question for the caller: the task stays) or calls `self.finish(result)`.
    """

    result_type: ClassVar[type[SpecialistResult]] = SpecialistResult
    instructions: ClassVar[str] = ""
    # Read-only (or keyed) work that is safe to try twice: retried once on failure.
    idempotent: ClassVar[bool] = False
    # The read-back of a task that acts (set in its __init__); None for a task that only reads.
    gate: ActionGate | None = None
    # What a pending question admits besides the frame's moves (domains/pending.py): why the
    # value asked for is needed and where the caller finds it. A task sets those it can tell.
    slot_why: ClassVar[str | None] = None
    slot_where: ClassVar[str | None] = None

    def __init__(self, *, state: CallState, agent_id: str, chat_ctx: llm.ChatContext | None = None) -> None:
        super().__init__(instructions=self.instructions or f"You are the {agent_id} specialist.", chat_ctx=chat_ctx or llm.ChatContext())
        self._id = agent_id
        self.state = state
        self.attempts = 0
        self.turns_heard = 0  # caller turns since the request that brought us here
        # Caller turns answered as questions about our question ("can i undo that if we need
        # enterprise again?"): a value named in them is asked about, never an argument.
        self.questions: set[str] = set()
        # Who spoke last to the caller when the tool was called: a slow system may run the
        # tool's body turns later, and the caller's yes answered what they heard then.
        self.heard_at_call: str | None = None
        # The latest result a tool finished with, even one that came too late to be used:
        # a write that outlived its budget reports it (domains/writes.py).
        self.last_result: R | None = None
        # What we last asked the caller (a slot question, a read-back), to ask it once more
        # after answering a digression or a question about it (domains/pending.py).
        self.last_question = ""
        self.called = "that"  # how the caller hears this request named; its supervisor sets it
        # "yes, and how long until someone approves it?": the question said with the yes, as
        # (its follow-up kind, the answer from the action's facts), answered after the action.
        self.then_answer: tuple[str | None, str] | None = None

    async def on_enter(self) -> None:
        try:
            self.session.generate_reply()
        except Exception as exc:  # an exception here would leave the parent blocked forever
            self.fail(exc)

    async def on_user_turn_completed(self, turn_ctx: llm.ChatContext, new_message: llm.ChatMessage) -> None:
        cut_turn(self.state, new_message)

    # Hooks of a pending question (domains/pending.py); a task overrides those its facts can read.
    def corrects(self, words: str) -> bool:
        """At our read-back: the words change the action itself ("oh wait, just thirty five then"),
        so the tool runs again and reads back anew."""
        return False

    def names_answer(self, words: str) -> bool:
        """At our question: the words name its answer, however much they sound like a question."""
        return False

    def names_slot(self, words: str) -> bool:
        """At our slot question: a question about the very value asked for ("is that the email
        my invoices go to?"), not another need."""
        return False

    def slot_options(self) -> str | None:
        """The choices' facts, told when the caller asks what they are at our slot question."""
        return None

    @property
    def slot_reader(self) -> SlotReader:
        """How this task reads values from the caller's words: the line's reader (a task that
        asks for a value may read it in more forms than open speech allows)."""
        return self.state.slots

    @property
    def request_words(self) -> str:
        """What the caller asked this specialist for (the delegated request, not a later "yes")."""
        texts = user_texts(self.chat_ctx)
        return texts[-1] if texts else ""

    @property
    def asks_what_if(self) -> bool:
        """The caller asked *about* this action ("would enterprise be cheaper?"), not for it,
        and has not asked for it since ("would upgrading help?" ... "ok move me to pro then":
        the request now, read back once, not offered again)."""
        if not is_what_if(self.request_words):
            return False
        since = user_texts(self.chat_ctx)[:-1]  # the caller's words after the question, newest first
        return not any(_ASKS_TO_ACT.search(words) and not is_what_if(words) for words in since)

    @property
    def caller_words(self) -> str:
        """The caller's latest words to this specialist: the operator sees them with an approval."""
        return next(iter(user_texts(self.chat_ctx)), "")

    @property
    def label(self) -> str:
        """The router's label for this specialist ("billing.refund" -> "billing/refund")."""
        return self.id.replace(".", "/", 1)

    @property
    def customer_id(self) -> str:
        assert self.state.caller.customer_id is not None, "identity is verified before a specialist starts"
        return self.state.caller.customer_id

    def finish(self, result: R) -> None:
        if self.then_answer is not None and result.status in _ACTED:
            kind, fact = self.then_answer
            extra = (result.follow_ups.get(kind) if kind else None) or fact  # type: ignore[arg-type]
            if extra and not _says_already(result.summary, extra):
                result.summary = f"{result.summary} {extra}"
            self.then_answer = None
        self.last_result = result
        if not self.done():
            self.state.note_return(self.id, result.status)
            self.complete(result)

    def fail(self, exc: BaseException) -> None:
        # Only the exception type is logged: messages may carry caller data.
        log.log(failure_level(self), "specialist %s failed: %s", self.id, type(exc).__name__)
        self.finish(self.result_type(status="failed", summary=fallback(self.state, self.id)))  # type: ignore[arg-type]

    async def llm_node(
        self, chat_ctx: llm.ChatContext, tools: list[llm.Tool], model_settings: ModelSettings
    ) -> AsyncIterable[llm.ChatChunk | str]:
        # A caller who says goodbye, asks for a person or raises another need mid-question is
        # let go at once, whatever the LLM would have made of it. The first fresh text is the
        # request itself; only later ones are answers (or not) to our questions.
        fresh = fresh_user_text(chat_ctx)
        if fresh is not None:
            self.turns_heard += 1
        later = fresh if fresh is not None and self.turns_heard > 1 else None
        step = pending.Next.CONTINUE
        if later and self.turns_heard <= MAX_TURNS_HEARD:
            # Our question is a frame, not a trap (domains/pending.py): a cancel, a question
            # about it, a pause or a digression is handled, and the question asked once more.
            step = await pending.handle(self, later)
            if not isinstance(step, pending.Next):
                if step:
                    yield step
                return
        topic = self._topic_change(later) if later and step is pending.Next.CONTINUE else None
        # a read-back answered by a part of the turn ("yes, and then i want a person"): that part
        # says whether the caller leaves now; the rest was kept for after the action
        said = self.gate.heard(later) if later and self.gate is not None and step is pending.Next.TO_TOOL else later
        wish = (leaving_reason(self.state, said) or topic) if said else None
        if step is pending.Next.LEAVE:
            wish = LeaveReason.GOODBYE
        if wish is LeaveReason.HUMAN and ends_call(later):
            self.state.guard.farewell = True  # "ok call me back about it then, fine. bye": booked, then goodbye
        if wish is not None:
            yield tool_call_chunk(route_call(LEAVE_TOOL, {"reason": Leave(wish).wire}, path="fast", confidence=None))
            return
        if self.turns_heard > MAX_TURNS_HEARD:
            self.state.guard.trips.append("slot_stalled")
            self.finish(self.result_type(status="unclear", summary=_GAVE_UP))  # type: ignore[arg-type]
            return
        if self.state.settings.fast_path:
            # Speak what a tool asked, or act when the caller already said every required
            # argument: no LLM request for either (the hosted path's main cost).
            said = spoken_outputs(chat_ctx, tools)
            if said:
                self.last_question = said
                yield said
                return
            said_to_act = _without(chat_ctx, self.questions) if self.questions else chat_ctx
            call = fill_tool_call(said_to_act, tools, self.slot_reader) if fresh is not None else None
            if call is not None:
                yield tool_call_chunk(call)
                return
        words: list[str] = []
        async for chunk in Agent.default.llm_node(self, chat_ctx, tools, model_settings):
            text = chunk if isinstance(chunk, str) else (chunk.delta.content if chunk.delta else None)
            if text:
                words.append(text)
            yield chunk
        if words:
            self.last_question = "".join(words)

    def _topic_change(self, latest: str) -> LeaveReason | None:
        """'topic' when, instead of answering our question, the caller raised another need, or
        took this one back by name ("skip the phone number, only the logins part")."""
        if self.other_need(latest) is not None or self._taken_back_by_name(latest):
            return LeaveReason.TOPIC
        return None

    def _taken_back_by_name(self, latest: str) -> bool:
        """A clause takes back what this task is about, and another clause says something else."""
        own = self.label
        return any(takes_back(c) and self._reads_as(c) == own for c in _CLAUSE.split(latest) if c.strip())

    def _reads_as(self, clause: str) -> str | None:
        first = next(iter(self.state.router.detect(clause)), None)
        return first.label if first is not None else None

    def other_need(self, latest: str, *, by_domain: bool = False) -> Intent | None:
        """The other need the caller raised instead of answering our question, if any. With
        `by_domain`, another department's need the router is sure of at the department's level
        if not the specialist's (a question asked aside at a read-back, answered by a lookup)."""
        router = self.state.router
        if by_domain:
            own_domain = self.id.split(".", 1)[0]
            return next((i for i in router.detect(latest) if i.in_scope and i.domain not in ("meta", own_domain)
                         and router.domain_confidence(i) >= router.threshold), None)
        # After words that take the request back ("forget the plan, i'd rather..."), a new
        # need is believed at the router's ordinary threshold, not the stricter one.
        retracted = bool(RETRACTION.search(latest))
        gate = self.gate
        # A read-back waits for a yes or a no, so an email or a phone number then is another
        # need's value ("change my email to ..."), judged as a need below like any other turn.
        readback = gate is not None and gate.pending
        said = set(self.state.slots.read(latest).as_dict()) & (self._own_values() | _WHO_VALUES)
        if not retracted and not readback and said:
            # ids and amounts this task asks for: an answer, not a new topic. A yes is none at a
            # question that asks for a value ("ok fine. so yes, go ahead and close the account" to
            # "read me its id"), and nor is another task's value ("let's do the pro plan then")
            return None
        own = self.label
        bar = router.threshold if retracted else max(router.threshold, TOPIC_CHANGE_CONFIDENCE)
        for intent in router.detect(latest):
            if intent.domain in ("meta", "oos") or intent.label == own:
                continue
            if intent.confidence >= bar:
                return intent
        return None

    def _own_values(self) -> set[str]:
        """The values this task's tools take (a refund's charge id and amount)."""
        return {name for tl in self.tools for name in tool_parameters(tl).get("properties", {})}

    @function_tool(name=LEAVE_TOOL)
    async def _leave_topic(self, reason: str) -> None:
        """Stop this request because the caller wants to end the call, talk to a person, or raised another need instead.

        Args:
            reason: "goodbye" if the caller is ending the call, "human" if they asked for a person, "topic" if they asked about something else.
        """
        leave = Leave.parse(reason)
        if leave.reason is LeaveReason.TOPIC:
            # Only what the caller wants instead goes back to be routed: the part they took
            # back names this very task and would bring them straight back here. The caller
            # hears what was left, before the new need's answer.
            self.state.follow_up = self.wanted_instead(self.caller_words)
            gate = self.gate
            what = gate.facts.what if gate is not None and gate.pending and gate.facts else self.called
            self.finish(self.result_type(status="cancelled", summary=LEFT_FOR_NEW.format(what=what)))  # type: ignore[arg-type]
            return
        summary = leave_summary(self.state, leave.reason)
        if leave.reason is LeaveReason.GOODBYE and stops(self.caller_words):
            # "oh... never mind. later" at our question: what was stopped is said, then goodbye
            summary = f"{CANCELLED.format(what=self.called)} {THANKS_BYE}"
        self.finish(self.result_type(status="cancelled", summary=summary))  # type: ignore[arg-type]

    def wanted_instead(self, words: str) -> str:
        """What the caller wants instead of this task: the words after the take-back, without
        the clauses that take this task back or name it ("actually let's leave the phone
        number for another day, just the sign in thing" -> "just the sign in thing")."""
        rest = after_retraction(words)
        own = self.label
        keep = [c for c in _CLAUSE.split(rest) if c.strip() and not takes_back(c) and self._reads_as(c) not in (None, own)]
        if keep:
            return ", ".join(keep)
        return "" if self._taken_back_by_name(words) else rest  # only this task taken back: nothing else to route

    def another_attempt(self) -> bool:
        """Count a turn that did not finish; give up after a few so a call cannot stall here."""
        self.attempts += 1
        if self.attempts >= MAX_SPECIALIST_ATTEMPTS:
            self.state.guard.trips.append("slot_stalled")
            self.finish(self.result_type(status="unclear", summary=_GAVE_UP))  # type: ignore[arg-type]
            return False
        return True


# Who the caller is: an answer to a verification question asked inside any task.
_WHO_VALUES = frozenset({"customer_id", "zip_code", "birth_date", "email", "phone"})

# Clause boundaries of a turn that takes one need back and names another.
_CLAUSE = re.compile(r"[,.;]\s+|\s+\b(?:and|but|just|only)\b\s+", re.I)
LEFT_FOR_NEW = "I've left {what} for now, and nothing was changed."
_GAVE_UP = "I couldn't complete that over the phone, so I've noted it for a colleague to follow up."


_ACTED = ("done", "needs_approval", "queued")


def _says_already(summary: str, extra: str) -> bool:
    """The result already gives the answer's figures ("back on your card in 3 to 5 business days")."""
    figures = set(re.findall(r"\d+", extra))
    return bool(figures) and figures <= set(re.findall(r"\d+", summary))


def guarded(fn: Any) -> Any:
    """Wrap a specialist tool: injected faults act here; an idempotent tool is retried once;
    a failure ends the task with a call back booked and counts towards its circuit breaker.

    An idempotent tool (a lookup) also has a deadline of a third of the turn limit per
    attempt, so a hung system gets the call-back sentence inside the turn instead of a
    silent turn. A tool that changes something is never cancelled (that could tell the
    caller "nothing was changed" while the change still lands) nor tried twice: it runs in
    a task of its own, and past half the turn limit the caller hears that it is not
    confirmed yet and will be told the outcome (domains/writes.py)."""
    @functools.wraps(fn)
    async def wrapper(self: SpecialistTask[Any], *args: Any, **kwargs: Any) -> Any:
        fault = self.state.settings.fault_plan.get(self.id)
        self.heard_at_call = self.state.heard.agent
        attempts = 2 if self.idempotent else 1
        deadline = self.state.settings.turn_timeout_s / 3

        async def attempt_once() -> Any:
            if fault is not None:
                await asyncio.to_thread(apply_sync, fault)
            return await fn(self, *args, **kwargs)

        for attempt in range(1, attempts + 1):
            try:
                if self.idempotent:
                    result = await asyncio.wait_for(attempt_once(), deadline)
                else:
                    result = await run_write(self, attempt_once)
            except WriteUnconfirmed:
                BREAKER.failure(self.id)  # the caller has heard why; the write goes on
                return None
            except Exception as exc:
                if attempt < attempts:
                    log.warning("specialist %s failed (%s); retrying once", self.id, type(exc).__name__)
                    continue
                BREAKER.failure(self.id)
                self.fail(exc)
                return None
            BREAKER.success(self.id)
            return result
        return None

    return wrapper


def _without(chat_ctx: llm.ChatContext, questions: set[str]) -> llm.ChatContext:
    """The context without the caller's messages that were questions (see `questions`)."""
    return llm.ChatContext(items=[
        i for i in chat_ctx.items if not (i.type == "message" and i.role == "user" and (i.text_content or "") in questions)])
