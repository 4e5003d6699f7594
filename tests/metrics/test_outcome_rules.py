"""Recording rules of the line's outcome KPIs: promtool checks them, and its unit tests
compute every one from an hour of calls with known outcomes."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "deploy/helm/callcenter/files/recording_rules.yaml"
RULES_TEST = ROOT / "deploy/monitoring/recording_rules_test.yaml"


def _records() -> list[str]:
    return [r["record"] for g in yaml.safe_load(RULES.read_text())["groups"] for r in g["rules"]]


def test_names_follow_the_convention_and_labels_are_bounded() -> None:
    names = _records()
    assert len(names) == len(set(names)) >= 10
    for name in names:
        level, metric, operation = name.split(":")
        assert level.split("_")[0] == "namespace" and metric.startswith("callcenter_") and operation, name
    text = RULES.read_text()
    for by in set(re.findall(r"by \(([^)]*)\)", text)):
        assert set(map(str.strip, by.split(","))) <= {"namespace", "outcome", "domain", "kind", "reason", "le"}, by


def test_every_rule_has_a_unit_test() -> None:
    tested = {e["expr"].split("{")[0] for case in yaml.safe_load(RULES_TEST.read_text())["tests"]
              for e in case["promql_expr_test"]}
    assert set(_records()) <= tested


def test_promtool_check_and_unit_tests(promtool: str) -> None:
    out = subprocess.run([promtool, "check", "rules", str(RULES)], capture_output=True, text=True)
    assert out.returncode == 0 and f"SUCCESS: {len(_records())} rules found" in out.stdout, out.stdout + out.stderr
    out = subprocess.run([promtool, "test", "rules", RULES_TEST.name], cwd=RULES_TEST.parent,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "SUCCESS" in out.stdout, out.stdout + out.stderr
