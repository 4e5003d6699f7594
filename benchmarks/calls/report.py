"""Per-part and per-class report of the call suite beyond task success (issue 25).

- **Distance from the training data**: the share of a part's caller word trigrams that also
  occur in the router's training utterances (`meta/utterances`, `domains/*/utterances`). A
  part written in the training data's words scores high; callers nobody here wrote for, low.
- **Per class** (a call's `category`): task success; needs handled per multi-need turn (the
  share of a multi-need turn's needs whose agent the call reached from that turn on, since
  actions are queued and done one at a time); clarifying questions per clear single-need
  turn (a turn with exactly one need).

A turn's needs are `Turn.needs` where a part annotates them. A part that does not (any
loader may build `Call`s) is read from what each call must reach: a `multi` call's first
turn holds all of `reach`; a call with one agent in `reach` opens with that need. Such
numbers are marked "inferred".
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from benchmarks.calls.suite import Call

_WORD = re.compile(r"[a-z0-9']+")
# The embedded LLM's clarifying questions start with these (callcenter/llm/templates.py).
CLARIFY_OPENINGS = ("just so i get this right", "could you tell me a little more about what you need")


class _Outcome(Protocol):
    call: Call
    ok: bool
    turn_agents: list[list[str]]
    turn_clarified: list[bool]


def trigrams(text: str) -> set[tuple[str, str, str]]:
    words = _WORD.findall(text.lower().replace("\u2019", "'"))
    return set(zip(words, words[1:], words[2:], strict=False))


def training_trigrams(texts: Iterable[str]) -> set[tuple[str, str, str]]:
    out: set[tuple[str, str, str]] = set()
    for t in texts:
        out |= trigrams(t)
    return out


def trigram_overlap(calls: Sequence[Call], train: set[tuple[str, str, str]]) -> float:
    """Share of the distinct caller word trigrams of these calls found in the training data."""
    grams: set[tuple[str, str, str]] = set()
    for call in calls:
        for turn in call.turns:
            grams |= trigrams(turn.say)
    return len(grams & train) / len(grams) if grams else float("nan")


def is_clarifying(reply: str) -> bool:
    low = reply.lower()
    return any(o in low for o in CLARIFY_OPENINGS)


def turn_needs(call: Call) -> tuple[list[tuple[int, tuple[str, ...]]], bool]:
    """(turn index, needs) of every annotated turn, and whether they were inferred."""
    marked = [(i, tuple(t.needs)) for i, t in enumerate(call.turns) if getattr(t, "needs", ())]
    if marked:
        return marked, False
    if not call.turns:
        return [], True
    if call.multi and len(call.reach) >= 2:
        return [(0, tuple(call.reach))], True
    if len(call.reach) == 1:
        return [(0, tuple(call.reach))], True
    return [], True


@dataclass
class ClassRow:
    calls: int = 0
    ok: int = 0
    multi_turns: int = 0
    multi_needs: int = 0
    multi_handled: int = 0
    multi_all: int = 0  # multi-need turns with every need handled
    single_turns: int = 0
    single_clarified: int = 0
    inferred: bool = False
    extra: dict[str, float] = field(default_factory=dict)


def per_class(outcomes: Sequence[_Outcome]) -> dict[str, ClassRow]:
    rows: dict[str, ClassRow] = defaultdict(ClassRow)
    for o in outcomes:
        for name in (o.call.category, "ALL"):
            row = rows[name]
            row.calls += 1
            row.ok += bool(o.ok)
            needs, inferred = turn_needs(o.call)
            row.inferred |= inferred and bool(needs)
            for index, wanted in needs:
                if index >= min(len(o.turn_agents), len(o.turn_clarified)):
                    continue  # the call broke off before this turn
                if len(wanted) >= 2:
                    later = {a for agents in o.turn_agents[index:] for a in agents}
                    got = sum(a in later for a in wanted)
                    row.multi_turns += 1
                    row.multi_needs += len(wanted)
                    row.multi_handled += got
                    row.multi_all += got == len(wanted)
                elif len(wanted) == 1:
                    row.single_turns += 1
                    row.single_clarified += bool(o.turn_clarified[index])
    return dict(rows)


def _pct(a: int, b: int) -> str:
    return f"{a / b:.1%}" if b else "–"


def render(part: str, rows: dict[str, ClassRow], overlap: float) -> str:
    lines = [
        f"{part}: {overlap:.1%} of its caller word trigrams occur in the router's training utterances",
        f"| {part} | calls | task success | multi-need turns | needs handled per multi-need turn | every need handled "
        "| clear single-need turns | clarifying questions per clear single-need turn |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name in sorted(rows, key=lambda n: (n == "ALL", n)):
        r = rows[name]
        mark = " (inferred)" if r.inferred else ""
        lines.append(
            f"| {'**all**' if name == 'ALL' else name}{mark} | {r.calls} | {_pct(r.ok, r.calls)} | {r.multi_turns} "
            f"| {_pct(r.multi_handled, r.multi_needs)} | {_pct(r.multi_all, r.multi_turns)} | {r.single_turns} "
            f"| {_pct(r.single_clarified, r.single_turns)} |"
        )
    return "\n".join(lines)


def as_json(rows: dict[str, ClassRow], overlap: float) -> dict[str, object]:
    out: dict[str, object] = {"trigram_overlap": overlap}
    for name, r in rows.items():
        out[name] = {
            "calls": r.calls,
            "task_success": r.ok / r.calls if r.calls else None,
            "multi_need_turns": r.multi_turns,
            "needs_handled_per_multi_need_turn": r.multi_handled / r.multi_needs if r.multi_needs else None,
            "multi_need_turns_all_handled": r.multi_all / r.multi_turns if r.multi_turns else None,
            "clear_single_need_turns": r.single_turns,
            "clarifying_per_clear_single_need_turn": r.single_clarified / r.single_turns if r.single_turns else None,
            "needs_inferred": r.inferred,
        }
    return out
