"""Pick the LLM from settings: the embedded offline router LLM, or any OpenAI-compatible endpoint."""

from __future__ import annotations

from typing import TYPE_CHECKING

from livekit.agents import llm

from callcenter.faults import FaultyLLM
from callcenter.llm.embedded import EmbeddedLLM
from callcenter.llm.templates import Phrasebook
from callcenter.routing.slots import SHARED, SlotReader
from callcenter.settings import Settings, SettingsError

if TYPE_CHECKING:
    from callcenter.routing import IntentRouter


def build_llm(settings: Settings, *, router: IntentRouter, topics: dict[str, str], phrases: Phrasebook,
              slots: SlotReader = SHARED, sure_only: frozenset[str] = frozenset()) -> llm.LLM:
    if settings.llm_provider == "embedded":
        return EmbeddedLLM(router, topics, phrases, slots, sure_only)
    if settings.llm_api_key is None and settings.llm_base_url is None:
        raise SettingsError(
            "CALLCENTER_LLM_API_KEY or CALLCENTER_LLM_BASE_URL is required when CALLCENTER_LLM_PROVIDER=openai"
        )
    # only imported when configured: it is not needed offline, and is an extra
    try:
        from livekit.plugins import openai
    except ImportError:
        raise SettingsError(
            "CALLCENTER_LLM_PROVIDER=openai needs the openai extra: pip install 'callcenter[openai]'"
        ) from None

    hosted: llm.LLM = openai.LLM(
        model=settings.llm_model,
        base_url=settings.llm_base_url,
        api_key=settings.llm_api_key.get_secret_value() if settings.llm_api_key else "not-needed",
    )
    if "llm" in settings.fault_plan:
        hosted = FaultyLLM(hosted, settings.fault_plan["llm"])
    # An endpoint that fails or stalls must not leave callers in silence: LiveKit's own
    # FallbackAdapter moves to the embedded router LLM (and back once the endpoint recovers).
    return llm.FallbackAdapter([hosted, EmbeddedLLM(router, topics, phrases, slots, sure_only)], attempt_timeout=settings.llm_timeout_s)
