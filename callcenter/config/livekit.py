"""How the agent worker reaches LiveKit and how many calls it takes."""

from __future__ import annotations

from pydantic import AliasChoices, Field, SecretStr
from pydantic_settings import BaseSettings

from callcenter.config.base import CONFIG


class LiveKitSettings(BaseSettings):
    """Read by `callcenter worker start` (meta/shell/livekit_worker.py)."""

    model_config = CONFIG

    # LiveKit's own variable names work too, so an existing LiveKit deployment needs no renaming.
    livekit_url: str | None = Field(
        None, validation_alias=AliasChoices("CALLCENTER_LIVEKIT_URL", "LIVEKIT_URL", "livekit_url"),
        description="LiveKit server URL (wss://...).",
    )
    livekit_api_key: SecretStr | None = Field(
        None, validation_alias=AliasChoices("CALLCENTER_LIVEKIT_API_KEY", "LIVEKIT_API_KEY", "livekit_api_key"),
        description="LiveKit API key.",
    )
    livekit_api_secret: SecretStr | None = Field(
        None, validation_alias=AliasChoices("CALLCENTER_LIVEKIT_API_SECRET", "LIVEKIT_API_SECRET", "livekit_api_secret"),
        description="LiveKit API secret.",
    )
    agent_name: str = Field("callcenter", description="Agent name for explicit LiveKit dispatch.")
    drain_timeout_s: int = Field(300, ge=0, le=3600, description="Seconds a worker drains calls on shutdown.")
    worker_max_calls: int = Field(
        25, ge=1, le=1000,
        description="Calls one agent-worker process takes at once; at that many it reports itself full to LiveKit.",
    )
    worker_http_port: int = Field(
        8081, ge=1, le=65535, description="Port of the LiveKit worker's health server (the chart's probes)."
    )
    worker_selfcheck: bool = Field(
        True, description="Run one scripted call in a job process before the worker registers with LiveKit."
    )
