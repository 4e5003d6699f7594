"""Read-only needs of one turn run in parallel below the conversation; a failing branch is named."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from callcenter.settings import Settings
from callcenter.store import Store
from domains.billing.ledger import Ledger
from domains.technical.records import ApiUsage, Incident
from meta.session import build_line, start_call

THREE = "uh whats my balance and is the service down and also why are my api calls failing"


class FlakyStore(Store):
    """The real store, with one read made slow or broken: a backend having a bad day."""

    def __init__(self, path: Path, *, slow: str | None = None, broken: str | None = None, delay: float = 0.0) -> None:
        super().__init__(path)
        self.slow, self.broken, self.delay = slow, broken, delay
        self.threads: set[str] = set()

    def fetch_all(self, cls: type, sql: str, *args: Any) -> list:  # noqa: ANN401
        # The status board reads API usage and incidents through here (domains/technical/status.py).
        name = {ApiUsage: "api_usage", Incident: "incidents"}.get(cls)
        if name is not None:
            self.threads.add(threading.current_thread().name)
            if name == self.broken:
                raise ConnectionError("status system unreachable")
            if name == self.slow:
                time.sleep(self.delay)
        return super().fetch_all(cls, sql, *args)


async def _call(settings: Settings, store: Store, customer: str | None = "C1001"):
    return await start_call(build_line(settings, store=store), customer_id=customer)


async def test_three_read_only_needs_are_answered_together(settings: Settings, tmp_path: Path) -> None:
    store = FlakyStore(tmp_path / "s.db", slow="api_usage", delay=0.5)
    call = await _call(settings, store)
    turn = await call.send(THREE)
    reply = " ".join(turn.replies)
    assert "$0.00" in reply and "ongoing incident" in reply and "429 errors" in reply
    forward = [h.to_agent for h in turn.hops]
    assert {"billing.balance", "technical.service_status", "technical.api_errors"} <= set(forward)
    assert [r.specialist for r in turn.results] == ["balance", "service_status", "api_errors"]
    assert not any(name == "MainThread" for name in store.threads)  # lookups ran in worker threads
    await call.close()


async def test_sequential_setting_runs_the_tasks_one_after_another(settings: Settings, tmp_path: Path) -> None:
    store = FlakyStore(tmp_path / "s.db")
    call = await _call(settings.model_copy(update={"parallel_lookups": False}), store)
    turn = await call.send(THREE)
    assert [r.specialist for r in turn.results] == ["balance", "service_status", "api_errors"]
    assert "MainThread" in store.threads  # the tasks' tools ran on the event loop
    await call.close()


async def test_a_broken_branch_is_named_and_the_rest_still_answer(settings: Settings, tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    def unreachable(self: Ledger, customer_id: str) -> int:
        raise ConnectionError("billing system unreachable")

    monkeypatch.setattr(Ledger, "balance_due_cents", unreachable)  # billing's system, not the store
    store = FlakyStore(tmp_path / "s.db")
    call = await _call(settings, store)
    turn = await call.send(THREE)
    reply = " ".join(turn.replies)
    assert reply.startswith("I couldn't get to your balance just now, and nothing was changed; I've booked a call back")
    assert "ongoing incident" in reply and "429 errors" in reply
    assert {r.specialist: r.status for r in turn.results}["balance"] == "failed"
    await call.close()


async def test_a_slow_branch_times_out_without_holding_the_others(settings: Settings, tmp_path: Path) -> None:
    store = FlakyStore(tmp_path / "s.db", slow="incidents", delay=2.0)
    strict = settings.model_copy(update={"fanout_timeout_s": 0.3})
    call = await _call(strict, store)
    started = time.perf_counter()
    turn = await call.send(THREE)
    elapsed = time.perf_counter() - started
    reply = " ".join(turn.replies)
    assert "I couldn't get to an outage or service status just now" in reply
    assert "$0.00" in reply and "429 errors" in reply
    assert elapsed < 2.0  # the answer did not wait for the slow backend
    await call.close()


@pytest.mark.parametrize(
    ("customer", "text", "asked"),
    [
        (None, "whats my balance and is the service down", "verify who you are"),  # identity is a conversation
        ("C1001", "i was charged twice and also whats my balance", None),  # a refund is a conversation
    ],
)
async def test_conversational_needs_go_through_the_tasks(
    settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, customer, text, asked
) -> None:
    import meta.agent

    fanned: list[int] = []
    real = meta.agent.fan_out

    async def spy(state, branches, timeout_s):  # noqa: ANN001, ANN202
        fanned.append(len(branches))
        return await real(state, branches, timeout_s)

    monkeypatch.setattr(meta.agent, "fan_out", spy)
    store = Store(tmp_path / "s.db")
    call = await _call(settings, store, customer)
    turn = await call.send(text)
    assert fanned == []
    assert [h.to_agent for h in turn.hops][:1] in (["billing"], ["technical"])
    if asked:
        assert asked in " ".join(turn.replies)
    await call.close()
