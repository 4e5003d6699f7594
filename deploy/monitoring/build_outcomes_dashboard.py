"""Generate the "Line outcomes" Grafana dashboard shipped with the Helm chart.

    .venv/bin/python deploy/monitoring/build_outcomes_dashboard.py   # rewrites files/dashboard-outcomes.json

For the people who own the line, not the SREs: containment, first-contact resolution,
transfer / call-back / abandonment rates, average handle time, time to approval and the
top call-back reasons, for the line and per domain. The numbers come from the
`callcenter_call_outcomes_total` family, counted as each call's outcome record is written
(meta/outcome.py), so they agree with the operators' console, which reads the records.
Built with the first dashboard's helpers (build_dashboard.py): same data source and
template variables, same layout rules; a test checks the committed JSON is this output.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

_HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("callcenter_build_dashboard_base", _HERE / "build_dashboard.py")
assert _spec and _spec.loader
base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(base)

OUT = _HERE.parent / "helm/callcenter/files/dashboard-outcomes.json"
UID = "callcenter-line-outcomes"
SEL, RI, DS, q = base.SEL, base.RI, base.DS, base._q
RANGE = "$__range"  # stats and per-domain views cover the dashboard's time range
OUTCOMES = "callcenter_call_outcomes_total"
NEEDS = "callcenter_need_outcomes_total"
CONTACTS = "callcenter_need_contacts_total"


def _share(metric: str, where: str, by: str = "", window: str = RANGE) -> str:
    """The share of `metric` matching `where` (e.g. outcome="resolved"), optionally per `by`."""
    grp = f" by ({by})" if by else ""
    return (f"sum{grp} (increase({metric}{{{SEL}, {where}}}[{window}]))"
            f" / sum{grp} (increase({metric}{{{SEL}}}[{window}]))")


def _fcr(by: str = "", window: str = RANGE) -> str:
    grp = f" by ({by})" if by else ""
    return (f'sum{grp} (increase({CONTACTS}{{{SEL}, contact="first"}}[{window}]))'
            f' / sum{grp} (increase({CONTACTS}{{{SEL}, contact=~"first|repeat"}}[{window}]))')


def _mean(hist: str, by: str = "", window: str = RANGE) -> str:
    grp = f" by ({by})" if by else ""
    return (f"sum{grp} (increase({hist}_sum{{{SEL}}}[{window}]))"
            f" / sum{grp} (increase({hist}_count{{{SEL}}}[{window}]))")


_STAT = {"reduceOptions": {"calcs": ["lastNotNull"], "fields": "", "values": False},
         "colorMode": "value", "graphMode": "none", "textMode": "value"}
_BARS = {"reduceOptions": {"calcs": ["lastNotNull"], "fields": "", "values": False},
         "orientation": "horizontal", "displayMode": "gradient", "showUnfilled": True}


def _zero_to_one(layout: Any) -> None:
    """A share's bars run from 0 to 100 %, not from the smallest value to the largest."""
    layout.panels[-1]["fieldConfig"]["defaults"].update({"min": 0, "max": 1})


def _instant(expr: str, legend: str = "", ref: str = "A") -> dict[str, Any]:
    return q(expr, legend, ref, instant=True, range=False)


def _panels() -> list[dict[str, Any]]:
    L = base._Layout()
    ts = "timeseries"

    L.row("The line, over the time range")
    L.panel("stat", "Calls", [_instant(f"sum(increase({OUTCOMES}{{{SEL}}}[{RANGE}]))", "calls")],
            w=3, h=5, desc="Calls that ended in the time range.", **_STAT)
    L.panel("stat", "Containment", [_instant(_share(OUTCOMES, 'outcome="resolved"'), "containment")],
            w=3, h=5, unit="percentunit", desc="Calls resolved with no person involved: not transferred, "
            "no call back, no approval waiting, not abandoned.", **_STAT)
    L.panel("stat", "First-contact resolution", [_instant(_fcr(), "FCR")],
            w=3, h=5, unit="percentunit", desc="Needs of verified callers that were not a repeat: the same caller "
            "raised the same need in a call within CALLCENTER_FCR_WINDOW_DAYS (default 7).", **_STAT)
    L.panel("stat", "Transfer rate", [_instant(_share(OUTCOMES, 'outcome="transferred"'), "transferred")],
            w=3, h=5, unit="percentunit", desc="Calls put through to a person.", **_STAT)
    L.panel("stat", "Call-back rate", [_instant(_share(OUTCOMES, 'outcome="callback"'), "call back")],
            w=3, h=5, unit="percentunit", desc="Calls a person follows up: a call back, an escalation, a review.", **_STAT)
    L.panel("stat", "Abandonment", [_instant(_share(OUTCOMES, 'outcome="abandoned"'), "abandoned")],
            w=3, h=5, unit="percentunit", desc="Calls the caller hung up mid-task (the line waiting on their answer) "
            "or before saying anything.", **_STAT)
    L.panel("stat", "Average handle time", [_instant(_mean("callcenter_call_handle_seconds"), "AHT")],
            w=3, h=5, unit="s", desc="Mean time from the call's start to its end.", **_STAT)
    L.panel("stat", "Time to approval (median)", [_instant(
        f"histogram_quantile(0.5, sum by (le) (increase(callcenter_approval_decision_duration_seconds_bucket{{{SEL}}}[{RANGE}])))",
        "median")], w=3, h=5, unit="s", desc="From a durable request being filed to an operator's decision.", **_STAT)

    L.row("Over time")
    L.panel(ts, "Call outcomes (calls per hour)", [
        q(f"sum by (outcome) (rate({OUTCOMES}{{{SEL}}}[{RI}])) * 3600", "{{outcome}}"),
    ], w=8, unit="short", desc="resolved, pending_approval, callback, transferred, abandoned.")
    L.panel(ts, "Containment, transfer, call-back and abandonment (1 h window)", [
        q(_share(OUTCOMES, 'outcome="resolved"', window="1h"), "containment"),
        q(_share(OUTCOMES, 'outcome="transferred"', window="1h"), "transferred", "B"),
        q(_share(OUTCOMES, 'outcome="callback"', window="1h"), "call back", "C"),
        q(_share(OUTCOMES, 'outcome="abandoned"', window="1h"), "abandoned", "D"),
    ], w=8, unit="percentunit", desc="Shares of the calls that ended in the hour before each point.")
    L.panel(ts, "Average handle time by outcome (1 h window)", [
        q(_mean("callcenter_call_handle_seconds", by="outcome", window="1h"), "{{outcome}}"),
    ], w=8, unit="s")

    L.row("Per domain, over the time range")
    L.panel("bargauge", "Containment by domain", [_instant(_share(NEEDS, 'outcome="resolved"', by="domain"), "{{domain}}")],
            w=6, unit="percentunit", desc="Needs of each domain resolved with no person involved.", **_BARS)
    _zero_to_one(L)
    L.panel("bargauge", "First-contact resolution by domain", [_instant(_fcr(by="domain"), "{{domain}}")],
            w=6, unit="percentunit", desc="Needs of verified callers that were not a repeat within the window.", **_BARS)
    _zero_to_one(L)
    L.panel("bargauge", "Average handle time by domain", [_instant(
        _mean("callcenter_domain_handle_seconds", by="domain"), "{{domain}}")],
            w=6, unit="s", desc="Mean handle time of the calls that handled a need of the domain.", **_BARS)
    L.panel("bargauge", "Time to approval by request kind (median)", [_instant(
        f"histogram_quantile(0.5, sum by (kind, le) (increase(callcenter_approval_decision_duration_seconds_bucket{{{SEL}}}[{RANGE}])))",
        "{{kind}}")], w=6, unit="s", desc="Each request kind belongs to one domain (refund: billing; "
            "close_account, two_factor_reset: account).", **_BARS)
    L.panel(ts, "Need outcomes by domain (needs per hour)", [
        q(f"sum by (domain, outcome) (rate({NEEDS}{{{SEL}}}[{RI}])) * 3600", "{{domain}} {{outcome}}"),
    ], w=12, unit="short", desc="One need per specialist a call reached.")
    L.panel(ts, "Repeat contacts by domain (needs per hour)", [
        q(f"sum by (domain, contact) (rate({CONTACTS}{{{SEL}}}[{RI}])) * 3600", "{{domain}} {{contact}}"),
    ], w=12, unit="short", desc="first, repeat (same caller, same need, within the window), unknown_caller (never verified).")

    L.row("Call-backs")
    L.panel("bargauge", "Top call-back reasons", [_instant(
        f"topk(5, sum by (reason) (increase(callcenter_callback_reasons_total{{{SEL}}}[{RANGE}])))", "{{reason}}")],
            w=8, unit="short", desc="Bounded categories: asked_for_person, service_unavailable, change_unconfirmed, "
            "routing_loop, or the kind of a domain's follow-up ticket (engineering, security, step_up_callback).", **_BARS)
    L.panel(ts, "Call-back reasons (per hour)", [
        q(f"sum by (reason) (rate(callcenter_callback_reasons_total{{{SEL}}}[{RI}])) * 3600", "{{reason}}"),
    ], w=16, unit="short")
    return L.panels


def dashboard() -> dict[str, Any]:
    d = base.dashboard()
    d.update({
        "description": "The line's outcomes for the people who run it: containment, first-contact resolution, "
                       "transfers, call-backs, abandonment, handle time and time to approval, per domain.",
        "panels": _panels(),
        "refresh": "5m",
        "tags": ["callcenter", "kpi"],
        "time": {"from": "now-7d", "to": "now"},
        "title": "Line outcomes",
        "uid": UID,
        "links": [{"title": "Call center", "type": "link", "url": f"/d/{base.UID}", "icon": "dashboard",
                   "tooltip": "The SRE view: hops, routing, workers"}],
    })
    return d


def render() -> str:
    return json.dumps(dashboard(), indent=2, ensure_ascii=False) + "\n"


def panel_queries(dash: dict[str, Any], *, rate_interval: str = "1m", range_: str = "1h") -> list[tuple[str, str, str]]:
    """As build_dashboard.panel_queries, with the time range (`$__range`) too."""
    return [(t, r, e.replace(RANGE, range_)) for t, r, e in base.panel_queries(dash, rate_interval=rate_interval)]


if __name__ == "__main__":
    OUT.write_text(render(), encoding="utf-8")
    sys.stdout.write(f"wrote {OUT}\n")
