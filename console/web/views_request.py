"""One request in detail (what the operator needs to decide) and the decision itself."""

from __future__ import annotations

import re

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from callcenter import redact
from callcenter.store import durable as d
from console.operations import ConsoleError, decide, show
from console.records import read_records
from console.web.guard import operator_only
from workflows import authz

_DIGITS = re.compile(r"\d(?:[\s\-.]?\d){3,}")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


def mask(text: str) -> str:
    """The caller's words with card, phone and account numbers and e-mail addresses masked:
    the operator needs what was asked, not the digits."""
    text = _EMAIL.sub("[e-mail]", redact.mask(authz.clean(text)))  # cards and ZIPs in any format first
    return _DIGITS.sub(lambda m: "•" * max(0, len(m.group()) - 2) + m.group()[-2:], text)


def history(app, customer_id: str | None, request_id: str) -> dict:  # noqa: ANN001
    store = app.store
    if not customer_id:
        return {"tables": [], "previous": [], "customer": None, "logins": []}
    previous = []
    for w in store.list_work(customer_id=customer_id):
        if w.id == request_id:
            continue
        last = d.latest_outcome(store, w.id)
        previous.append({"id": w.id, "kind": w.kind, "amount_cents": w.amount_cents, "at": w.created_at,
                         "state": last.state if last else w.status})
    return {
        "customer": store.get_customer(customer_id),
        "tables": read_records(app.records, app.ports, customer_id),  # each domain's (billing's charges)
        "previous": previous[-10:],
        "logins": store.recent_logins(customer_id, days=14)[-5:],
    }


async def _render(request: Request, rid: str, *, result: str | None = None, refusal: str | None = None,
                  status: int = 200) -> Response:
    app = request.app.state.console
    op = request.state.session.operator
    try:
        item = await show(await app.temporal(), app.store, rid)
    except ConsoleError as err:
        return app.page(request, "message.html", title="Request", message=str(err), status=404)
    app.store.add_audit(subject=rid, action="request_viewed", actor=op.name, role=op.role,
                        customer_id=item.customer_id, reason="console")
    own = bool(op.customer_id and op.customer_id == item.customer_id)
    return app.page(request, "request.html", item=item, said=mask(item.caller_reason),
                    hist=history(app, item.customer_id, rid), result=result, refusal=refusal,
                    own=own, status=status)


@operator_only
async def request_page(request: Request) -> Response:
    return await _render(request, request.path_params["rid"])


async def _decide(request: Request, verdict: str, reason: str) -> tuple[str | None, str | None]:
    """(result sentence, refusal sentence): the workflow's answer, said plainly."""
    app = request.app.state.console
    op = request.state.session.operator
    rid = request.path_params["rid"]
    if verdict not in ("approve", "deny"):
        return None, "choose approve or deny"
    try:
        res = await decide(await app.temporal(), app.store, rid, verdict=verdict, operator=op, reason=reason,
                           key=app.key, grant_ttl_s=app.settings.console_grant_ttl_s)
    except ConsoleError as err:
        msg = str(err).removeprefix("refused: ").removeprefix("rejected: ")
        return None, msg + ("" if msg.endswith(".") else ".")
    if res.state != "awaiting_second_approval":
        app.queue.drop(rid)
    if res.state == "awaiting_second_approval":
        return (f"You approved {rid}. It is above the four-eyes amount: a second operator,"
                " supervisor or above, must approve it too."), None
    return f"{rid} {res.state} by {res.decided_by}.", None


@operator_only
async def decide_form(request: Request) -> Response:
    form = await request.form()
    # Whatever else the form carries (a forged "role" or "operator") is ignored: both come
    # from the signed-in account.
    result, refusal = await _decide(request, str(form.get("verdict", "")), str(form.get("reason", "")))
    return await _render(request, request.path_params["rid"], result=result, refusal=refusal,
                         status=200 if result else 409)


@operator_only
async def decide_api(request: Request) -> Response:
    try:
        body = await request.json()
    except ValueError:
        return JSONResponse({"error": "send a JSON object: {\"verdict\": ..., \"reason\": ...}"}, status_code=400)
    if not isinstance(body, dict):
        return JSONResponse({"error": "send a JSON object"}, status_code=400)
    result, refusal = await _decide(request, str(body.get("verdict", "")), str(body.get("reason", "")))
    if refusal:
        return JSONResponse({"refused": refusal}, status_code=409)
    return JSONResponse({"result": result})
