"""The meta-supervisor: the one voice on the line. It never hands the call away.

Each need in a turn is delegated to a domain supervisor task (awaited inside a tool), whose
typed result comes back here; the LLM (hosted or embedded) then speaks one answer.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterable

from livekit.agents import Agent, ModelSettings, RunContext, function_tool, llm

from callcenter.llm import templates as t
from callcenter.llm.discourse import refers_back
from callcenter.llm.embedded import (
    TRANSFER,
    domain_confidence,
    fresh_user_text,
    route_call,
    spoken_outputs,
    user_texts,
)
from callcenter.llm.protocol import RouteDecision
from callcenter.llm.tool_cache import tool
from callcenter.routing.noise import NoiseModel
from domains import registry
from domains.base import DomainSpec, book_callback, failure_level, recent_context, within_budget
from domains.results import DomainResult
from domains.state import CallState
from meta import repair
from meta.fanout import Branch, fan_out
from meta.voice_transfer import start_transfer

log = logging.getLogger("callcenter.meta")

INSTRUCTIONS = """You are the front desk of a company's support line, speaking on the phone.
Greet callers, find every need in what they say, and delegate each need to the right
department with its transfer tool, passing the caller's words for that need. You can make
several transfers for one turn. Answer greetings and small talk yourself, politely decline
anything outside {departments}, and ask one short clarifying
question when you are not sure. If the caller asks for a person, call request_human.
Never promise money back or any change yourself: only the departments can do that.
Keep answers short and spoken: no lists, no markdown."""


class MetaSupervisor(Agent):
    def __init__(
        self, *, state: CallState, domains: tuple[DomainSpec, ...] | None = None, noise: NoiseModel | None = None
    ) -> None:
        self.state = state
        self.noise = noise
        self.domains = registry.DOMAINS if domains is None else domains
        # The departments' own wording: greeting, open question and the hosted LLM's prompt.
        self.phrases = registry.phrasebook(self.domains)
        self.departments = registry.department_names(self.domains)
        tools: list[llm.Tool] = [self._transfer_tool(d) for d in self.domains]
        instructions = INSTRUCTIONS.format(departments=registry.prompt_departments(self.domains))
        super().__init__(instructions=instructions, tools=tools, id="meta")

    async def on_enter(self) -> None:
        self.session.say(self.phrases.greeting)

    async def on_user_turn_completed(self, turn_ctx: llm.ChatContext, new_message: llm.ChatMessage) -> None:
        # A very long turn is cut before any model sees it: cost and latency stay bounded.
        limit = self.state.settings.max_turn_chars
        text = new_message.text_content or ""
        if len(text) > limit:
            new_message.content = [text[:limit]]

    async def llm_node(
        self, chat_ctx: llm.ChatContext, tools: list[llm.Tool], model_settings: ModelSettings
    ) -> AsyncIterable[llm.ChatChunk | str]:
        # Fast path: a confident single need goes straight to its domain, no LLM call;
        # turns that are not a need (noise, a follow-up, thanks-bye) get their reply here.
        fast = self.state.settings.fast_path
        said = spoken_outputs(chat_ctx, tools) if fast else None
        if said:  # every department answered: speak their typed results, no LLM needed
            yield said
            return
        fresh = fresh_user_text(chat_ctx) if fast else None
        if fresh is not None:
            text = fresh[: self.state.settings.max_turn_chars]
            fixed = repair.before_routing(
                text, self.noise, served=bool(self.state.caller.results), how_can_i_help=self.phrases.how_can_i_help)
            router = self.state.router
            intents = [] if fixed else router.detect(text)
            confident = [i for i in intents if domain_confidence(i) >= router.threshold and self._domain(i.domain)]
            if fixed is None and (not confident or len(text.split()) <= 4 or refers_back(text)):
                fixed = repair.follow_up(text, self.state.caller.results)
            # Greetings, small talk and requests for a person are the LLM's own to answer.
            social = any(i.label.startswith("meta/") and i.confidence >= router.threshold for i in intents)
            if fixed is None and not confident and not social:
                fixed = repair.unroutable(text, self.phrases.how_can_i_help)
            if fixed is not None:
                yield fixed.reply
                return
            parallel = self.state.settings.parallel_lookups and len(intents) > 1 and len(confident) == len(intents)
            branches = self._parallel_branches(intents) if parallel else None
            if branches:
                yield await fan_out(self.state, branches, self.state.settings.fanout_timeout_s)
                return
            if len(intents) == 1:
                intent = intents[0]
                sure = domain_confidence(intent)
                if sure >= router.threshold and self._domain(intent.domain):
                    call = route_call(f"{TRANSFER}{intent.domain}", {"request": intent.text}, path="fast", confidence=round(sure, 4))
                    yield llm.ChatChunk(id=call.call_id, delta=llm.ChoiceDelta(role="assistant", tool_calls=[call]))
                    return
                if intent.label == "meta/human" and intent.confidence >= router.threshold:
                    call = route_call("request_human", {"reason": "caller asked for a person"}, path="fast", confidence=round(intent.confidence, 4))
                    yield llm.ChatChunk(id=call.call_id, delta=llm.ChoiceDelta(role="assistant", tool_calls=[call]))
                    return
        # The slow path: the LLM sees the instructions and only as much recent history as the
        # budget allows, so a long call costs the same per request as a short one.
        bounded = within_budget(chat_ctx, self.state.settings.llm_context_tokens)
        async for chunk in Agent.default.llm_node(self, bounded, tools, model_settings):
            yield chunk

    def _parallel_branches(self, intents: list) -> list[Branch] | None:  # list[Intent]
        """Every need answerable by a read-only lookup, surely and for this caller, or None."""
        router, state = self.state.router, self.state
        branches: list[Branch] = []
        for intent in intents:
            domain = self._domain(intent.domain)
            specialist = domain.specialist(intent.name) if domain else None
            if specialist is None or specialist.lookup is None or intent.confidence < router.threshold:
                return None
            if specialist.requires_identity and not state.caller.verified:
                return None  # verification is a conversation: the tasks handle it
            branches.append(Branch(domain, specialist, round(intent.confidence, 4)))
        return branches

    def _route_text(self, text: str) -> tuple[DomainSpec, str, float] | None:
        router = self.state.router
        for intent in router.detect(text):
            spec = self._domain(intent.domain)
            if spec is not None and domain_confidence(intent) >= router.threshold:
                return spec, intent.text, round(domain_confidence(intent), 4)
        return None

    def _domain(self, name: str | None) -> DomainSpec | None:
        return next((d for d in self.domains if d.name == name), None)

    def _transfer_tool(self, spec: DomainSpec) -> llm.Tool:
        async def transfer(context: RunContext, request: str) -> str:
            return await self.delegate(spec, request, context.function_call.extra)

        transfer.__doc__ = spec.description
        return tool(transfer, name=f"{TRANSFER}{spec.name}")  # function_tool, the docstring parsed once

    async def delegate(self, spec: DomainSpec, request: str, extra: dict | None) -> str:
        """Run one domain supervisor for one need; re-delegate once if it was misrouted."""
        state = self.state
        request = (request or "").strip()[: state.settings.max_turn_chars] or next(iter(user_texts(self.chat_ctx)), "")
        while True:
            if state.guard.stop_delegating:
                return ""
            guard = self._loop_guard(spec.name, request)
            if guard:
                return guard
            state.note_route(spec.name, extra)
            try:
                result = await spec.supervisor(
                    state=state, request=request, chat_ctx=recent_context(self.chat_ctx), departments=self.departments)
            except Exception as exc:
                log.log(failure_level(self), "domain %s failed: %s", spec.name, type(exc).__name__)
                result = DomainResult(domain=spec.name, specialist=None, status="failed", summary=t.TOOL_FAILED)
            if state.follow_up:
                # The caller raised another need while a task waited on them: route it now.
                text, state.follow_up = state.follow_up, None
                if result.status != "misrouted":
                    state.caller.results.append(result)
                nxt = self._route_text(text)
                if nxt is not None:
                    spec, request, extra = nxt[0], nxt[1], RouteDecision(nxt[0].name, "fast", nxt[2]).extra()
                    continue
            if result.status == "misrouted" and (nxt_spec := self._domain(result.suggested_domain)):
                spec, extra = nxt_spec, RouteDecision(nxt_spec.name, "fast").extra()
                continue
            if result.status == "misrouted":
                result = DomainResult(domain=spec.name, specialist=None, status="unclear", summary=t.CLARIFY_OPEN)
            state.caller.results.append(result)
            return result.summary

    def _loop_guard(self, domain: str, request: str) -> str | None:
        """Stop ping-pong: too many delegations in one turn, or the same state twice."""
        state = self.state
        state.guard.delegations += 1
        key = (domain, " ".join(request.lower().split()))
        reason = None
        if state.guard.delegations > state.settings.max_delegations_per_turn:
            reason = "max_delegations"
        elif key in state.guard.states:
            reason = "repeated_state"
        state.guard.states.add(key)
        if reason is None:
            return None
        state.guard.trips.append(reason)
        ticket = state.ports.tickets.create_ticket(customer_id=state.caller.customer_id, kind="callback", summary="Routing loop: caller needs a person")
        state.caller.results.append(DomainResult(domain=domain, specialist=None, status="unclear", summary=t.LOOP_GUARD))
        return f"{t.LOOP_GUARD} Your reference is {ticket.id}."

    @function_tool
    async def request_human(self, reason: str = "caller asked for a person") -> str:
        """Arrange for a human colleague to call the caller back, when they ask for a person.

        Args:
            reason: Why the caller wants a person, in a few words.
        """
        # A phone caller is put through to a person when a transfer number is configured.
        words = start_transfer(self.state.settings.transfer_number, self.session, lambda: book_callback(self.state, reason))
        return words if words is not None else book_callback(self.state, reason)
