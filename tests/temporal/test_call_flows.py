"""The call side through AgentSession.run: the specialist starts the workflow, holds the
caller briefly for a quick decision, else promises a callback; "what happened to my refund?"
gets the live status; with Temporal down the request is recorded and submitted later."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path

import pytest

from callcenter.settings import Settings
from callcenter.store import Store
from console.operations import list_queue
from domains.billing.ledger import Ledger
from meta.actions import durable_actions
from meta.session import Call, Line, build_line, start_call
from workflows.client import DurableWork
from workflows.devserver import free_port

from .conftest import decide_as, eventually


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("router-cache")  # the router trains once per module


@pytest.fixture
def charge(store: Store) -> str:
    # One Temporal server serves the whole session, so business ids must differ per test:
    # give the seeded duplicate charge a fresh id (nothing references it yet).
    new = f"CH-1002-{uuid.uuid4().hex[:6].upper()}"
    store._conn().execute("UPDATE charges SET id = ? WHERE id = 'CH-1002-D'", (new,))
    return new


@pytest.fixture
def line(settings: Settings, store: Store, model_dir: Path, charge: str) -> Line:
    return build_line(settings.model_copy(update={"data_dir": model_dir}), store=store)


@pytest.fixture
async def calls():  # noqa: ANN201
    opened: list[Call] = []
    yield opened
    for c in opened:
        await c.close()


async def call_with(line: Line, calls: list[Call], durable: DurableWork, hold: float) -> Call:
    line.settings = line.settings.model_copy(update={"hold_on_line_s": hold})
    call = await start_call(line, customer_id="C1002", durable=durable)
    calls.append(call)
    return call


def said(turn) -> str:  # noqa: ANN001
    return " ".join(turn.replies)


async def confirmed(call, text: str):  # noqa: ANN001, ANN201
    """The caller asks, hears the read-back, and says yes: only then is a request filed."""
    asked = await call.send(text)
    assert "To confirm" in said(asked) and call.state.store.list_work() == [], said(asked)
    return await call.send("yes")


async def test_quick_decision_while_the_caller_holds(client, store, worker, work, line, calls, charge) -> None:
    call = await call_with(line, calls, work, hold=8)

    async def operator() -> None:
        item = await eventually(lambda: _pending(client, f"refund-{charge}"), timeout=10)
        await decide_as(client, store, item.request_id, verdict="approve", operator="maria", reason="duplicate")

    op = asyncio.create_task(operator())
    turn = await confirmed(call, "I was charged twice")
    await op
    text = said(turn)
    assert "approved" in text and charge in text, text
    assert len(Ledger(store).list_refunds("C1002")) == 1 and Ledger(store).list_refunds("C1002")[0].approved_by == "maria"


async def test_callback_then_live_status(client, store, worker, work, line, calls, charge) -> None:
    call = await call_with(line, calls, work, hold=0.5)
    turn = await confirmed(call, "I was charged twice")
    text = said(turn)
    assert f"refund-{charge}" in text and "approval" in text, text
    assert Ledger(store).list_refunds("C1002") == []
    status = await call.send("what happened to my refund?")
    assert "waiting for a supervisor" in said(status), said(status)
    await decide_as(client, store, f"refund-{charge}", verdict="approve", operator="maria", reason="duplicate")
    await work.wait_for_decision(f"refund-{charge}", 10)
    again = await call.send("what happened to my refund?")
    assert "approved and paid" in said(again), said(again)


async def test_temporal_down_request_is_recorded_and_submitted_later(
    client, settings, store, worker, line, calls, charge
) -> None:
    down = DurableWork(settings.model_copy(update={"temporal_address": f"127.0.0.1:{free_port()}"}), store, actions=durable_actions())
    call = await call_with(line, calls, down, hold=5)
    turn = await confirmed(call, "I was charged twice")
    assert "recorded" in said(turn) and "followed up" in said(turn), said(turn)
    assert [w.status for w in store.list_work()] == ["queued"]
    # Temporal is back: the request reaches the operators' queue, once.
    online = DurableWork(settings, store, client=client, actions=durable_actions())
    assert await online.flush_outbox() == 1
    # The list is Temporal's visibility store, which follows a start by a moment under load.
    await eventually(lambda: _pending(client, f"refund-{charge}"), timeout=10)


async def test_ticket_number_then_live_ticket_status(client, store, worker, work, line, calls) -> None:
    call = await call_with(line, calls, work, hold=0)
    turn = await call.send("I need an engineer to look at this, please open a ticket")
    ticket_id = turn.results[0].result.ticket_id
    assert ticket_id in said(turn)
    await eventually(lambda: _ticket_open(work, ticket_id))
    handle = client.get_workflow_handle(f"ticket-{ticket_id}")
    await handle.execute_update("resolve", {"engineer": "ana", "resolution": "rotated the webhook secret"})
    await handle.result()
    status = await call.send(f"what's the status of ticket {ticket_id}")
    # The live state (completed), in words a caller understands.
    assert f"Ticket {ticket_id} is resolved" in said(status), said(status)
    assert status.results[0].result.tickets == [{"ticket_id": ticket_id, "status": "completed"}]
    assert store.get_ticket(ticket_id).status == "resolved"


async def _pending(client, request_id: str):  # noqa: ANN001, ANN202
    return next((i for i in await list_queue(client) if i.request_id == request_id), None)


async def _ticket_open(work: DurableWork, ticket_id: str) -> bool:
    return (await work.ticket_status(ticket_id)).state == "pending"
