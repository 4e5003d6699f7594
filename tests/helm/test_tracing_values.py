"""Tracing is a chart value: off by default, OTLP to a collector when set, checked by the schema."""

from __future__ import annotations

import pytest
from helmchart import render


def _config(r) -> dict:  # noqa: ANN001
    (cm,) = [c for c in r.all("ConfigMap") if "CALLCENTER_LOG_LEVEL" in c.get("data", {})]
    return cm["data"]


def test_tracing_is_off_unless_asked() -> None:
    data = _config(render())
    assert data["CALLCENTER_TRACING"] == "off" and "CALLCENTER_OTLP_ENDPOINT" not in data


def test_otlp_goes_to_the_configured_collector() -> None:
    url = "http://otel-collector.observability:4318/v1/traces"
    data = _config(render({"tracing": {"exporter": "otlp", "otlpEndpoint": url}}))
    assert data["CALLCENTER_TRACING"] == "otlp" and data["CALLCENTER_OTLP_ENDPOINT"] == url
    assert data["CALLCENTER_SERVICE_NAME"]


def test_an_unknown_exporter_is_refused_by_the_schema() -> None:
    with pytest.raises(Exception, match="exporter"):
        render({"tracing": {"exporter": "jaeger"}})
