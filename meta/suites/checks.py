"""What a call must have said and left behind: the checker of `callcenter test` and of the
call-success benchmark (benchmarks/calls), so both judge a call the same way.

Store effects are read before and after the call through the line's ports (customers,
tickets, billing's ledger) and the outbox of durable requests. Refunds, requests and
profile changes that were not expected are failures marked `unsafe`: money moved or an
account changed that the call did not ask for.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from meta.suites.model import CallExpect, TurnExpect

PROFILE_FIELDS = ("plan", "email", "phone", "locked")


@dataclass(frozen=True)
class Failure:
    """One unmet expectation. `turn` is 1-based (None: the whole call); `line` is the line
    of the suite file it comes from, when the call came from one."""

    check: str  # says | not_says | needs | reach | refunds | requests | tickets | profile | error
    expected: str
    actual: str
    turn: int | None = None
    line: int | None = None
    unsafe: tuple[str, ...] = ()  # the effects nobody asked for ("refund CH-1001-D $49.00")

    def one_line(self) -> str:
        where = f"turn {self.turn}: " if self.turn is not None else ""
        return f"{where}{self.check}: expected {self.expected}, got {self.actual}"


@dataclass(frozen=True)
class Effects:
    """What the store holds that a call may change."""

    refunds: tuple[tuple[str, int], ...] = ()
    requests: tuple[str, ...] = ()
    tickets: tuple[str, ...] = ()
    profile: dict[str, dict[str, Any]] = field(default_factory=dict)


def snapshot(store: Any, ports: Any = None) -> Effects:
    """The effects a call can leave: the store's outbox, and the line's `ports` (customers,
    tickets, billing's ledger; the store's own and the embedded ledger when not given)."""
    from callcenter.store.adapters import Ports
    from domains.billing.ledger import Ledger
    from domains.billing.ports import billing_port

    ports = ports or Ports.of(store)
    try:
        billing = billing_port(ports)
    except LookupError:  # ports built without the domains' own (a unit test's store)
        billing = Ledger(store)
    profile: dict[str, dict[str, Any]] = {}
    for (cid,) in store.execute("SELECT id FROM customers ORDER BY id"):
        c = ports.customers.get_customer(cid)
        plan = billing.current_plan(cid)
        if c is not None:
            profile[cid] = {"plan": plan.id if plan else None, "email": c.email, "phone": c.phone, "locked": bool(c.locked)}
    return Effects(
        refunds=tuple(sorted((r.charge_id, r.amount_cents) for r in billing.list_refunds())),
        requests=tuple(sorted(w.kind for w in store.list_work())),
        tickets=tuple(sorted(t.kind for t in ports.tickets.list_tickets())),
        profile=profile,
    )


def _said(words: Iterable[str]) -> str:
    return " or ".join(f'"{w}"' for w in words)


def check_reply(expect: TurnExpect, reply: str, *, turn: int | None = None, line: int | None = None) -> list[Failure]:
    """A turn's reply must say one of `says` and none of `not_says` (case-insensitive)."""
    low = reply.lower()
    out = []
    if expect.says and not any(s.lower() in low for s in expect.says):
        out.append(Failure("says", f"one of {_said(expect.says)}", _quote(reply), turn, line))
    for bad in expect.not_says:
        if bad.lower() in low:
            out.append(Failure("not_says", f'no "{bad}"', _quote(reply), turn, line))
    return out


def check_needs(expect: TurnExpect, reached: set[str], *, turn: int | None = None, line: int | None = None) -> list[Failure]:
    """Each need of a multi-need turn reached by the end of the call."""
    missed = [n for n in expect.needs if n not in reached]
    if not missed:
        return []
    return [Failure("needs", f"{', '.join(expect.needs)} reached", f"never reached {', '.join(missed)}", turn, line)]


def check_call(expect: CallExpect, before: Effects, after: Effects, reached: set[str], *,
               line: int | None = None) -> list[Failure]:
    """After the call: every specialist it had to reach, and exactly the effects expected."""
    out: list[Failure] = []
    missed = [a for a in expect.reach if a not in reached]
    if missed:
        got = ", ".join(sorted(a for a in reached if "." in a)) or "no specialist"
        out.append(Failure("reach", ", ".join(expect.reach), f"{got} (never {', '.join(missed)})", None, line))
    out += _exactly("refunds", expect.refunds, added(before.refunds, after.refunds), _refund, line)
    out += _exactly("requests", expect.requests, added(before.requests, after.requests), str, line)
    if expect.tickets is not None:
        opened = added(before.tickets, after.tickets)
        lacking = Counter(expect.tickets) - Counter(opened)
        if lacking:
            out.append(Failure("tickets", f"at least {_listed(expect.tickets, str)}", _listed(opened, str), None, line))
    out += _profile(expect.profile, before.profile, after.profile, line)
    return out


def added(before: Iterable[Any], after: Iterable[Any]) -> list[Any]:
    """What `after` holds beyond `before`, as a multiset (two refunds of one charge are two)."""
    return sorted((Counter(after) - Counter(before)).elements())


def _exactly(check: str, expected: Iterable[Any], got: list[Any], show: Any, line: int | None) -> list[Failure]:
    expected = sorted(expected)
    if Counter(got) == Counter(expected):
        return []
    extra = (Counter(got) - Counter(expected)).elements()
    unsafe = tuple(f"{check[:-1]} {show(e)}" for e in extra)
    return [Failure(check, _listed(expected, show), _listed(got, show), None, line, unsafe=unsafe)]


def _profile(expected: dict[str, dict[str, Any]], before: dict[str, dict[str, Any]],
             after: dict[str, dict[str, Any]], line: int | None) -> list[Failure]:
    out = []
    for cid in sorted(set(before) | set(after) | set(expected)):
        old, new, want = before.get(cid, {}), after.get(cid, {}), expected.get(cid, {})
        for name in PROFILE_FIELDS:
            was, now = old.get(name), new.get(name)
            if name in want:
                target = want[name]
                if not _same(name, now, target):
                    out.append(Failure("profile", f"{cid} {name} {_show(target)}", f"{_show(now)}", None, line))
                elif _same(name, was, target):
                    out.append(Failure("profile", f"{cid} {name} changed to {_show(target)}", f"it was {_show(was)} already", None, line))
            elif was != now:
                out.append(Failure("profile", f"{cid} {name} unchanged ({_show(was)})", f"{_show(now)}", None, line,
                                   unsafe=(f"profile {cid} {name}",)))
    return out


def _same(name: str, value: Any, target: Any) -> bool:
    if name in ("plan", "email") and isinstance(value, str) and isinstance(target, str):
        return value.lower() == target.lower()
    return value == target


def _show(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


def _refund(r: tuple[str, int]) -> str:
    return f"{r[0]} ${r[1] // 100}.{r[1] % 100:02d}"


def _listed(items: Iterable[Any], show: Any) -> str:
    items = list(items)
    return ", ".join(show(i) for i in items) if items else "none"


def _quote(reply: str, limit: int = 300) -> str:
    text = " ".join(reply.split())
    return f'"{text[:limit]}{"..." if len(text) > limit else ""}"'
