"""values.yaml and values.schema.json: bad values are rejected with a message that names the
key, contradictory values fail the render with a sentence saying what to do, and every value
in values.yaml is documented."""

from __future__ import annotations

import json
import re

import helm_python as helm
import jsonschema
import pytest
import yaml
from helmchart import CHART_DIR, VARIANTS, load_values, render

SCHEMA = json.loads((CHART_DIR / "values.schema.json").read_text())
VALUES_TEXT = (CHART_DIR / "values.yaml").read_text()

# (values, words the message must contain)
SCHEMA_REJECTS = {
    "wrong type": ({"agentWorker": {"replicas": "two"}}, ["/agentWorker/replicas", "got string, want integer"]),
    "unknown top-level key": ({"replicaCount": 3}, ["additional properties 'replicaCount' not allowed"]),
    "unknown nested key (typo)": ({"agentWorker": {"replica": 2}}, ["/agentWorker", "'replica' not allowed"]),
    "enum": ({"llm": {"provider": "anthropic"}}, ["/llm/provider", "'embedded', 'openai'"]),
    "speech enum": ({"speech": {"ttsProvider": "espeak"}}, ["/speech/ttsProvider", "'none', 'openai'"]),
    "log level enum": ({"logLevel": "info"}, ["/logLevel", "'DEBUG'"]),
    "minimum": ({"agentWorker": {"autoscaling": {"maxReplicas": 0}}}, ["/agentWorker/autoscaling/maxReplicas", "minimum"]),
    "drain above the application's maximum": ({"agentWorker": {"drainTimeoutSeconds": 7200}}, ["/agentWorker/drainTimeoutSeconds", "maximum"]),
    "port range": ({"temporalWorker": {"metricsPort": 70000}}, ["/temporalWorker/metricsPort", "maximum"]),
    "amount as a number": ({"policy": {"autoRefundLimit": 250}}, ["/policy/autoRefundLimit", "want string"]),
    "amount not decimal": ({"policy": {"approvalLimits": {"agent": "lots"}}}, ["/policy/approvalLimits/agent", "pattern"]),
    "temporal address required": ({"temporal": {"address": ""}}, ["/temporal/address"]),
    "temporal address without port": ({"temporal": {"address": "temporal.example.com"}}, ["/temporal/address"]),
    "livekit url scheme": ({"livekit": {"url": "livekit.example.com"}}, ["/livekit/url"]),
    "extraConfig outside CALLCENTER_": ({"extraConfig": {"PATH": "/bin"}}, ["/extraConfig", "'PATH' not allowed"]),
    "extraConfig value not a string": ({"extraConfig": {"CALLCENTER_REFUND_WINDOW_DAYS": 30}}, ["/extraConfig/CALLCENTER_REFUND_WINDOW_DAYS", "want string"]),
    "pdb percentage": ({"agentWorker": {"podDisruptionBudget": {"maxUnavailable": "half"}}}, ["/agentWorker/podDisruptionBudget/maxUnavailable"]),
    "unknown security context field": ({"securityContext": {"readOnlyRootFs": True}}, ["/securityContext", "'readOnlyRootFs' not allowed"]),
    "image pull policy": ({"image": {"pullPolicy": "Sometimes"}}, ["/image/pullPolicy"]),
}

# (values, words of the template's own message)
TEMPLATE_REJECTS = {
    "livekit secret and inline key": (
        {"livekit": {"existingSecret": "lk", "apiKey": "k", "apiSecret": "s"}},
        "set either livekit.existingSecret or livekit.apiKey/livekit.apiSecret, not both",
    ),
    "livekit key without secret": ({"livekit": {"apiKey": "k"}}, "must be set together"),
    "llm secret and inline key": ({"llm": {"existingSecret": "x", "apiKey": "k"}}, "llm.existingSecret or llm.apiKey"),
    "temporal api key without tls": ({"temporal": {"apiKey": "k"}}, "set temporal.tls.enabled=true"),
    "mtls secret without tls": ({"temporal": {"tls": {"existingSecret": "cert"}}}, "temporal.tls.enabled is false"),
    "hpa min above max": (
        {"agentWorker": {"autoscaling": {"enabled": True, "minReplicas": 5, "maxReplicas": 3}}},
        "minReplicas (5) must not exceed maxReplicas (3)",
    ),
    "extraConfig overriding a managed setting": (
        {"extraConfig": {"CALLCENTER_LOG_LEVEL": "DEBUG"}},
        "extraConfig.CALLCENTER_LOG_LEVEL is managed by the chart",
    ),
}


@pytest.fixture(scope="module")
def chart():
    with helm.Chart.load(CHART_DIR) as c:
        yield c


@pytest.mark.parametrize("case", SCHEMA_REJECTS)
def test_schema_rejects_bad_values_with_a_clear_message(case, chart):
    bad, words = SCHEMA_REJECTS[case]
    with pytest.raises(helm.HelmValuesError) as err:
        chart.render(values=bad, name="prod", namespace="callcenter")
    message = str(err.value)
    assert "values don't meet the specifications of the schema" in message
    for word in words:
        assert word in message, message
    # the same values fail `helm lint` too
    report = helm.lint(CHART_DIR, bad, strict=True)
    assert report["errors"], report


@pytest.mark.parametrize("case", TEMPLATE_REJECTS)
def test_contradictory_values_fail_the_render_with_a_sentence(case):
    bad, words = TEMPLATE_REJECTS[case]
    with pytest.raises(helm.HelmRenderError) as err:
        render(bad)
    assert words in str(err.value)


@pytest.mark.parametrize("variant", VARIANTS)
def test_schema_accepts_every_shipped_values_file(variant, chart):
    chart.validate_schema(load_values(variant))


def test_schema_is_a_valid_draft_7_schema_and_closed_everywhere():
    jsonschema.Draft7Validator.check_schema(SCHEMA)
    jsonschema.Draft7Validator(SCHEMA).validate(yaml.safe_load(VALUES_TEXT))
    open_objects = []

    def walk(node, path):
        if isinstance(node, dict):
            if "properties" in node and node.get("additionalProperties") is not False:
                open_objects.append(path)
            for key, child in node.items():
                walk(child, f"{path}/{key}")
        elif isinstance(node, list):
            for i, child in enumerate(node):
                walk(child, f"{path}/{i}")

    walk(SCHEMA, "")
    # topologySpreadConstraints items are Kubernetes objects with many optional fields,
    # checked by the Kubernetes schema validation of the rendered Deployment instead
    assert [p for p in open_objects if "topologySpreadConstraints" not in p] == []


def test_every_value_in_values_yaml_is_in_the_schema():
    def walk(values, schema, path):
        props = schema.get("properties", {})
        for key, value in values.items():
            assert key in props or schema.get("additionalProperties") not in (False, None) \
                or schema.get("patternProperties"), f"{path}.{key} missing from the schema"
            if isinstance(value, dict) and key in props and props[key].get("properties"):
                walk(value, props[key], f"{path}.{key}")

    walk(yaml.safe_load(VALUES_TEXT), SCHEMA, "")


# Kubernetes objects given as defaults: their fields are Kubernetes' own, documented by the
# comment on the parent key.
PASSTHROUGH = {"podSecurityContext", "securityContext", "resources", "startupProbe", "livenessProbe", "readinessProbe"}


def test_every_value_in_values_yaml_is_commented():
    lines = VALUES_TEXT.splitlines()
    stack: list[tuple[int, str]] = []  # (indent, key) of the enclosing keys
    undocumented = []
    for i, line in enumerate(lines):
        m = re.match(r"^(\s*)([A-Za-z_][\w.-]*):", line)
        if not m or line.lstrip().startswith("#"):
            continue
        indent, key = len(m.group(1)), m.group(2)
        while stack and stack[-1][0] >= indent:
            stack.pop()
        inside_passthrough = any(k in PASSTHROUGH for _, k in stack)
        stack.append((indent, key))
        if inside_passthrough:
            continue
        prev = lines[i - 1].strip() if i else ""
        if not prev.startswith("#"):
            undocumented.append(".".join(k for _, k in stack))
    assert undocumented == []
