"""Tickets of every kind (tracked by the ticket workflow in Temporal, whatever their kind;
callback and security review in the store only)
listed and resolved in the console; the audit trail searched and exported; control
characters in caller text and reasons neutralised in HTML, the CLI and the export."""

from __future__ import annotations

import csv
import io
import json

from callcenter.store import operators as ops
from workflows.client import ApprovalRequest, DurableWork, EscalationRequest, new_ticket_id

from .conftest import csrf_in, eventually, operator, sign_in, uid

FORGED = "dup\n2026-01-01 approved by boss\x1b[2J\x1b]0;pwned\x07\u202eevil"


async def test_tickets_of_every_kind_list_and_resolve(console, store, work: DurableWork) -> None:
    operator(store, "ana", "agent")
    eng = EscalationRequest(new_ticket_id(), "C1002", "webhook deliveries fail since deploy 4512",
                            kind="engineering", team="our engineers")
    await work.open_escalation(eng)
    # A kind no shipped domain uses is tracked the same way: the console reads the work record, not the kind.
    parcel = EscalationRequest(new_ticket_id(), "C1001", "parcel lost in transit", kind="parcel_trace", team="our couriers")
    await work.open_escalation(parcel)
    callback = store.create_ticket(customer_id="C1001", kind="callback", summary="Caller asked for a person: billing")
    security = store.create_ticket(customer_id="C1003", kind="security", summary="Security review after caller report")
    ana, _ = await sign_in(console.url, "ana")
    page = await ana.get("/tickets")
    for t, kind in ((eng.ticket_id, "engineering"), (parcel.ticket_id, "parcel_trace"), (callback.id, "callback"), (security.id, "security")):
        assert f'data-id="{t}"><td>{t}</td><td>{kind}</td>' in page.text, t
    token = csrf_in(page.text)
    empty = await ana.post(f"/tickets/{callback.id}/resolve", data={"note": "  ", "csrf": token})
    assert empty.status_code == 409 and "note is required" in empty.text
    done = await ana.post(f"/tickets/{callback.id}/resolve", data={"note": "called back, issue explained", "csrf": token})
    assert done.status_code == 200 and f"Ticket {callback.id} (callback) resolved" in done.text
    assert store.get_ticket(callback.id).status == "resolved"
    assert f'data-id="{callback.id}"' not in done.text and f'data-id="{security.id}"' in done.text
    again = await ana.post(f"/tickets/{callback.id}/resolve", data={"note": "twice", "csrf": token})
    assert again.status_code == 409 and "already resolved" in again.text
    eng_done = await ana.post(f"/tickets/{eng.ticket_id}/resolve", data={"note": "rolled back 4512", "csrf": token})
    assert eng_done.status_code == 200, eng_done.text
    st = await eventually(lambda: _completed(work, eng.ticket_id))
    assert st.decided_by == "ana"
    parcel_done = await ana.post(f"/tickets/{parcel.ticket_id}/resolve", data={"note": "found at depot", "csrf": token})
    assert parcel_done.status_code == 200 and "the customer is notified" in parcel_done.text
    assert (await eventually(lambda: _completed(work, parcel.ticket_id))).decided_by == "ana"
    # the customer's notices carry the team each domain handed in, and nothing else names one
    bodies = [n.body for n in store.list_notifications("C1002") + store.list_notifications("C1001")]
    assert any(f"We opened ticket {eng.ticket_id} with our engineers;" in b for b in bodies), bodies
    assert any(f"We opened ticket {parcel.ticket_id} with our couriers;" in b for b in bodies), bodies
    assert [(e.action, e.actor, e.role) for e in store.audit_for(f"ticket-{callback.id}")] == [
        ("ticket_resolved", "ana", "agent")]


async def _completed(work: DurableWork, ticket_id: str):  # noqa: ANN202
    st = await work.ticket_status(ticket_id)
    return st if st.state == "completed" else None


async def test_audit_search_export_and_neutralised_text(console, store, work: DurableWork, settings) -> None:
    operator(store, "maria", "agent")
    operator(store, "otto", "agent")
    req = ApprovalRequest("close_account", "C1005", None, "close it" + FORGED, "closure needs a human",
                          "account/close_account", uid("close-C1005"))
    await work.submit_approval(req)
    maria, _ = await sign_in(console.url, "maria")
    page = await maria.get(f"/requests/{req.request_id}")
    assert "\x1b" not in page.text and "\u202e" not in page.text and "\ufffd" in page.text
    r = await maria.post(f"/api/requests/{req.request_id}/decide", json={"verdict": "deny", "reason": FORGED},
                         headers={"x-csrf-token": csrf_in(page.text)})
    assert r.status_code == 200, r.text
    await work.wait_for_decision(req.request_id, 10)
    await sign_in(console.url, "otto", "wrong password")

    # Search by operator, request and customer; every stored line has no control characters.
    token = csrf_in((await maria.get("/audit")).text)
    by_req = await maria.post("/audit", data={"request": req.request_id, "csrf": token})
    assert "request_viewed" in by_req.text and "denied" in by_req.text
    by_cust = await maria.post("/audit", data={"customer": "C1005", "csrf": token})
    assert req.request_id in by_cust.text
    failed = await maria.post("/audit", data={"operator": "otto", "csrf": token})
    assert "sign_in_failed" in failed.text
    for e in store.audit_for(req.request_id):
        assert not any(ch in e.reason for ch in "\n\x1b\x07\u202e"), e
    rows = list(csv.DictReader(io.StringIO((await maria.post(
        "/audit/export", data={"request": req.request_id, "format": "csv", "csrf": token})).text)))
    assert {r["action"] for r in rows} >= {"denied", "request_viewed"}
    assert all(r["subject"] == req.request_id for r in rows)
    denied = next(r for r in rows if r["action"] == "denied")
    assert (denied["actor"], denied["role"], denied["customer_id"]) == ("maria", "agent", "C1005")
    jl = (await maria.post("/audit/export", data={"customer": "C1005", "format": "jsonl", "csrf": token})).text
    lines = [json.loads(x) for x in jl.splitlines()]
    assert lines and all(x["customer_id"] == "C1005" for x in lines)
    assert any(e.action == "audit_exported" for e in ops.search_audit(store, actor="maria"))
    # Exports need the CSRF token too.
    assert (await maria.post("/audit/export", data={"format": "csv"})).status_code == 403
