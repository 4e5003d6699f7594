"""The embedded router LLM: plays the LLM's part offline with a classifier, slots and templates.

It is a real `livekit.agents.llm.LLM`: the session, tasks and tools run exactly as with a
hosted model. What it can do depends on the tools it is offered, by naming convention:

- `transfer_to_<domain>` tools (the meta-supervisor): detect every need in the caller's
  turn and emit one transfer per need, answer greetings/small talk/out-of-scope itself,
  or ask a clarifying question when unsure;
- `route_to_<specialist>` tools (a domain supervisor): pick the specialist or clarify;
- any other tools (a specialist): fill arguments from slots the caller said, or ask for
  the missing ones using the parameter descriptions (the tool docstrings are the prompt).

After tool outputs it speaks them: tools return caller-facing sentences.
"""

from __future__ import annotations

import json
import re
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from livekit.agents import llm
from livekit.agents.llm.tool_context import FunctionTool, RawFunctionTool
from livekit.agents.types import (
    DEFAULT_API_CONNECT_OPTIONS,
    NOT_GIVEN,
    APIConnectOptions,
    NotGivenOr,
)

from callcenter.llm import templates as t
from callcenter.llm.language import farewell_language
from callcenter.llm.protocol import ROUTING_EXTRA, SETTLED_EXTRA, RouteDecision
from callcenter.llm.tool_cache import parameters_schema
from callcenter.routing.clarify import ASK_MARGIN, reading, should_ask
from callcenter.routing.discourse import is_closing
from callcenter.routing.frames import GOODBYE, named_among
from callcenter.routing.slots import SHARED, SlotReader

if TYPE_CHECKING:
    from callcenter.routing import Intent, IntentRouter

TRANSFER = "transfer_to_"
ROUTE = "route_to_"
REASON_EXTRA = "callcenter_reason"  # assistant message extra: why the embedded LLM said it
CONFIDENCE_EXTRA = "callcenter_confidence"  # ... and how sure the classifier was
_PLACEHOLDER_KEY = "__lk_running_placeholder__"
_HUMAN_TOOL = "request_human"
# Words of a farewell: a goodbye read unsurely from words without one ends no call.
_FAREWELL_CUE = re.compile(
    r"\b(?:bye|goodbye|thanks|thank|thx|cheers|ta|later|ciao|adi[oó]s|done|finish\w*|all\s+set|all\s+good|no\s+worries"
    r"|that'?s\s+(?:all|it|everything|grand|great|lovely|perfect|fine|brilliant|champion|ace|sorted|enough|me)"
    r"|leave\s+it\s+(?:there|at\s+that)|(?:i'?m|we'?re)\s+alright"
    r"|that(?:'ll|\s+will)\s+(?:do|be\s+all)|let\s+you\s+go|catch\s+you|nothing\s+(?:else|more)|no\s+more|(?:i'?m|we'?re|i\s+am|we\s+are)\s+(?:good|fine|ok(?:ay)?|sorted)"
    r"|have\s+a\s+\w+\s+(?:day|one|evening|night|weekend)|take\s+care|see\s+you|talk\s+(?:to\s+you\s+)?(?:soon|later)"
    r"|(?:got|gotta|have\s+to|need\s+to|must)\s+(?:go|run|dash)|hang(?:ing)?\s+up|signing\s+off|good\s*night)\b", re.I)
# Tools that end a task early; the supervisors' and specialists' fast path calls them, so the
# embedded LLM never picks them as a specialist's action.
LEAVE_TOOL = "leave_topic"
FRONT_DESK_TOOL = "return_to_front_desk"
CONTROL_TOOLS = frozenset({LEAVE_TOOL, FRONT_DESK_TOOL})


@dataclass(slots=True)
class Decision:
    text: str | None = None
    calls: list[llm.FunctionToolCall] = field(default_factory=list)
    reason: str = ""  # why: route, clarify, oos, greeting, ask_slot, speak_output, ...
    confidence: float | None = None  # the classifier's, for clarify/oos decisions


def route_call(name: str, args: dict[str, Any], *, path: str, confidence: float | None) -> llm.FunctionToolCall:
    return llm.FunctionToolCall(
        name=name,
        arguments=json.dumps(args),
        call_id=f"call_{uuid.uuid4().hex[:12]}",
        extra=RouteDecision(name, path, confidence).extra(),
    )


def _tool_name(tool: llm.Tool) -> str:
    if isinstance(tool, FunctionTool | RawFunctionTool):
        return tool.info.name
    return getattr(tool, "id", "")


def tool_parameters(tool: llm.Tool) -> dict[str, Any]:
    """JSON schema of a tool's parameters (what a hosted LLM would be sent)."""
    if isinstance(tool, RawFunctionTool):
        return dict(tool.info.raw_schema.get("parameters") or {})
    if isinstance(tool, FunctionTool):
        return parameters_schema(tool)  # built once per tool function, not per turn
    return {}


def user_texts(chat_ctx: llm.ChatContext) -> list[str]:
    """Caller messages, newest first."""
    out = []
    for item in reversed(chat_ctx.items):
        if item.type == "message" and item.role == "user":
            out.append(item.text_content or "")
    return out


def domain_confidence(intent: Intent) -> float:
    """How sure the router is of the intent's *domain*: the meta level only picks a domain.

    "my bill" may be balance or invoices (the supervisor asks which) yet surely billing.
    Sums the top label and its same-domain alternatives (the tail beyond them is tiny).
    """
    if "/" not in intent.label or intent.label.startswith("meta/"):
        return intent.confidence
    prefix = intent.domain + "/"
    return min(1.0, intent.confidence + sum(p for label, p in intent.alternatives if label.startswith(prefix)))


def fresh_user_text(chat_ctx: llm.ChatContext) -> str | None:
    """The caller's newest words, if nothing has answered them yet (else None)."""
    for item in reversed(chat_ctx.items):
        if item.type in ("function_call", "function_call_output"):
            return None
        if item.type == "message":
            if item.role == "user":
                return (item.text_content or "").strip() or None
            if item.role == "assistant":
                return None
    return None


def _visible_items(chat_ctx: llm.ChatContext, own: set[str]) -> list[llm.ChatItem]:
    # Placeholders and calls of tools this agent does not own belong to a parent that is
    # still waiting on us; answering them would answer the parent's question, not ours.
    items = []
    for item in chat_ctx.items:
        if item.type in ("function_call", "function_call_output"):
            if item.name not in own:
                continue
            if item.type == "function_call" and item.extra.get(_PLACEHOLDER_KEY):
                continue
            if item.type == "function_call_output" and item.output == "The tool call is still in progress.":
                continue
        items.append(item)
    return items


# Frequent function words of the languages callers most often try; English has none of them.
_FOREIGN_WORDS = frozenset(
    "je tu il nous vous est les des une pour avec mais pas que qui dans sur mon ma mes votre "
    "quiero necesito tengo por los las una usted para pero cuenta mi el es ich nicht und der die "
    "das ist mein meine bitte ein eine sie wir mit auf io non sono della questo il mio perché".split()
)


def looks_non_english(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    if len(letters) < 4:
        return False
    foreign = sum(1 for c in letters if ord(c) > 0x24F)
    if foreign / len(letters) > 0.3:
        return True
    words = re.findall(r"[^\W\d_]+", text.lower())
    hits = sum(1 for w in words if w in _FOREIGN_WORDS)
    return hits >= 2 and hits / max(1, len(words)) >= 0.2


class EmbeddedPolicy:
    """The decision logic, separate from the streaming plumbing so it can be tested alone."""

    def __init__(self, router: IntentRouter, topics: dict[str, str], phrases: t.Phrasebook, slots: SlotReader = SHARED,
                 sure_only: frozenset[str] = frozenset()) -> None:
        self.router = router
        # Labels of specialists that change something (after a read-back): below the fast-path
        # threshold they are asked about, never guessed, so a vague turn ("i need help with my
        # account") does not open with the read-back of a closure. Read-only ones may be guessed.
        self.sure_only = sure_only
        self.topics = topics  # label or domain -> caller-facing phrase ("a refund")
        self.phrases = phrases  # greeting, out-of-scope reply...: built from the domains' wording
        self.slots = slots  # the line's slot reader: its domains' ids and request kinds

    def decide(self, chat_ctx: llm.ChatContext, tools: list[llm.Tool]) -> Decision:
        by_name = {_tool_name(tl): tl for tl in tools}
        items = _visible_items(chat_ctx, set(by_name))
        last_user = max((i for i, it in enumerate(items) if it.type == "message" and it.role == "user"), default=-1)
        outputs = _answered_batch(items)
        if outputs:
            return EmbeddedPolicy._speak_outputs(outputs, transfer=any(n.startswith(TRANSFER) for n in by_name))
        text = (items[last_user].text_content or "").strip() if last_user >= 0 else ""
        if any(n.startswith(TRANSFER) for n in by_name):
            return self._meta(text, by_name)
        routes = {n[len(ROUTE) :]: n for n in by_name if n.startswith(ROUTE)}
        if routes:
            return self._supervisor(text, routes)
        actions = {n: tl for n, tl in by_name.items() if n not in CONTROL_TOOLS}
        if actions:
            return EmbeddedPolicy._specialist(chat_ctx, actions, self.slots)
        return Decision(text=self.phrases.how_can_i_help, reason="no_tools")

    # --- meta-supervisor -------------------------------------------------------------
    def _meta(self, text: str, tools: dict[str, llm.Tool]) -> Decision:
        if not text:
            return Decision(text=t.EMPTY_TURN, reason="empty")
        if looks_non_english(text):
            return Decision(text=t.ENGLISH_ONLY, reason="language")
        intents = self.router.detect(text)
        routable: list[Intent] = []
        for intent in intents:
            if self._clear(intent, by_domain=True) and f"{TRANSFER}{intent.domain}" in tools:
                if all(i.label != intent.label for i in routable):
                    routable.append(intent)
        # clearly ahead is enough ("could someone ring me back this afternoon" at 0.57): the
        # person is booked, never only promised in words
        wants_human = any(i.label == "meta/human" and self._clear(i, by_domain=False) for i in intents)
        if wants_human and _HUMAN_TOOL in tools:
            human = route_call(_HUMAN_TOOL, {"reason": "caller asked for a person"}, path="embedded", confidence=None)
            # "one, am i locked out for good? two, how do i turn on webhooks. and three, i want a
            # real person to call me": the person and the needs beside it, all of them (the front
            # desk books the person and takes the rest; a transfer takes the caller away instead)
            beside = [route_call(f"{TRANSFER}{i.domain}", {"request": i.text}, path="embedded", confidence=round(domain_confidence(i), 4))
                      for i in routable if self.router.clearly_ahead(i) or domain_confidence(i) >= self.router.threshold]
            return Decision(calls=[human, *beside], reason="human")
        if routable:
            calls = [
                route_call(f"{TRANSFER}{i.domain}", {"request": i.text}, path="embedded", confidence=round(domain_confidence(i), 4))
                for i in routable
            ]
            if len(routable) > 1:
                # A part of a multi-need turn read in the turn's company ("..., and tell me why
                # i'm being throttled") is settled on the specialist the front desk was sure
                # of: read alone by its supervisor the part may look out of scope.
                for call, intent in zip(calls, routable, strict=True):
                    if self.router.clearly_ahead(intent) or self.router.ahead_for_that(intent):
                        call.extra[SETTLED_EXTRA] = intent.name
            return Decision(calls=calls, reason="route")
        top = intents[0] if intents else None
        if top is None:
            return Decision(text=t.EMPTY_TURN, reason="empty")
        if top.label == "meta/greeting":
            # "hey, are you a real person or a bot": the question after the hello is what to answer
            top = next((i for i in intents[1:] if i.label == "meta/smalltalk" and self._clear(i, by_domain=False)), top)
        if top.label == GOODBYE and top.confidence < self.router.threshold and not _FAREWELL_CUE.search(top.text) \
                and not is_closing(top.text) and farewell_language(top.text) is None:
            # "hmm yeah maybe ok yes" read unsurely as a goodbye, with no word of one in it: the call
            # goes on ("cheerio then", "laters" are read surely, whatever words they use)
            return Decision(text=self.phrases.how_can_i_help, reason="unclear")
        if top.label.startswith("meta/") and self._clear(top, by_domain=False):
            return Decision(text=self.phrases.front_desk_replies.get(top.name, self.phrases.how_can_i_help), reason=top.name)
        if top.label == "oos":
            return Decision(text=self.phrases.out_of_scope, reason="oos", confidence=top.confidence)
        return Decision(text=self._clarify(top), reason="clarify", confidence=top.confidence)

    def _clear(self, intent: Intent, *, by_domain: bool) -> bool:
        """Route without asking: confident, or clearly ahead of the next reading (see
        ``callcenter.routing.clarify``: a question only where two readings are close)."""
        if not intent.in_scope:
            return False
        sure = domain_confidence(intent) if by_domain else intent.confidence
        if sure >= self.router.threshold:
            return True
        if not by_domain and intent.label in self.sure_only:
            return False
        r = reading(intent.label, intent.confidence, intent.alternatives, by_domain=by_domain)
        return not should_ask(r, self.router.threshold, getattr(self.router, "ask_margin", ASK_MARGIN))

    def _clarify(self, top: Intent, within: str | None = None) -> str:
        options = [top.label, *(label for label, _ in top.alternatives)]
        phrases: list[str] = []
        for label in options:
            if label == "oos" or label.startswith("meta/") or (within and not label.startswith(within + "/")):
                continue
            phrase = self.topics.get(label)
            if phrase and phrase not in phrases:
                phrases.append(phrase)
        if len(phrases) >= 2:
            return t.CLARIFY_TWO.format(a=phrases[0], b=phrases[1])
        if phrases:
            return t.CLARIFY_ONE.format(a=phrases[0])
        return t.CLARIFY_OPEN

    # --- domain supervisor -----------------------------------------------------------
    def _supervisor(self, text: str, routes: dict[str, str]) -> Decision:
        if not text:
            return Decision(text=t.EMPTY_TURN, reason="empty")
        domains = {label.split("/")[0] for label in self.router.labels if label.split("/")[-1] in routes}
        within = next(iter(domains)) if len(domains) == 1 else None
        intent = self.router.classify(text, within=within)
        if intent.in_scope and not self._clear(intent, by_domain=False):
            # Two close readings, and the caller said one of their names: that one is meant.
            margin = getattr(self.router, "ask_margin", ASK_MARGIN)
            close = [intent.label, *(lab for lab, p in intent.alternatives if intent.confidence - p < margin)]
            named = named_among(text, close)
            name = named.split("/", 1)[1] if named is not None else None
            if name is not None and name in routes:
                return Decision(calls=[route_call(routes[name], {}, path="embedded", confidence=None)], reason="route")
        if intent.in_scope and self._clear(intent, by_domain=False) and intent.name in routes:
            return Decision(
                calls=[route_call(routes[intent.name], {}, path="embedded", confidence=round(intent.confidence, 4))],
                reason="route",
            )
        return Decision(text=self._clarify(intent, within), reason="clarify", confidence=intent.confidence)

    # --- specialist ------------------------------------------------------------------
    @staticmethod
    def _specialist(chat_ctx: llm.ChatContext, tools: dict[str, llm.Tool], slots: SlotReader) -> Decision:
        texts = user_texts(chat_ctx)
        slot_sets = [slots.read(x).as_dict() for x in texts]
        best: tuple[int, str, dict[str, Any], list[str]] | None = None
        for name, tool in tools.items():
            schema = tool_parameters(tool)
            props: dict[str, Any] = schema.get("properties", {})
            required = list(schema.get("required", []))
            args: dict[str, Any] = {}
            for param in props:
                if param in ("reason", "details", "question"):
                    args[param] = (texts[0] if texts else "")[:500]
                    continue
                for slots in slot_sets:  # newest message first
                    if param in slots:
                        value = slots[param]
                        args[param] = float(value) if param == "amount" else value
                        break
            missing = [p for p in required if p not in args]
            score = (0 if missing else 1000) + len(args)
            if best is None or score > best[0]:
                best = (score, name, args, missing)
        assert best is not None
        _, name, args, missing = best
        if missing:
            props = tool_parameters(tools[name]).get("properties", {})
            wanted = [_for_caller(str(props.get(p, {}).get("description") or p.replace("_", " "))) for p in missing]
            return Decision(text=t.ASK_FOR.format(what=_join(wanted)), reason="ask_slot")
        return Decision(calls=[route_call(name, args, path="embedded", confidence=None)], reason="act")

    # --- after tools ran -------------------------------------------------------------
    @staticmethod
    def _speak_outputs(outputs: list[llm.FunctionCallOutput], *, transfer: bool) -> Decision:
        parts: list[str] = []
        for out in outputs:
            said = t.TOOL_FAILED if out.is_error else _plain(out.output)
            if said and said not in parts:
                parts.append(said)
        text = " ".join(parts) or t.ANYTHING_ELSE
        if transfer and not text.rstrip().endswith(("?", "goodbye!")):
            text += " " + t.ANYTHING_ELSE
        return Decision(text=text, reason="speak_output")


def fill_tool_call(chat_ctx: llm.ChatContext, tools: list[llm.Tool], slots: SlotReader = SHARED) -> llm.FunctionToolCall | None:
    """A specialist's action with every required argument taken from what the caller said
    (read with the line's `slots`).

    None when something required is missing: then a model (or the embedded policy) asks.
    """
    actions = {n: tl for n, tl in ((_tool_name(tl), tl) for tl in tools) if n not in CONTROL_TOOLS}
    if not actions:
        return None
    decision = EmbeddedPolicy._specialist(chat_ctx, actions, slots)
    if decision.reason != "act":
        return None
    call = decision.calls[0]
    call.extra[ROUTING_EXTRA] = {"path": "fast", "confidence": None}
    return call


def spoken_outputs(chat_ctx: llm.ChatContext, tools: list[llm.Tool]) -> str | None:
    """The reply, when this agent's latest tool calls have all answered the caller's turn.

    Tools return caller-facing sentences built from typed results, so speaking them needs
    no model: every level uses this before calling its LLM (hosted or embedded), which
    saves one LLM request per answered turn on the hosted path.
    """
    names = {_tool_name(tl) for tl in tools}
    outputs = _answered_batch(_visible_items(chat_ctx, names))
    if not outputs:
        return None
    decision = EmbeddedPolicy._speak_outputs(outputs, transfer=any(n.startswith(TRANSFER) for n in names))
    return decision.text


def _answered_batch(items: list[llm.ChatItem]) -> list[llm.FunctionCallOutput]:
    """Outputs of this agent's latest batch of tool calls, if that batch is what to answer now.

    A batch is the calls made after the caller message that prompted them. A multi-intent
    turn's batch can span several caller messages (a specialist asked something in between),
    so "outputs after the last caller message" would drop the earlier answers.
    """
    call_idx = [i for i, it in enumerate(items) if it.type == "function_call"]
    if not call_idx:
        return []
    prompt = max((i for i, it in enumerate(items[: call_idx[-1]]) if it.type == "message" and it.role == "user"), default=-1)
    batch = [items[i] for i in call_idx if i > prompt]
    outputs = {it.call_id: (i, it) for i, it in enumerate(items) if it.type == "function_call_output"}
    if any(c.call_id not in outputs for c in batch):
        return []
    last_output = max(outputs[c.call_id][0] for c in batch)
    if any(it.type == "message" and it.role == "user" for it in items[last_output + 1 :]):
        return []  # the caller spoke after the answers: that is what to respond to
    return [outputs[c.call_id][1] for c in batch]


def _plain(output: str) -> str:
    # Tools return sentences; a JSON-encoded string comes back quoted.
    try:
        value = json.loads(output)
    except (ValueError, TypeError):
        return output.strip()
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, dict) and isinstance(value.get("say"), str):
        return value["say"].strip()
    return output.strip()


def _for_caller(description: str) -> str:
    """A parameter description is written for an LLM ("The plan the caller wants"); say it to the caller."""
    text = re.sub(r"\bthe caller wants\b", "you want", description, flags=re.I)
    text = re.sub(r"\bthe caller's\b", "your", text, flags=re.I)
    text = re.sub(r"\bthe caller\b", "you", text, flags=re.I)
    return text[:1].lower() + text[1:]


def _join(items: list[str]) -> str:
    items = [re.sub(r"\.$", "", i) for i in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


class EmbeddedLLM(llm.LLM):
    """An offline `llm.LLM` built on the fast-path router. No network, no model weights."""

    def __init__(self, router: IntentRouter, topics: dict[str, str], phrases: t.Phrasebook, slots: SlotReader = SHARED,
                 sure_only: frozenset[str] = frozenset()) -> None:
        super().__init__()
        self.policy = EmbeddedPolicy(router, topics, phrases, slots, sure_only)
        self.calls = 0  # chat() invocations
        self.decisions: Counter[str] = Counter()  # by reason: route, clarify, act, speak_output...

    @property
    def model(self) -> str:
        return "embedded-router"

    @property
    def provider(self) -> str:
        return "embedded"

    def chat(
        self,
        *,
        chat_ctx: llm.ChatContext,
        tools: list[llm.Tool] | None = None,
        conn_options: APIConnectOptions = DEFAULT_API_CONNECT_OPTIONS,
        parallel_tool_calls: NotGivenOr[bool] = NOT_GIVEN,
        tool_choice: NotGivenOr[llm.ToolChoice] = NOT_GIVEN,
        extra_kwargs: NotGivenOr[dict[str, Any]] = NOT_GIVEN,
    ) -> EmbeddedStream:
        self.calls += 1
        return EmbeddedStream(self, chat_ctx=chat_ctx, tools=tools or [], conn_options=conn_options)


class EmbeddedStream(llm.LLMStream):
    async def _run(self) -> None:
        llm_: EmbeddedLLM = self._llm  # type: ignore[assignment]
        if _is_summary_request(self._chat_ctx):
            decision = Decision(text=_summarize(self._chat_ctx), reason="summary")
        else:
            decision = llm_.policy.decide(self._chat_ctx, list(self._tools))
        llm_.decisions[decision.reason] += 1
        rid = f"emb_{uuid.uuid4().hex[:8]}"
        delta = llm.ChoiceDelta(
            role="assistant",
            content=decision.text,
            tool_calls=decision.calls,
            extra={REASON_EXTRA: decision.reason, CONFIDENCE_EXTRA: decision.confidence},
        )
        self._event_ch.send_nowait(llm.ChatChunk(id=rid, delta=delta))
        prompt = sum(len((it.text_content or "").split()) for it in self._chat_ctx.items if it.type == "message")
        completion = len((decision.text or "").split()) + 8 * len(decision.calls)
        self._event_ch.send_nowait(
            llm.ChatChunk(
                id=rid,
                usage=llm.CompletionUsage(
                    completion_tokens=completion, prompt_tokens=prompt, total_tokens=prompt + completion
                ),
            )
        )


def _is_summary_request(chat_ctx: llm.ChatContext) -> bool:
    # Chat-context summarisation sends a system/user prompt asking for a summary.
    for item in chat_ctx.items[:2]:
        if item.type == "message" and "summar" in (item.text_content or "").lower()[:200]:
            return True
    return False


def _summarize(chat_ctx: llm.ChatContext) -> str:
    said = [x for x in reversed(user_texts(chat_ctx)) if x][-5:]
    return "Caller said: " + " | ".join(s[:120] for s in said) if said else "Nothing yet."
