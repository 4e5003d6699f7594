"""Call outcomes in the store, and the line's KPIs computed from them.

Every call ends with one `CallRecord` (meta/outcome.py classifies it): how it ended, the
needs it handled (each a specialist, with its own outcome), its handle time, and a
bounded call-back reason. Writing it also decides, per need, whether it is a repeat
contact: the same verified caller raised the same need in a call that ended within the
first-contact-resolution window (`CALLCENTER_FCR_WINDOW_DAYS`) before this one started.

The KPIs (`kpis`) read only these rows and the durable-request tables, so they survive
restarts and are the same numbers the Prometheus metrics count as calls end.

Outcomes, from the caller's side:
- resolved: the line answered or acted on everything without a person (a clear refusal,
  the caller declining, or a failed verification included);
- pending_approval: a request waits for an operator (a refund over the limit, a closure);
- callback: a person follows up (a call back, an engineering escalation, a review);
- transferred: the caller was put through to a person;
- abandoned: the caller hung up while the line waited on their answer mid-task, or before
  saying anything.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

# In rising severity: the outcome of several (the needs of one call) is the worst of them.
OUTCOMES = ("resolved", "pending_approval", "callback", "transferred", "abandoned")
SEVERITY = {o: i for i, o in enumerate(OUTCOMES)}


def iso(t: datetime) -> str:
    """The one timestamp form of these tables (UTC, milliseconds), so text order is time order."""
    return t.astimezone(UTC).isoformat(timespec="milliseconds")


def worst(outcomes: list[str]) -> str:
    return max(outcomes, key=lambda o: SEVERITY.get(o, 0)) if outcomes else "resolved"


@dataclass(frozen=True, slots=True)
class NeedRecord:
    need: str  # the specialist's agent id: billing.refund
    domain: str
    outcome: str
    callback_reason: str | None = None
    is_repeat: bool = False


@dataclass(frozen=True, slots=True)
class CallRecord:
    call_id: str
    started_at: str
    ended_at: str
    customer_id: str | None
    outcome: str
    handle_s: float
    turns: int
    callback_reason: str | None = None
    needs: tuple[NeedRecord, ...] = ()


def record(store: Any, call: CallRecord, *, window_days: int) -> CallRecord:
    """Write `call` and its needs (once per call id); returns it with each need's
    `is_repeat` decided from the caller's earlier calls."""
    with store.transaction() as conn:
        earlier: set[str] = set()
        if call.customer_id:
            since = iso(datetime.fromisoformat(call.started_at) - timedelta(days=window_days))
            rows = conn.execute(
                "SELECT DISTINCT n.need FROM call_needs n JOIN call_outcomes c ON c.call_id = n.call_id"
                " WHERE c.customer_id = ? AND c.ended_at >= ? AND c.call_id <> ?",
                (call.customer_id, since, call.call_id),
            )
            earlier = {r[0] for r in rows}
        needs = tuple(replace(n, is_repeat=bool(call.customer_id) and n.need in earlier) for n in call.needs)
        done = conn.execute(
            "INSERT INTO call_outcomes (call_id, started_at, ended_at, customer_id, outcome, handle_s, turns,"
            " callback_reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (call.call_id, call.started_at, call.ended_at, call.customer_id, call.outcome, call.handle_s,
             call.turns, call.callback_reason),
        )
        if done.rowcount == 1:
            for n in needs:
                conn.execute(
                    "INSERT INTO call_needs (call_id, need, domain, outcome, is_repeat, callback_reason)"
                    " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    (call.call_id, n.need, n.domain, n.outcome, n.is_repeat, n.callback_reason),
                )
    return replace(call, needs=needs)


def calls(store: Any, since: str, until: str) -> list[CallRecord]:
    """The calls that ended in [since, until), oldest first, with their needs."""
    rows = store.execute(
        "SELECT * FROM call_outcomes WHERE ended_at >= ? AND ended_at < ? ORDER BY ended_at, call_id", (since, until))
    needs: dict[str, list[NeedRecord]] = {}
    for n in store.execute(
        "SELECT n.* FROM call_needs n JOIN call_outcomes c ON c.call_id = n.call_id"
        " WHERE c.ended_at >= ? AND c.ended_at < ? ORDER BY n.call_id, n.need", (since, until)):
        needs.setdefault(n["call_id"], []).append(
            NeedRecord(n["need"], n["domain"], n["outcome"], n["callback_reason"], bool(n["is_repeat"])))
    return [CallRecord(**{k: r[k] for k in r.keys()}, needs=tuple(needs.get(r["call_id"], ()))) for r in rows]


# --- KPIs ---------------------------------------------------------------------------------
@dataclass
class Kpis:
    """The KPIs of the line (`scope` "line") or of one domain, over a period.

    For the line the unit is a call; for a domain it is a need of that domain (one call can
    raise several), except handle time, which is that of the calls that raised one."""

    scope: str
    handled: int = 0  # calls (line) or needs (domain)
    outcomes: dict[str, int] = field(default_factory=lambda: dict.fromkeys(OUTCOMES, 0))
    known_caller_needs: int = 0  # needs raised by a verified caller: the FCR denominator
    repeat_needs: int = 0
    handle_calls: int = 0
    handle_s_total: float = 0.0
    callback_reasons: dict[str, int] = field(default_factory=dict)
    approval_waits_s: list[float] = field(default_factory=list)  # request filed -> decided

    def rate(self, outcome: str) -> float | None:
        return self.outcomes.get(outcome, 0) / self.handled if self.handled else None

    @property
    def containment(self) -> float | None:
        """Resolved with no person involved (not transferred, no call back, no approval, not abandoned)."""
        return self.rate("resolved")

    @property
    def first_contact_resolution(self) -> float | None:
        """Needs of verified callers that were not a repeat of the same need within the window."""
        return 1 - self.repeat_needs / self.known_caller_needs if self.known_caller_needs else None

    @property
    def average_handle_s(self) -> float | None:
        return self.handle_s_total / self.handle_calls if self.handle_calls else None

    @property
    def time_to_approval_s(self) -> float | None:
        """Median time from a durable request being filed to its decision."""
        return statistics.median(self.approval_waits_s) if self.approval_waits_s else None

    def top_callback_reasons(self, n: int = 5) -> list[tuple[str, int]]:
        return sorted(self.callback_reasons.items(), key=lambda kv: (-kv[1], kv[0]))[:n]


def kpis(store: Any, since: str, until: str, *, kind_domains: Mapping[str, str] | None = None) -> dict[str, Kpis]:
    """KPIs of the calls that ended in [since, until): "line" and one entry per domain that
    handled a need. `kind_domains` maps durable request kinds to their domain (time to approval)."""
    out: dict[str, Kpis] = {"line": Kpis("line")}
    line = out["line"]
    period = (since, until)
    for r in store.execute(
        "SELECT outcome, COUNT(*) AS n, SUM(handle_s) AS s FROM call_outcomes"
        " WHERE ended_at >= ? AND ended_at < ? GROUP BY outcome", period):
        line.outcomes[r["outcome"]] = line.outcomes.get(r["outcome"], 0) + r["n"]
        line.handled += r["n"]
        line.handle_calls += r["n"]
        line.handle_s_total += float(r["s"] or 0.0)
    for r in store.execute(
        "SELECT callback_reason, COUNT(*) AS n FROM call_outcomes WHERE outcome = 'callback'"
        " AND ended_at >= ? AND ended_at < ? GROUP BY callback_reason", period):
        line.callback_reasons[r["callback_reason"] or "other"] = r["n"]
    joined = " FROM call_needs n JOIN call_outcomes c ON c.call_id = n.call_id WHERE c.ended_at >= ? AND c.ended_at < ?"
    for r in store.execute(f"SELECT n.domain, n.outcome, COUNT(*) AS n{joined} GROUP BY n.domain, n.outcome", period):
        k = out.setdefault(r["domain"], Kpis(r["domain"]))
        k.outcomes[r["outcome"]] = k.outcomes.get(r["outcome"], 0) + r["n"]
        k.handled += r["n"]
    for r in store.execute(
        "SELECT n.domain, COUNT(*) AS n, SUM(CASE WHEN n.is_repeat THEN 1 ELSE 0 END) AS repeats"
        f"{joined} AND c.customer_id IS NOT NULL GROUP BY n.domain", period):
        for k in (out.setdefault(r["domain"], Kpis(r["domain"])), line):
            k.known_caller_needs += r["n"]
            k.repeat_needs += int(r["repeats"] or 0)
    for r in store.execute(
        "SELECT domain, COUNT(*) AS n, SUM(handle_s) AS s FROM"
        f" (SELECT DISTINCT n.domain AS domain, c.call_id AS call_id, c.handle_s AS handle_s{joined}) t"
        " GROUP BY domain", period):
        k = out[r["domain"]]
        k.handle_calls, k.handle_s_total = r["n"], float(r["s"] or 0.0)
    for r in store.execute(
        f"SELECT n.domain, n.callback_reason, COUNT(*) AS n{joined} AND n.outcome = 'callback'"
        " GROUP BY n.domain, n.callback_reason", period):
        out[r["domain"]].callback_reasons[r["callback_reason"] or "other"] = r["n"]
    # Time to approval: durable requests decided in the period, from filing to decision.
    for r in store.execute(
        "SELECT w.kind, w.created_at, o.at FROM work_requests w JOIN durable_outcomes o ON o.key = w.id || ':final'"
        " WHERE o.at >= ? AND o.at < ?", period):
        wait = (datetime.fromisoformat(r["at"]) - datetime.fromisoformat(r["created_at"])).total_seconds()
        line.approval_waits_s.append(max(0.0, wait))
        domain = (kind_domains or {}).get(r["kind"])
        if domain is not None:
            out.setdefault(domain, Kpis(domain)).approval_waits_s.append(max(0.0, wait))
    return out


__all__ = ["OUTCOMES", "CallRecord", "Kpis", "NeedRecord", "calls", "iso", "kpis", "record", "worst"]
