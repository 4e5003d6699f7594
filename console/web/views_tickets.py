"""Tickets of every kind: those a ticket workflow tracks under an SLA (Temporal; the technical
domain's engineering escalations) and the callback and security-review tickets the line
writes to the store only; list and resolve with a note. Which is which is read from the
store's work record, not from a kind, so a domain's new ticket kind needs no change here."""

from __future__ import annotations

import re

from starlette.requests import Request
from starlette.responses import Response

from callcenter.redact import mask
from callcenter.store import Store
from callcenter.store import durable as d
from callcenter.store.repository import now_iso
from console.operations import ConsoleError, list_tickets, resolve_ticket
from console.web.guard import operator_only
from workflows import authz
from workflows.models import EscalationRequest, ticket_workflow_id

_ID = re.compile(r"^[A-Za-z0-9_.:\-]{1,64}$")


def _tracked(store: Store, ticket_id: str) -> bool:
    """A ticket workflow tracks this ticket: it is resolved through Temporal, not the store."""
    return store.get_work(ticket_workflow_id(ticket_id)) is not None


async def _rows(request: Request) -> tuple[list[dict], str | None]:
    app = request.app.state.console
    stored = {t.id: t for t in app.store.list_tickets()}
    rows: list[dict] = []
    error = None
    try:
        for t in await list_tickets(await app.temporal()):
            tid = t.request_id.removeprefix("ticket-")
            kind = stored[tid].kind if tid in stored else EscalationRequest.kind  # the request's default
            rows.append({"id": tid, "kind": kind, "state": t.state,
                         "customer_id": t.customer_id, "summary": t.caller_reason, "at": t.submitted_at})
    except Exception as err:  # noqa: BLE001 - store tickets still show when Temporal is down
        error = f"tracked tickets unavailable: {str(err).splitlines()[0][:160]}"
    listed = {r["id"] for r in rows}
    for t in stored.values():
        # A tracked ticket not running in Temporal (queued in the outbox, or Temporal is down)
        # still shows, from the store: the operator sees every open ticket.
        if t.status in ("resolved", "closed") or t.id in listed:
            continue
        rows.append({"id": t.id, "kind": t.kind, "state": t.status, "customer_id": t.customer_id,
                     "summary": mask(authz.clean(t.summary)), "at": t.created_at})
    return sorted(rows, key=lambda r: r["at"]), error


@operator_only
async def tickets_page(request: Request) -> Response:
    app = request.app.state.console
    rows, error = await _rows(request)
    return app.page(request, "tickets.html", rows=rows, error=error, note=None)


@operator_only
async def resolve(request: Request) -> Response:
    app = request.app.state.console
    op = request.state.session.operator
    tid = request.path_params["tid"]
    text = authz.clean(str((await request.form()).get("note", ""))).strip()
    note, status = None, 200
    ticket = app.store.get_ticket(tid) if _ID.match(tid) else None
    if ticket is None:
        note, status = "No such ticket.", 404
    elif not text:
        note, status = "A resolution note is required.", 409
    elif _tracked(app.store, tid):
        try:
            await resolve_ticket(await app.temporal(), app.store, tid, operator=op, resolution=text, key=app.key,
                                 grant_ttl_s=app.settings.console_grant_ttl_s)
            note = f"Ticket {tid} resolved; the customer is notified."
        except ConsoleError as err:
            note, status = str(err), 409
    elif ticket.status in ("resolved", "closed"):
        note, status = f"Ticket {tid} is already resolved.", 409
    else:
        # Callback and security-review tickets live in the store only: resolve there, with the note.
        with app.store.transaction() as conn:
            d.ticket_status_effect(tid, "resolved")(conn)
            conn.execute(
                "INSERT INTO audit_log (subject, action, actor, reason, at, role, customer_id)"
                " VALUES (?, 'ticket_resolved', ?, ?, ?, ?, ?)",
                (f"ticket-{tid}", op.name, text[:1000], now_iso(), op.role, ticket.customer_id))
        note = f"Ticket {tid} ({ticket.kind}) resolved."
    rows, error = await _rows(request)
    return app.page(request, "tickets.html", rows=rows, error=error, note=note, status=status)
