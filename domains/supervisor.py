"""The domain supervisor task: routes one request to one of its domain's specialists.

It routes with the fast classifier in `llm_node` and falls through to the session's LLM
(hosted or embedded) when unsure, then returns a DomainResult to the meta-supervisor.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterable
from typing import ClassVar

from livekit.agents import Agent, AgentTask, ModelSettings, RunContext, llm

from callcenter.llm import templates as t
from callcenter.llm.embedded import FRONT_DESK_TOOL, ROUTE, fresh_user_text, route_call, user_texts
from callcenter.llm.protocol import Leave, LeaveReason
from callcenter.llm.tool_cache import tool
from callcenter.routing import Intent, identity_words, segment
from callcenter.routing.frames import named_label
from callcenter.routing.topic_only import topic_only
from callcenter.spoken import normalise
from domains import choice, frame
from domains.base import (
    FAILED,
    DomainSpec,
    SpecialistSpec,
    cut_turn,
    failure_level,
    fallback,
    leave_summary,
    leaving_reason,
    said,
    tool_call_chunk,
)
from domains.breaker import BREAKER
from domains.intent import yes_or_no
from domains.lookup_run import run_lookup
from domains.results import DomainResult
from domains.state import CallState, Hop

log = logging.getLogger("callcenter.domains")

MAX_SUPERVISOR_TURNS = 3


class DomainSupervisorTask(AgentTask[DomainResult]):
    """Routes one request to one of its domain's specialists and returns a DomainResult."""

    spec: ClassVar[DomainSpec]

    def __init__(
        self, *, state: CallState, request: str, chat_ctx: llm.ChatContext | None = None, departments: str = "",
        settled: str | None = None,
    ) -> None:
        # `departments` ("billing, technical or account") comes from the meta level's registry:
        # a hosted LLM is told which names "belongs to <domain>" may take.
        doc = _FRONT_DESK_DOC.format(departments=f" ({departments})" if departments else "")
        self._with_identity = ""  # what the caller said beside who they are, for the specialist
        tools: list[llm.Tool] = [self._route_tool(s) for s in self.spec.specialists]
        tools.append(tool(self._to_front_desk, name=FRONT_DESK_TOOL, description=doc))
        tools.append(tool(self._verify_at_question, name=VERIFY_AT_QUESTION, description=_VERIFY_AT_QUESTION_DOC))
        self._ask_again: str | None = None  # the question to ask once more, the caller verified in between
        self._verified_as = ""  # what verification said ("Thank you, Ada, you're verified.")
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
        # The specialist the front desk already settled this request on (None: read it here).
        self.settled = settled if settled and self.spec.specialist(settled) else None
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
            self._finish(DomainResult(domain=self.spec.name, specialist=None, status="failed", summary=FAILED))
            log.error("supervisor %s failed to start: %s", self.id, type(exc).__name__)

    async def on_user_turn_completed(self, turn_ctx: llm.ChatContext, new_message: llm.ChatMessage) -> None:
        cut_turn(self.state, new_message)
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
        if self.state.guard.stop_delegating:
            # Queued behind a need whose caller said goodbye (tool calls of one turn start
            # together and wait for their turn), so stop before doing anything.
            yield tool_call_chunk(route_call(FRONT_DESK_TOOL, {"reason": Leave(LeaveReason.STOPPED).wire}, path="fast", confidence=None))
            return
        fresh = None if first else fresh_user_text(chat_ctx)
        if fresh is None and self._ask_again is not None:
            # verified in answer to the clarifying question: thanked, and the question asked once more
            again, self._ask_again = self._ask_again, None
            yield again
            return
        wish = leaving_reason(self.state, fresh) if fresh else None
        if wish is not None:
            yield tool_call_chunk(route_call(FRONT_DESK_TOOL, {"reason": Leave(wish).wire}, path="fast", confidence=None))
            return
        if self.user_turns >= MAX_SUPERVISOR_TURNS:
            yield tool_call_chunk(route_call(FRONT_DESK_TOOL, {"reason": Leave(LeaveReason.UNCLEAR).wire}, path="fast", confidence=None))
            return
        if first and self.settled is not None:
            yield tool_call_chunk(route_call(f"{ROUTE}{self.settled}", {}, path="fast", confidence=None))
            return
        if fresh and choice.last_question(chat_ctx) and frame.read(fresh) == frame.Reading(frame.Move.CANCEL):
            # "no then, don't close it" to "is it about X, or about Y?": neither, nothing done
            yield tool_call_chunk(route_call(FRONT_DESK_TOOL, {"reason": Leave(LeaveReason.CANCELLED).wire}, path="fast", confidence=None))
            return
        if fresh and choice.last_question(chat_ctx) and choice.names_several(fresh, router):
            # "the one that went through twice. refund that, and bump me up to pro" to "is it about
            # the refund, or about your balance?": several needs, not a pick; the front desk takes each
            self.state.follow_up = fresh
            yield tool_call_chunk(route_call(FRONT_DESK_TOOL, {"reason": Leave(LeaveReason.MISROUTED, self.spec.name).wire},
                                             path="fast", confidence=None))
            return
        picked = self._picked(chat_ctx, fresh) if fresh else None
        if picked is not None:  # "yes open it" to "is it about opening a ticket ..., or about ...?"
            yield tool_call_chunk(route_call(f"{ROUTE}{picked}", {}, path="fast", confidence=None))
            return
        again = choice.asked_again(choice.last_question(chat_ctx), fresh) if fresh else None
        if again is not None:
            yield again
            return
        if fresh and self._only_identity(fresh):
            # "sure it's c one zero zero two, zip one oh oh oh one" to "is it about X, or about Y?":
            # who they are, not which: verified, then the same question (not another guess at it)
            yield tool_call_chunk(route_call(VERIFY_AT_QUESTION, {}, path="fast", confidence=None))
            return
        intent = router.classify(text, within=self.spec.name)
        fast = self.state.settings.fast_path
        which = self._which_need(text, intent)
        if which is not None:
            yield which
            return
        likely = self.spec.specialist(intent.name) if intent.in_scope else None
        if fast and likely is not None and intent.confidence < router.threshold and self._only_asks(likely, text):
            # "what plan am i on and what does it cost": a question its read-only lookup answers,
            # whatever the margin; the clarifying question is for what would change something
            yield tool_call_chunk(route_call(f"{ROUTE}{likely.name}", {}, path="fast", confidence=round(intent.confidence, 4)))
            return
        if fast and intent.confidence >= router.threshold and self.spec.specialist(intent.name):
            yield tool_call_chunk(route_call(f"{ROUTE}{intent.name}", {}, path="fast", confidence=round(intent.confidence, 4)))
            return
        overall = router.classify(text)
        if fast and overall.domain not in (self.spec.name, "meta", "oos") and overall.confidence >= router.threshold:
            yield tool_call_chunk(route_call(FRONT_DESK_TOOL, {"reason": Leave(LeaveReason.MISROUTED, overall.domain).wire}, path="fast", confidence=round(overall.confidence, 4)))
            return
        if first and text != latest:
            # The LLM must see the part of the caller's turn that was delegated here.
            chat_ctx = chat_ctx.copy()
            chat_ctx.add_message(role="user", content=text)
        async for chunk in Agent.default.llm_node(self, chat_ctx, tools, model_settings):
            yield chunk

    def _which_need(self, text: str, intent: Intent) -> str | None:
        """A clarifying question for a turn that names a thing but no need ("the charge"),
        when the likely specialist would act on it rather than only look something up
        (callcenter/routing/topic_only.py); None: route as usual."""
        spec = self.spec.specialist(intent.name) if intent.in_scope else None
        # only a pure lookup is guessed ("the account" may mean security's lock: asked)
        if spec is None or (spec.lookup is not None and spec.acts_on is None) or not topic_only(text):
            return None
        if not spec.changes and intent.confidence >= _ALL_BUT_SURE and self.state.router.clearly_ahead(intent):
            return None  # "my ticket": its status, far ahead of anything else, and nothing changes
        if intent.confidence >= 1.0 and not intent.alternatives:  # (a rule settles at exactly 1.0)
            return None  # "the credit for the outage": a department's construction settled it (its read-back asks)
        if named_label(text, self.state.router.labels) is not None:
            return None  # "the refund": the caller named the need
        names: list[str] = []
        for label in (intent.label, *(lab for lab, _ in intent.alternatives)):
            other = self.spec.specialist(label.split("/", 1)[-1]) if label.startswith(f"{self.spec.name}/") else None
            if other is not None and other.spoken_name not in names:
                names.append(other.spoken_name)
        if len(names) < 2:
            return t.CLARIFY_OPEN
        return t.CLARIFY_TWO.format(a=names[0], b=names[1])

    def _route_tool(self, spec: SpecialistSpec) -> llm.Tool:
        async def route(context: RunContext) -> None:
            agent_id = f"{self.spec.name}.{spec.name}"
            try:
                # "what plans do you have and how much are they": a lookup that answers anyone
                anyone = spec.looks_up_for(False) and self._only_asks(spec, " ".join(t for t, _ in self._request_texts()))
                if spec.requires_identity and not self.state.caller.verified and not anyone:
                    said_then = await self._verify(context, spec.name)
                    if said_then is None:
                        return None
                    self._with_identity = _beyond_identity(said_then, self.request)
                if not BREAKER.allows(agent_id):  # failing again and again: don't make the caller wait on it
                    result = spec.task.result_type(status="failed", summary=fallback(self.state, agent_id))  # type: ignore[call-arg]
                    self._finish(DomainResult(domain=self.spec.name, specialist=spec.name, status=result.status, summary=result.summary, result=result))
                    return None
                note = self.state.note_route(agent_id, context.function_call.extra)
                words = " ".join(t for t, _ in self._request_texts())
                if self._only_asks(spec, words):  # "which plan are we on": the price list, no plan asked for
                    assert spec.lookup is not None
                    run = await run_lookup(self.state, agent_id, spec.lookup, words, self.state.settings.fanout_timeout_s)
                    # The specialist answered by its lookup, its task never started: no handoff for
                    # the observer to see, so its hop is recorded here, as the fan-out records its own.
                    self.state.log.pending_routes.pop(agent_id, None)
                    self.state.trace.leave(agent_id, run.outcome)
                    self.state.log.direct_hops += [
                        (Hop(self.spec.name, agent_id, note.path, note.confidence, run.seconds), run.outcome),
                        (Hop(agent_id, self.spec.name, "return", None, 0.0), run.outcome)]
                    # Not answered (hung, failed, breaker open): named, with a call back, as the fan-out does.
                    result = run.result if run.result is not None else spec.task.result_type(status="failed", summary=fallback(self.state, agent_id))  # type: ignore[call-arg]
                    self._finish(DomainResult(domain=self.spec.name, specialist=spec.name, status=result.status, summary=result.summary, result=result))
                    return None
                task = spec.task(state=self.state, agent_id=agent_id, chat_ctx=said(*self._request_texts()))
                task.called = spec.spoken_name  # how it names itself to the caller ("the plan change")
                result = await task
            except Exception as exc:
                log.log(failure_level(self), "routing to %s failed: %s", agent_id, type(exc).__name__)
                result = spec.task.result_type(status="failed", summary=FAILED)  # type: ignore[call-arg]
            self._finish(DomainResult(domain=self.spec.name, specialist=spec.name, status=result.status, summary=result.summary, result=result))
            return None

        return tool(route, name=f"{ROUTE}{spec.name}", description=spec.description)

    def _picked(self, chat_ctx: llm.ChatContext, answer: str) -> str | None:
        """The specialist the caller picked, answering this department's either/or question."""
        question = choice.last_question(chat_ctx)
        phrase = choice.picked(question, answer) if question else None
        return next((s.name for s in self.spec.specialists if phrase in (s.topic, s.spoken_name)), None) if phrase else None

    def _only_asks(self, spec: SpecialistSpec, words: str) -> bool:
        """A specialist that changes something, asked a question about it that its read-only
        lookup answers (`acts_on` says the words ask no act) and that names no value its
        conversation would use: the lookup answers, and no question about what to change is
        asked ("which plan are we on" is no request for a plan)."""
        values = set(self.state.slots.read(words).as_dict()) - {"confirm"}  # "ok, what's my plan cost" names no value
        return spec.changes and spec.lookup is not None and spec.acts_on is not None and not spec.acts_on(words) and not values

    def _only_identity(self, fresh: str) -> bool:
        """The caller, unverified, answers this department's question by saying who they are, and
        nothing else (words beside it are a request, routed as one)."""
        if self.state.caller.verified or not identity_words.states_identity(normalise(fresh)):
            return False
        rest = _beyond_identity([fresh], self.request)
        return not rest or yes_or_no(rest) is True  # "sure, it's c1002 ...": a yes to being asked, no more

    async def _verify(self, context: RunContext, specialist: str | None) -> list[str] | None:
        """Verify the caller from their newest words (asking on if need be): what they said to the
        identity questions, newest first; None when they were not verified (this task then ends)."""
        # imported here: domains.identity imports this package
        from domains.identity import VerifyIdentityTask

        self.state.note_route("identity", context.function_call.extra)
        verify = VerifyIdentityTask(state=self.state, chat_ctx=said(self._latest_user()))
        identity = await verify
        if identity.status != "done":
            self._finish(DomainResult(domain=self.spec.name, specialist=specialist, status="unverified", summary=identity.summary, result=identity))
            return None
        self._verified_as = identity.summary
        return user_texts(verify.chat_ctx)

    async def _verify_at_question(self, context: RunContext) -> str | None:
        question = choice.last_question(self.chat_ctx)
        if await self._verify(context, None) is None:
            return None
        self._ask_again = f"{self._verified_as} {question}".strip()
        return self._verified_as

    def _latest_user(self) -> tuple[str, str | None]:
        msg = next((i for i in reversed(self.chat_ctx.items) if i.type == "message" and i.role == "user"), None)
        return (msg.text_content or "", msg.id) if msg else (self.request, None)

    def _request_texts(self) -> list[tuple[str, str | None]]:
        """What the specialist needs to hear: the delegated request, plus any clarification, and
        what the caller said beside who they are ("c1005, 97201. move me to starter")."""
        texts = [(self.request, self._origin_id)]
        if self.user_turns:
            texts.append(self._latest_user())
        if self._with_identity:
            texts.append((self._with_identity, None))
        return texts

    async def _to_front_desk(self, reason: str) -> None:
        leave = Leave.parse(reason)
        suggested = leave.domain
        if leave.reason is LeaveReason.STOPPED:
            status, summary = "cancelled", ""
        elif leave.reason is LeaveReason.CANCELLED:
            status, summary = "cancelled", NOTHING_CHANGED
        elif leave.reason in (LeaveReason.GOODBYE, LeaveReason.HUMAN):
            status, summary = "cancelled", leave_summary(self.state, leave.reason)
        else:
            status = "misrouted" if suggested else "unclear"
            summary = "" if suggested else _UNCLEAR.format(domain=self.spec.name)
            if suggested and self.user_turns:
                # The caller's newest words, not the original request, are what to route.
                self.state.follow_up = self._latest_user()[0]
        self._finish(DomainResult(domain=self.spec.name, specialist=None, status=status, summary=summary, suggested_domain=suggested))
        return None


NOTHING_CHANGED = "No problem, nothing was changed."
# A bare topic read this surely ("my ticket": 0.9999) is its reading; "a question about my account"
# (0.79 the sign-in review) is still asked about
_ALL_BUT_SURE = 0.99
VERIFY_AT_QUESTION = "verify_at_question"  # not the front desk's "verify_caller": tools are told apart by name
_VERIFY_AT_QUESTION_DOC = (
    "Verify the caller when, asked a clarifying question, they answer with who they are "
    "(customer number or email, and ZIP code) instead; the question is then asked again."
)
_UNCLEAR = "I wasn't able to work out what you need from {domain}, so I've noted it for a colleague to call you back."
_FRONT_DESK_DOC = """Hand the request back to the front desk when it does not belong to this department or stays unclear.

Args:
    reason: "belongs to <domain>"{departments} when another department owns it, "goodbye" or "human" when the caller wants to end the call or talk to a person, "cancelled" when the caller takes the request back, otherwise "unclear".
"""


def _beyond_identity(said_then: list[str], request: str) -> str:
    """What the caller said beside who they are, in answer to the identity question (newest
    first in ``said_then``): "fine. c1005, 97201. move me to starter" -> "move me to starter"."""
    latest = next((text for text in said_then if text and text != request), "")
    if not latest or not identity_words.states_identity(normalise(latest)):
        return ""
    rest = segment.trim(identity_words.without_identity(normalise(latest)))
    return "" if not rest or segment.is_filler(rest) else rest
