"""What SREs read: metrics ports, logs, traces, and fault injection for drills."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings

from callcenter.config.base import CONFIG

if TYPE_CHECKING:
    from collections.abc import Mapping

    from callcenter.faults import Fault



class ObservabilitySettings(BaseSettings):
    """Read by every process that serves /metrics, logs or traces."""

    model_config = CONFIG

    metrics_port: int = Field(9100, ge=0, le=65535, description="Port of the agent's /metrics (0 = off).")
    worker_metrics_port: int = Field(9101, ge=0, le=65535, description="Port of the Temporal worker's /metrics and /healthz.")
    temporal_sdk_metrics_port: int = Field(
        9102, ge=0, le=65535, description="Port of the Temporal SDK's own Prometheus metrics in the worker (0 = off)."
    )
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = Field("INFO", description="Log level.")
    tracing: Literal["off", "otlp", "console"] = Field(
        "off", description="OpenTelemetry traces, one per call: off, otlp (to CALLCENTER_OTLP_ENDPOINT) or console."
    )
    otlp_endpoint: str | None = Field(
        None, description="OTLP/HTTP traces endpoint, e.g. http://otel-collector:4318/v1/traces (else OTEL_EXPORTER_OTLP_* applies)."
    )
    service_name: str = Field("callcenter", description="service.name on exported traces (e.g. callcenter-agent, callcenter-worker).")
    faults: str = Field(
        "", description="Fault injection, e.g. 'billing.balance=error;store=slow:0.5;temporal=down' (see callcenter/faults.py)."
    )

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, v: object) -> object:
        return v.upper() if isinstance(v, str) else v

    @field_validator("faults")
    @classmethod
    def _faults(cls, v: str) -> str:
        if not v.strip():
            return v  # nothing to read: no need to load the fault machinery (and LiveKit)
        from callcenter.faults import parse

        parse(v)  # raises ValueError naming the item it cannot read
        return v

    @property
    def fault_plan(self) -> Mapping[str, Fault]:
        from callcenter.faults import parse

        return parse(self.faults)
