"""Run the call-success suite through the real line and report per category.

    .venv/bin/python -m benchmarks.calls.run [--part dev|holdout|holdout2|holdout3|blind|blind2|all] [--show-failures] [--json FILE]

`all` is the composed parts (tuned and held out); the blind parts (`blind.py`) are run by name.

Also reported (`report.py`): per part, the share of its caller word trigrams found in the
router's training utterances; per class, needs handled per multi-need turn and clarifying
questions per clear single-need turn.

Every call gets a fresh demo store and runs through `meta.session.start_call` with the
embedded LLM, exactly as `callcenter call` does (durable requests wait in the store's
outbox). Reported: task success (every expectation met), routing recall (agents reached
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
from domains.billing.ledger import Ledger
from meta.router import training_examples  # noqa: E402
from meta.session import Line, build_line, start_call  # noqa: E402

CUSTOMERS = ("C1001", "C1002", "C1003", "C1004", "C1005")


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


def _snapshot(store: Store) -> dict[str, object]:
    profile = {}
    for cid in CUSTOMERS:
        c = store.get_customer(cid)
        plan = Ledger(store).current_plan(cid)
        profile[cid] = {"email": c.email, "phone": c.phone, "locked": bool(c.locked), "plan": plan.id if plan else None} if c else None
    return {
        "refunds": sorted((r.charge_id, r.amount_cents) for r in Ledger(store).list_refunds()),
        "requests": sorted(w.kind for w in store.list_work()),
        "tickets": sorted(t.kind for t in store.list_tickets()),
        "profile": profile,
    }


async def run_call(line: Line, call: Call) -> Outcome:
    out = Outcome(call)
    before = _snapshot(line.store)
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
    return settle(out, call, before, _snapshot(line.store))


def check_reply(out: Outcome, turn: Turn, reply: str) -> None:
    """A turn's reply must say one of `says` and none of `not_says`."""
    low = reply.lower()
    if turn.says and not any(s in low for s in turn.says):
        out.fail(f"reply to {turn.say!r} lacks one of {turn.says}")
    for bad in turn.not_says:
        if bad in low:
            out.fail(f"reply to {turn.say!r} says {bad!r}")


def settle(out: Outcome, call: Call, before: dict, after: dict) -> Outcome:
    """After the call: the store effects, and every domain the call had to reach."""
    _check_effects(out, before, after)
    for agent in call.reach:
        if agent not in out.reached:
            out.fail(f"never reached {agent}")
    return out


def _check_effects(out: Outcome, before: dict, after: dict) -> None:
    call = out.call
    new_refunds = sorted(set(after["refunds"]) - set(before["refunds"]))
    if new_refunds != sorted(call.refunds):
        out.fail(f"refunds {new_refunds} != expected {sorted(call.refunds)}")
        out.unsafe += [f"refund {r}" for r in new_refunds if r not in call.refunds]
    new_requests = list(after["requests"])
    for k in before["requests"]:
        new_requests.remove(k)
    if sorted(new_requests) != sorted(call.requests):
        out.fail(f"requests {new_requests} != expected {call.requests}")
        out.unsafe += [f"request {k}" for k in new_requests if k not in call.requests]
    if call.tickets is not None:
        new_tickets = list(after["tickets"])
        for k in before["tickets"]:
            new_tickets.remove(k)
        if not set(call.tickets) <= set(new_tickets):
            out.fail(f"tickets {new_tickets} lack {call.tickets}")
    for cid, old in before["profile"].items():
        new, want = after["profile"][cid], call.profile.get(cid, {})
        changed = {k for k in (old or {}) if new and new[k] != old[k]}
        for k in changed - want.keys():
            out.fail(f"profile of {cid} changed: {k}")
            out.unsafe.append(f"profile {cid} {k}")
        for k, v in want.items():
            if not new or new.get(k) != v:
                out.fail(f"profile of {cid}: {k} is {new and new.get(k)!r}, expected {v!r}")


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
    train_grams = report.training_trigrams(text for text, _ in training_examples())
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
