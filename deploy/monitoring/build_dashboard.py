"""Generate the Grafana dashboard JSON shipped with the Helm chart.

    .venv/bin/python deploy/monitoring/build_dashboard.py   # rewrites files/dashboard.json

The JSON is the artifact (the chart ships it, SREs may import it by hand); this script is
its source, so panels stay consistent (one selector, one legend style, stable ids) and a
test checks the committed JSON is what this script produces.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parents[1] / "helm/callcenter/files/dashboard.json"
UID = "callcenter-overview"
DS = {"type": "prometheus", "uid": "${DS_PROMETHEUS}"}
# Every query filters on the two template variables; "All" means ".*", which also matches
# series without the label (a plain Prometheus outside Kubernetes has no namespace label).
SEL = 'namespace=~"$namespace", instance=~"$instance"'
RI = "$__rate_interval"
# Temporal's SDK names carry unit/`_total` suffixes or not depending on its exporter
# options; matching both keeps the panels working whichever the worker uses.
TEMPORAL_WF_TASK_LATENCY = 'temporal_workflow_task_execution_latency(_seconds)?_bucket'
TEMPORAL_ACT_LATENCY = 'temporal_activity_execution_latency(_seconds)?_bucket'
TEMPORAL_ACT_FAILED = 'temporal_activity_execution_failed(_total)?'
TEMPORAL_WF_COMPLETED = 'temporal_workflow_completed(_total)?'


def _q(expr: str, legend: str = "", ref: str = "A", **extra: Any) -> dict[str, Any]:
    return {"datasource": DS, "expr": expr, "legendFormat": legend or "__auto", "refId": ref,
            "range": True, **extra}


def _quantiles(metric: str, by: str, legend: str) -> list[dict[str, Any]]:
    inner = f"sum by (le{', ' + by if by else ''}) (rate({metric}_bucket{{{SEL}}}[{RI}]))"
    return [_q(f"histogram_quantile({q}, {inner})", f"p{int(q * 100)} {legend}".strip(), ref)
            for q, ref in ((0.5, "A"), (0.95, "B"), (0.99, "C"))]


class _Layout:
    """Places panels left to right on Grafana's 24-column grid, with collapsible rows."""

    def __init__(self) -> None:
        self.panels: list[dict[str, Any]] = []
        self.x = 0
        self.y = 0
        self.h = 0
        self.next_id = 1

    def row(self, title: str) -> None:
        self._newline()
        self.panels.append({"type": "row", "title": title, "id": self._id(), "collapsed": False,
                            "gridPos": {"h": 1, "w": 24, "x": 0, "y": self.y}, "panels": []})
        self.y += 1

    def panel(self, kind: str, title: str, targets: list[dict[str, Any]], *, w: int = 8,
              h: int = 8, unit: str = "short", desc: str = "", **opts: Any) -> None:
        if self.x + w > 24:
            self._newline()
        field_defaults: dict[str, Any] = {"unit": unit}
        if kind == "timeseries":
            field_defaults["custom"] = {"drawStyle": "line", "lineWidth": 1, "fillOpacity": 10,
                                        "showPoints": "never", "spanNulls": True}
        panel = {"type": kind, "title": title, "id": self._id(), "datasource": DS,
                 "description": desc, "gridPos": {"h": h, "w": w, "x": self.x, "y": self.y},
                 "targets": targets,
                 "fieldConfig": {"defaults": field_defaults, "overrides": []},
                 "options": opts or {"legend": {"displayMode": "list", "placement": "bottom"},
                                     "tooltip": {"mode": "multi", "sort": "desc"}}}
        self.panels.append(panel)
        self.x += w
        self.h = max(self.h, h)

    def _newline(self) -> None:
        if self.x:
            self.y += self.h
        self.x, self.h = 0, 0

    def _id(self) -> int:
        self.next_id += 1
        return self.next_id - 1


def _panels() -> list[dict[str, Any]]:
    L = _Layout()
    ts = "timeseries"

    L.row("Calls")
    L.panel("stat", "Active calls", [_q(f"sum(callcenter_calls_active{{{SEL}}})", "active")],
            w=4, desc="Calls in progress across the selected agent workers.",
            reduceOptions={"calcs": ["lastNotNull"], "fields": "", "values": False},
            colorMode="value", graphMode="area")
    L.panel(ts, "Call volume (calls per minute)", [
        _q(f"sum(rate(callcenter_calls_started_total{{{SEL}}}[{RI}])) * 60", "started"),
        _q(f"sum by (outcome) (rate(callcenter_calls_total{{{SEL}}}[{RI}])) * 60",
           "ended {{outcome}}", "B"),
        _q(f"sum(rate(callcenter_turns_total{{{SEL}}}[{RI}])) * 60", "turns", "C"),
    ], w=7, unit="short", desc="Calls started, calls ended by outcome, and caller turns, per minute.")
    L.panel(ts, "Turn latency", _quantiles("callcenter_turn_duration_seconds", "", "turn"),
            w=7, unit="s", desc="From the end of the caller's turn to the answer.")
    L.panel(ts, "Call duration", _quantiles("callcenter_call_duration_seconds", "", "call"),
            w=6, unit="s", desc="Duration of completed calls.")

    L.row("Voice")
    L.panel(ts, "Voice stages after the caller stops (p50 / p95 / p99)",
            _quantiles("callcenter_voice_stage_seconds", "stage", "{{stage}}"),
            w=16, unit="s",
            desc="End of caller speech -> final transcript -> first reply text at the TTS -> first agent audio. "
                 "Alert CallcenterVoiceFirstAudioSlow: p95 first audio over 2 s (industry budget 0.8 s).")
    L.panel(ts, "Spoken turns over 1.5 s to first audio (share)", [
        _q(f'1 - sum(rate(callcenter_voice_stage_seconds_bucket{{{SEL}, stage="first_audio", le="1.5"}}[{RI}]))'
           f' / sum(rate(callcenter_voice_stage_seconds_count{{{SEL}, stage="first_audio"}}[{RI}]))', "over 1.5 s"),
    ], w=8, unit="percentunit", desc="Share of spoken turns whose first audio came later than 1.5 s after the caller stopped.")
    L.row("Routing hops")
    L.panel(ts, "Hop rate by hop (per second)", [
        _q(f"sum by (from_agent, to_agent) (rate(callcenter_hops_total{{{SEL}}}[{RI}]))",
           "{{from_agent}} → {{to_agent}}"),
    ], w=8, unit="ops", desc="Every transfer of control: meta→domain, domain→specialist and returns.")
    L.panel(ts, "Hop latency p50 / p95 / p99 by hop",
            _quantiles("callcenter_hop_duration_seconds", "from_agent, to_agent",
                       "{{from_agent}} → {{to_agent}}"),
            w=10, unit="s", desc="Alert CallcenterHopLatencyP95OverBudget: 250 ms local paths, 3 s llm.")
    L.panel(ts, "Hop outcomes", [
        _q(f"sum by (outcome) (rate(callcenter_hops_total{{{SEL}}}[{RI}]))", "{{outcome}}"),
    ], w=6, unit="ops", desc="ok, error, loop_guard, misrouted, ...")

    L.row("Routing decisions")
    L.panel(ts, "Fast path vs LLM share", [
        _q(f"sum by (decision) (rate(callcenter_routing_decisions_total{{{SEL}}}[{RI}]))"
           f" / ignoring (decision) group_left sum(rate(callcenter_routing_decisions_total{{{SEL}}}[{RI}]))",
           "{{decision}}"),
    ], w=8, unit="percentunit",
        desc="Share of routing decisions taken by the fast classifier, the LLM, the embedded LLM, a clarifying question or out-of-scope.")
    L.panel(ts, "Hop path share", [
        _q(f"sum by (path) (rate(callcenter_hops_total{{{SEL}, path!=\"return\"}}[{RI}]))"
           f" / ignoring (path) group_left sum(rate(callcenter_hops_total{{{SEL}, path!=\"return\"}}[{RI}]))",
           "{{path}}"),
    ], w=8, unit="percentunit", desc="Share of downward hops by how they were decided (fast, llm, embedded).")
    L.panel("heatmap", "Routing confidence", [
        _q(f"sum by (le) (increase(callcenter_routing_confidence_bucket{{{SEL}}}[{RI}]))",
           "{{le}}", format="heatmap"),
    ], w=8, unit="short", desc="Classifier confidence of routing decisions; a shift left after a deploy means a worse model.",
        calculate=False, yAxis={"axisPlacement": "left"}, cellGap=1,
        color={"mode": "scheme", "scheme": "Oranges"})
    L.panel(ts, "Clarification / fallback / loop-guard rate (share of turns)", [
        _q(f"sum(rate(callcenter_clarifications_total{{{SEL}}}[{RI}])) / sum(rate(callcenter_turns_total{{{SEL}}}[{RI}]))",
           "clarifications"),
        _q(f"sum(rate(callcenter_fallbacks_total{{{SEL}}}[{RI}])) / sum(rate(callcenter_turns_total{{{SEL}}}[{RI}]))",
           "fallbacks", "B"),
        _q(f"sum(rate(callcenter_loop_guard_trips_total{{{SEL}}}[{RI}])) / sum(rate(callcenter_turns_total{{{SEL}}}[{RI}]))",
           "loop guard", "C"),
    ], w=12, unit="percentunit", desc="Alerts: fallbacks > 15%, clarifications > 30% of turns.")
    L.panel(ts, "Clarifications, fallbacks, loop guard by reason (per second)", [
        _q(f"sum by (reason) (rate(callcenter_clarifications_total{{{SEL}}}[{RI}]))", "clarify {{reason}}"),
        _q(f"sum by (reason) (rate(callcenter_fallbacks_total{{{SEL}}}[{RI}]))", "fallback {{reason}}", "B"),
        _q(f"sum by (reason) (rate(callcenter_loop_guard_trips_total{{{SEL}}}[{RI}]))", "loop guard {{reason}}", "C"),
    ], w=12, unit="ops")

    L.row("Specialists and LLM")
    L.panel(ts, "Specialist outcomes (per second)", [
        _q(f"sum by (domain, specialist, status) (rate(callcenter_specialist_results_total{{{SEL}}}[{RI}]))",
           "{{specialist}} {{status}}"),
    ], w=8, unit="ops", desc="Typed results returned by specialist tasks, by status.")
    L.panel(ts, "Specialist circuit breakers", [
        _q(f"max by (specialist) (callcenter_circuit_open{{{SEL}}})", "{{specialist}} open"),
        _q(f"sum by (specialist) (increase(callcenter_circuit_trips_total{{{SEL}}}[{RI}]))", "{{specialist}} trips", "B"),
    ], w=8, unit="short", desc="1 while a specialist's breaker is open (callers get a call back); alert after 5 minutes.")
    L.panel(ts, "LLM calls by agent (per second)", [
        _q(f"sum by (agent, provider) (rate(callcenter_llm_calls_total{{{SEL}}}[{RI}]))",
           "{{agent}} ({{provider}})"),
    ], w=8, unit="ops")
    L.panel(ts, "LLM tokens (per second)", [
        _q(f"sum by (provider, type) (rate(callcenter_llm_tokens_total{{{SEL}}}[{RI}]))",
           "{{provider}} {{type}}"),
    ], w=8, unit="short")

    L.row("Approvals and workflows")
    L.panel(ts, "Approval queue depth", [
        _q(f"sum by (kind) (callcenter_approvals_pending{{{SEL}}})", "{{kind}}"),
    ], w=6, unit="short", desc="Approvals waiting for an operator. Alert: pending with no decision for 30 min.")
    L.panel(ts, "Time to decision", _quantiles("callcenter_approval_decision_duration_seconds", "kind", "{{kind}}"),
            w=6, unit="s", desc="From approval request to the operator's (or the timeout's) decision.")
    L.panel(ts, "Approval decisions", [
        _q(f"sum by (kind, decision) (increase(callcenter_approval_decisions_total{{{SEL}}}[{RI}]))",
           "{{kind}} {{decision}}"),
    ], w=6, unit="short")
    L.panel(ts, "Workflow outcomes", [
        _q(f"sum by (workflow, outcome) (increase(callcenter_workflow_outcomes_total{{{SEL}}}[{RI}]))",
           "{{workflow}} {{outcome}}"),
    ], w=6, unit="short", desc="Alert CallcenterWorkflowFailures on failed, timed_out, terminated.")
    L.panel(ts, "Requests ended outside the line", [
        _q(f"sum by (kind, how) (increase(callcenter_requests_ended_outside_total{{{SEL}}}[{RI}]))",
           "{{kind}} {{how}}"),
    ], w=6, unit="short", desc="Terminated or cancelled in Temporal, or started by hand and refused at admission"
       " (how: terminated, canceled, not_filed). Alert CallcenterRequestEndedOutsideTheLine.")

    L.row("Worker health")
    L.panel(ts, "Targets up", [
        _q(f'up{{{SEL}, job=~".*callcenter.*"}}', "{{job}} {{instance}}"),
    ], w=4, unit="short", desc="1 = Prometheus scrapes the endpoint. Alert CallcenterMetricsEndpointDown.")
    L.panel(ts, "Process CPU (cores)", [
        _q(f"sum by (job, instance) (rate(process_cpu_seconds_total{{{SEL}}}[{RI}]))", "{{job}} {{instance}}"),
    ], w=5, unit="short", desc="One event loop is CPU bound: a process near 1 core is saturated, scale out.")
    L.panel(ts, "Process memory", [
        _q(f"sum by (job, instance) (process_resident_memory_bytes{{{SEL}}})", "{{job}} {{instance}}"),
    ], w=5, unit="bytes", desc="Resident memory of every Python process.")
    L.panel(ts, "Temporal workflow task latency", [
        _q(f"histogram_quantile(0.95, sum by (le, job) (rate({{__name__=~\"{TEMPORAL_WF_TASK_LATENCY}\", {SEL}}}[{RI}])))",
           "p95 workflow task {{job}}"),
        _q(f"histogram_quantile(0.95, sum by (le, job) (rate({{__name__=~\"{TEMPORAL_ACT_LATENCY}\", {SEL}}}[{RI}])))",
           "p95 activity {{job}}", "B"),
    ], w=5, unit="s", desc="Temporal SDK metrics of the Temporal worker (served with durations in seconds).")
    L.panel(ts, "Temporal activity failures and workflow completions", [
        _q(f"sum by (activity_type) (rate({{__name__=~\"{TEMPORAL_ACT_FAILED}\", {SEL}}}[{RI}])) or vector(0)",
           "failed {{activity_type}}"),
        _q(f"sum by (workflow_type) (rate({{__name__=~\"{TEMPORAL_WF_COMPLETED}\", {SEL}}}[{RI}]))",
           "completed {{workflow_type}}", "B"),
    ], w=5, unit="ops", desc="Activity failures are retried; a sustained rate means a broken dependency.")
    return L.panels


def dashboard() -> dict[str, Any]:
    def var(name: str, label: str, query: str) -> dict[str, Any]:
        return {"name": name, "label": label, "type": "query", "datasource": DS,
                "query": {"query": query, "refId": f"{name}-var"}, "definition": query,
                "refresh": 2, "includeAll": True, "multi": True, "allValue": ".*",
                "current": {"selected": True, "text": ["All"], "value": ["$__all"]},
                "sort": 1, "hide": 0, "options": [], "regex": ""}

    return {
        "__inputs": [{"name": "DS_PROMETHEUS", "label": "Prometheus", "type": "datasource",
                      "pluginId": "prometheus", "pluginName": "Prometheus"}],
        "annotations": {"list": []},
        "description": "Hierarchical voice call center: calls, routing hops, decisions, approvals, workers.",
        "editable": True,
        "graphTooltip": 1,
        "links": [],
        "panels": _panels(),
        "refresh": "30s",
        "schemaVersion": 39,
        "tags": ["callcenter", "livekit", "temporal"],
        "templating": {"list": [
            {"name": "DS_PROMETHEUS", "label": "Data source", "type": "datasource",
             "query": "prometheus", "current": {}, "hide": 0, "regex": "", "options": []},
            var("namespace", "Namespace", "label_values(callcenter_calls_active, namespace)"),
            var("instance", "Instance", 'label_values({__name__=~"callcenter_calls_active|'
                'temporal_num_pollers", namespace=~"$namespace"}, instance)'),
        ]},
        "time": {"from": "now-3h", "to": "now"},
        "timepicker": {},
        "timezone": "",
        "title": "Call center",
        "uid": UID,
        "version": 1,
        "weekStart": "",
    }


def render() -> str:
    return json.dumps(dashboard(), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    OUT.write_text(render(), encoding="utf-8")
    sys.stdout.write(f"wrote {OUT}\n")


def panel_queries(dash: dict[str, Any], *, rate_interval: str = "1m") -> list[tuple[str, str, str]]:
    """(panel title, refId, PromQL) of every panel target, Grafana variables substituted
    the way Grafana would with "All" selected, so promtool and Prometheus can run them."""
    subst = {"$__rate_interval": rate_interval, "$__interval": rate_interval,
             "$namespace": ".*", "$instance": ".*"}
    out = []
    for panel in dash["panels"]:
        for target in panel.get("targets", []):
            expr = target["expr"]
            for var, value in subst.items():
                expr = expr.replace(var, value)
            out.append((panel["title"], target["refId"], expr))
    return out
