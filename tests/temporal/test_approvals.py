"""Approval workflow against a real dev server: approve, deny, validator rejections, status."""

from __future__ import annotations

import pytest
from temporalio.api.enums.v1 import EventType

from callcenter.store import durable as d
from console.operations import ConsoleError, list_queue, show
from domains.billing.ledger import Ledger
from workflows.client import ApprovalRequest, DurableWork

from .conftest import decide_as, eventually, uid


def refund_req(charge: str = "CH-1002-D", amount: int = 24900, request_id: str | None = None) -> ApprovalRequest:
    return ApprovalRequest(
        kind="refund", customer_id="C1002", amount_cents=amount, record_id=charge,
        caller_reason="I was charged twice", policy_finding="duplicate charge above the $100 auto limit",
        requested_by="billing/refund", request_id=request_id or uid(f"refund-{charge}"),
    )


async def test_approve_refund_runs_once_and_is_audited(client, store, worker, work: DurableWork) -> None:
    req = refund_req()
    assert (await work.submit_approval(req)).status == "pending"
    assert (await work.submit_approval(req)).status == "pending"  # same business id: same workflow
    queue = await list_queue(client)
    item = next(i for i in queue if i.request_id == req.request_id)
    assert (item.kind, item.amount_cents, item.customer_id) == ("refund", 24900, "C1002")
    assert item.caller_reason == "I was charged twice" and "auto limit" in item.policy_finding
    assert [i.request_id for i in await list_queue(client, kind="refund", customer_id="C1002", min_amount_cents=24900)
            if i.request_id == req.request_id] == [req.request_id]
    assert not [i for i in await list_queue(client, min_amount_cents=24901) if i.request_id == req.request_id]
    assert not [i for i in await list_queue(client, kind="close_account") if i.request_id == req.request_id]
    with pytest.raises(ConsoleError, match="malformed"):
        await list_queue(client, customer_id="x' OR 1=1")

    res = await decide_as(client, store, req.request_id, verdict="approve", operator="maria", reason="duplicate", role="agent")
    assert res.state == "approved"
    st = await work.wait_for_decision(req.request_id, 10)
    assert (st.state, st.decided_by, st.reason) == ("completed", "maria", "duplicate")
    assert req.request_id not in {i.request_id for i in await list_queue(client)}

    refunds = [r for r in Ledger(store).list_refunds("C1002") if r.idempotency_key.startswith(req.request_id)]
    assert len(refunds) == 1 and refunds[0].approved_by == "maria" and refunds[0].amount_cents == 24900
    assert [(a.action, a.actor, a.reason) for a in store.audit_for(req.request_id)] == [("approved", "maria", "duplicate")]
    assert len([n for n in store.list_notifications("C1002") if n.dedupe_key.startswith(req.request_id)]) == 1
    # A retried start after completion reports the outcome and starts nothing new.
    assert (await work.submit_approval(req)).status == "completed"
    assert (await show(client, store, req.request_id)).detail.startswith("refund ")
    found = await work.find_for_customer("C1002", "refund")
    assert any(s.request_id == req.request_id and s.state == "completed" for s in found)


async def test_deny_changes_nothing_but_notifies(client, store, worker, work: DurableWork) -> None:
    req = ApprovalRequest("close_account", "C1005", None, "moving to a competitor",
                          "closure needs a human", "account/close_account", uid("close-C1005"))
    await work.submit_approval(req)
    await decide_as(client, store, req.request_id, verdict="deny", operator="li", reason="open invoice first")
    st = await work.wait_for_decision(req.request_id, 10)
    assert (st.state, st.decided_by) == ("denied", "li")
    assert not store.get_customer("C1005").closed
    assert [a.action for a in store.audit_for(req.request_id)] == ["denied"]
    notes = [n for n in store.list_notifications("C1005") if n.dedupe_key.startswith(req.request_id)]
    assert len(notes) == 1 and "open invoice first" in notes[0].body


@pytest.mark.parametrize("kind,check", [
    ("close_account", lambda c: c.closed),
    ("two_factor_reset", lambda c: not c.two_factor),
])
async def test_account_actions(kind, check, client, store, worker, work: DurableWork) -> None:
    req = ApprovalRequest(kind, "C1003", None, "lost my phone", "identity verified",
                          "account/x", uid(f"{kind}-C1003"))
    await work.submit_approval(req)
    await decide_as(client, store, req.request_id, verdict="approve", operator="sam", reason="verified by id", role="supervisor")
    assert (await work.wait_for_decision(req.request_id, 10)).state == "completed"
    assert check(store.get_customer("C1003"))
    assert len(d.outcomes_for(store, req.request_id)) == 1


async def test_validator_rejections_record_nothing_in_history(client, store, worker, work: DurableWork) -> None:
    req = refund_req(amount=60000, request_id=uid("refund-big"))
    # The $600 refund is over the agent's $500 limit; the charge check only happens on approval.
    store._conn().execute("INSERT INTO charges VALUES (?, 'C1002', 90000, 'Enterprise upgrade', '2026-01-01', NULL)",
                          (req.record_id + "X",))
    req.record_id += "X"
    await work.submit_approval(req)
    # self-approval: the operator id equals the requester
    req2 = refund_req(request_id=uid("refund-self"))
    req2.requested_by = "maria"
    await work.submit_approval(req2)
    with pytest.raises(ConsoleError, match="cannot decide their own request"):
        await decide_as(client, store, req2.request_id, verdict="approve", operator="maria", reason="mine")
    with pytest.raises(ConsoleError, match=r"kim \(agent\) may approve up to \$500.00; this request is \$600.00"):
        await decide_as(client, store, req.request_id, verdict="approve", operator="kim", reason="ok", role="agent")
    # The role comes from the account: a supervisor account may, and a refused attempt burns nothing.
    await decide_as(client, store, req.request_id, verdict="approve", operator="sam", reason="ok", role="supervisor")
    with pytest.raises(ConsoleError, match="already decided: approved by sam|already decided: completed|finished before the decision arrived"):
        await decide_as(client, store, req.request_id, verdict="deny", operator="lee", reason="no")
    assert (await work.wait_for_decision(req.request_id, 10)).state == "completed"
    with pytest.raises(ConsoleError, match="already decided: completed by sam"):
        await decide_as(client, store, req.request_id, verdict="deny", operator="lee", reason="no")

    history = await client.get_workflow_handle(req.request_id).fetch_history()
    accepted = [e for e in history.events if e.event_type == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED]
    assert len(accepted) == 1  # rejected decisions never reached the history
    # Refusals are audited with the account's role: the worker's one (over the limit, written
    # by a background thread) and the console's own (already finished).
    await eventually(lambda: any(a.action == "approve_refused" for a in store.audit_for(req.request_id)))
    refused = [(a.action, a.actor, a.role) for a in store.audit_for(req.request_id) if a.action.endswith("_refused")]
    assert ("approve_refused", "kim", "agent") in refused and ("deny_refused", "lee", "agent") in refused
    assert [a.action for a in store.audit_for(req.request_id)].count("approved") == 1
    assert len([r for r in Ledger(store).list_refunds("C1002") if r.idempotency_key.startswith(req.request_id)]) == 1


async def test_unknown_and_malformed_ids(client, store) -> None:
    with pytest.raises(ConsoleError, match="no such request"):
        await show(client, store, "refund-does-not-exist")
    with pytest.raises(ConsoleError, match="malformed"):
        await decide_as(client, store, "bad id; DROP", verdict="approve", operator="ann", reason="b")
    with pytest.raises(ConsoleError, match="no such request"):
        await decide_as(client, store, "nope-123", verdict="deny", operator="ann", reason="b")


async def test_failed_action_is_recorded(client, store, worker, work: DurableWork) -> None:
    # Charge CH-1001-D is $49; asking $60 cannot be refunded: decision audited, outcome 'failed'.
    req = ApprovalRequest("refund", "C1001", 6000, "too much", "over charge", "billing/refund",
                          uid("refund-CH-1001-D"), record_id="CH-1001-D")
    await work.submit_approval(req)
    await decide_as(client, store, req.request_id, verdict="approve", operator="ann", reason="fine")
    st = await work.wait_for_decision(req.request_id, 10)
    assert st.state == "failed"
    assert [a.action for a in store.audit_for(req.request_id)] == ["approved"]
    assert not [r for r in Ledger(store).list_refunds("C1001") if r.idempotency_key.startswith(req.request_id)]
