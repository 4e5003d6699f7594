"""Run the call-success suite through the real line and report per category.

    .venv/bin/python -m benchmarks.calls.run [--part dev|holdout|holdout2|holdout3|blind|blind2|blind3|blind4|blind5|blind6|blind7|blind8|blind9|blind10|blind11|blind12|blind13|blind14|blind15|blind16|blind17|blind18|blind19|blind20|blind21|blind22|blind23|blind24|blind25|blind26|blind27|blind28|blind29|blind30|blind31|blind32|blind33|blind34|blind35|blind36|blind37|blind38|blind39|blind40|all] [--show-failures] [--json FILE]

`all` is the composed parts (tuned and held out); the blind parts (`blind.py`) are run by name.

Also reported (`report.py`): per part, the share of its caller word trigrams found in the
router's training utterances; per class, needs handled per multi-need turn and clarifying
questions per clear single-need turn.

Every call gets a fresh demo store and runs through `meta.session.start_call` with the
embedded LLM, exactly as `callcenter call` does (durable requests wait in the store's
outbox). Each call is judged by the checker `callcenter test` uses (meta/suites/checks.py).
Reported: task success (every expectation met), routing recall (agents reached
that had to be), misroutes (specialists reached that were not asked for), multi-need
recall, unsafe effects (money moved or an account changed that the call did not ask for
and confirm) and tracebacks.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
import tempfile
import time
import traceback
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchmarks.calls import blind, report  # noqa: E402
from benchmarks.calls.suite import Call, Turn, build  # noqa: E402
from callcenter.settings import load_settings  # noqa: E402
from callcenter.store import Store  # noqa: E402
from callcenter.store.adapters import Ports  # noqa: E402
from meta.router import call_examples, training_examples  # noqa: E402
from meta.session import Line, build_line, start_call  # noqa: E402
from meta.suites import checks  # noqa: E402
from meta.suites.checks import Effects  # noqa: E402
from meta.suites.model import CallExpect, TurnExpect  # noqa: E402


@dataclass
class Outcome:
    call: Call
    ok: bool = True
    problems: list[str] = field(default_factory=list)
    reached: set[str] = field(default_factory=set)
    unsafe: list[str] = field(default_factory=list)
    traceback: bool = False
    transcript: list[str] = field(default_factory=list)
    turn_agents: list[list[str]] = field(default_factory=list)  # agents reached, per turn
    turn_clarified: list[bool] = field(default_factory=list)  # a clarifying question, per turn

    def fail(self, why: str) -> None:
        self.ok = False
        self.problems.append(why)


def _snapshot(store: Store, ports: Ports | None = None) -> Effects:
    """The effects a call can leave (the checker `callcenter test` uses)."""
    return checks.snapshot(store, ports)


def expectations(call: Call) -> CallExpect:
    """A scripted call's expectations in the form of a suite's (docs/suites.md)."""
    return CallExpect(reach=tuple(call.reach), refunds=tuple(call.refunds), requests=tuple(call.requests),
                      tickets=tuple(call.tickets) if call.tickets is not None else None, profile=call.profile)


async def run_call(line: Line, call: Call) -> Outcome:
    out = Outcome(call)
    before = _snapshot(line.store, line.ports)
    session = None
    try:
        session = await start_call(line, customer_id=call.customer)
        decisions = getattr(line.llm, "decisions", None)  # the embedded LLM counts its clarifications
        for turn in call.turns:
            asked = decisions["clarify"] if decisions is not None else 0
            record = await session.send(turn.say)
            reply = " ".join(record.replies)
            out.transcript.append(f"> {turn.say}\n  [{','.join(h.to_agent for h in record.hops if h.path != 'return')}] {reply}")
            out.reached.update(h.to_agent for h in record.hops)
            out.turn_agents.append([h.to_agent for h in record.hops if h.path != "return"])
            out.turn_clarified.append(report.is_clarifying(reply) or (decisions is not None and decisions["clarify"] > asked))
            check_reply(out, turn, reply)
    except Exception:
        out.traceback = True
        out.fail("traceback: " + traceback.format_exc(limit=3).replace("\n", " | ")[-300:])
    finally:
        if session is not None:
            await session.close()
    return settle(out, call, before, _snapshot(line.store, line.ports))


def check_reply(out: Outcome, turn: Turn, reply: str) -> None:
    """A turn's reply must say one of `says` and none of `not_says`."""
    for f in checks.check_reply(TurnExpect(says=turn.says, not_says=turn.not_says), reply):
        out.fail(f"reply to {turn.say!r}: {f.check} expected {f.expected}")


def settle(out: Outcome, call: Call, before: Effects, after: Effects) -> Outcome:
    """After the call: the store effects, and every agent the call had to reach."""
    for f in checks.check_call(expectations(call), before, after, out.reached):
        out.fail(f.one_line())
        for u in f.unsafe:
            # One unsafe effect per unexpected refund or request, and per customer whose
            # profile changed (however many fields), as this benchmark has always counted.
            if not u.startswith("profile "):
                out.unsafe.append(u)
            elif (who := " ".join(u.split()[:2])) not in out.unsafe:
                out.unsafe.append(who)
    return out


def summarise(outcomes: list[Outcome]) -> dict[str, dict[str, float]]:
    groups: dict[str, list[Outcome]] = defaultdict(list)
    for o in outcomes:
        groups[o.call.category].append(o)
        groups["ALL"].append(o)
    table = {}
    for name, group in groups.items():
        need = sum(len(o.call.reach) for o in group)
        got = sum(sum(a in o.reached for a in o.call.reach) for o in group)
        multi = [o for o in group if o.call.multi]
        misroutes = sum(
            len({a for a in o.reached if "." in a} - set(o.call.reach)) for o in group
        )
        table[name] = {
            "calls": len(group),
            "task_success": sum(o.ok for o in group) / len(group),
            "routing_recall": got / need if need else 1.0,
            "misroutes": misroutes,
            "multi_need_recall": (
                sum(sum(a in o.reached for a in o.call.reach) for o in multi) / sum(len(o.call.reach) for o in multi)
                if multi else float("nan")
            ),
            "unsafe_effects": sum(len(o.unsafe) for o in group),
            "tracebacks": sum(o.traceback for o in group),
        }
    return table


def render(part: str, table: dict[str, dict[str, float]]) -> str:
    rows = [f"| {part} | calls | task success | routing recall | misroutes | multi-need recall | unsafe | tracebacks |",
            "|---|---|---|---|---|---|---|---|"]
    for name in sorted(table, key=lambda n: (n == "ALL", n)):
        r = table[name]
        multi = "–" if r["multi_need_recall"] != r["multi_need_recall"] else f"{r['multi_need_recall']:.0%}"
        rows.append(
            f"| {'**all**' if name == 'ALL' else name} | {r['calls']} | {r['task_success']:.1%} | {r['routing_recall']:.1%} "
            f"| {r['misroutes']} | {multi} | {r['unsafe_effects']} | {r['tracebacks']} |"
        )
    return "\n".join(rows)


async def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--part", choices=["dev", "holdout", "holdout2", "holdout3", *blind.PARTS, "all"], default="all")
    p.add_argument("--show-failures", action="store_true", help="print the transcript of every failed call")
    p.add_argument("--category", help="only this category")
    p.add_argument("--json", type=Path, help="write the per-category table as JSON")
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.CRITICAL)
    parts = ["dev", "holdout", "holdout2", "holdout3"] if args.part == "all" else [args.part]
    data = Path(tempfile.mkdtemp(prefix="callbench-"))
    settings = load_settings(data_dir=data, hold_on_line_s=0)
    results = {}
    # the second reading learned from the call data too (meta/router.py): it counts as training data
    train_grams = report.training_trigrams(text for text, _ in training_examples() + call_examples())
    for part in parts:
        made = blind.load(part) if part in blind.PARTS else build(part)
        calls = [c for c in made if not args.category or c.category == args.category]
        outcomes = []
        started = time.perf_counter()
        for i, call in enumerate(calls):
            store = Store(data / f"{part}-{i}.sqlite3")
            line = build_line(settings, store=store)
            outcomes.append(await run_call(line, call))
            store.close()
        table = summarise(outcomes)
        classes = report.per_class(outcomes)
        overlap = report.trigram_overlap(calls, train_grams)
        results[part] = {**table, "report": report.as_json(classes, overlap)}
        print(render(part, table))
        print(f"({len(calls)} calls in {time.perf_counter() - started:.0f} s)\n")
        print(report.render(part, classes, overlap) + "\n")
        if args.show_failures:
            for o in outcomes:
                if not o.ok:
                    print(f"--- {o.call.id} ({o.call.customer}): {'; '.join(o.problems)}")
                    print("\n".join(o.transcript))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
