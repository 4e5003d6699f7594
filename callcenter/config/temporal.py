"""How every Temporal client (the line, the worker, the console, the CLI) reaches the server."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings

from callcenter.config.base import CONFIG


class TemporalSettings(BaseSettings):
    """Read by workflows/client.py and workflows/worker.py."""

    model_config = CONFIG

    temporal_address: str | None = Field(
        None, description="host:port of Temporal; unset = start a local dev server in the data dir."
    )
    temporal_namespace: str = Field("default", description="Temporal namespace.")
    temporal_task_queue: str = Field("callcenter", description="Temporal task queue.")
    temporal_tls: bool = Field(False, description="Use TLS to reach Temporal.")
    temporal_tls_cert: Path | None = Field(None, description="Client certificate (PEM) for mTLS.")
    temporal_tls_key: Path | None = Field(None, description="Client key (PEM) for mTLS.")
    temporal_api_key: SecretStr | None = Field(None, description="Temporal Cloud API key.")
