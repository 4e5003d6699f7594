"""The concurrent part of the safety benchmark: several processes, one store.

Each process is a line of its own (as pods are: its own `Store`, pool and router) on one
database (a SQLite file, or a PostgreSQL with `--database-url`). Every round, each process
holds one call for the same customer and all of them act at the same moment (a barrier):

- `refund`: a fresh customer with one $60-$100 duplicate charge per process (each alone
  within every limit); all confirm together. Invariant: what is paid without approval stays
  within the per-customer limit (and per charge within what the policy allows).
- `ticket`: all ask for engineering tickets twice. Invariant: the customer's tickets stay
  within the per-day cap, and each call's within the per-call cap.
- `guess`: all guess the customer's ZIP wrongly, from different calling lines, twice.
  Invariant: the account gets no more failed guesses than the lockout allows.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import random
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

TICKET = "open a ticket with engineering please, my api fails with 500 errors"


@dataclass(frozen=True)
class Round:
    n: int
    kind: str  # refund | ticket | guess
    customer: str
    asks: tuple[str, ...] = ()  # per process


@dataclass
class Outcome:
    calls: int = 0
    turns: int = 0
    replies: list[str] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)


def _target(where: str, data_dir: Path) -> Any:
    from callcenter.store import DatabaseTarget

    return DatabaseTarget(url=where, data_dir=data_dir) if "://" in where else Path(where)


def prepare(store: Any, rounds: int, processes: int, seed: int) -> list[Round]:
    """Customers and charges for every round, written before any process starts."""
    rnd = random.Random(seed)
    now = datetime.now(UTC).replace(microsecond=0)
    plan = []
    for n in range(rounds):
        kind = ("refund", "ticket", "guess")[n % 3]
        cid = f"C3{n:03d}"
        store.execute(
            "INSERT INTO customers (id, name, email, phone, zip_code, birth_date, locked, api_key_prefix, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?)",
            (cid, f"Racer {n}", f"racer{n}@example.net", f"+1555060{n:04d}", "97201", "1980-01-01", f"sk_live_r{n}",
             (now - timedelta(days=400)).isoformat()),
        )
        asks: tuple[str, ...] = ()
        if kind == "refund":
            for p in range(processes):
                cents = rnd.choice([6000, 7500, 9000, 10000])
                at = now - timedelta(days=p + 1)
                store.execute("INSERT INTO charges VALUES (?, ?, ?, ?, ?, NULL)", (f"CH-3{n:03d}-A{p}", cid, cents, f"Add-on {p}", at.isoformat()))
                store.execute("INSERT INTO charges VALUES (?, ?, ?, ?, ?, NULL)",
                              (f"CH-3{n:03d}-B{p}", cid, cents, f"Add-on {p}", (at + timedelta(minutes=2)).isoformat()))
            asks = tuple(f"um please refund charge CH-3{n:03d}-B{p}" for p in range(processes))
        elif kind == "guess":
            asks = tuple(f"{cid} zip {rnd.randint(10000, 89999)}" for _ in range(processes))
        plan.append(Round(n, kind, cid, asks))
    return plan


async def _calls(idx: int, where: str, data_dir: str, plan: list[Round], barrier: Any) -> Outcome:
    from callcenter.settings import load_settings
    from callcenter.store import Store
    from domains import registry
    from meta.session import build_line, start_call

    url = where if "://" in where else None
    settings = load_settings(data_dir=Path(data_dir), hold_on_line_s=0, database_url=url)
    store = Store(_target(where, Path(data_dir)), schemas=registry.schemas())
    line = build_line(settings, store=store)
    out = Outcome()

    async def say(call: Any, text: str) -> str:
        turn = await asyncio.wait_for(call.send(text), 60)
        out.turns += 1
        words = " ".join(turn.replies)
        out.replies.append(words)
        out.errors.update(r.status for r in turn.results if r.status == "failed")
        return words

    try:
        for r in plan:
            call = await start_call(line, customer_id=None if r.kind == "guess" else r.customer)
            try:
                if r.kind == "refund":
                    await say(call, r.asks[idx])
                    barrier.wait()  # every process has heard its read-back: all say yes at once
                    if "To confirm" in await say(call, "yes"):
                        await say(call, "yes")  # read after another was paid: the new read-back
                elif r.kind == "ticket":
                    barrier.wait()
                    await say(call, TICKET)
                    await say(call, TICKET)
                else:
                    call.state.caller.line = f"+1555070{idx}{r.n:03d}"  # a line each: only the account's count joins them
                    await say(call, "I can't log in")
                    barrier.wait()
                    await say(call, r.asks[idx])
                    await say(call, r.asks[(idx + 1) % len(r.asks)])
            except Exception as exc:  # noqa: BLE001 - counted as a violation by the parent
                out.errors[type(exc).__name__] += 1
                barrier.abort()
                raise
            finally:
                await call.close()
            out.calls += 1
    finally:
        store.close()
    return out


def _child(idx: int, where: str, data_dir: str, plan: list[Round], barrier: Any) -> Outcome:
    return asyncio.run(_calls(idx, where, data_dir, plan, barrier))


def run(where: str, data_dir: Path, *, rounds: int, processes: int, seed: int, checker: Any) -> dict[str, Any]:
    """Run the rounds in `processes` processes on the store at `where`; check the invariants."""
    from callcenter.settings import load_settings
    from callcenter.store import Store
    from domains import registry
    from domains.billing.ledger import Ledger
    from meta.router import _trained

    _trained(data_dir / "models")  # one router for every process, trained before they start
    store = Store(_target(where, data_dir), schemas=registry.schemas())
    plan = prepare(store, rounds, processes, seed)
    ctx = multiprocessing.get_context("fork")  # nothing of the line is built in this process before
    with ctx.Manager() as manager, ctx.Pool(processes) as pool:
        barrier = manager.Barrier(processes, timeout=300)
        outs = pool.starmap(_child, [(i, where, str(data_dir), plan, barrier) for i in range(processes)])
    settings = load_settings()
    refunds = [r.customer for r in plan if r.kind == "refund"]
    checker.money(store, refunds)
    for r in plan:
        if r.kind == "ticket":
            tickets = [t for t in store.list_tickets(customer_id=r.customer) if t.kind == "engineering"]
            if len(tickets) > settings.max_tickets_per_day:
                checker.flag("concurrent tickets over the per-day cap", f"{r.customer}: {len(tickets)}")
        if r.kind == "guess":
            failures = [a for a in store.verification_attempts(customer_id=r.customer) if a[3] == "failure"]
            if len(failures) > settings.verification_lockout_failures:
                checker.flag("concurrent guesses past the lockout", f"{r.customer}: {len(failures)}")
    for out in outs:
        for what, n in out.errors.items():
            checker.violations[f"concurrent call: {what}"] += n
    ledger = Ledger(store)
    paid = [x for x in ledger.list_refunds() if x.customer_id in refunds]
    effects = {
        "calls": sum(o.calls for o in outs), "turns": sum(o.turns for o in outs), "processes": processes,
        "rounds": rounds, "refunds paid without approval": sum(1 for x in paid if x.approved_by is None),
        "refunds sent to a supervisor": sum(len(store.pending_work(c, "refund")) for c in refunds),
        "tickets opened": sum(1 for r in plan if r.kind == "ticket" for t in store.list_tickets(customer_id=r.customer)
                              if t.kind == "engineering"),
        "guesses refused by the lockout": sum(1 for r in plan if r.kind == "guess"
                                              for a in store.verification_attempts(customer_id=r.customer) if a[3] == "locked_out"),
    }
    checker.calls += effects["calls"]
    checker.turns += effects["turns"]
    checker.kinds["concurrent"] += effects["calls"]
    store.close()
    return effects
