"""The audit trail: search by operator, request, customer and action; export as CSV or JSON Lines.
Searches are POSTed so customer ids never appear in URLs or access logs."""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import asdict

from starlette.requests import Request
from starlette.responses import Response

from callcenter.redact import mask
from callcenter.store import operators as ops
from console.web.guard import operator_only
from workflows import authz

_ID = re.compile(r"^[A-Za-z0-9_.:\-@]{1,64}$")
FIELDS = ("id", "at", "actor", "role", "action", "subject", "customer_id", "reason")


def _query(form: dict) -> dict:
    def val(k: str) -> str | None:
        v = str(form.get(k) or "").strip()
        return v if _ID.match(v) else None

    return {"actor": val("operator"), "subject": val("request"), "customer_id": val("customer"),
            "action": val("action")}


def _rows(store, q: dict, limit: int) -> list[dict]:  # noqa: ANN001
    # Stored text is neutralised again on the way out: rows written by older versions too.
    return [{k: mask(authz.clean(v), keep_email=True) if isinstance(v, str) else v for k, v in asdict(e).items()}
            for e in ops.search_audit(store, limit=limit, **q)]


@operator_only
async def audit_page(request: Request) -> Response:
    app = request.app.state.console
    form = dict(await request.form()) if request.method == "POST" else {}
    q = _query(form)
    return app.page(request, "audit.html", rows=_rows(app.store, q, 300), q=form)


@operator_only
async def audit_export(request: Request) -> Response:
    app = request.app.state.console
    form = dict(await request.form())
    q = _query(form)
    rows = _rows(app.store, q, 100_000)
    op = request.state.session.operator
    fmt = "jsonl" if form.get("format") == "jsonl" else "csv"
    app.store.add_audit(subject="audit", action="audit_exported", actor=op.name, role=op.role,
                        reason=f"{len(rows)} rows as {fmt}; filters {json.dumps({k: v for k, v in q.items() if v})}")
    if fmt == "jsonl":
        body = "".join(json.dumps({k: r[k] for k in FIELDS}) + "\n" for r in rows)
        media = "application/x-ndjson"
    else:
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=FIELDS, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            # A cell starting with = + - @ is a formula in spreadsheets: quote it as text.
            w.writerow({k: ("'" + v if isinstance(v, str) and v[:1] in "=+-@" else v) for k, v in r.items()})
        body, media = buf.getvalue(), "text/csv"
    return Response(body, media_type=media,
                    headers={"content-disposition": f'attachment; filename="audit.{fmt}"'})
