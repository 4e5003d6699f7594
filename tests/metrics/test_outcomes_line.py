"""Every call's outcome record and every line KPI, from calls with known outcomes through the
real line: the store's records, the KPIs computed from them (also after a restart), and the
Prometheus counters, which must say the same."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from livekit import rtc
from prometheus_client import REGISTRY

from callcenter.store import Store
from callcenter.store.outcomes import calls, iso, kpis
from domains import registry
from meta.actions import durable_actions

LABELS = {
    "call_outcomes": ("outcome",),
    "need_outcomes": ("domain", "outcome"),
    "need_contacts": ("domain", "contact"),
    "callback_reasons": ("reason",),
}


def _counters() -> dict[tuple, float]:
    """Every sample of the outcome counters, by (name, labels...)."""
    out: dict[tuple, float] = {}
    for fam in REGISTRY.collect():
        short = fam.name.removeprefix("callcenter_")
        if short in LABELS:
            for s in fam.samples:
                if s.name.endswith("_total"):
                    out[(short, *(s.labels[k] for k in LABELS[short]))] = s.value
        if fam.name == "callcenter_call_handle_seconds":
            for s in fam.samples:
                if s.name.endswith(("_count", "_sum")):
                    out[(s.name, s.labels["outcome"])] = s.value
    return out


def _delta(before: dict[tuple, float], after: dict[tuple, float]) -> dict[tuple, float]:
    return {k: round(v - before.get(k, 0.0), 6) for k, v in after.items() if round(v - before.get(k, 0.0), 6)}


class _Sip:
    """LiveKit's SIP API as the transfer reaches it (no LiveKit server runs in the tests)."""

    def __init__(self) -> None:
        self.requests: list[Any] = []

    async def transfer_sip_participant(self, req: Any) -> None:
        self.requests.append(req)


async def _call(open_call: Any, customer: str | None, *turns: str) -> Any:
    call = await open_call(customer)
    for text in turns:
        await call.send(text)
    await call.close()
    return call.observer.outcome.record


def _period() -> tuple[str, str]:
    now = datetime.now(UTC)
    return iso(now - timedelta(hours=1)), iso(now + timedelta(minutes=1))


async def test_every_kpi_from_calls_with_known_outcomes(line: Any, open_call: Any, store: Store, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    before = _counters()
    # 1-3: resolved, resolved (a refund paid), an approval waiting (C1002's refund is over the limit)
    balance = await _call(open_call, "C1001", "what's my balance")
    refund = await _call(open_call, "C1001", "i was charged twice", "yes")
    approval = await _call(open_call, "C1002", "you guys billed me two times for the same thing", "yes please")
    # 4-5: a person follows up: an engineering escalation, a caller asking for a person
    escalation = await _call(open_call, "C1003", "i need this escalated to your engineering team the api is broken")
    person = await _call(open_call, "C1001", "can i speak to a real person please")
    # 6: hangs up while the refund waits for a yes (a repeat of call 2's need); 7: a repeat balance
    hung_up = await _call(open_call, "C1001", "i was charged twice")
    again = await _call(open_call, "C1001", "how much do i owe right now")
    # 8: an unknown caller who hangs up at the identity check; 9: hangs up on the greeting
    unverified = await _call(open_call, None, "um whats my balance")
    silent = await _call(open_call, "C1004")
    # 10: a phone caller put through to a person (LiveKit SIP, through its API's stand-in)
    sip = _Sip()
    phone = SimpleNamespace(kind=rtc.ParticipantKind.PARTICIPANT_KIND_SIP, identity="sip_+14155550123")
    job = SimpleNamespace(room=SimpleNamespace(name="call-9", remote_participants={"p": phone}), api=SimpleNamespace(sip=sip))
    monkeypatch.setattr("meta.voice_transfer._job_context", lambda: job)
    line.settings = line.settings.model_copy(update={"transfer_number": "+14155550100"})
    call = await open_call("C1005")
    await call.send("can i speak to a real person please")
    for _ in range(300):  # the transfer goes out once the agent has said why
        if sip.requests:
            break
        await asyncio.sleep(0.05)
    assert sip.requests, "the transfer never reached LiveKit's API"
    await call.close()
    transferred = call.observer.outcome.record

    outcomes = [(r.outcome, r.callback_reason, [(n.need, n.outcome, n.is_repeat) for n in r.needs]) for r in (
        balance, refund, approval, escalation, person, hung_up, again, unverified, silent, transferred)]
    assert outcomes == [
        ("resolved", None, [("billing.balance", "resolved", False)]),
        ("resolved", None, [("billing.refund", "resolved", False)]),
        ("pending_approval", None, [("billing.refund", "pending_approval", False)]),
        ("callback", "engineering", [("technical.escalation", "callback", False)]),
        ("callback", "asked_for_person", []),
        ("abandoned", None, [("billing.refund", "abandoned", True)]),
        ("resolved", None, [("billing.balance", "resolved", True)]),
        ("abandoned", None, [("billing", "abandoned", False)]),
        ("abandoned", None, []),
        ("transferred", None, []),
    ]
    assert [r.turns for r in (balance, refund, silent)] == [1, 2, 0]
    assert unverified.customer_id is None and refund.customer_id == "C1001"

    # An operator approves C1002's refund 90 s after it was filed: the worker's own activity.
    from temporalio.testing import ActivityEnvironment

    from workflows.activities import CallcenterActivities
    from workflows.models import ApprovalRequest, FinishInput

    [work] = store.list_work(customer_id="C1002")
    filed = datetime.now(UTC) - timedelta(seconds=90)
    store.execute("UPDATE work_requests SET created_at = ? WHERE id = ?", (filed.replace(microsecond=0).isoformat(), work.id))
    req = ApprovalRequest(kind="refund", customer_id="C1002", amount_cents=work.amount_cents, caller_reason="charged twice",
                          policy_finding="duplicate", requested_by="billing/refund", request_id=work.id, record_id="CH-1002-D")
    ActivityEnvironment().run(CallcenterActivities(store, line.actions, ports=line.ports).finish_approval,
                              FinishInput(request=req, verdict="approved", decided_by="op-ana", reason="duplicate", waited_s=90.0))

    records = [balance, refund, approval, escalation, person, hung_up, again, unverified, silent, transferred]
    actions = durable_actions()
    domains_of = {kind: actions[kind].domain for kind in actions}
    assert domains_of["refund"] == "billing"
    for where in (store, Store(store.path, schemas=registry.schemas())):  # the KPIs survive a restart
        k = kpis(where, *_period(), kind_domains=domains_of)
        lin = k["line"]
        assert lin.handled == 10
        assert lin.outcomes == {"resolved": 3, "pending_approval": 1, "callback": 2, "transferred": 1, "abandoned": 3}
        assert (lin.containment, lin.rate("transferred"), lin.rate("callback"), lin.rate("abandoned")) == (0.3, 0.1, 0.2, 0.3)
        assert lin.rate("pending_approval") == 0.1
        # needs of verified callers: balance, refund, refund (C1002), escalation, refund (repeat), balance (repeat)
        assert (lin.known_caller_needs, lin.repeat_needs) == (6, 2)
        assert lin.first_contact_resolution == pytest.approx(4 / 6)
        assert lin.average_handle_s == pytest.approx(sum(r.handle_s for r in records) / 10)
        assert lin.top_callback_reasons() == [("asked_for_person", 1), ("engineering", 1)]
        assert 89 <= lin.time_to_approval_s <= 95
        billing, technical = k["billing"], k["technical"]
        assert billing.handled == 6 and billing.outcomes["resolved"] == 3 and billing.outcomes["abandoned"] == 2
        assert billing.containment == 0.5 and billing.first_contact_resolution == pytest.approx(3 / 5)
        assert billing.rate("pending_approval") == pytest.approx(1 / 6)
        billing_calls = [balance, refund, approval, hung_up, again, unverified]
        assert billing.average_handle_s == pytest.approx(sum(r.handle_s for r in billing_calls) / 6)
        assert 89 <= billing.time_to_approval_s <= 95
        assert technical.handled == 1 and technical.containment == 0 and technical.rate("callback") == 1
        assert technical.top_callback_reasons() == [("engineering", 1)] and technical.time_to_approval_s is None
        assert "account" not in k
        assert [c.call_id for c in calls(where, *_period())] == [r.call_id for r in records]

    # Prometheus counted the same calls, needs and reasons.
    d = _delta(before, _counters())
    assert {k[1]: v for k, v in d.items() if k[0] == "call_outcomes"} == lin.outcomes
    assert {k[1:]: v for k, v in d.items() if k[0] == "need_outcomes"} == {
        ("billing", "resolved"): 3, ("billing", "pending_approval"): 1, ("billing", "abandoned"): 2,
        ("technical", "callback"): 1}
    assert {k[1:]: v for k, v in d.items() if k[0] == "need_contacts"} == {
        ("billing", "first"): 3, ("billing", "repeat"): 2, ("billing", "unknown_caller"): 1, ("technical", "first"): 1}
    assert {k[1]: v for k, v in d.items() if k[0] == "callback_reasons"} == {"asked_for_person": 1, "engineering": 1}
    handled = sum(v for k, v in d.items() if k[0] == "callcenter_call_handle_seconds_sum")
    assert handled == pytest.approx(sum(r.handle_s for r in records), abs=0.01)
    assert sum(v for k, v in d.items() if k[0] == "callcenter_call_handle_seconds_count") == 10


async def test_the_first_contact_window_is_a_setting(line: Any, open_call: Any, store: Store) -> None:
    line.settings = line.settings.model_copy(update={"fcr_window_days": 2})
    first = await _call(open_call, "C1003", "whats my balance")
    # Three days later the same need is a first contact again; a day later it is a repeat.
    store.execute("UPDATE call_outcomes SET started_at = ?, ended_at = ? WHERE call_id = ?",
                  (iso(datetime.now(UTC) - timedelta(days=3)), iso(datetime.now(UTC) - timedelta(days=3)), first.call_id))
    later = await _call(open_call, "C1003", "whats my balance")
    soon = await _call(open_call, "C1003", "whats my balance")
    assert [n.is_repeat for r in (first, later, soon) for n in r.needs] == [False, False, True]


async def test_the_workers_own_scripted_calls_are_not_counted(tmp_path: Path) -> None:
    # The self-check runs a scripted call in a fake LiveKit job on the line's database at every
    # worker start: it must not show up among the callers' outcomes.
    from livekit.agents import JobExecutorType

    from callcenter.settings import load_settings
    from meta.shell.livekit_worker import build_server, run_script

    settings = load_settings(data_dir=tmp_path, hold_on_line_s=0, metrics_port=0)
    server = build_server(settings, executor=JobExecutorType.THREAD, port=0, metrics=False, idle_processes=0)
    before = _counters()
    report = await run_script(server, ["what's my balance"], customer="C1001")
    assert report.ok, report.error
    store = Store(settings.db_path)
    try:
        assert store.execute("SELECT count(*) FROM call_outcomes").fetchone()[0] == 0
    finally:
        store.close()
    assert not {k: v for k, v in _delta(before, _counters()).items() if k[0] == "call_outcomes"}
