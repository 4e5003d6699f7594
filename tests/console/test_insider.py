"""Issue 27: an insider with shell access to a pod (the `temporal` CLI against the cluster,
curl against the console). Each case was a failure before: a grant read from history and
replayed onto a hand-started workflow, a hand-started payable request, ticket updates and
terminations with no credential or trace, an agent approving what needs a supervisor.
Through the real console over HTTP and the real `temporal` CLI against the dev server."""

from __future__ import annotations

import asyncio
import base64
import json
import subprocess
from typing import Any

import pytest

from benchmarks.operators.tools import (
    payloads,  # the insider adversary reads histories the same way
)
from callcenter.store import durable as d
from callcenter.store import operators as ops
from domains.billing.ledger import Ledger
from tests.conftest import callcenter, cli_env, refund_request
from workflows.client import ApprovalRequest, DurableWork, EscalationRequest, new_ticket_id
from workflows.devserver import temporal_binary
from workflows.reconcile import Reconciler

from .conftest import admitted, csrf_in, eventually, operator, sign_in, uid


async def temporal(settings: Any, *args: str) -> subprocess.CompletedProcess[str]:
    """The standard `temporal` CLI, as an insider on a pod would run it (in a thread: the
    worker runs on this event loop)."""
    return await asyncio.to_thread(subprocess.run, [temporal_binary(), *args, "--address", str(settings.temporal_address)],
                                   capture_output=True, text=True, timeout=60)


async def decide_in_console(url: str, name: str, rid: str, verdict: str, reason: str) -> Any:
    c, _ = await sign_in(url, name)
    page = await c.get(f"/requests/{rid}")
    return await c.post(f"/api/requests/{rid}/decide", json={"verdict": verdict, "reason": reason},
                        headers={"x-csrf-token": csrf_in(page.text)})


async def start_by_hand(settings: Any, wid: str, request: dict, *, reuse: bool = False) -> subprocess.CompletedProcess[str]:
    """`temporal workflow start` of an ApprovalWorkflow with a made-up input: no four-eyes."""
    inp = {"request": request, "submitted_at": "2026-01-01T00:00:00+00:00",
           "policy": {"timeout_s": 3600, "escalations": 1, "four_eyes_cents": None,
                      "role_limits_cents": {"agent": 10_000_000, "supervisor": 10_000_000, "manager": 10_000_000}}}
    return await temporal(settings, "workflow", "start", "--type", "ApprovalWorkflow", "--task-queue",
                    settings.temporal_task_queue, "--workflow-id", wid, "--input", json.dumps(inp),
                    "--search-attribute", 'RequestState="pending"', "--search-attribute", 'RequestKind="refund"',
                    *(["--id-reuse-policy", "AllowDuplicate"] if reuse else []))


async def decided_by_a_supervisor(console, store, work: DurableWork, verdict: str, state: str) -> Any:  # noqa: ANN001
    """A $30 refund the line filed, decided by sam (supervisor) in the console, ended `state`."""
    operator(store, "sam", "supervisor")
    req = refund_request(uid("refund-CH-1002-D"), amount_cents=3000)
    await work.submit_approval(req)
    r = await decide_in_console(console.url, "sam", req.request_id, verdict, "checked the statement")
    assert r.status_code == 200, r.text
    assert (await work.wait_for_decision(req.request_id, 15)).state == state
    return req


async def test_a_grant_read_from_history_cannot_decide_a_hand_started_request(console, settings, store,
                                                                               work: DurableWork) -> None:
    req = await decided_by_a_supervisor(console, store, work, "approve", "completed")
    shown = await temporal(settings, "workflow", "show", "--workflow-id", req.request_id, "--output", "json")
    assert shown.returncode == 0, shown.stderr
    decisions = [p for p in payloads(shown.stdout) if isinstance(p, dict) and "grant" in p]
    [grant] = [p["grant"] for p in decisions]
    # What history holds is sealed: no readable claims (who, role, request, amount).
    assert grant.startswith("ccg2.") and "eyJ" not in grant
    assert not any(w in base64.urlsafe_b64decode(grant[5:] + "==") for w in (b"sam", b"supervisor", b"refund", b"3000"))
    # The same request id, another (larger) charge, no four-eyes in the input, started by hand.
    forged = {**json.loads(json.dumps(req.__dict__)), "record_id": "CH-1003-A", "amount_cents": 24900}
    started = await start_by_hand(settings, req.request_id, forged, reuse=True)
    assert started.returncode == 0, started.stderr
    update = await temporal(settings, "workflow", "update", "execute", "--workflow-id", req.request_id, "--name", "approve",
                      "--input", json.dumps({"operator": "sam", "role": "supervisor", "reason": "dup", "grant": grant}))
    assert update.returncode != 0
    result = await temporal(settings, "workflow", "result", "--workflow-id", req.request_id, "--output", "json")
    assert '"refused' in result.stdout, result.stdout + result.stderr
    assert [r.idempotency_key for r in Ledger(store).list_refunds("C1003")] == []
    assert any(e.action == "request_refused" for e in store.audit_for(req.request_id))


async def test_a_grant_is_spent_once_and_bound_to_its_step(console, settings, store, client, work: DurableWork) -> None:
    """Replaying an accepted approve (four-eyes first step) as the second approval: refused."""
    operator(store, "sam", "supervisor")
    req = refund_request(uid("refund-CH-1003-A"), amount_cents=120000, charge="CH-1003-A", customer="C1003")
    await work.submit_approval(req)
    r = await decide_in_console(console.url, "sam", req.request_id, "approve", "verified")
    assert r.status_code == 200 and "second operator" in r.json()["result"], r.text
    shown = await temporal(settings, "workflow", "show", "--workflow-id", req.request_id, "--output", "json")
    [first] = [p for p in payloads(shown.stdout) if isinstance(p, dict) and "grant" in p]
    again = await temporal(settings, "workflow", "update", "execute", "--workflow-id", req.request_id, "--name", "approve",
                     "--input", json.dumps(first))
    assert again.returncode != 0 and "used already" in (again.stdout + again.stderr)
    assert (await work.status(req.request_id)).state == "pending"


async def test_a_hand_started_payable_request_is_refused_and_never_paid(console, settings, store,
                                                                        work: DurableWork) -> None:
    operator(store, "kim", "agent")
    rid = uid("refund-CH-1002-D")
    forged = {"kind": "refund", "customer_id": "C1002", "amount_cents": 4900, "record_id": "CH-1002-D",
              "caller_reason": "duplicate charge", "policy_finding": "caller verified by the line before filing",
              "requested_by": "billing/refund", "request_id": rid, "call_id": ""}
    assert (await start_by_hand(settings, rid, forged)).returncode == 0
    result = await temporal(settings, "workflow", "result", "--workflow-id", rid, "--output", "json")
    assert '"refused' in result.stdout, result.stdout + result.stderr
    r = await decide_in_console(console.url, "kim", rid, "approve", "looks fine")
    assert r.status_code in (404, 409) and "refused" in r.text.lower(), r.text
    assert Ledger(store).list_refunds("C1002") == []
    audit = [e for e in store.audit_for(rid) if e.action == "request_refused"]
    assert audit and "no request was filed by the line" in audit[0].reason


async def test_ticket_updates_need_a_credential(settings, store, worker, work: DurableWork) -> None:
    tid = new_ticket_id()
    await work.open_escalation(EscalationRequest(tid, "C1003", "5xx on /v2/orders", kind="engineering"))
    wid = f"ticket-{tid}"
    await admitted(await work.client(), wid)
    bare = await temporal(settings, "workflow", "update", "execute", "--workflow-id", wid, "--name", "resolve",
                    "--input", json.dumps({"engineer": "anyone", "resolution": "fixed"}))
    assert bare.returncode != 0 and "credential is required" in (bare.stdout + bare.stderr)
    await eventually(lambda: [e.action for e in store.audit_for(wid) if e.action == "resolve_refused"])
    assert not any(f"Ticket {tid} is resolved" in n.body for n in store.list_notifications("C1003"))
    # With an operator token, the CLI resolves it (the credential is sealed for this run).
    operator(store, "ana", "agent")
    token = ops.create_token(store, "ana", ttl_h=1)
    env = cli_env(settings.data_dir, CALLCENTER_TEMPORAL_ADDRESS=settings.temporal_address or "",
                  CALLCENTER_TEMPORAL_TASK_QUEUE=settings.temporal_task_queue, CALLCENTER_OPERATOR_TOKEN=token)
    done = await asyncio.to_thread(callcenter, "tickets", "resolve", tid, "--resolution", "rolled back", env=env)
    assert done.returncode == 0 and f"{tid}: resolved by ana" in done.stdout, done.stderr
    await eventually(lambda: any(f"Ticket {tid} is resolved" in n.body for n in store.list_notifications("C1003")))


async def test_a_terminated_request_is_seen_audited_and_shown(settings, store, client, worker, work: DurableWork) -> None:
    req = refund_request(uid("refund-CH-1002-D"))
    await work.submit_approval(req)
    gone = await temporal(settings, "workflow", "terminate", "--workflow-id", req.request_id, "--reason", "cleanup")
    assert gone.returncode == 0, gone.stderr
    reconciler = Reconciler(client, store)
    await eventually(lambda: reconciler.once(), timeout=20)
    [row] = [e for e in store.audit_for(req.request_id) if e.action == "request_terminated_outside"]
    assert "cleanup" in row.reason and row.actor == "temporal"
    assert store.get_work(req.request_id).status == "ended_outside"
    assert await reconciler.once() == 0  # seen once
    env = cli_env(settings.data_dir, CALLCENTER_TEMPORAL_ADDRESS=settings.temporal_address or "",
                  CALLCENTER_TEMPORAL_TASK_QUEUE=settings.temporal_task_queue)
    shown = await asyncio.to_thread(callcenter, "approvals", "show", req.request_id, env=env)
    assert "terminated" in shown.stdout.splitlines()[0] and "pending" not in shown.stdout.splitlines()[0]
    from callcenter import metrics

    counted = [s.value for m in metrics.REQUESTS_ENDED_OUTSIDE.collect() for s in m.samples
               if s.name.endswith("_total") and s.labels["how"] == "terminated"]
    assert sum(counted) >= 1


@pytest.mark.parametrize("kind,agent_may", [("refund", True), ("close_account", False), ("two_factor_reset", False)])
async def test_role_limits_per_kind_are_enforced_by_the_workflow(kind, agent_may, console, store, work: DurableWork) -> None:
    operator(store, "kim", "agent")
    operator(store, "sam", "supervisor")
    req = (refund_request(uid("refund-CH-1002-D"), amount_cents=3000) if kind == "refund"
           else ApprovalRequest(kind, "C1001", None, "new phone", "verified", f"account/{kind}", uid(kind)))
    await work.submit_approval(req)
    r = await decide_in_console(console.url, "kim", req.request_id, "approve", "ok")
    if agent_may:
        assert r.status_code == 200, r.text
        return
    assert r.status_code == 409 and "needs a supervisor" in r.json()["refused"], r.text
    r = await decide_in_console(console.url, "sam", req.request_id, "approve", "verified by id")
    assert r.status_code == 200, r.text
    assert (await work.wait_for_decision(req.request_id, 15)).state == "completed"
    assert [o.state for o in d.outcomes_for(store, req.request_id)][-1] == "completed"


async def test_a_decided_request_started_again_by_hand_is_refused(console, settings, store, work: DurableWork) -> None:
    """Denied by a supervisor, then `temporal workflow start` under the same id with the very
    input the line filed: not a request the line filed now, so admission refuses it (before,
    it was admitted and an agent's approval answered "approved by kim")."""
    operator(store, "kim", "agent")
    req = await decided_by_a_supervisor(console, store, work, "deny", "denied")
    started = await start_by_hand(settings, req.request_id, json.loads(json.dumps(req.__dict__)), reuse=True)
    assert started.returncode == 0, started.stderr
    result = await temporal(settings, "workflow", "result", "--workflow-id", req.request_id, "--output", "json")
    assert '"refused' in result.stdout and "already decided" in result.stdout, result.stdout + result.stderr
    r = await decide_in_console(console.url, "kim", req.request_id, "approve", "looks fine")
    assert r.status_code == 409, r.text
    assert Ledger(store).list_refunds("C1002") == []
