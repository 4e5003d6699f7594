"""The meta-supervisor: the one voice on the line. It never hands the call away.

Each need in a turn is delegated to a domain supervisor task (awaited inside a tool), whose
typed result comes back here; the LLM (hosted or embedded) then speaks one answer.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import AsyncIterable

from livekit.agents import Agent, ModelSettings, RunContext, function_tool, llm

from callcenter.llm import templates as t
from callcenter.llm.embedded import (
    TRANSFER,
    domain_confidence,
    fresh_user_text,
    route_call,
    spoken_outputs,
    user_texts,
)
from callcenter.llm.language import detect_language, farewell_language
from callcenter.llm.protocol import SETTLED_EXTRA, THEN_EXTRA, LeaveReason, RouteDecision
from callcenter.llm.tool_cache import tool
from callcenter.routing import Intent
from callcenter.routing.discourse import (
    asks_of_said,
    continues,
    farewell_after,
    follow_up_kind,
    picks_from,
    refers_back,
)
from callcenter.routing.frames import asks_for_person
from callcenter.routing.noise import NoiseModel
from callcenter.routing.segment import RETRACTION
from callcenter.spoken import said_back_figure
from domains import choice, frame, registry
from domains.base import (
    DomainSpec,
    SpecialistSpec,
    book_callback,
    call_off_callback,
    caller_wants_out,
    failure_level,
    recent_context,
    within_budget,
)
from domains.base import (
    said as caller_words,
)
from domains.holder import disowns, third_party
from domains.identity import HOLDER_MUST, VerifyIdentityTask
from domains.intent import after_refusal, yes_or_no
from domains.results import DomainResult
from domains.state import CallState
from meta import agenda, gist, moves, offers, repair, unclear
from meta.agenda import Agenda
from meta.cues import said_back
from meta.details import detail_again
from meta.fanout import Branch, fan_out
from meta.foreign import ForeignTurns
from meta.router import topics
from meta.voice_transfer import start_transfer

log = logging.getLogger("callcenter.meta")
# Words that ask: a question, or a request ("also is your api having problems", "and check my balance please")
_ASKED = re.compile(
    r"\?|(?:^|[,.;]\s*|\b(?:and|also|plus)\s+)(?:is|are|was|were|can|could|would|will|do|does|did|has|have|what|what'?s|whats|how|when|why"
    r"|where|which|who)\b|\b(?:please|can\s+you|could\s+you|i\s+(?:want|need)|i'?d\s+like|check|tell\s+me)\b", re.I)
VERIFY_TOOL = "verify_caller"

INSTRUCTIONS = """You are the front desk of a company's support line, speaking on the phone.
Greet callers, find every need in what they say, and delegate each need to the right
department with its transfer tool, passing the caller's words for that need. You can make
several transfers for one turn. Answer greetings and small talk yourself, politely decline
anything outside {departments}, and ask one short clarifying
question when you are not sure. If the caller asks for a person, call request_human.
Never promise money back or any change yourself: only the departments can do that.
Keep answers short and spoken: no lists, no markdown."""


# Out of scope for sure: "and what about the weather?" reads 0.99 and up; a turn that leans on
# the last answer ("and how about yesterday?") reads out of scope at 0.4-0.8.
_SURE_OOS = 0.9


class MetaSupervisor(ForeignTurns, Agent):
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
        self.agenda = Agenda()  # a multi-need turn's needs, taken one at a time (meta/agenda.py)
        self._offers_taken: set[int] = set()  # results whose offer was answered (meta/moves.py)
        # Where the caller's previous turn's results start, and this turn's: an offer holds for the
        # turn after it, whichever of that turn's answers made it (meta/offers.py)
        self._turn_starts = (0, 0)
        self._ask_after: str | None = None  # a part of a turn left unclear, asked once the rest is answered
        self._gloss_after_verify: str | None = None  # another language's question, answered once the caller is verified
        self._needs_after_verify: str | None = None  # needs said beside a person asked for, before we knew whom to call
        self._gloss_offer: offers.Offer | None = None  # a change asked for in another language, offered back in English
        self._gist_answered: frozenset[str] = frozenset()  # labels a glossed turn's lookups answered (the rest: _gist_task)
        self._leaving = False  # the turn ended on a goodbye after its need: no "anything else?" once answered
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
        newest = fresh_user_text(chat_ctx)
        if newest is not None:  # "what's my balance, thanks bye": the answer, then the goodbye
            self._leaving = bool(farewell_after(newest[: self.state.settings.max_turn_chars]))
        if self.agenda.active:
            heard = agenda.unspoken_outputs(self.agenda, chat_ctx)
            if heard is not None and fresh_user_text(chat_ctx) is None:
                # The last need of a multi-need turn is done: its outcome, then the next need.
                text, call = await agenda.step(self.agenda, self.state, heard, first=False)
                async for chunk in self._say_then(self._then_ask(text) if call is None else text, call):
                    yield chunk
                return
            if fresh_user_text(chat_ctx) is not None:
                self.agenda.clear()
                self.state.waiting_needs = set()
        said = spoken_outputs(chat_ctx, tools) if fast else None
        if said:  # every department answered: speak their typed results, no LLM needed
            yield self._then_ask(said)
            return
        fresh = fresh_user_text(chat_ctx) if fast else None
        in_english: list[Intent] | None = None  # several needs read from the turn's gloss
        if fresh is not None:
            text = fresh[: self.state.settings.max_turn_chars]
            gloss_offer, self._gloss_offer = self._gloss_offer, None  # answered now, or never
            if self.state.caller.verified and disowns(text):
                # "it's my husband's account, he wants the balance", said on the holder's own line:
                # the one speaking is not the holder, so nothing of the account is read or changed
                # for them (identity says what the holder must do); what needs no account is answered
                self.state.caller.verified = False
            self._turn_starts = (self._turn_starts[1], len(self.state.caller.results))
            cued = said_back(text, choice.last_question(chat_ctx))
            if cued is not None:  # "ticket then" after "... say 'open a ticket'": the phrase itself
                text = cued
            picked = self._choice(chat_ctx, text)
            if picked is not None:  # "the account", after the line asked closure or plan change
                yield llm.ChatChunk(id=picked.call_id, delta=llm.ChoiceDelta(role="assistant", tool_calls=[picked]))
                return
            move = self._move(text, gloss_offer)
            if move is None and gloss_offer is not None and said_back_figure(text):
                self._gloss_offer = gloss_offer  # "¿cuarenta y nueve dólares?" to it: still offered, a yes takes it
                offered = self._specialist(gloss_offer.domain, gloss_offer.specialist)
                if offered is not None:  # and asked once more: its read-back says the figure, in English
                    yield gist.ASK_IN_ENGLISH.format(what=offered.spoken_name)
                    return
            if move is not None:  # an offer taken up, an identity statement (meta/moves.py)
                if isinstance(move, str):
                    yield move
                elif gloss_offer is not None and detect_language(text, weak=True) is not None:
                    # "sí, confirmo" to the change offered back: its read-back goes on in English, and says so
                    async for chunk in self._say_then(gist.IN_ENGLISH_TASK, move):
                        yield chunk
                else:
                    yield llm.ChatChunk(id=move.call_id, delta=llm.ChoiceDelta(role="assistant", tool_calls=[move]))
                return
            fixed = repair.before_routing(
                text, self.noise, served=bool(self.state.caller.results), how_can_i_help=self.phrases.how_can_i_help,
                names_need=self._names_need_in_gloss, asks_need=self._asks_surely)
            router = self.state.router
            intents = [] if fixed else router.detect(text)
            if intents and (any(i.in_scope and i.confidence < router.threshold for i in intents)
                            # "hi um, unsere api gibt dauernd fehler fünfhundert, why is that": only
                            # the greeting is read; the need is in the other language's words
                            or all(i.label.startswith("meta/") or not i.in_scope for i in intents)
                            # "mira two things cuánto debo and ...": a need read from a clause of
                            # words the router never saw (there the two-factor reset, from "two")
                            or any(i.in_scope and self._unseen_foreign(i.text) for i in intents)
                            # "oye dos cosas cuánto debo and also i'm locked out": the words the
                            # router never saw read as nothing at all, beside a need it is sure of
                            or self._unseen_foreign(text)):
                read = self._read_in_english(text)
                needs = [i for i in intents if i.in_scope and not i.label.startswith("meta/")]
                if read is not None and needs and len(read) <= len(needs) and all(
                        i.confidence >= router.threshold and not self._unseen_foreign(i.text) for i in needs):
                    read = None  # every need read surely as said, and the gloss finds no more: the words as said stand
                intents = read or intents
                in_english = read if read is not None and len(read) > 1 else None
            confident = [i for i in intents if domain_confidence(i) >= router.threshold and self._domain(i.domain)]
            beside = moves.need_beside_follow_up(text, intents, self.state.caller.results, router) if fixed is None else None
            if (beside is not None and self._domain(beside[1].domain)
                    and (answer := moves.follow_up_answer(beside[0], self.state.caller.results, router))):
                # "how do we fix that, and which plan gives us more": the follow-up, then the need
                call = route_call(f"{TRANSFER}{beside[1].domain}", {"request": beside[1].text}, path="fast",
                                  confidence=round(domain_confidence(beside[1]), 4))
                async for chunk in self._say_then(answer, call):
                    yield chunk
                return
            if fixed is None and (not confident or len(text.split()) <= 4 or refers_back(text) or moves.about_last_answer(text)
                                  or moves.definite_follow_up(text, self.state.caller.results)
                                  or moves.asks_of_booking(text, self.state.caller.results)
                                  or moves.asks_only_of_last(text, self.state.caller.results, router)
                                  or moves.asks_next_of_same(text, self.state.caller.results, router)
                                  or moves.named_answer(text, self.state.caller.results, router) is not None):
                # A follow-up is answered from the result of the topic being discussed.
                answer = moves.follow_up_answer(text, self.state.caller.results, router)
                fixed = repair.Repair("follow_up", answer) if answer else None
            again = self._again(text, relative_only=bool(confident)) if fixed is None else None
            if again is not None:  # "ok and the one from march", right after the invoices
                yield llm.ChatChunk(id=again.call_id, delta=llm.ChoiceDelta(role="assistant", tool_calls=[again]))
                return
            # Greetings, small talk and requests for a person are the LLM's own to answer.
            said = self._last_said()
            narrows = continues(text, said)  # "and what about last week?": no small talk, whatever its score
            social = not narrows and any(i.label.startswith("meta/") and i.confidence >= router.threshold for i in intents)
            sure_oos = any(i.label == "oos" and i.confidence >= _SURE_OOS for i in intents)
            # "and next month" after the balance, "what about the webhooks ones" after the status
            # board: a reading that is not sure of its specialist, or one of a thing the last
            # answer named, gives way to that answer's lookup
            # A turn of narrowing words only ("ok and the one after that, same thing?") has no topic
            # for any reading to be sure of, however sure the router sounds.
            leans = narrows and not sure_oos and (not confident or picks_from(text, said) or continues(text, frozenset())
                                 or not any(i.confidence >= router.threshold for i in confident))
            # "is there a max on how many come back per page or" after the paging guide: a question
            # saying a word of the last answer, that no other specialist is sure of, asks on of it
            last = self._last_answered()[0]
            on_last = (not social and not sure_oos and asks_of_said(text, said) and last is not None
                       and not any(i.confidence >= router.threshold and i.label != f"{last.domain}/{last.specialist}"
                                   for i in intents if "/" in i.label))
            if fixed is None and (leans or on_last or (not confident and not social and not sure_oos and moves.asks_to_look_again(text))):
                # "and how about yesterday?" after the API errors: what no need of its own reads
                # as goes on from the last answer; its read-only lookup answers it again, with these words
                branch = self._last_lookup(text)
                if branch is not None:
                    yield self._closing(await fan_out(self.state, [branch], self.state.settings.fanout_timeout_s))
                    return
            if fixed is None and not confident and third_party(text):
                # "i'm calling about my husband's account, he got double charged": the holder's
                # own to ask, said now rather than a question between two of the holder's needs
                # (only beside an unsure reading: tried beside every reading, session 27, "a receipt
                # for my accountant" and "maybe it was under my colleague's account. never mind"
                # were refused)
                fixed = repair.Repair("holder", f"{HOLDER_MUST} {t.ANYTHING_ELSE}")
            if fixed is None and not confident and not social:
                # "is it revoked?", "sorry how many per page exactly": of an answer given
                whether = moves.whether_answer(text, self.state.caller.results) or detail_again(text, self.state.caller.results)
                fixed = repair.Repair("follow_up", whether) if whether else repair.unroutable(text, self.phrases.how_can_i_help)
            if fixed is not None:
                self._gist_answered = frozenset()
                answer = await self._gist(text) if fixed.reason == "language" else None
                # "combien je dois, et pourquoi je ne peux pas me connecter?": the balance answered,
                # then the sign-in help in English
                task = self._gist_task(text, self._gist_answered) if fixed.reason == "language" and (
                    answer is None or self._gist_answered) else None
                if task is not None:  # "no puedo iniciar sesión": the sign-in help, in English
                    async for chunk in self._say_then(f"{fixed.reply} {answer or ''} {gist.IN_ENGLISH_TASK}".replace("  ", " "), task):
                        yield chunk
                    return
                if answer and self._gist_answered and not answer.endswith(t.ANYTHING_ELSE):
                    answer = f"{answer} {t.ANYTHING_ELSE}"  # part of a glossed turn answered, the rest left to English
                yield f"{fixed.reply} {answer}" if answer else fixed.reply
                return
            parallel = self.state.settings.parallel_lookups and len(intents) > 1 and len(confident) == len(intents)
            # an unknown caller asking what anyone may know ("how much is enterprise a month"):
            # the lookup answers, no customer number asked for
            anyones = len(intents) == 1 and bool(confident) and not self.state.caller.verified and self._open_to_anyone(intents[0])
            branches = self._parallel_branches(intents) if parallel or anyones else None
            if branches:
                yield self._closing(await fan_out(self.state, branches, self.state.settings.fanout_timeout_s))
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
        calls: list[llm.FunctionToolCall] = []
        if fresh is not None and in_english:
            # the gloss's needs, each sure and none a change, routed as the model would route them
            # read in English: the words as said would be read again from the start
            calls = [route_call(f"{TRANSFER}{i.domain}", {"request": i.text}, path="fast", confidence=round(domain_confidence(i), 4))
                     for i in in_english]
        else:
            async for chunk in Agent.default.llm_node(self, bounded, tools, model_settings):
                if isinstance(chunk, llm.ChatChunk) and chunk.delta is not None and chunk.delta.tool_calls:
                    calls.extend(chunk.delta.tool_calls)  # held until every need of the turn is known
                    if chunk.delta.content:
                        yield chunk.delta.content
                    continue
                yield chunk
        if calls and fresh is not None and not in_english:
            self._ask_after = unclear.left_unclear(self.state.router.detect(text), calls, self.state.router.threshold, topics())
        calls, booked = self._person_beside(calls, fresh or "")
        if booked and len(calls) == 1:  # the person booked, then the one need beside it
            async for chunk in self._say_then(booked, calls[0]):
                yield chunk
            return
        needs = agenda.needs_of(calls, self.domains, self.state) if calls else None
        if needs is None:
            if calls:
                yield llm.ChatChunk(id=calls[0].call_id, delta=llm.ChoiceDelta(role="assistant", tool_calls=calls))
            return
        # Several needs: each is acknowledged now, lookups answered, the rest taken in turn.
        self.agenda.clear()
        self.agenda.queue = needs
        self.agenda.since = len(self.state.caller.results)
        text, call = await agenda.step(self.agenda, self.state, [booked, agenda.acknowledge(needs)], first=True)
        async for chunk in self._say_then(self._then_ask(text) if call is None else text, call):
            yield chunk

    def _person_beside(self, calls: list[llm.FunctionToolCall], turn: str = "") -> tuple[list[llm.FunctionToolCall], str]:
        """A person asked for beside other needs: the call back is booked now, what was said of
        it, and the needs are taken as ever. Only a call back: a transfer (a configured number)
        or a caller nobody can call back yet (asked who they are first) keeps the person alone."""
        human = [c for c in calls if c.name == "request_human"]
        rest = [c for c in calls if c.name.startswith(TRANSFER)]
        if not human or not rest:
            return calls, ""
        unknown = not (self.state.caller.verified or self.state.caller.line)  # nobody to call back yet
        if unknown and not self.state.settings.transfer_number and not RETRACTION.search(turn):
            # ("help with my bill, actually no, can i just talk to somebody": taken back, nothing kept)
            # "i need a person and is the api down" from a caller not yet known: who they are is
            # asked first (for the call back), and the other needs are taken once they are verified
            # (what they ask for or ask about: "i've been going round in circles with your website
            # all morning" told before the person is no need to answer)
            asked = [str(json.loads(c.arguments or "{}").get("request") or "") for c in rest]
            self._needs_after_verify = ". ".join(r for r in asked if _ASKED.search(r)).strip(". ") or None
        if self.state.settings.transfer_number or unknown:
            return human, ""
        return rest, book_callback(self.state, "caller asked for a person, beside other needs")

    def _then_ask(self, text: str) -> str:
        """The answer, and the question about a part of the turn left unclear in place of
        "anything else?" (meta/unclear.py); kept for later while a read-back waits."""
        if self.state.guard.farewell:  # "yes. thanks, bye": the outcome, then goodbye
            return moves.then_goodbye(text)
        if (closed := self._closing(text)) != text:
            return closed
        if self._ask_after is None or self.state.guard.stop_delegating:
            return text
        asked = unclear.ask_instead(text, self._ask_after)
        if asked is None:
            return text
        self._ask_after = None
        return asked

    def _closing(self, text: str) -> str:
        """Answers for a caller who ended the turn on a goodbye: then goodbye. Only answers: a
        read-back or a question still waiting on the caller is asked as ever."""
        return moves.then_goodbye(text) if self._leaving and text.rstrip().endswith(t.ANYTHING_ELSE) else text

    @staticmethod
    async def _say_then(text: str, call: llm.FunctionToolCall | None) -> AsyncIterable[llm.ChatChunk | str]:
        if text:
            yield text
        if call is not None:
            yield llm.ChatChunk(id=call.call_id, delta=llm.ChoiceDelta(role="assistant", tool_calls=[call]))

    def _choice(self, chat_ctx: llm.ChatContext, text: str) -> llm.FunctionToolCall | None:
        """The caller's pick between the two options of the line's last question (domains/choice.py)."""
        question = choice.last_question(chat_ctx)
        if question and moves.takes_back(text):
            return None  # "no then, don't close it" to "is it X or Y?": neither, and nothing done
        if question and choice.names_several(text, self.state.router):
            return None  # "the one that went through twice. refund that, and bump me up to pro": needs, not a pick
        picked = choice.chosen(question, text, topics()) if question else None
        if picked is None and question:
            picked = choice.read_as_option(question, text, self.state.router, topics())
        if picked is None:
            return None
        label, phrase = picked
        spec = self._domain(label.split("/", 1)[0])
        if spec is None:
            return None
        call = route_call(f"{TRANSFER}{spec.name}", {"request": f"{phrase}. {text}"}, path="fast", confidence=None)
        if "/" in label:  # the caller picked this specialist: its department does not ask again
            call.extra[SETTLED_EXTRA] = label.split("/", 1)[1]
        return call

    def _do_it_after_all(self, text: str) -> llm.FunctionToolCall | None:
        """The action the last answer was about, asked for now ("lock it anyway" after the
        sign-ins were reviewed, "actually yes, close it" after the closure was stopped): its
        specialist again, which reads it back before anything is done."""
        results = self.state.caller.results
        last = results[-1] if results else None
        spec = self._specialist(last.domain, last.specialist) if last is not None else None
        # a specialist that changes something, or one that answers and acts when asked (security)
        if spec is None or last is None or last.status not in ("cancelled", "info") or not (spec.changes or spec.acts_on is not None):
            return None
        if not moves.asks_to_do_it(text) or caller_wants_out(text) is not None:
            return None
        call = route_call(f"{TRANSFER}{last.domain}", {"request": text}, path="fast", confidence=None)
        call.extra[SETTLED_EXTRA] = last.specialist
        return call

    def _again(self, text: str, *, relative_only: bool = False) -> llm.FunctionToolCall | None:
        """A turn that only gives a value narrowing the last answer ("ok and the one from
        march" after the invoices): the same specialist again, with it (SETTLED_EXTRA).
        `relative_only`: the turn reads as a need of its own, so only words that narrow the
        last answer relative to it ("and the month before that?") still do."""
        narrowed = self._narrowed(text, relative_only=relative_only)
        if narrowed is None:
            return None
        domain, spec, request = narrowed
        call = route_call(f"{TRANSFER}{domain.name}", {"request": request}, path="fast", confidence=None)
        call.extra[SETTLED_EXTRA] = spec.name
        return call

    def _narrowed(self, text: str, *, relative_only: bool = False) -> tuple[DomainSpec, SpecialistSpec, str] | None:
        """The last answer's department, specialist and the request that narrows it, or None.
        Answers that narrow nothing are passed over ("what about the month before" after the
        invoice, then its refund: the invoice's)."""
        last, domain, spec = self._last_answered()
        answers = [r for r in self.state.caller.results if r.specialist]
        for earlier in reversed(answers[:-1]):
            if spec is None or spec.narrows:
                break
            domain = self._domain(earlier.domain)
            last, spec = earlier, domain.specialist(earlier.specialist) if domain is not None and earlier.specialist else None
        if domain is None or spec is None or not spec.narrows or last is None or last.status not in ("info", "done"):
            return None
        relative = spec.again(text, last.result) if spec.again is not None else None
        if relative is None and (relative_only or not set(self.state.slots.read(text).as_dict()) & set(spec.narrows)):
            return None
        return domain, spec, relative or text

    def _move(self, text: str, gloss_offer: offers.Offer | None = None) -> str | llm.FunctionToolCall | None:
        """A turn that answers what the line said before, rather than raising a need (meta/moves.py)."""
        state = self.state
        if (off := call_off_callback(state, text)) is not None:  # "actually cancel that call back"
            return f"{off} {t.ANYTHING_ELSE}"
        if not state.caller.verified and moves.holds_for_identity(text, choice.last_question(self.chat_ctx)):
            return f"{frame.TAKE_YOUR_TIME} {moves.WHO_ARE_YOU}"
        # "why do you need that? ... ok fine, linus at example dot com, zip ...": the why asked and
        # answered by the caller in one breath: they are verified (below), not told why
        if not state.caller.verified and moves.asks_why_verify(text, state.heard.text, self._names_need) and not moves.states_identity(text):
            return f"{VerifyIdentityTask.slot_why} {moves.WHO_ARE_YOU}"  # "why do you need all that?"
        if not moves.states_identity(text):
            self._gloss_after_verify = None  # asked for the number and ZIP, the caller went elsewhere
            self._needs_after_verify = None
        # "oui, yes" to "It sounds like you'd like the refund. Would you like me to do that?"
        offer = gloss_offer or offers.take_offer(state.caller.results, self._offers_taken, since=self._turn_starts[0])
        offered = offer is not None and self._domain(offer.domain) is not None
        if offered and offer is not None and (reply := offers.reply(text, offer, state, elsewhere=self._elsewhere)) is not None:
            return reply
        if offered and offer is not None and offer.made_by and follow_up_kind(text) is not None:
            offers.hold(offer, self._offers_taken)  # a question about the offer's answer: the offer stands
        if not offered and (again := moves.done_already(text, state.caller.results, self._acted)) is not None:
            return f"{again} {t.ANYTHING_ELSE}"  # "yes please open it" right after the ticket was opened
        if not offered and (whether := moves.asks_if_done(text, state.caller.results, self._acted)) is not None:
            return f"{whether} {t.ANYTHING_ELSE}"  # "so is it done? do i have my money back now"
        if not offered and (yes := moves.checks_back(text, state.caller.results)) is not None:
            return f"{yes} {t.ANYTHING_ELSE}"  # "and that one's paid, right?"
        if not offered and (again := choice.asked_again(choice.last_question(self.chat_ctx), text)) is not None:
            return again  # "yes" to "is it about closing your account, or about changing your plan?"
        if (after_all := self._do_it_after_all(text)) is not None:
            # "actually yes, close it, go ahead" right after the closure was stopped; "lock it
            # anyway" to "if you'd like me to lock your account, just ask"
            return after_all
        if not offered and moves.plain_yes(text) and caller_wants_out(text) is None:
            # "sure go ahead with that" with nothing offered: a yes to "anything else?", not a need
            recap = moves.recap_after_yes(text, state.caller.results, self._acted)
            return f"{recap} {self.phrases.how_can_i_help}" if recap else self.phrases.how_can_i_help
        if moves.takes_back(text):  # "no wait, actually don't" with no question pending
            if farewell_after(text) is not None or farewell_language(text) is not None:
                # "no, you know what, leave it. gracias, adiós": what it changes, then the goodbye
                state.guard.stop_delegating = True
                return f"{moves.taken_back(state.caller.results)} {t.GOODBYE}"
            return f"{moves.taken_back(state.caller.results)} {t.ANYTHING_ELSE}"
        if not state.caller.verified and moves.states_half_identity(text):
            return route_call(VERIFY_TOOL, {}, path="fast", confidence=None)  # "zip's three oh three oh one"
        wants = caller_wants_out(text)
        if wants is LeaveReason.HUMAN and not state.caller.verified and moves.states_identity(text):
            # "i need a human, my email is ... and zip ...": who they are first, then the person booked
            state.person_waiting = "caller asked for a person"
            return route_call(VERIFY_TOOL, {}, path="fast", confidence=None)
        if not moves.states_identity(text) or wants is not None:
            return None
        router = state.router
        if detect_language(text, weak=True) is not None:
            # "mi número de cliente es c uno cero cero tres ...": a need in another language is
            # read from its gloss (the router reads "perdón" as asking for a person), and
            # answered once the caller is verified; who they are is glossed into no need ("my
            # customer number is ..." read as a profile change beside "el API está caído")
            english = gist.gloss(moves.beyond_identity(text) or text, gist.glossaries(self.domains))
            if english and self._names_need(english):
                if state.caller.verified:
                    return None
                self._gloss_after_verify = english
        elif rest := moves.beyond_identity(text):
            readings = router.detect_beside(rest)
            # a need comes with it, sure down to its specialist: its department verifies the caller
            # on the way. A department alone ("hello there, before anything else i suppose you'll
            # want my details" reads the account's contact details or its closure) is the words'
            # talk of who they are: verified first, then asked what they need
            if any(i.in_scope and i.confidence >= router.threshold and self._domain(i.domain) for i in readings):
                return None
            if not state.caller.verified and any(i.label == "meta/human" and i.confidence >= router.threshold for i in readings):
                state.person_waiting = rest  # "C1003 60601. i just want a human to call me back": booked once verified
        if state.caller.verified:
            return f"{moves.ALREADY_VERIFIED} {moves.WHAT_CAN_I_DO}"
        return route_call(VERIFY_TOOL, {}, path="fast", confidence=None)

    @function_tool(name="verify_caller")
    async def _verify_caller(self, context: RunContext) -> str:
        """Verify the caller's identity when they say who they are (customer number or email, and ZIP code) before asking for anything."""
        self.state.note_route("identity", context.function_call.extra)
        latest = next((i for i in reversed(self.chat_ctx.items) if i.type == "message" and i.role == "user"), None)
        words = (latest.text_content or "", latest.id) if latest is not None else ("", None)
        result = await VerifyIdentityTask(state=self.state, chat_ctx=caller_words(words))
        if result.status == "cancelled" and self.state.follow_up:
            # Asked for the number and ZIP, the caller said what they need instead ("can you tell
            # me about my last invoice"): that need is routed, and its department asks again.
            text, self.state.follow_up = self.state.follow_up, None
            nxt = self._route_text(text)
            if nxt is not None:
                return await self.delegate(nxt[0], nxt[1], RouteDecision(nxt[0].name, "fast", nxt[2]).extra())
        # Verified: ask what they need. Nothing is filed either way: no ticket, no request,
        # unless they asked for a person before we knew whom to call back: that is booked now.
        if result.status != "done":
            return result.summary
        if self.state.person_waiting is not None:
            booked = book_callback(self.state, self.state.person_waiting)
            beside, self._needs_after_verify = self._needs_after_verify, None
            nxt = self._route_text(beside) if beside else None
            if nxt is not None:  # "i need a person and is the api down": booked, then the need
                said = await self.delegate(nxt[0], nxt[1], RouteDecision(nxt[0].name, "fast", nxt[2]).extra())
                return f"{result.summary} {booked} {said}"
            return f"{result.summary} {booked} {t.ANYTHING_ELSE}"
        glossed, self._gloss_after_verify = self._gloss_after_verify, None
        branches = self._parallel_branches(self.state.router.detect(glossed)) if glossed else None
        if branches:  # "hola, necesito saber cuánto debo", then the number and ZIP: the question, answered
            return f"{result.summary} {gist.IN_ENGLISH} {await fan_out(self.state, branches, self.state.settings.fanout_timeout_s)}"
        pair = choice.options(choice.last_question(self.chat_ctx))
        if pair is not None:  # "i want to cancel", asked which, then the number and ZIP: asked again
            return f"{result.summary} {t.CLARIFY_TWO.format(a=pair[0], b=pair[1])}"
        return f"{result.summary} {moves.WHAT_CAN_I_DO}"

    def _names_need(self, text: str) -> bool:
        """Words the router reads as a department's need it is sure of."""
        router = self.state.router
        return any(self._domain(i.domain) is not None and domain_confidence(i) >= router.threshold for i in router.detect(text))

    def _elsewhere(self, text: str, offer: offers.Offer) -> bool:
        """A no to an offer that goes on to another need ("no wait, make it enterprise instead"
        to the lock offered after the sign-in review; "no not right now. what's my balance" to
        the refund the refund's status offered): that need, not the no."""
        if asks_for_person(text):  # "no i'll leave the plan, just get me a person to talk it through"
            return True
        router = self.state.router
        offered = f"{offer.domain}/{offer.specialist}" if offer.specialist else None
        # the same department's other need only in a clause that is no refusal itself ("nah don't
        # bother locking it" read as a two-factor reset declines the lock)
        if any((i.domain != offer.domain or (offered is not None and i.label != offered and yes_or_no(i.text) is not False))
               and self._domain(i.domain) is not None and i.in_scope and i.confidence >= router.threshold
               for i in router.detect(text)):
            return True
        # "not now thanks what's my balance": the refusal and the question in one clause; what
        # follows the no is read alone
        rest = after_refusal(text)
        return rest is not None and offered is not None and any(
            i.label != offered and yes_or_no(i.text) is None and self._domain(i.domain) is not None and i.in_scope
            and i.confidence >= router.threshold for i in router.detect(rest))

    def _asks_surely(self, text: str) -> bool:
        """Words before a farewell that ask for a need the router is sure of down to the specialist
        ("and what's my balance. bye"); "oh, i must have the wrong account then. bye" (the account
        department at best, no need of it) is the caller leaving."""
        router = self.state.router
        return any(self._domain(i.domain) is not None and i.in_scope and i.confidence >= router.threshold
                   for i in router.detect(text))

    def _open_to_anyone(self, intent: Intent) -> bool:
        """A specialist that asks who the caller is, whose lookup answers anyone (the prices)."""
        spec = self._specialist(intent.domain, intent.name)
        return spec is not None and spec.requires_identity and not spec.lookup_needs_identity

    def _parallel_branches(self, intents: list, *, anyone: bool = False) -> list[Branch] | None:  # list[Intent]
        """Every need answerable by a read-only lookup, surely and for this caller (`anyone`:
        were they verified), or None."""
        router, state = self.state.router, self.state
        branches: list[Branch] = []
        for intent in intents:
            domain = self._domain(intent.domain)
            specialist = domain.specialist(intent.name) if domain else None
            if specialist is None or not specialist.looks_up(intent.text) or intent.confidence < router.threshold:
                return None
            if not specialist.looks_up_for(state.caller.verified or anyone):
                return None  # verification is a conversation: the tasks handle it
            branches.append(Branch(domain, specialist, round(intent.confidence, 4), intent.text))
        return branches

    def _last_answered(self) -> tuple[DomainResult | None, DomainSpec | None, SpecialistSpec | None]:
        """The last answer a specialist gave, with its department and specialist (None: none yet)."""
        last = next((r for r in reversed(self.state.caller.results) if r.specialist), None)
        domain = self._domain(last.domain) if last is not None else None
        spec = domain.specialist(last.specialist) if domain is not None and last is not None and last.specialist else None
        return last, domain, spec

    def _last_said(self) -> frozenset[str]:
        """The words of the last answer a specialist gave (what a short follow-up may pick from)."""
        last, _, _ = self._last_answered()
        if last is None:
            return frozenset()
        # its longer words, and the short names it capitalises ("Python, Node and Go")
        return frozenset(w.lower() for w in re.findall(r"\b[A-Za-z]{3,}\b|\b[A-Z][a-z]\b", last.summary))

    def _last_lookup(self, text: str) -> Branch | None:
        """The read-only lookup of the last answer's specialist, for these words, or None."""
        _, domain, spec = self._last_answered()
        if domain is None or spec is None or not spec.looks_up(text) or not spec.looks_up_for(self.state.caller.verified):
            return None
        return Branch(domain, spec, 1.0, text)

    def _topic_branch(self, intents: list[Intent]) -> list[Branch] | None:
        """The lookup of the one specialist a bare topic is read as (whatever it might act on), or None."""
        if len(intents) != 1 or intents[0].confidence < self.state.router.threshold:
            return None
        domain = self._domain(intents[0].domain)
        spec = domain.specialist(intents[0].name) if domain is not None else None
        if domain is None or spec is None or spec.lookup is None or not spec.looks_up_for(self.state.caller.verified):
            return None
        return [Branch(domain, spec, round(intents[0].confidence, 4), intents[0].text)]

    def _route_text(self, text: str) -> tuple[DomainSpec, str, float] | None:
        needs = self._route_texts(text)
        return needs[0] if needs else None

    def _route_texts(self, text: str) -> list[tuple[DomainSpec, str, float]]:
        """Every need of the words a department can take, in the order said, one per reading."""
        router = self.state.router
        found: list[tuple[DomainSpec, str, float]] = []
        labels: set[str] = set()
        for intent in router.detect(text):
            spec = self._domain(intent.domain)
            if spec is not None and domain_confidence(intent) >= router.threshold and intent.label not in labels:
                labels.add(intent.label)
                found.append((spec, intent.text, round(domain_confidence(intent), 4)))
        return found

    def _acted(self, result: DomainResult) -> bool:
        """Whether this result came from a specialist that changes something (not a lookup), or
        is the front desk's own call back booked ("yes that's fine" after it hears it again)."""
        if result.domain == "meta" and result.specialist is None and result.status == "done":
            return True
        spec = self._specialist(result.domain, result.specialist)
        return spec is not None and spec.changes

    def _specialist(self, domain: str | None, name: str | None) -> SpecialistSpec | None:
        found = self._domain(domain)
        return found.specialist(name) if found is not None and name else None

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
        left: list[str] = []  # what the caller left for a new need ("I've left the plan change for now")
        settled = (extra or {}).get(SETTLED_EXTRA)  # the specialist the agenda settled on, if any
        # the other needs of a turn said at a question, or taken with an offer, one at a time
        later = [need for words in (extra or {}).get(THEN_EXTRA, []) for need in self._route_texts(words)]
        while True:
            if state.guard.stop_delegating:
                return ""
            guard = self._loop_guard(spec.name, request)
            if guard:
                return guard
            state.note_route(spec.name, extra)
            try:
                result = await spec.supervisor(
                    state=state, request=request, chat_ctx=recent_context(self.chat_ctx), departments=self.departments,
                    settled=settled)
                settled = None  # a re-delegation reads its request afresh
            except Exception as exc:
                log.log(failure_level(self), "domain %s failed: %s", spec.name, type(exc).__name__)
                result = DomainResult(domain=spec.name, specialist=None, status="failed", summary=t.TOOL_FAILED)
            if state.follow_up:
                # The caller raised another need while a task waited on them: route it now.
                text, state.follow_up = state.follow_up, None
                if result.status != "misrouted":
                    state.caller.results.append(result)
                    if result.summary:
                        # Said now: the caller hears this outcome before the next need's own
                        # words (its read-back), not after that need is done.
                        self.session.say(result.summary)
                named = moves.answered_by_name(text, state.caller.results, state.router)
                if named is not None:  # the need kept was answered already: said once more
                    return named.summary
                needs = self._route_texts(text)
                if not needs and caller_wants_out(text) is LeaveReason.HUMAN:
                    # "yes do it, and then i want a person": the action said above, then the person
                    return self._person("caller asked for a person, after another need")
                if needs:
                    if result.status == "misrouted":
                        # the department handed back a turn of several needs ("the one that went
                        # through twice. refund that, and bump me up to pro"): each in turn, all heard now
                        later = needs[1:] + later
                        if later:
                            self.session.say(agenda.acknowledge_names([
                                s.spoken_name for i in state.router.detect(text)
                                if (s := self._specialist(i.domain, i.name)) is not None]))
                    spec, request, extra = _taken(needs)
                    continue
                if later:
                    spec, request, extra = _taken(later)
                    continue
                if result.status != "misrouted":
                    return ""  # nothing else to route: this outcome was said and kept above, once

            if result.status == "misrouted" and (nxt_spec := self._domain(result.suggested_domain)):
                spec, extra = nxt_spec, RouteDecision(nxt_spec.name, "fast").extra()
                continue
            if result.status == "misrouted":
                result = DomainResult(domain=spec.name, specialist=None, status="unclear", summary=t.CLARIFY_OPEN)
            state.caller.results.append(result)
            if later and not state.guard.stop_delegating:
                if result.summary:  # this outcome first, then the next need said with it
                    self.session.say(" ".join([*left, result.summary]).strip())
                left = []
                spec, request, extra = _taken(later)
                continue
            return " ".join([*left, result.summary]).strip()

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
        return self._person(reason)

    def _person(self, reason: str) -> str:
        # A phone caller is put through to a person when a transfer number is configured.
        words = start_transfer(self.state.settings.transfer_number, self.session, lambda: book_callback(self.state, reason))
        return words if words is not None else book_callback(self.state, reason)


def _taken(needs: list[tuple[DomainSpec, str, float]]) -> tuple[DomainSpec, str, dict]:
    """The first of the needs still to route, taken off the list: its department, words and route."""
    spec, request, confidence = needs.pop(0)
    return spec, request, RouteDecision(spec.name, "fast", confidence).extra()
