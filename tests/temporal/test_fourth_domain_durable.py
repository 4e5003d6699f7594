"""A fourth domain with a durable action and its own wording, added as one folder
(tests/fixtures/domains/shipping, outside the domains package) and one line in
registry.PACKAGES, end to end: routing, the approval
workflow on the Temporal dev server, the operator CLI listing it, metrics labels."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from prometheus_client import generate_latest

from callcenter.settings import Settings
from callcenter.store import Store
from callcenter.store import durable as d
from meta.actions import domain_ports, durable_actions
from meta.session import build_line, start_call
from tests.conftest import callcenter, cli_env
from workflows.client import DurableWork
from workflows.worker import ensure_worker

from .conftest import decide_as, eventually


@pytest.fixture
def four_domains(shipping_added: None) -> None:
    """The one registry line: shipping's folder named in PACKAGES (tests/conftest.py)."""


def said(turn) -> str:  # noqa: ANN001
    return " ".join(turn.replies)


async def test_fourth_domain_with_a_durable_action(four_domains, client, settings: Settings, store: Store,
                                                   tmp_path: Path, temporal) -> None:  # noqa: ANN001
    line = build_line(settings.model_copy(update={"data_dir": tmp_path / "models"}), store=store)
    assert "reship" in line.actions and "refund" in line.actions
    work = DurableWork(settings, store, client=client, actions=line.actions)
    assert "carrier" in line.ports.declared  # its own port, the embedded stand-in
    async with ensure_worker(client, store, settings.temporal_task_queue, actions=durable_actions(), port_specs=domain_ports(),
                             settings=settings):
        call = await start_call(line, customer_id="C1001", durable=work)
        try:
            # Its own wording: the greeting and the out-of-scope reply name it.
            assert "deliveries" in call.greeting
            assert "deliveries" in said(await call.send("what's the weather like in paris"))
            asked = await call.send("uh my parcel never arrived, can you send another one")
            assert [(h.from_agent, h.to_agent) for h in asked.hops] == [("meta", "shipping"), ("shipping", "shipping.reship")]
            assert "parcel number" in said(asked), said(asked)  # its own slot, asked for by name
            # Its own slot pattern: a spoken parcel number is an answer, read back written down.
            read_back = await call.send("um it's pkg 48213")
            assert "To confirm" in said(read_back) and "PKG-48213" in said(read_back), said(read_back)
            filed = await call.send("yes")
            assert filed.results[-1].status == "needs_approval", said(filed)
            assert "reship-pkg-48213" in said(filed)
            # The other domains still route as before.
            other = await call.send("what's my balance")
            assert other.results[-1].domain == "billing"
        finally:
            await call.close()

        # The operator CLI lists it, with its kind, from the dev server.
        env = cli_env(settings.data_dir, CALLCENTER_TEMPORAL_ADDRESS=temporal.address,
                      CALLCENTER_TEMPORAL_TASK_QUEUE=settings.temporal_task_queue)
        listed = await asyncio.to_thread(callcenter, "approvals", "list", "--json", "--kind", "reship", env=env, timeout=60)
        assert listed.returncode == 0, listed.stderr
        assert [(r["request_id"], r["kind"]) for r in json.loads(listed.stdout)] == [("reship-pkg-48213", "reship")]

        await decide_as(client, store, "reship-pkg-48213", verdict="approve", operator="maria", reason="lost in transit")
        status = await eventually(lambda: _finished(work), timeout=15)
        assert status.state == "completed", status
        outcome = d.latest_outcome(store, "reship-pkg-48213")
        assert outcome is not None and outcome.detail and outcome.detail.startswith("replacement parcel order RS-")
        assert any(t.kind == "reship" for t in store.list_tickets("C1001"))
        notices = store._conn().execute("SELECT body FROM notifications WHERE customer_id = 'C1001'").fetchall()
        assert any("Your replacement parcel was approved" in n[0] for n in notices)

    # The slot reader knows its request ids; the metrics know its labels.
    assert line.slots.read("what happened to reship-pkg-48213").request_id == "reship-pkg-48213"
    assert line.slots.read("it was pkg 48213").get("parcel_id") == "PKG-48213"
    text = generate_latest().decode()
    assert 'callcenter_approvals_pending{kind="reship"}' in text
    assert 'to_agent="shipping.reship"' in text


async def _finished(work: DurableWork):  # noqa: ANN202
    st = await work.status("reship-pkg-48213")
    return st if st.state in ("completed", "failed", "denied") else None
