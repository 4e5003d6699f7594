"""Monitor and re-plan: with a specialist, the store or Temporal failing, every caller still
gets a sensible answer and nothing they asked for is lost."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from prometheus_client import REGISTRY

from callcenter.faults import parse
from callcenter.settings import Settings, SettingsError, load_settings
from callcenter.store import Store
from domains.billing.ledger import Ledger
from domains.breaker import BREAKER
from meta.actions import durable_actions
from meta.session import build_line, start_call
from workflows.client import DurableWork

CALLS = {
    "balance": ("C1001", ["uh whats my balance"]),
    "status": (None, ["is the service down right now"]),
    "two lookups": ("C1001", ["whats my balance and is the service down"]),
    "approval": ("C1002", ["i was charged twice for my subscription", "yes please"]),
}
FAULTS = ["", "billing.balance=error", "technical.service_status=slow:0.2", "store=slow:0.05", "temporal=down"]


@pytest.fixture(autouse=True)
def fresh_breaker() -> None:
    BREAKER.reset()
    yield
    BREAKER.reset()


async def _run(settings: Settings, store: Store, customer: str | None, turns: list[str]):
    line = build_line(settings, store=store)
    call = await start_call(line, customer_id=customer, durable=DurableWork(settings, store, actions=durable_actions()))
    replies = []
    for text in turns:
        turn = await call.send(text)
        replies.append(" ".join(turn.replies))
    await call.close()
    return replies


@pytest.mark.parametrize("fault", FAULTS, ids=lambda f: f or "no-fault")
@pytest.mark.parametrize("name", list(CALLS))
async def test_fault_matrix(settings: Settings, tmp_path: Path, fault: str, name: str) -> None:
    customer, turns = CALLS[name]
    faulty = settings.model_copy(update={"faults": fault, "temporal_address": None})
    store = Store(tmp_path / "s.db")
    replies = await _run(faulty, store, customer, turns)
    assert all(r.strip() for r in replies), replies  # every turn was answered
    said = " ".join(replies)
    asks_balance = name in ("balance", "two lookups")
    if fault == "billing.balance=error" and asks_balance:
        # Retried once, then a call back with the context: nothing the caller asked is lost.
        assert "couldn't get to" in said and "booked a call back" in said
        assert any(t.kind == "callback" and "billing.balance" in t.summary for t in store.list_tickets())
        if name == "two lookups":
            assert "ongoing incident" in said  # the other branch still answered
    elif asks_balance:
        assert "$0.00" in said
    if name == "approval":
        # Whether Temporal is up (none here) or down by fault, the request waits in the outbox.
        assert [w.kind for w in store.list_work()] == ["refund"]
        assert "CH-1002-D" not in [r.charge_id for r in Ledger(store).list_refunds()]


async def test_store_down_gets_a_plain_sentence_not_a_traceback(settings: Settings, tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db")
    replies = await _run(settings.model_copy(update={"faults": "store=error"}), store, None, ["is the service down right now"])
    assert replies[0].startswith("Sorry, something went wrong on my side with that request; nothing was changed. Please try again")


async def test_an_idempotent_lookup_is_retried_once(settings: Settings, tmp_path: Path) -> None:
    class OnceBroken(Store):
        broke = False

        def incidents(self, *args, **kwargs):  # noqa: ANN002, ANN003, ANN201
            if not OnceBroken.broke:
                OnceBroken.broke = True
                raise ConnectionError("status backend blipped")
            return super().incidents(*args, **kwargs)

    store = OnceBroken(tmp_path / "s.db")
    replies = await _run(settings, store, None, ["is the service down right now"])
    assert "ongoing incident" in replies[0]
    assert store.list_tickets() == []


def _gauge(agent: str) -> float | None:
    return REGISTRY.get_sample_value("callcenter_circuit_open", {"specialist": agent})


async def test_repeated_failures_open_the_circuit_then_it_closes(settings: Settings, tmp_path: Path) -> None:
    trips = REGISTRY.get_sample_value("callcenter_circuit_trips_total", {"specialist": "technical.service_status"}) or 0.0
    broken = settings.model_copy(update={"faults": "technical.service_status=error", "breaker_threshold": 2, "breaker_cooldown_s": 0.5})
    store = Store(tmp_path / "s.db")
    for _ in range(2):
        await _run(broken, store, None, ["is the service down right now"])
    assert _gauge("technical.service_status") == 1.0
    assert REGISTRY.get_sample_value("callcenter_circuit_trips_total", {"specialist": "technical.service_status"}) == trips + 1
    # While open, the caller gets the fallback at once, even with the backend healthy again.
    healthy = settings.model_copy(update={"breaker_threshold": 2, "breaker_cooldown_s": 0.5})
    replies = await _run(healthy, store, None, ["is the service down right now"])
    assert "booked a call back" in replies[0]
    # After the cool-down one call goes through; its success closes the circuit.
    import asyncio

    await asyncio.sleep(0.6)
    replies = await _run(healthy, store, None, ["is the service down right now"])
    assert "ongoing incident" in replies[0]
    assert _gauge("technical.service_status") == 0.0


@pytest.mark.parametrize("bad", ["billing.balance=explode", "store=slow", "=error", "store=slow:abc", "store=slow:9999"])
def test_bad_fault_settings_are_refused_with_the_item(tmp_path: Path, bad: str) -> None:
    with pytest.raises(SettingsError, match="CALLCENTER_FAULTS"):
        load_settings(data_dir=tmp_path, faults=bad)


def test_fault_plan_parses() -> None:
    plan = parse("billing.balance=error; store=slow:0.5 ,temporal=down")
    assert {k: (f.kind, f.seconds) for k, f in plan.items()} == {
        "billing.balance": ("error", 0.0), "store": ("slow", 0.5), "temporal": ("down", 0.0)}


async def test_a_hung_lookup_gets_the_call_back_sentence_inside_the_turn(settings: Settings, tmp_path: Path) -> None:
    # A lookup's deadline is a third of the turn limit per attempt: retried once, then the
    # caller hears the call-back sentence, instead of a silent turn that swallows the next one.
    slow = settings.model_copy(update={"faults": "billing.balance=slow:4", "turn_timeout_s": 1.5, "temporal_address": None})
    store = Store(tmp_path / "s.db")
    call = await start_call(build_line(slow, store=store), customer_id="C1001")
    try:
        loop = asyncio.get_running_loop()
        started = loop.time()
        turn = await call.send("uh what's my balance")
        assert loop.time() - started < 1.5
        assert "booked a call back" in " ".join(turn.replies) and turn.results[-1].status == "failed", turn.replies
        assert any(t.kind == "callback" and "billing.balance" in t.summary for t in store.list_tickets())
        after = await call.send("is the service down right now")
        assert "ongoing incident" in " ".join(after.replies), after.replies  # the very next turn is answered
    finally:
        await call.close()
        store.close()


async def test_a_turn_that_outlives_the_turn_limit_ends_and_moves_no_money(
    settings: Settings, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # A tool that changes something has no deadline of its own (cancelling it could lie about
    # money): the turn limit ends the run, through LiveKit internals (meta/session.py), the
    # path an upgrade would break first. Known gap: that turn is silent.
    slow = settings.model_copy(update={"faults": "billing.refund=slow:3", "turn_timeout_s": 1.0, "temporal_address": None})
    store = Store(tmp_path / "s.db")
    call = await start_call(build_line(slow, store=store), customer_id="C1001")
    try:
        loop = asyncio.get_running_loop()
        with caplog.at_level("WARNING", logger="callcenter.call"):
            started = loop.time()
            await call.send("uh i was charged twice")
            assert loop.time() - started < 3.0  # the 1 s limit (+ up to 1 s to unwind), not the 3 s tool
        assert any("took longer than 1 s; ended it" in r.getMessage() for r in caplog.records), caplog.text
        later = await call.send("is the service down right now")
        assert "ongoing incident" in " ".join(later.replies), later.replies
        assert Ledger(store).list_refunds("C1001") == []  # nothing was confirmed, so nothing moved
    finally:
        await call.close()
        store.close()
