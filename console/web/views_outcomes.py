"""The line's outcomes for the people who run it: containment, first-contact resolution,
transfers, call-backs, abandonment, handle time and time to approval, for the line and per
domain, over the last 24 hours or 7 days. Read from the calls' outcome records in the store
(callcenter/store/outcomes.py), the same records the Prometheus metrics count, so this page
and the "Line outcomes" dashboard agree. Aggregates only: no caller, call or customer id."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from starlette.requests import Request
from starlette.responses import Response

from callcenter.store.outcomes import OUTCOMES, Kpis, iso, kpis
from console.web.guard import operator_only

PERIODS = {"24h": ("last 24 hours", timedelta(hours=24)), "7d": ("last 7 days", timedelta(days=7))}


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.0%}"


def _row(k: Kpis) -> dict[str, object]:
    return {
        "scope": k.scope, "handled": k.handled,
        "containment": _pct(k.containment), "fcr": _pct(k.first_contact_resolution),
        **{o: _pct(k.rate(o)) for o in OUTCOMES if o != "resolved"},
        "aht": None if k.average_handle_s is None else round(k.average_handle_s),
        "approval": None if k.time_to_approval_s is None else round(k.time_to_approval_s),
        "reasons": k.top_callback_reasons(),
    }


@operator_only
async def outcomes_page(request: Request) -> Response:
    app = request.app.state.console
    period = request.query_params.get("period", "24h")
    if period not in PERIODS:
        period = "24h"
    label, span = PERIODS[period]
    now = datetime.now(UTC)
    found = kpis(app.store, iso(now - span), iso(now), kind_domains=app.kind_domains)
    line = found.pop("line")
    domains = [found[name] for name in sorted(found)]
    return app.page(request, "outcomes.html", period=period, periods=PERIODS, label=label, line=_row(line),
                    domains=[_row(k) for k in domains], window_days=app.settings.fcr_window_days)
