"""The second dashboard, "Line outcomes": generated, in Grafana's dashboard schema, every
query parses, the KPIs the people who run the line ask for are there, and the chart ships
it beside the first one with the recording rules."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
from pathlib import Path
from types import ModuleType

import pytest
import yaml

from tests.metrics.test_metrics_dashboard import _grafana_roundtrip

ROOT = Path(__file__).resolve().parents[2]
FILES = ROOT / "deploy/helm/callcenter/files"
OUTCOMES = FILES / "dashboard-outcomes.json"


@pytest.fixture(scope="module")
def builder() -> ModuleType:
    spec = importlib.util.spec_from_file_location("callcenter_build_outcomes", ROOT / "deploy/monitoring/build_outcomes_dashboard.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def dash() -> dict:
    return json.loads(OUTCOMES.read_text(encoding="utf-8"))


def test_committed_json_is_what_the_builder_makes(builder: ModuleType) -> None:
    assert OUTCOMES.read_text(encoding="utf-8") == builder.render(), (
        "dashboard-outcomes.json is stale: run .venv/bin/python deploy/monitoring/build_outcomes_dashboard.py")


def test_its_own_uid_title_and_the_same_variables(dash: dict) -> None:
    first = json.loads((FILES / "dashboard.json").read_text(encoding="utf-8"))
    assert dash["title"] == "Line outcomes" and dash["uid"] == "callcenter-line-outcomes" != first["uid"]
    assert dash["templating"] == first["templating"]
    ids = [p["id"] for p in dash["panels"]]
    assert len(ids) == len(set(ids))
    for panel in dash["panels"]:
        for t in panel.get("targets", []):
            assert '$namespace' in t["expr"] and '$instance' in t["expr"], (panel["title"], t["expr"])


def test_every_kpi_is_there(dash: dict) -> None:
    titles = " | ".join(p["title"].lower() for p in dash["panels"])
    for needle in ("containment", "first-contact resolution", "transfer rate", "call-back rate", "abandonment",
                   "average handle time", "time to approval", "top call-back reasons", "by domain"):
        assert needle in titles, needle
    exprs = " ".join(t["expr"] for p in dash["panels"] for t in p.get("targets", []))
    for metric in ("callcenter_call_outcomes_total", "callcenter_need_outcomes_total", "callcenter_need_contacts_total",
                   "callcenter_call_handle_seconds", "callcenter_domain_handle_seconds", "callcenter_callback_reasons_total",
                   "callcenter_approval_decision_duration_seconds"):
        assert metric in exprs, metric
    # Labels are bounded vocabularies: nothing groups by a customer, a call or free text.
    for by in re.findall(r"by \(([^)]*)\)", exprs):
        assert set(map(str.strip, by.split(","))) <= {"outcome", "domain", "contact", "reason", "kind", "le"}, by


def test_panels_do_not_overlap(dash: dict) -> None:
    cells: set[tuple[int, int]] = set()
    for p in dash["panels"]:
        g = p["gridPos"]
        assert g["x"] + g["w"] <= 24, p["title"]
        mine = {(x, y) for x in range(g["x"], g["x"] + g["w"]) for y in range(g["y"], g["y"] + g["h"])}
        assert not cells & mine, p["title"]
        cells |= mine


def test_every_field_is_in_grafanas_dashboard_schema(dash: dict) -> None:
    assert _grafana_roundtrip(dash) == []


def test_every_panel_query_parses(dash: dict, builder: ModuleType, tmp_path: Path, promtool: str) -> None:
    queries = builder.panel_queries(dash)
    assert len(queries) >= 15
    rules = {"groups": [{"name": "dashboard", "rules": [
        {"record": f"dashboard:query_{i}", "expr": q} for i, (_, _, q) in enumerate(queries)]}]}
    path = tmp_path / "dashboard_rules.yaml"
    path.write_text(yaml.safe_dump(rules))
    out = subprocess.run([promtool, "check", "rules", str(path)], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
