"""The small base every domain shares: the specs, and helpers both kinds of task use.

A domain is a folder with a `DOMAIN = DomainSpec(...)` in its `spec.py`; the registry
lists them. The tasks themselves are `domains.specialist.SpecialistTask` and
`domains.supervisor.DomainSupervisorTask`.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from livekit.agents import AgentTask, llm

from callcenter.llm.language import farewell_language, says_goodbye, without_foreign_bye
from callcenter.llm.protocol import LeaveReason
from callcenter.routing.discourse import FollowUp, farewell_after, is_closing
from callcenter.routing.frames import asks_for_person, echoes_person, echoes_person_before
from domains.results import DomainResult, SpecialistResult
from domains.state import CallState

if TYPE_CHECKING:
    from callcenter.routing.rereading import Rereading
    from callcenter.routing.slots import SlotPattern
    from callcenter.store.adapters import Ports, PortSpec
    from workflows.actions import DurableAction

class Lookup(Protocol):
    """A specialist's read-only answer: the ports, the verified customer (or None) and the
    caller's words for this need (as said, or glossed from another language: meta/gist.py);
    most lookups answer from the account alone and ignore the words."""

    def __call__(self, ports: Ports, customer_id: str | None, *, words: str = "") -> SpecialistResult: ...


FAILED = "Sorry, something went wrong on my side with that request; nothing was changed."
THANKS_BYE = "Thanks for calling, goodbye!"
GOODBYE = f"No problem, I've left that there. {THANKS_BYE}"


# Mid-request the caller is usually answering a question ("yes", "C1001 94107"), which the
# intent classifier was not trained on; leaving is therefore read from explicit phrases only.
# "forget it" is not among them: it drops the request, not the call (domains/frame.py).
_GOODBYE = re.compile(
    r"^\W*(ok(ay)?,?\s+)?(bye|good\s?bye|that'?s (all|it)|that is (all|it)|nothing else|never ?mind,? bye|"
    r"i ha(ve|ta) to go|gotta go|hang(ing)? up)\b", re.I
)
_HUMAN = re.compile(
    r"\b(talk|speak|connect|transfer|put)\b.{0,30}\b(human|person|agent|representative|operator|someone|manager)\b"
    r"|^\W*(human|operator|representative|agent|a person|real person)\W*(please)?\W*$", re.I
)

_CLAUSES = re.compile(r"[.,;!?]+\s*")
_CLAUSE_AND_END = re.compile(r"[^.,;!?]+[.,;!?]*")
def asks_for_need(state: CallState, words: str, *, sure: bool = True) -> bool:
    """The words ask for something of their own: a department's need the router is sure of
    (`sure`), or any department's reading at all."""
    router = state.router
    return any(i.in_scope and not i.label.startswith("meta/") and (i.confidence >= router.threshold or not sure)
               for i in router.detect(words))


def caller_wants_out(latest: str, *, names_need: Callable[[str], bool] | None = None) -> LeaveReason | None:
    """GOODBYE or HUMAN when the caller's newest words explicitly say so.

    `names_need`: whether words may ask for a department's need at all (the router, at any
    confidence: a multi-need turn's clauses are often unsure). With it, the words before a
    farewell may be any length: "oh that's very kind of you. thank you, bye bye now" leaves,
    "and what's my balance. bye" does not."""
    # "this isn't helping, get me a person please", "agent. agent. representative.": the router's
    # own frame of who callers ask for, clause by clause, so a read-back never holds them
    # ("a supervisor? can't you just skip that bit": the read-back's word said back as a question
    # asks for no one)
    parts = [p.group(0) for p in _CLAUSE_AND_END.finditer(latest) if p.group(0).strip()]
    if _HUMAN.search(latest) or any(asks_for_person(part) for n, part in enumerate(parts)
                                    if not echoes_person(part) and not echoes_person_before(part, parts[n + 1:])):
        return LeaveReason.HUMAN
    if _GOODBYE.search(latest) or is_closing(latest):
        return LeaveReason.GOODBYE
    first = next((part for part in _CLAUSES.split(latest) if part.strip()), "")
    # "oui merci au revoir", "ja danke auf wiederhören": the yes said before the thanks and farewell
    before_bye = (without_foreign_bye(latest) or "").strip(" ,.!").lower()
    if (says_goodbye(latest) or farewell_language(latest) is not None) and not (
            _YES_OR_NO.fullmatch(first.strip().lower()) or _YES_OR_NO.fullmatch(before_bye)):
        # "parfait, merci, au revoir", "vale, gracias" at the identity question too; but "yes.
        # cheers, adiós" answers the question first: the task reads the yes, then the call ends
        return LeaveReason.GOODBYE
    before = farewell_after(latest)
    courtesy = names_need is not None and before is not None and not names_need(before)
    if before is not None and (len(before.split()) <= _ASIDE_WORDS or _DEFERS.search(before) or courtesy) and not _ANSWERS.search(before):
        # "ok whatever. bye": a shrug, then a farewell; "let me talk it over with my cofounder
        # first. thanks, bye": the decision put off, then a farewell; "uh never mind, i'll call
        # back later. bye": words that ask for nothing, then a farewell
        return LeaveReason.GOODBYE
    return None


def leaving_reason(state: CallState, latest: str) -> LeaveReason | None:
    """`caller_wants_out` inside a department, where the router judges the words before a farewell."""
    return caller_wants_out(latest, names_need=lambda words: asks_for_need(state, words, sure=False))


# Before a farewell, a few words that answer nothing: more, or a yes or a no ("yes. bye" to
# a read-back), are the caller's answer and the task reads them first.
_ASIDE_WORDS = 4
# The caller puts the decision off: nothing is decided, whatever the length of the reason.
_DEFERS = re.compile(
    r"\b(?:let me|i'?ll|i will|i'?d (?:like|rather) to|i (?:need|have|want) to|we(?:'ll| will| need to| have to)|gotta|gonna)\s+"
    r"(?:(?:have|need|want) to\s+|first\s+|just\s+)?"
    r"(?:have a |think|talk|check|run (?:it|this|that) by|discuss|sleep on|mull|get back|ask|look (?:at|into) (?:it|this|that)"
    # "i'll ring again next week", "i'll call back later": the call itself put off
    r"|(?:call|ring|phone) (?:you |us )?(?:back|again)|try (?:again|later)|come back)",
    re.I)
# A plain yes or no, in English or another language the line hears ("sí, adiós" to a read-back
# answers it, then leaves).
_PLAIN = r"yes|yeah|yep|yup|sure|no|nope|nah|sí|si|sì|oui|ja|sim|non|nein|não|nao"
_YES_OR_NO = re.compile(rf"(?:(?:ok|okay|oh|um|uh)\s+)*(?:{_PLAIN})(?:\s+(?:please|do it|go ahead|thanks|por favor|bitte))*")
_ANSWERS = re.compile(
    rf"\b({_PLAIN}|don'?t|do it|go ahead|please|correct|cancel|stop|wait|right)\b|\?|\d")


def hung_up(agent: Any) -> bool:
    """True once the call is closing: a task that the hang-up cancelled did not fail, and
    saying so at ERROR would print into the caller's transcript."""
    try:
        closing = agent.session._is_closing  # LiveKit 1.8 has no public flag for this
    except (RuntimeError, AttributeError):
        return True  # no session any more
    return bool(closing())


def failure_level(agent: Any) -> int:
    return logging.DEBUG if hung_up(agent) else logging.ERROR


def cut_turn(state: CallState, message: llm.ChatMessage) -> None:
    """Cut a very long caller turn before any model, router or slot reader sees it.

    Every active agent calls this from `on_user_turn_completed` (only the active one runs
    it), so the bound holds whichever layer is listening.
    """
    limit = state.settings.max_turn_chars
    text = message.text_content or ""
    if len(text) > limit:
        message.content = [text[:limit]]


CALLBACK_KIND = "callback"
CALLBACK_WHEN = "One of my colleagues will call you within one business day."


# How callers name a booked call back without its words: "when will they ring", "how long till
# i hear from them", "can someone technical phone me instead"
CALLBACK_ABOUT = frozenset("call calls calling callback ring rings ringing phone phoning hear colleague colleagues person "
                           "someone somebody human contact reach technical billing".split())


def book_callback(state: CallState, reason: str) -> str:
    """Record a callback ticket for a person to call back; returns what to tell the caller.

    Within the caps of `domains/caps.py`; a caller not verified is called back on the line
    they call from (named in the ticket), and with no line known nothing is booked."""
    from domains.caps import (  # caps reads the settings and the store: only when booking
        NO_ONE_TO_CALL,
        claim,
    )

    capped = claim(state, "callback")
    if capped is not None:
        if capped == NO_ONE_TO_CALL:
            state.person_waiting = reason  # booked once the caller says who they are
        return capped
    state.person_waiting = None
    customer = state.caller.customer_id if state.caller.verified else None
    summary = f"Caller asked for a person: {reason[:200]}"
    if customer is None:
        summary += f". Not verified: call back the number the call came from, {state.caller.line}"
    ticket = state.ports.tickets.create_ticket(customer_id=customer, kind=CALLBACK_KIND, summary=summary)
    phone = state.ports.customers.get_customer(customer).phone if customer is not None else ""
    called = (f"the number on file, ending {phone[-4:]}" if len(phone) >= 4 else "the number on file") if customer else \
        "the number you're calling from"
    said = (
        f"I've booked a call back from one of my colleagues; your reference is {ticket.id}. "
        f"They'll call you at {called}, within one business day."
    )
    # the booking is an answer like any other: "how long till they call?", "is it booked?",
    # "what number will they ring?" after it are follow-ups about it, not new needs
    follow_ups: dict[FollowUp, str] = {
        "how_long": f"{CALLBACK_WHEN} Your reference is {ticket.id}.",
        "done": f"Yes, the call back is booked; your reference is {ticket.id}.",
        # "which number are they gonna call?", "why can't you just put me through?", "anything
        # else you need from me?": the booking's own facts
        "where": f"They'll call {called}. Your reference is {ticket.id}.",
        "why": (f"I can't put you through to a person from this line, so a colleague calls you back instead, at {called}, "
                "with your account in front of them."),
        "next_step": f"Nothing more from you: a colleague will call {called}, within one business day. Your reference is {ticket.id}.",
        # "who's gonna be calling me, someone technical?"
        "who": f"One of my colleagues, with your account and what you told me in front of them. They'll call {called}, "
               f"within one business day; your reference is {ticket.id}.",
    }
    state.caller.results.append(DomainResult(
        domain="meta", specialist=None, status="done", summary=said,
        result=CallbackResult(status="done", summary=said, follow_ups=follow_ups, about=CALLBACK_ABOUT, ticket=ticket.id)))
    return said


@dataclass
class CallbackResult(SpecialistResult):
    ticket: str = ""  # the call back's ticket, so the caller can call it off on the same call


# "oh actually cancel that call back, i'll figure it out myself", "no need for the call back now"
_CALL_OFF = re.compile(
    r"\b(?:cancel|scrap|drop|call off|forget(?: about)?|(?:don'?t|dont|do not|won'?t|wont) need|no need for|skip)"
    r"(?: (?:the|that|my|this|your))? call ?-?backs?\b")


def call_off_callback(state: CallState, text: str) -> str | None:
    """A call back booked on this call, called off by the caller: its ticket is cancelled (an
    operator never rings someone who said not to); None if the words call off no call back."""
    if not _CALL_OFF.search(text.lower()):
        return None
    booked = [r.result for r in state.caller.results if isinstance(r.result, CallbackResult) and r.result.ticket]
    if not booked:
        return None
    ticket = booked[-1].ticket
    state.ports.tickets.set_ticket_status(ticket, "cancelled")
    state.caller.results = [r for r in state.caller.results if not (isinstance(r.result, CallbackResult) and r.result.ticket == ticket)]
    return f"Alright, I've cancelled the call back {ticket}; nobody will call you about it."


UNAVAILABLE = (
    "I couldn't get to {what} just now, and nothing was changed; I've booked a call back from "
    "a colleague about it, and your reference is {ticket}."
)


def fallback(state: CallState, agent: str, what: str = "that") -> str:
    """When a specialist fails or is switched off by its breaker: a call back with the context.

    The ticket names the part of the system that failed, never the caller's words. If even
    the store is down, the caller is told plainly that nothing was changed.
    """
    try:
        ticket = state.ports.tickets.create_ticket(customer_id=state.caller.customer_id, kind="callback", summary=f"Call back: {agent} was unavailable during the call")
    except Exception as exc:
        logging.getLogger("callcenter.domains").error("could not book a call back: %s", type(exc).__name__)
        return FAILED + " Please try again in a few minutes."
    return UNAVAILABLE.format(what=what, ticket=ticket.id)


def leave_summary(state: CallState, reason: LeaveReason) -> str:
    state.guard.stop_delegating = True  # the rest of this turn's needs wait (goodbye) or go to the person
    return book_callback(state, "asked mid-request") if reason is LeaveReason.HUMAN else GOODBYE


@dataclass(frozen=True)
class SpecialistSpec:
    name: str
    task: type[AgentTask[Any]]  # a domains.specialist.SpecialistTask (named loosely: no import circle)
    description: str  # the routing tool's docstring: a prompt for a hosted LLM
    topic: str  # how the clarifying question names it: "a refund or a double charge"
    requires_identity: bool = True
    # Read-only work with no conversation (ports, customer id -> result), for needs that can
    # be answered without asking anything. A multi-need turn runs these in parallel, below
    # the conversation (LiveKit runs one task at a time), each in a worker thread.
    lookup: Lookup | None = None
    # Its lookup answers anyone, verified or not (what the plans cost): False only for such.
    lookup_needs_identity: bool = True
    # It changes something (money, the account, a ticket for people) after a read-back. Below
    # the router's confidence threshold the line asks rather than guesses such a specialist:
    # a vague turn must not open with the read-back of a change the caller never asked for.
    changes: bool = False
    # How the front desk names this need when it lists a turn's needs and takes them in turn
    # ("First, the refund. Then, the two-factor reset."); empty: the topic's first option.
    called: str = ""
    # Slots that narrow its answer: said alone right after it answered ("ok and the one from
    # march" after the invoices), they ask it again with that value (meta/agent.py `_again`).
    narrows: tuple[str, ...] = ()
    # Words that ask it to act ("lock it"): those go to its task, never to its `lookup`, which
    # answers the rest ("who's been signing into my account") like any read-only need.
    acts_on: Callable[[str], bool] | None = None
    # How the change those words ask for is named when it is offered back ("your account
    # locked"): a need asked in another language is named and asked for in English first.
    acted: str = ""
    # A turn that narrows its last answer relative to it ("and the month before that?" after
    # October's invoice): the request that says it outright ("the september invoice"), else None.
    again: Callable[[str, SpecialistResult | None], str | None] | None = None

    def looks_up_for(self, verified: bool) -> bool:
        """Its lookup may answer this caller: verified, or a lookup that needs no account."""
        return verified or not (self.requires_identity and self.lookup_needs_identity)

    def looks_up(self, text: str) -> bool:
        """Its read-only `lookup` answers these words (it has one, and they ask for no action)."""
        return self.lookup is not None and not (self.acts_on is not None and self.acts_on(text))

    def acts(self, text: str) -> bool:
        """These words ask it to change something: it always does, or they ask its action."""
        return self.changes or (self.acts_on is not None and self.acts_on(text))

    def named_for(self, text: str) -> str:
        """How an offer back of these words names it: its action, if they ask for that."""
        return self.acted if self.acted and not self.changes and self.acts(text) else self.spoken_name

    @property
    def spoken_name(self) -> str:
        if self.called:
            return self.called
        first = self.topic.split(" or ")[0]
        return re.sub(r"^(a|an)\s+", "the ", first)


@dataclass(frozen=True)
class Wording:
    """How the line names a department to callers and to a hosted LLM."""

    offer: str  # "I can help with billing, technical problems and your account."
    ask: str  # "How can I help you with billing, a technical problem or your account?"
    prompt: str  # the hosted LLM's prompt: "decline anything outside billing, technical support..."


@dataclass(frozen=True)
class DomainSpec:
    name: str
    description: str  # the meta-supervisor's transfer tool docstring
    topic: str
    supervisor: type[AgentTask[Any]]  # a domains.supervisor.DomainSupervisorTask
    specialists: tuple[SpecialistSpec, ...]
    utterances: Path  # folder with train.jsonl / test.jsonl
    instructions: str = ""
    wording: Wording | None = None  # None: the topic everywhere
    # Work a supervisor approves after the call; the composition root hands these to the
    # Temporal worker, the client, the metrics and the slot reader.
    actions: tuple[DurableAction, ...] = ()
    # The ids and words of this domain a caller says (a charge id, a plan name); the
    # composition root hands them to the slot reader, which fills tool parameters by name.
    slots: tuple[SlotPattern, ...] = ()
    # The prefixes of this domain's record ids and the word said before the digits when a
    # reply is read aloud (("CH", "charge"): "CH-1001" -> "charge 1 0 0 1").
    spoken_ids: tuple[tuple[str, str], ...] = ()
    # Business systems of its own (billing's ledger), beside the two every line has:
    # the composition root loads them with the others, so CALLCENTER_ADAPTERS can name them.
    ports: tuple[PortSpec, ...] = ()
    # Readings of this domain that the clause's construction settles and its words cannot
    # ("cancel pro and put me on starter" is a plan change, not the closure its verb says):
    # the composition root hands them to the router (callcenter/routing/rereading.py).
    rereadings: tuple[Rereading, ...] = ()
    # Its words in the other languages callers use ("factura": "invoice", "panne": "outage"),
    # so a turn in another language is understood well enough to answer a read-only question
    # (meta/gist.py); no action is ever taken on a gloss.
    glossary: dict[str, str] = field(default_factory=dict)
    labels: tuple[str, ...] = field(init=False, default=())

    def __post_init__(self) -> None:
        object.__setattr__(self, "labels", tuple(f"{self.name}/{s.name}" for s in self.specialists))
        if self.wording is None:
            object.__setattr__(self, "wording", Wording(self.topic, self.topic, self.topic))

    def specialist(self, name: str) -> SpecialistSpec | None:
        return next((s for s in self.specialists if s.name == name), None)


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


def _item_chars(item: llm.ChatItem) -> int:
    if item.type == "message":
        return len(item.text_content or "")
    if item.type == "function_call":
        return len(item.name) + len(item.arguments)
    if item.type == "function_call_output":
        return len(item.output)
    return 0


def within_budget(chat_ctx: llm.ChatContext, tokens: int) -> llm.ChatContext:
    """A copy holding the instructions and the newest items that fit in `tokens`.

    A long call would otherwise send its whole history with every LLM request: cost and
    latency grow with the call. Tokens are counted as about four characters each, which is
    close enough for a budget; the newest caller words are always kept.
    """
    items = chat_ctx.items
    budget, keep = tokens * 4, 0
    for item in reversed(items):
        if item.type == "message" and item.role in ("system", "developer"):
            continue  # instructions are kept by truncate(), outside the budget
        cost = _item_chars(item)
        if keep and budget - cost < 0:
            break
        budget -= cost
        keep += 1
    return chat_ctx.copy().truncate(max_items=keep)


def tool_call_chunk(call: llm.FunctionToolCall) -> llm.ChatChunk:
    return llm.ChatChunk(id=call.call_id, delta=llm.ChoiceDelta(role="assistant", tool_calls=[call]))
