"""Helpers for the Helm chart tests: render the chart offline with helm-python-sdk (Helm's
Go SDK, no helm binary, no cluster) and index the rendered manifests. Imported by the test
modules of this folder (conftest.py puts the folder on sys.path)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import helm_python as helm
import yaml

REPO = Path(__file__).resolve().parents[2]
CHART_DIR = REPO / "deploy" / "helm" / "callcenter"
CI_DIR = CHART_DIR / "ci"
KUBE_VERSION = "1.30.0"
RELEASE = "prod"
NAMESPACE = "callcenter"

# Kinds that come from CRDs (Prometheus Operator): no schema in the Kubernetes JSON schemas.
CRD_KINDS = {"ServiceMonitor", "PrometheusRule"}

# Every way the chart is checked: the defaults and each ci/*-values.yaml.
VARIANTS: dict[str, Path | None] = {"default": None} | {
    p.name.removesuffix("-values.yaml"): p for p in sorted(CI_DIR.glob("*-values.yaml"))
}


def load_values(variant: str) -> dict[str, Any] | None:
    path = VARIANTS[variant]
    return None if path is None else yaml.safe_load(path.read_text())


@dataclass
class Rendered:
    """The manifests of one render, by template and by (kind, name)."""

    by_template: dict[str, list[dict[str, Any]]]
    notes: str
    docs: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.docs = [d for docs in self.by_template.values() for d in docs]

    def kinds(self) -> list[str]:
        return sorted(d["kind"] for d in self.docs)

    def all(self, kind: str) -> list[dict[str, Any]]:
        return [d for d in self.docs if d["kind"] == kind]

    def get(self, kind: str, name: str) -> dict[str, Any]:
        found = [d for d in self.all(kind) if d["metadata"]["name"] == name]
        assert len(found) == 1, f"expected one {kind}/{name}, found {len(found)}: {self.kinds()}"
        return found[0]

    def maybe(self, kind: str, name: str) -> dict[str, Any] | None:
        found = [d for d in self.all(kind) if d["metadata"]["name"] == name]
        return found[0] if found else None


def render(values: dict[str, Any] | None = None, *, name: str = RELEASE, namespace: str = NAMESPACE) -> Rendered:
    with helm.Chart.load(CHART_DIR) as chart:
        out = chart.render(values=values, name=name, namespace=namespace, is_install=True)
    by_template: dict[str, list[dict[str, Any]]] = {}
    notes = ""
    for template, text in out.items():
        if template.endswith("NOTES.txt"):
            notes = text
            continue
        by_template[template] = [d for d in yaml.safe_load_all(text) if d]
    return Rendered(by_template, notes)


def fullname(release: str = RELEASE) -> str:
    return f"{release}-callcenter"


def pod_spec(deployment: dict[str, Any]) -> dict[str, Any]:
    return deployment["spec"]["template"]["spec"]


def container(deployment: dict[str, Any]) -> dict[str, Any]:
    containers = pod_spec(deployment)["containers"]
    assert len(containers) == 1
    return containers[0]


def env_of(deployment: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {e["name"]: e for e in container(deployment).get("env", [])}


def matches(selector: dict[str, str], labels: dict[str, str]) -> bool:
    return all(labels.get(k) == v for k, v in selector.items())
