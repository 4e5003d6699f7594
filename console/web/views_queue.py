"""The pending queue: the page, and the rows the page re-fetches every two seconds."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation

from starlette.requests import Request
from starlette.responses import Response

from console.operations import QueueItem
from console.web.guard import operator_only
from workflows.models import SAFE_ID


def time_left(item: QueueItem, default_s: int, age_s: int) -> tuple[str, int]:
    """('escalates in' | 'auto-deny in', seconds) from the request's own policy timeout."""
    per_level = item.deadline_s or default_s
    level = 1 if item.state == "escalated" else 0
    return ("auto-deny in" if level else "escalates in"), per_level * (level + 1) - age_s


def _filters(form: dict) -> dict:
    """Filters come in the request body, never in the URL (customer ids stay out of logs)."""
    def cents(v: object) -> int | None:
        try:
            return int(Decimal(str(v)) * 100) if str(v or "").strip() else None
        except InvalidOperation:
            return None

    kind = str(form.get("kind") or "")
    customer = str(form.get("customer") or "").strip()
    age = str(form.get("min_age_min") or "").strip()
    return {
        "kind": kind if SAFE_ID.match(kind) else None,  # a kind nothing has matches nothing
        "customer": customer if SAFE_ID.match(customer) else None,
        "min_cents": cents(form.get("min_amount")), "max_cents": cents(form.get("max_amount")),
        "min_age_s": int(age) * 60 if age.isdigit() else None,
    }


async def rows_for(request: Request, f: dict) -> tuple[list[dict], str | None]:
    app = request.app.state.console
    items, error, _age = await app.queue.get()
    now = datetime.now(UTC)
    out = []
    for i in items:
        if f["kind"] and i.kind != f["kind"]:
            continue
        if f["customer"] and i.customer_id != f["customer"]:
            continue
        amount = i.amount_cents or 0
        if (f["min_cents"] is not None and amount < f["min_cents"]) or (
                f["max_cents"] is not None and amount > f["max_cents"]):
            continue
        # The copy may be seconds old: ages are counted from the start time, now.
        now_age = int((now - datetime.fromisoformat(i.submitted_at)).total_seconds())
        if f["min_age_s"] is not None and now_age < f["min_age_s"]:
            continue
        label, left = time_left(i, app.settings.approval_timeout_s, now_age)
        out.append({"item": i, "age_s": now_age, "left_label": label, "left_s": left})
    return out, error


@operator_only
async def queue_page(request: Request) -> Response:
    app = request.app.state.console
    rows, error = await rows_for(request, _filters({}))
    # The kinds filter offers what is waiting: the console knows no domain's vocabulary.
    kinds = sorted({row["item"].kind for row in rows})
    return app.page(request, "queue.html", rows=rows, error=error, kinds=kinds)


@operator_only
async def queue_rows(request: Request) -> Response:
    app = request.app.state.console
    rows, error = await rows_for(request, _filters(dict(await request.form())))
    return app.page(request, "_rows.html", rows=rows, error=error)
