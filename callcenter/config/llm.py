"""The language model's settings: embedded by default, a hosted endpoint by configuration."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings

from callcenter.config.base import CONFIG


class LlmSettings(BaseSettings):
    """Read by the line's composition root (callcenter/llm/factory.py)."""

    model_config = CONFIG

    llm_provider: Literal["embedded", "openai"] = Field(
        "embedded", description="'embedded' runs offline; 'openai' uses any OpenAI-compatible endpoint."
    )
    llm_base_url: str | None = Field(None, description="Base URL of the OpenAI-compatible endpoint.")
    llm_model: str = Field("gpt-4.1-mini", description="Model name sent to the endpoint.")
    llm_api_key: SecretStr | None = Field(None, description="API key for the endpoint.")
    llm_context_tokens: int = Field(
        1500, ge=100, le=100000, description="Most call history, in tokens (about 4 characters each), sent with each LLM request."
    )
    llm_timeout_s: float = Field(
        5.0, gt=0, le=120, description="Seconds a hosted LLM request may take before the embedded LLM answers instead."
    )
