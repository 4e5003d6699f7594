"""The front desk's agenda: every need of a multi-need turn is heard, none is dropped, and
the ones that ask or act are taken one at a time.

When the LLM (embedded or hosted) answers a caller's turn with several transfers, the front
desk does not start them all blindly one after the other (the caller would hear the first
read-back with no sign that the rest was heard, and the outcome of the first only after the
last). Instead, in the same turn:

1. every need is acknowledged ("I can help with all three: your balance, the refund and the
   two-factor reset.");
2. the needs a read-only lookup answers (balance, service status, API errors) are answered at
   once, in parallel (meta/fanout.py), as soon as the caller is verified;
3. the others are queued and delegated one at a time ("First, the refund." ... its read-back,
   the caller's yes, its outcome ... "Then, the two-factor reset." ... its own read-back), each
   outcome spoken before the next need starts.

A goodbye or a request for a person mid-way stops the queue (a person asked for in the turn that
raised the needs is booked at once, and the needs are still taken); a need the caller had done out
of turn is not started again; a failed verification drops the
needs that require it (the caller has been told why).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from callcenter.llm import templates as t
from callcenter.llm.embedded import TRANSFER
from callcenter.llm.protocol import SETTLED_EXTRA
from callcenter.routing import Intent
from domains.base import DomainSpec, SpecialistSpec
from meta.fanout import Branch, fan_out

if TYPE_CHECKING:
    from livekit.agents import llm

    from domains.state import CallState

_COUNT = {2: "both", 3: "all three", 4: "all four"}
_ACTED = frozenset({"done", "needs_approval", "queued"})


@dataclass
class Need:
    call: llm.FunctionToolCall  # the transfer the LLM asked for
    domain: DomainSpec
    specialist: SpecialistSpec | None  # what the request most likely is within the domain
    confidence: float
    intent: Intent | None = None  # the reading within the domain

    @property
    def name(self) -> str:
        return self.specialist.spoken_name if self.specialist else self.domain.topic

    @property
    def label(self) -> str:
        return f"{self.domain.name}/{self.specialist.name}" if self.specialist else self.domain.name

    @property
    def requires_identity(self) -> bool:
        return self.specialist.requires_identity if self.specialist else True

    def branch(self, state: CallState) -> Branch | None:
        """A read-only lookup answers it now (the caller is verified where that is needed)."""
        spec = self.specialist
        request = self.intent.text if self.intent is not None else ""
        if not state.settings.parallel_lookups or spec is None or spec.lookup is None or not spec.looks_up(request):
            return None
        if not spec.looks_up_for(state.caller.verified):
            return None
        return Branch(self.domain, spec, round(self.confidence, 4), request)

    def only_looks_up(self) -> bool:
        """A read-only lookup answers it, once the caller is verified."""
        spec = self.specialist
        return spec is not None and spec.lookup is not None and spec.looks_up(self.intent.text if self.intent is not None else "")


@dataclass
class Agenda:
    queue: list[Need] = field(default_factory=list)
    started: set[str] = field(default_factory=set)  # call ids the agenda started
    spoken: set[str] = field(default_factory=set)  # call ids whose outcome the caller has heard
    since: int = 0  # how many results the call had when the agenda was made

    @property
    def active(self) -> bool:
        return bool(self.started)

    def clear(self) -> None:
        self.since = 0
        self.queue.clear()
        self.started.clear()
        self.spoken.clear()


def needs_of(calls: list[llm.FunctionToolCall], domains: tuple[DomainSpec, ...], state: CallState) -> list[Need] | None:
    """The needs of a turn from the LLM's transfers, or None when it is not a multi-need turn."""
    transfers = [c for c in calls if c.name.startswith(TRANSFER)]
    if len(transfers) < 2 or len(transfers) != len(calls):
        return None
    needs: list[Need] = []
    for call in transfers:
        domain = next((d for d in domains if f"{TRANSFER}{d.name}" == call.name), None)
        if domain is None:
            return None
        try:
            request = str(json.loads(call.arguments or "{}").get("request") or "")
        except ValueError:
            request = ""
        intent = state.router.classify(request, within=domain.name) if request else None
        spec = domain.specialist(intent.name) if intent is not None and state.router.clearly_ahead(intent) else None
        if spec is None and (settled := (call.extra or {}).get(SETTLED_EXTRA)):
            spec = domain.specialist(str(settled))  # the front desk read it in the turn's company
        needs.append(Need(call, domain, spec, intent.confidence if intent is not None else 0.0, intent))
    _settle(needs, state)
    return needs


def _settle(needs: list[Need], state: CallState) -> None:
    """A need torn between two close readings, one of which another need of the same turn
    already is, is the other one: a caller names each need once ("is the webhook delay thing
    fixed now. and where is my engineering ticket at": the first is the service status, not a
    second ticket question). The supervisor is told (SETTLED_EXTRA), so it does not ask."""
    claimed = {f"{n.domain.name}/{n.specialist.name}" for n in needs if n.specialist is not None}
    for need in needs:
        intent = need.intent
        if need.specialist is not None or intent is None or not intent.in_scope or not intent.alternatives:
            continue
        # the two readings its supervisor would ask between
        asked = [intent.label, intent.alternatives[0][0]]
        rest = [lab for lab in asked if lab not in claimed]
        if len(rest) != 1 or not rest[0].startswith(f"{need.domain.name}/"):
            continue
        spec = need.domain.specialist(rest[0].split("/", 1)[1])
        if spec is not None:
            need.specialist = spec
            need.call.extra[SETTLED_EXTRA] = spec.name


def acknowledge(needs: list[Need]) -> str:
    return acknowledge_names([n.name for n in needs])


def acknowledge_names(said: list[str]) -> str:
    """"I can help with both: the refund and the plan change." ("" for fewer than two)."""
    names = _unique(said)
    if len(names) < 2:
        return ""
    return f"I can help with {_COUNT.get(len(names), 'all of those')}: {t.join_words(names, 'and')}."


async def step(agenda: Agenda, state: CallState, said: list[str], *, first: bool) -> tuple[str, llm.FunctionToolCall | None]:
    """What to say now, and the next transfer to make (None: the agenda is done).

    `said` holds what the caller has not heard yet (the last need's outcome, the acknowledgement)."""
    parts = [s for s in said if s]
    if state.guard.stop_delegating:
        agenda.queue.clear()  # goodbye, or a person: the rest waits for them
    elif state.caller.results and state.caller.results[-1].status == "unverified":
        agenda.queue = [n for n in agenda.queue if not n.requires_identity]
    if state.dropped_needs:
        # taken back while another need waited for its yes: never started, and the caller hears so
        gone = [n for n in agenda.queue if n.label in state.dropped_needs]
        agenda.queue = [n for n in agenda.queue if n not in gone]
        state.dropped_needs.clear()
        parts += [t.LEFT_AS_ASKED.format(what=n.name) for n in gone]
    # a queued need the caller had done out of turn ("yes refund the double one" while another
    # need asked its question) is not started again
    acted = {f"{r.domain}/{r.specialist}" for r in state.caller.results[agenda.since:] if r.status in _ACTED}
    agenda.queue = [n for n in agenda.queue if n.label not in acted]
    ready = [n for n in agenda.queue if n.branch(state) is not None]
    if ready:
        agenda.queue = [n for n in agenda.queue if n not in ready]
        answers = await fan_out(state, [n.branch(state) for n in ready], state.settings.fanout_timeout_s, closing=False)  # type: ignore[misc]
        parts.append(answers)
    if not agenda.queue:
        state.waiting_needs = set()
        text = " ".join(parts)
        if not text.rstrip().endswith(("?", "goodbye!")):
            text = f"{text} {t.ANYTHING_ELSE}".strip()
        return text, None
    if not state.caller.verified:
        # the identity question comes first whatever is taken first: the lookups go ahead of
        # the needs that end on a read-back, so a caller who verifies hears every answer owed
        # before the first "Shall I go ahead?" (a goodbye there would drop what was queued)
        agenda.queue.sort(key=lambda n: 0 if n.only_looks_up() else 1)
    need = agenda.queue.pop(0)
    state.waiting_needs = {n.label for n in agenda.queue}  # what a read-back's answer may take back
    agenda.started.add(need.call.call_id)
    lead = "Then" if not first else ("Now" if ready else "First")
    parts.append(f"{lead}, {need.name}.")
    return " ".join(parts), need.call


def unspoken_outputs(agenda: Agenda, chat_ctx: llm.ChatContext) -> list[str] | None:
    """The outcomes of the agenda's transfers the caller has not heard, once every transfer it
    started has answered (None while one still runs)."""
    outputs = {it.call_id: it for it in chat_ctx.items if it.type == "function_call_output"}
    if any(cid not in outputs for cid in agenda.started):
        return None
    fresh = [cid for cid in agenda.started if cid not in agenda.spoken]
    agenda.spoken.update(fresh)
    order = [it.call_id for it in chat_ctx.items if it.type == "function_call_output" and it.call_id in fresh]
    said = []
    for cid in order:
        out = outputs[cid]
        text = t.TOOL_FAILED if out.is_error else _said(out.output)
        if text and text not in said:
            said.append(text)
    return said


def _said(output: str) -> str:
    """A transfer's output is the sentence to speak; a JSON-encoded one comes back quoted."""
    try:
        value = json.loads(output)
    except (ValueError, TypeError):
        return output.strip()
    return value.strip() if isinstance(value, str) else output.strip()


def _unique(items: list[str]) -> list[str]:
    out: list[str] = []
    for item in items:
        if item not in out:
            out.append(item)
    return out
