"""Alert rules: promtool check + promtool unit tests, and every alert is tested both ways."""

from __future__ import annotations

import subprocess
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
ALERTS = ROOT / "deploy/helm/callcenter/files/alerts.yaml"
ALERTS_TEST = ROOT / "deploy/monitoring/alerts_test.yaml"


def _alerts() -> list[dict]:
    doc = yaml.safe_load(ALERTS.read_text())
    return [r for g in doc["groups"] for r in g["rules"] if "alert" in r]


def test_every_alert_has_severity_and_runbook() -> None:
    alerts = _alerts()
    assert len(alerts) >= 8
    names = [a["alert"] for a in alerts]
    assert len(names) == len(set(names)), "duplicate alert names"
    for a in alerts:
        assert a["labels"]["severity"] in {"warning", "critical"}, a["alert"]
        ann = a["annotations"]
        for key in ("summary", "description", "runbook"):
            assert ann.get(key, "").strip(), f"{a['alert']} lacks annotation {key}"


def test_every_alert_has_firing_and_not_firing_unit_tests() -> None:
    doc = yaml.safe_load(ALERTS_TEST.read_text())
    firing: set[str] = set()
    quiet: set[str] = set()
    for case in doc["tests"]:
        for check in case.get("alert_rule_test", []):
            (firing if check.get("exp_alerts") else quiet).add(check["alertname"])
    names = {a["alert"] for a in _alerts()}
    assert names - firing == set(), "alerts without a firing test"
    assert names - quiet == set(), "alerts without a not-firing test"
    assert (firing | quiet) <= names, "tests name alerts that do not exist"


def test_promtool_check_rules(promtool: str) -> None:
    out = subprocess.run([promtool, "check", "rules", str(ALERTS)], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert f"SUCCESS: {len(_alerts())} rules found" in out.stdout


def test_promtool_unit_tests_pass(promtool: str) -> None:
    # promtool resolves rule_files relative to the test file's folder.
    out = subprocess.run([promtool, "test", "rules", ALERTS_TEST.name], cwd=ALERTS_TEST.parent,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "SUCCESS" in out.stdout
