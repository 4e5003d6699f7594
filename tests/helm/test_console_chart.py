"""The console in the chart: its own Deployment, Service and Ingress, the signing key shared
with the Temporal worker (which verifies decision credentials), and refused contradictions."""

from __future__ import annotations

import helm_python as helm
import pytest
from helmchart import container, env_of, fullname, render

FULL = fullname()
CONSOLE = f"{FULL}-console"
TWORKER = f"{FULL}-temporal-worker"


def test_off_by_default(rendered):
    assert rendered["default"].maybe("Deployment", CONSOLE) is None
    assert rendered["default"].maybe("Service", CONSOLE) is None


def test_deployment_service_and_ingress(rendered):
    r = rendered["console"]
    d = r.get("Deployment", CONSOLE)
    c = container(d)
    assert c["args"] == ["console", "--host", "0.0.0.0"]
    assert c["ports"] == [{"name": "http", "containerPort": 8080, "protocol": "TCP"}]
    for probe in ("readinessProbe", "livenessProbe"):
        assert c[probe]["httpGet"] == {"path": "/healthz", "port": "http"}
    env = env_of(d)
    assert env["CALLCENTER_CONSOLE_COOKIE_SECURE"]["value"] == "true"
    assert env["CALLCENTER_OIDC_METADATA_URL"]["value"].startswith("https://idp.example.com/")
    assert env["CALLCENTER_OIDC_CLIENT_SECRET"]["valueFrom"]["secretKeyRef"]["name"] == "callcenter-oidc"
    svc = r.get("Service", CONSOLE)
    assert svc["spec"]["ports"][0]["targetPort"] == "http"
    assert svc["spec"]["selector"]["app.kubernetes.io/component"] == "console"
    ing = r.get("Ingress", CONSOLE)
    rule = ing["spec"]["rules"][0]
    assert rule["host"] == "console.callcenter.example.com"
    assert rule["http"]["paths"][0]["backend"]["service"] == {"name": CONSOLE, "port": {"name": "http"}}
    assert ing["spec"]["tls"] == [{"hosts": ["console.callcenter.example.com"], "secretName": "console-tls"}]
    assert r.get("ConfigMap", f"{FULL}-config")["data"]["CALLCENTER_FOUR_EYES_ABOVE"] == "2500"


def test_console_and_worker_share_the_signing_key(rendered):
    r = rendered["console"]
    refs = {name: env_of(r.get("Deployment", name))["CALLCENTER_CONSOLE_SECRET"]["valueFrom"]["secretKeyRef"]
            for name in (CONSOLE, TWORKER)}
    assert refs[CONSOLE] == refs[TWORKER] == {"name": "callcenter-console-key", "key": "CALLCENTER_CONSOLE_SECRET"}


def test_inline_key_goes_into_the_chart_secret():
    r = render({"console": {"enabled": True, "secret": "k" * 40}})
    secret = r.get("Secret", "prod-callcenter-secrets")
    assert "CALLCENTER_CONSOLE_SECRET" in secret["data"]
    ref = env_of(r.get("Deployment", TWORKER))["CALLCENTER_CONSOLE_SECRET"]["valueFrom"]["secretKeyRef"]
    assert ref["name"] == secret["metadata"]["name"]


@pytest.mark.parametrize("values,words", [
    ({"console": {"enabled": True, "ingress": {"enabled": True}}}, "console.ingress.enabled needs console.ingress.host"),
    ({"console": {"enabled": True, "secret": "k" * 40, "existingSecret": "x"}}, "either console.existingSecret or console.secret"),
])
def test_contradictions_fail_with_a_sentence(values, words):
    with pytest.raises(helm.HelmRenderError) as err:
        render(values)
    assert words in str(err.value)


def test_short_inline_key_is_refused_by_the_schema():
    with pytest.raises(helm.HelmValuesError):
        render({"console": {"secret": "short"}})


def test_each_component_may_have_its_own_temporal_identity():
    """So the cluster can allow only the Temporal worker to start workflows (README, "Temporal
    in production"), each Deployment can carry its own client certificate and API key; a
    component without one keeps the shared temporal.tls.existingSecret / existingSecret."""
    r = render({"console": {"enabled": True},
                "temporal": {"tls": {"enabled": True, "existingSecret": "temporal-shared-tls"},
                             "existingSecret": "temporal-shared-key", "existingSecretKey": "api-key",
                             "identities": {"temporalWorker": {"tlsSecret": "temporal-worker-tls",
                                                               "apiKeySecret": "temporal-worker-key"},
                                            "console": {"tlsSecret": "temporal-console-tls",
                                                        "apiKeySecret": "temporal-console-key"}}}})
    expected = {TWORKER: "temporal-worker", CONSOLE: "temporal-console", f"{FULL}-agent-worker": "temporal-shared"}
    for name, prefix in expected.items():
        d = r.get("Deployment", name)
        [tls] = [v for v in d["spec"]["template"]["spec"]["volumes"] if v["name"] == "temporal-tls"]
        assert tls["secret"]["secretName"] == f"{prefix}-tls", name
        ref = env_of(d)["CALLCENTER_TEMPORAL_API_KEY"]["valueFrom"]["secretKeyRef"]
        assert ref == {"name": f"{prefix}-key", "key": "api-key"}, name
    assert "WARNING: Temporal" not in r.notes and "share one Temporal identity" not in r.notes
    shared = render({"temporal": {"tls": {"enabled": True, "existingSecret": "temporal-shared-tls"}}})
    assert "WARNING: Temporal" not in shared.notes and "share one Temporal identity" in shared.notes
    assert "without a client certificate or API key (temporalWorker, agentWorker)" in render({}).notes
    # A component's certificate without TLS is refused like the shared one.
    with pytest.raises(helm.HelmError, match="enable TLS"):
        render({"temporal": {"identities": {"temporalWorker": {"tlsSecret": "temporal-worker-tls"}}}})
