"""The Grafana dashboard JSON: generated, well formed, covering every metric, and every
panel query parses (promtool). tests/metrics/test_metrics_prometheus.py runs them for real."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from types import ModuleType

import pytest
import yaml
from prometheus_client import REGISTRY

import callcenter.metrics  # noqa: F401 - registers the callcenter_ families

ROOT = Path(__file__).resolve().parents[2]
DASHBOARD = ROOT / "deploy/helm/callcenter/files/dashboard.json"


@pytest.fixture(scope="module")
def dash() -> dict:
    return json.loads(DASHBOARD.read_text(encoding="utf-8"))


def test_committed_json_is_what_the_builder_makes(dashboard_builder: ModuleType) -> None:
    assert DASHBOARD.read_text(encoding="utf-8") == dashboard_builder.render(), (
        "dashboard.json is stale: run .venv/bin/python deploy/monitoring/build_dashboard.py")


def test_shape_variables_and_datasource(dash: dict) -> None:
    assert dash["schemaVersion"] == 39 and dash["uid"] == "callcenter-overview"
    variables = {v["name"]: v for v in dash["templating"]["list"]}
    assert variables["DS_PROMETHEUS"]["type"] == "datasource"
    for name in ("namespace", "instance"):
        assert variables[name]["includeAll"] and variables[name]["allValue"] == ".*"
    ids = [p["id"] for p in dash["panels"]]
    assert len(ids) == len(set(ids))
    for panel in dash["panels"]:
        if panel["type"] == "row":
            continue
        assert panel["datasource"]["uid"] == "${DS_PROMETHEUS}"
        for t in panel["targets"]:
            assert t["datasource"]["uid"] == "${DS_PROMETHEUS}"
            assert '$namespace' in t["expr"] and '$instance' in t["expr"], (panel["title"], t["expr"])


def test_panels_do_not_overlap(dash: dict) -> None:
    cells: set[tuple[int, int]] = set()
    for p in dash["panels"]:
        g = p["gridPos"]
        assert g["x"] + g["w"] <= 24, p["title"]
        mine = {(x, y) for x in range(g["x"], g["x"] + g["w"]) for y in range(g["y"], g["y"] + g["h"])}
        assert not cells & mine, p["title"]
        cells |= mine


def test_required_views_are_there(dash: dict) -> None:
    titles = " | ".join(p["title"].lower() for p in dash["panels"])
    for needle in ("call volume", "hop rate", "hop latency p50 / p95 / p99", "fast path vs llm",
                   "clarification / fallback / loop-guard", "specialist outcomes",
                   "approval queue depth", "time to decision", "worker health", "temporal"):
        assert needle in titles, needle


def test_every_callcenter_metric_is_on_the_dashboard(dash: dict) -> None:
    # On one of the two: this one, or "Line outcomes" (the line's KPIs, test_outcomes_dashboard.py).
    outcomes = json.loads((DASHBOARD.parent / "dashboard-outcomes.json").read_text(encoding="utf-8"))
    exprs = " ".join(t["expr"] for d in (dash, outcomes) for p in d["panels"] for t in p.get("targets", []))
    used = set(re.findall(r"callcenter_[a-z_]+", exprs))
    families = {f.name for f in REGISTRY.collect() if f.name.startswith("callcenter_")}
    for fam in families:
        assert any(u == fam or u.startswith(fam + "_") for u in used), f"{fam} not on the dashboard"
    # and nothing on the dashboard that the code does not export
    known = {s for f in REGISTRY.collect() if f.name.startswith("callcenter_") for s in
             (f.name, f.name + "_total", f.name + "_bucket", f.name + "_count", f.name + "_sum")}
    assert used <= known, used - known


def test_every_panel_query_parses(dash: dict, dashboard_builder: ModuleType, tmp_path: Path, promtool: str) -> None:
    # promtool has no "parse this expression" command in Debian's 2.42; a rules file of
    # recording rules is parsed and type-checked offline by `check rules`.
    queries = dashboard_builder.panel_queries(dash)
    assert len(queries) >= 25
    rules = {"groups": [{"name": "dashboard", "rules": [
        {"record": f"dashboard:query_{i}", "expr": q} for i, (_, _, q) in enumerate(queries)]}]}
    path = tmp_path / "dashboard_rules.yaml"
    path.write_text(yaml.safe_dump(rules))
    out = subprocess.run([promtool, "check", "rules", str(path)], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert f"SUCCESS: {len(queries)} rules found" in out.stdout


# --- Grafana's own dashboard schema ---------------------------------------------------------
# Grafana publishes no standalone JSON Schema file for dashboards that could be vendored; its
# schema (the CUE "kind") is what grafana-foundation-sdk's models are generated from. A field
# those models do not know is one Grafana ignores in silence (a misspelled "gridpos", an
# option of the wrong panel type), so: parse with the generated models, write back out, and
# every key of the committed JSON must survive.
# Known to Grafana but outside the dashboard kind: "__inputs" belongs to the export/import
# envelope (the datasource prompt on import) and "definition" is the query-variable editor's
# display copy of the query.
OUTSIDE_THE_KIND = {"/__inputs", "/templating/list[*]/definition"}


def _dropped(src: object, back: object, path: str = "") -> list[str]:
    if isinstance(src, dict):
        if not isinstance(back, dict):
            return [f"{path} (became {type(back).__name__})"]
        out = []
        for key, value in src.items():
            if key not in back:
                out.append(f"{path}/{key}")
            else:
                out += _dropped(value, back[key], f"{path}/{key}")
        return out
    if isinstance(src, list):
        if not isinstance(back, list) or len(back) != len(src):
            return [f"{path} (list changed)"]
        return [d for i, (a, b) in enumerate(zip(src, back, strict=True)) for d in _dropped(a, b, f"{path}[{i}]")]
    return [] if src == back else [f"{path} ({src!r} became {back!r})"]


def _grafana_roundtrip(dashboard: dict) -> list[str]:
    from grafana_foundation_sdk.cog import plugins
    from grafana_foundation_sdk.cog.encoder import JSONEncoder
    from grafana_foundation_sdk.models.dashboard import Dashboard

    plugins.register_default_plugins()  # panel options and queries by plugin type
    back = json.loads(json.dumps(Dashboard.from_json(dashboard), cls=JSONEncoder))
    return [d for d in _dropped(dashboard, back) if re.sub(r"\[\d+\]", "[*]", d) not in OUTSIDE_THE_KIND]


def test_every_field_is_in_grafanas_dashboard_schema(dash: dict) -> None:
    assert _grafana_roundtrip(dash) == []


def test_the_schema_check_catches_unknown_fields(dash: dict) -> None:
    broken = json.loads(json.dumps(dash))
    panel = next(p for p in broken["panels"] if p["type"] == "timeseries")
    panel["gridpos"] = panel.pop("gridPos")
    panel["fieldConfig"]["defaults"]["unitt"] = "s"
    broken["graphToolTip"] = 1
    problems = _grafana_roundtrip(broken)
    assert "/graphToolTip" in problems
    assert any(p.endswith("/gridpos") for p in problems)
    assert any(p.endswith("/fieldConfig/defaults/unitt") for p in problems)
