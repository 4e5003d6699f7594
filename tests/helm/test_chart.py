"""The Helm chart, checked without a cluster: rendered for the defaults and every
ci/*-values.yaml, linted strictly, every manifest validated against the Kubernetes 1.30 JSON
schemas in strict mode (unknown fields rejected), and the fields that matter asserted.

ServiceMonitor and PrometheusRule are Prometheus Operator CRDs, absent from the Kubernetes
schemas: they are checked structurally here instead (see the CRD tests)."""

from __future__ import annotations

import base64
import copy
import json
import re

import helm_python as helm
import kubernetes_validate
import pytest
import yaml
from helmchart import (
    CHART_DIR,
    CRD_KINDS,
    KUBE_VERSION,
    RELEASE,
    VARIANTS,
    container,
    env_of,
    fullname,
    load_values,
    matches,
    pod_spec,
    render,
)

FULL = fullname()
AGENT = f"{FULL}-agent-worker"
TWORKER = f"{FULL}-temporal-worker"
CONFIG = f"{FULL}-config"
STANDARD_LABELS = {
    "helm.sh/chart",
    "app.kubernetes.io/name",
    "app.kubernetes.io/instance",
    "app.kubernetes.io/version",
    "app.kubernetes.io/managed-by",
    "app.kubernetes.io/part-of",
}


def credential_secrets(r) -> list[dict]:  # noqa: ANN001
    """Secrets holding the product's credentials (not the in-cluster database's password)."""
    return [s for s in r.all("Secret") if s["metadata"]["name"] != f"{FULL}-postgresql"]


def app_services(r) -> list[dict]:  # noqa: ANN001
    return [s for s in r.all("Service") if s["metadata"]["name"] != f"{FULL}-postgresql"]


def values(variant: str) -> dict:
    """The values a variant resolves to (chart defaults merged with the file)."""
    with helm.Chart.load(CHART_DIR) as chart:
        return chart.merge_values(load_values(variant))


# ---------------------------------------------------------------------------------------
# Every variant: lint, Kubernetes schema validation, one resource per template
# ---------------------------------------------------------------------------------------


def test_ci_variants_cover_the_required_cases(rendered):
    kinds = {v: set(r.kinds()) for v, r in rendered.items()}
    assert any({"ServiceMonitor", "PrometheusRule"} <= k for k in kinds.values()), "monitoring on"
    assert any(not (k & CRD_KINDS) and "ConfigMap" in k for k in kinds.values()), "monitoring off"
    assert any("HorizontalPodAutoscaler" in k for k in kinds.values()), "autoscaling on"
    assert any("HorizontalPodAutoscaler" not in k for k in kinds.values()), "autoscaling off"
    assert any(values(v)["livekit"]["existingSecret"] and values(v)["llm"]["existingSecret"]
               and values(v)["temporal"]["tls"]["existingSecret"] for v in VARIANTS), "existing secrets"
    assert len(VARIANTS) >= 5


@pytest.mark.parametrize("variant", VARIANTS)
def test_lint_strict_is_clean(variant):
    report = helm.lint(CHART_DIR, load_values(variant), strict=True, kube_version=f"v{KUBE_VERSION}",
                       namespace="callcenter")
    problems = [m for m in report["messages"] if m["severity"] >= 2]  # 2 warning, 3 error
    assert report["errors"] == [] and problems == [], report
    assert report["total_charts_linted"] == 1


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_manifest_validates_against_kubernetes_1_30_strict(variant, rendered):
    checked = 0
    for doc in rendered[variant].docs:
        if doc["kind"] in CRD_KINDS:
            continue  # no schema in the Kubernetes schemas: see the CRD tests below
        try:
            kubernetes_validate.validate(doc, KUBE_VERSION, strict=True)
        except kubernetes_validate.ValidationError as e:
            path = ".".join(str(p) for p in e.path)
            pytest.fail(f"{doc['kind']}/{doc['metadata']['name']}: {path}: {e.message}")
        checked += 1
    assert checked >= 4


def test_the_validator_is_really_strict(rendered):
    """Guard against a silently lenient validator: it must reject what strict mode rejects."""
    dep = rendered["default"].get("Deployment", AGENT)
    kubernetes_validate.validate(dep, KUBE_VERSION, strict=True)
    unknown = copy.deepcopy(dep)
    unknown["spec"]["template"]["spec"]["containers"][0]["readinesProbe"] = {}
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(unknown, KUBE_VERSION, strict=True)
    wrong_type = copy.deepcopy(dep)
    wrong_type["spec"]["replicas"] = "two"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(wrong_type, KUBE_VERSION, strict=True)


@pytest.mark.parametrize("variant", VARIANTS)
def test_one_resource_per_template_and_valid_names(variant, rendered):
    names = set()
    for template, docs in rendered[variant].by_template.items():
        assert len(docs) <= 1, f"{template} renders {len(docs)} resources"
        for d in docs:
            name = d["metadata"]["name"]
            assert re.fullmatch(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?", name) and len(name) <= 63, name
            assert (d["kind"], name) not in names
            names.add((d["kind"], name))


def test_long_release_names_still_give_valid_names():
    release = "a-very-long-release-name-for-the-callcenter-product-x"  # 53: Helm's maximum
    helm.validate_release_name(release)
    r = render(load_values("monitoring"), name=release)
    for d in r.docs:
        assert len(d["metadata"]["name"]) <= 63, d["metadata"]["name"]


# ---------------------------------------------------------------------------------------
# Labels and selectors
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_standard_labels_on_every_resource(variant, rendered):
    for d in rendered[variant].docs:
        labels = d["metadata"]["labels"]
        assert STANDARD_LABELS <= labels.keys(), (d["kind"], d["metadata"]["name"])
        assert labels["app.kubernetes.io/name"] == "callcenter"
        assert labels["app.kubernetes.io/instance"] == RELEASE
        assert labels["app.kubernetes.io/managed-by"] == "Helm"
    for d in rendered[variant].all("Deployment"):
        component = d["metadata"]["labels"]["app.kubernetes.io/component"]
        assert d["spec"]["template"]["metadata"]["labels"]["app.kubernetes.io/component"] == component


@pytest.mark.parametrize("variant", VARIANTS)
def test_selectors_match_pod_labels(variant, rendered):
    r = rendered[variant]
    deployments = r.all("Deployment") + r.all("StatefulSet")  # the in-cluster database too
    pods = {d["metadata"]["name"]: d["spec"]["template"]["metadata"]["labels"] for d in deployments}
    for d in deployments:
        sel = d["spec"]["selector"]["matchLabels"]
        assert matches(sel, pods[d["metadata"]["name"]])
        # a Deployment's selector must not also select the other component's pods
        assert [n for n, labels in pods.items() if matches(sel, labels)] == [d["metadata"]["name"]]
        for tsc in pod_spec(d).get("topologySpreadConstraints", []):
            assert matches(tsc["labelSelector"]["matchLabels"], pods[d["metadata"]["name"]])
    for svc in r.all("Service"):
        selected = [n for n, labels in pods.items() if matches(svc["spec"]["selector"], labels)]
        assert len(selected) == 1, svc["metadata"]["name"]
        workload = next(d for d in deployments if d["metadata"]["name"] == selected[0])
        ports = {p["name"] for p in container(workload)["ports"]}
        for port in svc["spec"]["ports"]:
            assert port["targetPort"] in ports
    for pdb in r.all("PodDisruptionBudget"):
        selected = [n for n, labels in pods.items() if matches(pdb["spec"]["selector"]["matchLabels"], labels)]
        assert selected == [pdb["metadata"]["name"]]
    for hpa in r.all("HorizontalPodAutoscaler"):
        target = hpa["spec"]["scaleTargetRef"]
        assert (target["apiVersion"], target["kind"]) == ("apps/v1", "Deployment")
        assert target["name"] in pods


# ---------------------------------------------------------------------------------------
# Workers: security, probes, drain, settings
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_pods_run_non_root_with_read_only_root_filesystem(variant, rendered):
    for d in rendered[variant].all("Deployment"):
        spec = pod_spec(d)
        assert spec["securityContext"]["runAsNonRoot"] is True
        assert spec["securityContext"]["runAsUser"] == 10001
        assert spec["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}
        assert spec["automountServiceAccountToken"] is False
        assert spec["enableServiceLinks"] is False
        c = container(d)
        sc = c["securityContext"]
        assert sc["readOnlyRootFilesystem"] is True
        assert sc["allowPrivilegeEscalation"] is False
        assert sc["capabilities"]["drop"] == ["ALL"]
        mounts = {m["mountPath"]: m["name"] for m in c["volumeMounts"]}
        volumes = {v["name"]: v for v in spec["volumes"]}
        for path in ("/data", "/tmp"):
            assert "emptyDir" in volumes[mounts[path]], path
        assert env_of(d)["CALLCENTER_DATA_DIR"]["value"] == "/data"
        assert c["resources"]["requests"]["memory"] and c["resources"]["limits"]["memory"]


def test_agent_worker_probes_hit_livekit_health_server(rendered):
    d = rendered["default"].get("Deployment", AGENT)
    c = container(d)
    assert c["args"] == ["worker", "start"]
    ports = {p["name"]: p["containerPort"] for p in c["ports"]}
    assert ports == {"health": 8081, "metrics": 9100}
    for probe in ("startupProbe", "livenessProbe"):
        assert c[probe]["httpGet"] == {"path": "/", "port": "health"}, probe
    # Ready only while registered with LiveKit (tests/voice/test_worker_readiness.py).
    assert c["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": "health"}
    assert c["startupProbe"]["failureThreshold"] * c["startupProbe"]["periodSeconds"] >= 120


def test_temporal_worker_probes_hit_healthz_and_readyz(rendered):
    r = rendered["default"]
    c = container(r.get("Deployment", TWORKER))
    assert c["args"] == ["temporal-worker"]
    ports = {p["name"]: p["containerPort"] for p in c["ports"]}
    assert ports == {"metrics": 9101, "sdk-metrics": 9102}
    assert c["livenessProbe"]["httpGet"] == {"path": "/healthz", "port": "metrics"}
    assert c["startupProbe"]["httpGet"] == {"path": "/healthz", "port": "metrics"}
    assert c["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": "metrics"}
    config = r.get("ConfigMap", CONFIG)["data"]
    assert config["CALLCENTER_WORKER_METRICS_PORT"] == "9101"
    assert config["CALLCENTER_METRICS_PORT"] == "9100"


@pytest.mark.parametrize("variant", VARIANTS)
def test_grace_period_is_drain_timeout_plus_margin(variant, rendered):
    v = values(variant)
    for key, name in (("agentWorker", AGENT), ("temporalWorker", TWORKER)):
        d = rendered[variant].maybe("Deployment", name)
        if not v[key]["enabled"]:
            assert d is None
            continue
        drain = v[key]["drainTimeoutSeconds"]
        margin = v[key]["terminationGraceMarginSeconds"]
        assert margin > 0
        assert pod_spec(d)["terminationGracePeriodSeconds"] == drain + margin
        assert env_of(d)["CALLCENTER_DRAIN_TIMEOUT_S"]["value"] == str(drain)


def test_drain_of_the_agent_worker_defaults_to_the_application_default(rendered):
    from callcenter.settings import Settings

    d = rendered["default"].get("Deployment", AGENT)
    default_drain = Settings.model_fields["drain_timeout_s"].default
    assert env_of(d)["CALLCENTER_DRAIN_TIMEOUT_S"]["value"] == str(default_drain)
    assert pod_spec(d)["terminationGracePeriodSeconds"] == default_drain + 30
    # rollouts never remove a worker before its replacement is up
    assert d["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"] == 0


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_setting_the_chart_writes_is_a_real_setting(variant, rendered):
    """CALLCENTER_* names in the ConfigMap and the env must be fields of callcenter.settings."""
    from callcenter.settings import ENV_PREFIX, Settings
    from domains.registry import settings_sections

    known = {ENV_PREFIX + f.upper() for cls in (Settings, *settings_sections()) for f in cls.model_fields}
    r = rendered[variant]
    names = set(r.get("ConfigMap", CONFIG)["data"])
    for d in r.all("Deployment"):
        names |= set(env_of(d))
    ours = {n for n in names if n.startswith(ENV_PREFIX)}
    assert ours - known == set()
    # LiveKit's own variable names, read by the LiveKit SDK, and libpq's PGPASSWORD (the
    # in-cluster database's password) are the only others
    assert names - ours <= {"LIVEKIT_URL", "LIVEKIT_API_KEY", "LIVEKIT_API_SECRET", "PGPASSWORD"}


def test_settings_configmap_carries_the_values(rendered):
    r = rendered["existing-secrets"]
    data = r.get("ConfigMap", CONFIG)["data"]
    assert all(isinstance(v, str) for v in data.values())
    assert data["LIVEKIT_URL"] == data["CALLCENTER_LIVEKIT_URL"] == "wss://example.livekit.cloud"
    assert data["CALLCENTER_LLM_PROVIDER"] == "openai"
    assert data["CALLCENTER_LLM_BASE_URL"] == "https://llm.example.com/v1"
    assert data["CALLCENTER_TEMPORAL_ADDRESS"] == "callcenter.abc12.tmprl.cloud:7233"
    assert data["CALLCENTER_TEMPORAL_TLS"] == "true"
    assert data["CALLCENTER_AUTO_REFUND_LIMIT"] == "250.00"
    assert data["CALLCENTER_APPROVAL_LIMIT_MANAGER"] == "250000"
    assert data["CALLCENTER_LOG_LEVEL"] == "WARNING"
    assert data["CALLCENTER_REFUND_WINDOW_DAYS"] == "60"
    assert data["CALLCENTER_AGENT_NAME"] == "callcenter-prod"
    for d in r.all("Deployment"):
        assert container(d)["envFrom"] == [{"configMapRef": {"name": CONFIG}}]
        assert "checksum/config" in d["spec"]["template"]["metadata"]["annotations"]


def test_the_settings_values_are_accepted_by_the_application(rendered):
    """The ConfigMap of the production-shaped variant loads into callcenter.settings."""
    from callcenter.settings import load_section, load_settings
    from domains.billing.settings import BillingSettings

    data = rendered["existing-secrets"].get("ConfigMap", CONFIG)["data"]
    fields = {k.removeprefix("CALLCENTER_").lower(): v for k, v in data.items() if k.startswith("CALLCENTER_")}
    settings = load_settings(**fields, data_dir="/data")
    billing = load_section(BillingSettings, **fields)  # billing's own limits, from the same ConfigMap
    assert str(billing.auto_refund_limit) == "250.00" and billing.refund_window_days == 60
    assert settings.temporal_tls is True


# ---------------------------------------------------------------------------------------
# Secrets
# ---------------------------------------------------------------------------------------


def secret_refs(deployment) -> dict[str, tuple[str, str]]:
    """Credentials read from Secrets (the in-cluster database's password is checked in test_database)."""
    return {
        n: (e["valueFrom"]["secretKeyRef"]["name"], e["valueFrom"]["secretKeyRef"]["key"])
        for n, e in env_of(deployment).items()
        if "valueFrom" in e and n != "PGPASSWORD"
    }


def test_existing_secrets_are_referenced_and_nothing_is_created(rendered):
    r = rendered["existing-secrets"]
    assert credential_secrets(r) == []
    for d in r.all("Deployment"):
        refs = secret_refs(d)
        assert refs["LIVEKIT_API_KEY"] == refs["CALLCENTER_LIVEKIT_API_KEY"] == ("livekit-credentials", "api-key")
        assert refs["LIVEKIT_API_SECRET"] == ("livekit-credentials", "api-secret")
        assert refs["CALLCENTER_LLM_API_KEY"] == ("llm-credentials", "api-key")
        assert refs["CALLCENTER_TEMPORAL_API_KEY"] == ("temporal-credentials", "api-key")
        # mTLS client certificate mounted read-only from its Secret, paths in the env
        spec, c = pod_spec(d), container(d)
        tls = next(v for v in spec["volumes"] if v["name"] == "temporal-tls")
        assert tls["secret"]["secretName"] == "temporal-client-tls"
        mount = next(m for m in c["volumeMounts"] if m["name"] == "temporal-tls")
        assert mount["readOnly"] is True
        env = env_of(d)
        assert env["CALLCENTER_TEMPORAL_TLS_CERT"]["value"] == mount["mountPath"] + "/tls.crt"
        assert env["CALLCENTER_TEMPORAL_TLS_KEY"]["value"] == mount["mountPath"] + "/tls.key"
        assert c["image"] == "registry.example.com/callcenter@sha256:" + "0123456789abcdef" * 4
        assert spec["imagePullSecrets"] == [{"name": "registry-credentials"}]
        assert d["metadata"]["labels"]["cost-center"] == "support"


def test_quickstart_secret_is_created_and_referenced(rendered):
    r = rendered["quickstart-secrets"]
    secret = r.get("Secret", f"{FULL}-secrets")
    data = {k: base64.b64decode(v).decode() for k, v in secret["data"].items()}
    assert data == {
        "LIVEKIT_API_KEY": "devkey",
        "LIVEKIT_API_SECRET": "devsecret-devsecret-devsecret-devsecret",
        "CALLCENTER_LLM_API_KEY": "sk-test",
        "CALLCENTER_TEMPORAL_API_KEY": "temporal-test-key",
    }
    for d in r.all("Deployment"):
        refs = secret_refs(d)
        assert {name for name, _ in refs.values()} == {f"{FULL}-secrets"}
        assert {key for _, key in refs.values()} == set(data)
        assert "checksum/secret" in d["spec"]["template"]["metadata"]["annotations"]
        assert "temporal-tls" not in {v["name"] for v in pod_spec(d)["volumes"]}
    assert "stored in Secret" in r.notes


def test_defaults_create_no_secret_and_notes_say_what_is_missing(rendered):
    r = rendered["default"]
    assert credential_secrets(r) == []
    assert secret_refs(r.get("Deployment", AGENT)) == {}
    assert "livekit.url is empty" in r.notes
    assert "no LiveKit credentials" in r.notes
    assert "ACTION REQUIRED" not in rendered["monitoring"].notes


# ---------------------------------------------------------------------------------------
# Scaling
# ---------------------------------------------------------------------------------------


def test_autoscaling_off_uses_fixed_replicas(rendered):
    r = rendered["default"]
    assert r.all("HorizontalPodAutoscaler") == []
    assert r.get("Deployment", AGENT)["spec"]["replicas"] == 2
    assert r.get("PodDisruptionBudget", AGENT)["spec"]["maxUnavailable"] == 1


def test_autoscaling_on_hands_replicas_to_the_hpa(rendered):
    r = rendered["autoscaling"]
    assert "replicas" not in r.get("Deployment", AGENT)["spec"]
    hpa = r.get("HorizontalPodAutoscaler", AGENT)
    assert (hpa["spec"]["minReplicas"], hpa["spec"]["maxReplicas"]) == (3, 30)
    targets = {m["resource"]["name"]: m["resource"]["target"]["averageUtilization"] for m in hpa["spec"]["metrics"] if m["type"] == "Resource"}
    assert targets == {"cpu": 50, "memory": 80}
    assert hpa["spec"]["behavior"]["scaleDown"]["stabilizationWindowSeconds"] == 900
    assert r.get("PodDisruptionBudget", AGENT)["spec"]["maxUnavailable"] == "20%"
    # the Temporal worker keeps its fixed count
    assert r.get("Deployment", TWORKER)["spec"]["replicas"] == 2


def test_temporal_worker_only(rendered):
    r = rendered["temporal-worker-only"]
    assert {d["metadata"]["name"] for d in r.all("Deployment")} == {TWORKER}
    assert r.all("HorizontalPodAutoscaler") == [] and r.all("PodDisruptionBudget") == []
    assert r.all("ServiceAccount") == []
    assert pod_spec(r.get("Deployment", TWORKER))["serviceAccountName"] == "callcenter-workers"
    assert "ACTION REQUIRED" not in r.notes, "no LiveKit settings needed without agent workers"


# ---------------------------------------------------------------------------------------
# Monitoring: metrics Services, ServiceMonitor, PrometheusRule, dashboard
# ---------------------------------------------------------------------------------------


def test_monitoring_is_gated_by_values(rendered):
    default, on, off = rendered["default"], rendered["monitoring"], rendered["monitoring-off"]
    assert not set(default.kinds()) & CRD_KINDS, "CRD resources need opting in"
    assert default.maybe("ConfigMap", f"{FULL}-dashboard") is not None
    assert not set(off.kinds()) & CRD_KINDS
    assert off.maybe("ConfigMap", f"{FULL}-dashboard") is None
    assert len(app_services(off)) == 2, "metrics Services stay for other scrapers"
    assert {"ServiceMonitor", "PrometheusRule"} <= set(on.kinds())


def test_service_monitor_structure_scrapes_both_workers(rendered):
    """ServiceMonitor (monitoring.coreos.com/v1) has no Kubernetes schema: check it by hand
    against the fields of the Prometheus Operator CRD the chart uses."""
    r = rendered["monitoring"]
    sm = r.get("ServiceMonitor", FULL)
    assert sm["apiVersion"] == "monitoring.coreos.com/v1"
    assert sm["metadata"]["namespace"] == "callcenter"
    assert sm["metadata"]["labels"]["release"] == "kube-prometheus-stack"
    spec = sm["spec"]
    assert set(spec) <= {"selector", "namespaceSelector", "endpoints", "jobLabel"}
    assert spec["namespaceSelector"] == {"matchNames": ["callcenter"]}
    services = app_services(r)
    selected = [s for s in services if matches(spec["selector"]["matchLabels"], s["metadata"]["labels"])]
    assert len(selected) == 2
    jobs = {s["metadata"]["labels"][spec["jobLabel"]] for s in selected}
    assert jobs == {"callcenter-agent-worker", "callcenter-temporal-worker"}
    ports = {p["name"] for s in selected for p in s["spec"]["ports"]}
    for ep in spec["endpoints"]:
        assert set(ep) <= {"port", "path", "interval", "scrapeTimeout"}
        assert ep["port"] in ports and ep["path"] == "/metrics"
        assert (ep["interval"], ep["scrapeTimeout"]) == ("15s", "10s")
    assert {ep["port"] for ep in spec["endpoints"]} == {"metrics", "sdk-metrics"}
    # every metrics endpoint the workers serve is scraped
    for d in r.all("Deployment"):
        for p in container(d)["ports"]:
            assert p["name"] == "health" or p["name"] in ports


def test_prometheus_rule_groups_equal_the_rules_files(rendered):
    # The alerts, then the recording rules of the line's outcome KPIs.
    groups = [g for name in ("alerts.yaml", "recording_rules.yaml")
              for g in yaml.safe_load((CHART_DIR / "files" / name).read_text())["groups"]]
    pr = rendered["monitoring"].get("PrometheusRule", FULL)
    assert pr["apiVersion"] == "monitoring.coreos.com/v1"
    assert pr["metadata"]["labels"]["release"] == "kube-prometheus-stack"
    assert list(pr["spec"]) == ["groups"]
    assert pr["spec"]["groups"] == groups
    for group in pr["spec"]["groups"]:
        assert group["name"] and group["rules"]
        for rule in group["rules"]:
            assert ("alert" in rule) != ("record" in rule) and rule["expr"]


def test_dashboard_configmap_carries_the_repository_dashboards_byte_for_byte(rendered):
    files = {"callcenter.json": "dashboard.json", "callcenter-outcomes.json": "dashboard-outcomes.json"}
    for variant, namespace in (("default", "callcenter"), ("monitoring", "monitoring")):
        cm = rendered[variant].get("ConfigMap", f"{FULL}-dashboard")
        assert cm["metadata"]["labels"]["grafana_dashboard"] == "1"
        assert cm["metadata"]["namespace"] == namespace
        assert list(cm["data"]) == list(files)
        for key, name in files.items():
            assert cm["data"][key] == (CHART_DIR / "files" / name).read_text()
            assert json.loads(cm["data"][key])["panels"]
    annotations = rendered["monitoring"].get("ConfigMap", f"{FULL}-dashboard")["metadata"]["annotations"]
    assert annotations == {"grafana_folder": "Callcenter"}


# ---------------------------------------------------------------------------------------
# Packaging
# ---------------------------------------------------------------------------------------


def test_chart_packages_and_the_archive_renders_the_same(tmp_path, rendered):
    archive = helm.package(CHART_DIR, destination=tmp_path)
    version = yaml.safe_load((CHART_DIR / "Chart.yaml").read_text())["version"]
    assert archive.endswith(f"callcenter-{version}.tgz")
    with helm.Chart.load(archive) as chart:
        assert chart.metadata["name"] == "callcenter"
        assert chart.schema is not None
        names = {f["name"] for f in chart.files}
        assert {"files/dashboard.json", "files/dashboard-outcomes.json", "files/alerts.yaml", "files/recording_rules.yaml"} <= names
        assert not any(n.startswith("ci/") for n in names), "ci values stay out of the package"
        out = chart.render(values=load_values("monitoring"), name=RELEASE, namespace="callcenter")
    docs = [d for k, v in out.items() if not k.endswith("NOTES.txt") for d in yaml.safe_load_all(v) if d]
    assert sorted(d["kind"] for d in docs) == rendered["monitoring"].kinds()


def test_files_pass_through_unchanged_whatever_they_contain(tmp_path):
    """The dashboard keeps every byte (HTML-escaped characters, tabs, unicode, no final
    newline), and the rules' own {{ $labels }} templates are not evaluated by Helm."""
    import shutil

    chart = tmp_path / "callcenter"
    shutil.copytree(CHART_DIR, chart)
    dashboard = '{"title": "a < b && c > d", "x": "\\t tab\\u00e9 é \' \\"q\\"",\n\t"panels": [1]}'
    (chart / "files" / "dashboard.json").write_text(dashboard)
    rules = {"groups": [{"name": "g", "rules": [{
        "alert": "A", "expr": 'up{job=~".*callcenter.*"} == 0', "for": "5m",
        "labels": {"severity": "critical", "code": "007"},
        "annotations": {"summary": "{{ $labels.instance }} is {{ $value | humanize }}"},
    }]}]}
    (chart / "files" / "alerts.yaml").write_text(yaml.safe_dump(rules))
    (chart / "files" / "recording_rules.yaml").write_text(yaml.safe_dump({"groups": []}))
    with helm.Chart.load(chart) as c:
        out = c.render(values=load_values("monitoring"), name=RELEASE, namespace="callcenter")
    docs = {d["kind"]: d for k, v in out.items() if not k.endswith("NOTES.txt")
            for d in yaml.safe_load_all(v) if d and d["kind"] in ("ConfigMap", "PrometheusRule")
            and d["metadata"]["name"] != CONFIG}
    assert docs["ConfigMap"]["data"]["callcenter.json"] == dashboard
    assert docs["PrometheusRule"]["spec"]["groups"] == rules["groups"]

    (chart / "files" / "alerts.yaml").write_text("- not: a rules file\n")
    with helm.Chart.load(chart) as c, pytest.raises(helm.HelmRenderError, match="top-level `groups:`"):
        c.render(values=load_values("monitoring"), name=RELEASE, namespace="callcenter")
