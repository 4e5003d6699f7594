"""Determinism guard: recorded histories (approve, escalate + auto-deny, ticket SLA breach +
resolution, four-eyes: two approvals under the `four-eyes-v1` patch, and an approval and a
ticket admitted under `admission-v1`) must replay against the current workflow code. A change that breaks replay
would break every workflow running in production: version it with workflow.patched().

Re-record with a time-skipping env only when a deliberate, versioned change needs it."""

from __future__ import annotations

from pathlib import Path

import pytest
from temporalio.client import WorkflowHistory
from temporalio.worker import Replayer

from meta.actions import durable_actions
from workflows.client import ApprovalRequest, DurableWork
from workflows.worker import WORKFLOWS

from .conftest import signed, uid

HISTORIES = sorted(Path(__file__).with_name("histories").glob("*.json"))


@pytest.mark.parametrize("path", HISTORIES, ids=[p.stem for p in HISTORIES])
async def test_recorded_history_replays(path: Path) -> None:
    history = WorkflowHistory.from_json(path.stem, path.read_text())
    result = await Replayer(workflows=WORKFLOWS).replay_workflow(history, raise_on_replay_failure=False)
    assert result.replay_failure is None, result.replay_failure


async def test_fresh_history_replays(client, store, settings, worker) -> None:
    work = DurableWork(settings, store, client=client, actions=durable_actions())
    req = ApprovalRequest("two_factor_reset", "C1001", None, "new phone", "verified", "account/2fa", uid("2fa"))
    await work.submit_approval(req)
    handle = client.get_workflow_handle(req.request_id)
    await handle.execute_update("deny", await signed(client, store, req.request_id, "deny", "li", "not verified", "agent"))
    await handle.result()
    await Replayer(workflows=WORKFLOWS).replay_workflow(await handle.fetch_history())


def test_histories_are_present() -> None:
    assert len(HISTORIES) >= 6
    # The four-eyes and the admitted histories were recorded with their patches (admission-v1:
    # the first activity checks the line's record); the older ones without, as workflows
    # still running from before those versions.
    marker = "EVENT_TYPE_MARKER_RECORDED"  # the patch marker (its id is base64 inside)
    assert [p.stem for p in HISTORIES if marker in p.read_text()] == [
        "approval_admitted_approved", "approval_four_eyes", "ticket_admitted_resolved"]
    assert all("admit_" in (HISTORIES[0].parent / f"{name}.json").read_text()
               for name in ("approval_admitted_approved", "ticket_admitted_resolved"))


def test_a_request_recorded_before_record_id_still_names_its_charge() -> None:
    # The recorded histories start with `charge_id`, as every refund waiting in Temporal at the
    # upgrade does; the converter drops unknown fields, so without the kept field the approved
    # refund would reach the activity with no charge.
    from temporalio.api.common.v1 import Payload
    from temporalio.converter import DataConverter

    from workflows.models import ApprovalInput

    history = WorkflowHistory.from_json("approved", (HISTORIES[0].parent / "approval_approved.json").read_text())
    started = history.events[0].workflow_execution_started_event_attributes.input.payloads[0]
    assert b'"charge_id":"CH-1002-D"' in started.data and b"record_id" not in started.data
    inp = DataConverter.default.payload_converter.from_payloads([started], [ApprovalInput])[0]
    assert (inp.request.record_id, inp.request.charge_id) == ("CH-1002-D", None)
    again = DataConverter.default.payload_converter.to_payloads([inp])[0]
    assert isinstance(again, Payload) and b'"record_id": "CH-1002-D"' in again.data.replace(b'":"', b'": "')
