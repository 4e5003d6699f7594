"""How a caller's turn is routed and bounded: thresholds, fast path, breakers, lookups, turn limits."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings

from callcenter.config.base import CONFIG


class RoutingSettings(BaseSettings):
    """Read by the line (meta/, domains/) on every turn."""

    model_config = CONFIG

    router_model: Path | None = Field(None, description="Trained router model file; unset = train from shipped utterances.")
    router_confidence: float = Field(
        0.0, ge=0, le=1, description="Fast-path threshold; 0 = use the threshold stored with the model."
    )
    router_ask_margin: float = Field(
        0.2,
        ge=0,
        le=1,
        description="Below the fast-path threshold, a reading at least this far ahead of the next is routed "
        "without a clarifying question (1 = always ask below the threshold).",
    )
    fast_path: bool = Field(
        True,
        description="Decide confident turns without the LLM (routing, slot filling, speaking typed results); "
        "false sends every decision to the LLM, for comparison.",
    )
    breaker_threshold: int = Field(3, ge=1, le=100, description="Failures in a row that open a specialist's circuit breaker.")
    breaker_cooldown_s: float = Field(60.0, gt=0, le=3600, description="Seconds an open circuit sends callers to the fallback.")
    parallel_lookups: bool = Field(
        True, description="Answer the read-only needs of a multi-need turn concurrently (false: one task after another)."
    )
    fanout_timeout_s: float = Field(
        3.0, gt=0, le=60, description="Seconds each read-only lookup of a multi-need turn may take before it is reported as missed."
    )
    max_delegations_per_turn: int = Field(6, ge=1, le=20, description="Loop guard: delegations allowed in one turn.")
    max_turn_chars: int = Field(2000, ge=50, le=100000, description="Longer caller turns are cut to this many characters.")
    turn_timeout_s: float = Field(30.0, ge=1, le=600, description="Longest a caller turn may take before it ends with what was said; a lookup gets a third of it per attempt, a change half of it before the caller hears it isn't confirmed yet.")
    verification_attempts: int = Field(3, ge=1, le=10, description="Identity verification attempts per call.")
