"""Speech providers from settings, as `AgentSession` keyword arguments.

`session_speech(settings)` is the one function the LiveKit worker and `callcenter call
--voice` call: local engines by default (offline), a cloud provider when a setting says so.
Adding a provider is one branch here plus an optional extra in pyproject.toml.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from livekit.agents import stt, tts

from callcenter.settings import Settings, SettingsError
from callcenter.speech.early_stt import EarlySTT
from callcenter.speech.local_stt import SpeechEngineMissing
from callcenter.speech.spoken_io import NormalisedSTT
from callcenter.spoken import SHARED_EAR, SpokenIds


def speech_enabled(settings: Settings) -> bool:
    return settings.stt_provider != "none" and settings.tts_provider != "none"


def session_speech(settings: Settings, *, prompt: str | None = None, ear: SpokenIds = SHARED_EAR,
                   words: Callable[[str], str] | None = None) -> dict[str, Any]:
    """stt, tts, vad, turn handling and reply transforms for one session; text-only
    (`vad=None`) when either provider is `none`. `ear` reads the line's record ids aloud
    (the line's `SpokenIds`); `words` repairs each final transcript after its written forms
    (the line's `router.rejoin`, as typed turns get). Raises SettingsError with one line when a provider cannot be
    built (extra not installed, key missing)."""
    if not speech_enabled(settings):
        return {"vad": None}
    try:
        vad = build_vad(settings)
        inner = build_stt(settings, prompt=prompt)
        if not inner.capabilities.streaming and settings.stt_early_decode_s > 0:
            # A batch recogniser starts decoding during the end-of-turn silence (early_stt.py).
            inner = EarlySTT(inner, build_vad(settings), early_s=settings.stt_early_decode_s)
        recogniser = NormalisedSTT(inner, words=words)
        voice = build_tts(settings)
    except SpeechEngineMissing as exc:
        raise SettingsError(f"{exc} (or set CALLCENTER_STT_PROVIDER/_TTS_PROVIDER to a cloud provider)") from None
    return {
        "stt": recogniser,
        "tts": voice,
        "vad": vad,
        "turn_handling": turn_handling(settings),
        "tts_text_transforms": ["filter_markdown", "filter_emoji", ear.ear_transform],
    }


def turn_handling(settings: Settings) -> dict[str, Any]:
    detection: Any = settings.turn_detection
    if detection == "model":
        from livekit.agents import inference

        # v1-mini ships inside livekit-local-inference; v1 would call LiveKit's cloud.
        detection = inference.TurnDetector(version="v1-mini", local_fallback=True)
    return {
        "turn_detection": detection,
        "endpointing": {"min_delay": settings.endpointing_min_delay_s, "max_delay": settings.endpointing_max_delay_s},
        # Offline there is no adaptive interruption model: the VAD decides a barge-in.
        "interruption": {"mode": "vad", "min_duration": 0.4, "resume_false_interruption": False},
    }


def build_vad(settings: Settings) -> Any:
    from livekit.agents import inference

    # Silero, compiled into livekit-local-inference (a livekit-agents dependency): no plugin,
    # no download.
    return inference.VAD(min_silence_duration=settings.vad_min_silence_s, activation_threshold=settings.vad_activation)


def _key(own: Any, settings: Settings, provider: str, var: str) -> str:
    secret = own or (settings.llm_api_key if provider == "openai" else None)
    if secret is None:
        raise SettingsError(f"{var} is required for the {provider} speech provider")
    return secret.get_secret_value()


def build_stt(settings: Settings, *, prompt: str | None = None) -> stt.STT:
    provider = settings.stt_provider
    if provider == "local":
        from callcenter.speech.local_stt import WhisperSTT

        return WhisperSTT(prompt=prompt, threads=settings.speech_threads, window_s=settings.stt_window_s)
    if provider == "openai":
        from livekit.plugins import openai

        key = _key(settings.stt_api_key, settings, provider, "CALLCENTER_STT_API_KEY (or CALLCENTER_LLM_API_KEY)")
        return openai.STT(model=settings.stt_model, api_key=key, base_url=settings.llm_base_url)
    if provider == "deepgram":
        plugin = _plugin("deepgram")
        return plugin.STT(api_key=_key(settings.stt_api_key, settings, provider, "CALLCENTER_STT_API_KEY"))
    raise SettingsError(f"CALLCENTER_STT_PROVIDER: no speech-to-text for {provider!r}")


def build_tts(settings: Settings) -> tts.TTS:
    provider = settings.tts_provider
    if provider == "local":
        from callcenter.speech.local_tts import HibariTTS

        return HibariTTS()
    if provider == "openai":
        from livekit.plugins import openai

        key = _key(settings.tts_api_key, settings, provider, "CALLCENTER_TTS_API_KEY (or CALLCENTER_LLM_API_KEY)")
        return openai.TTS(model=settings.tts_model, voice=settings.tts_voice, api_key=key, base_url=settings.llm_base_url)
    if provider == "cartesia":
        plugin = _plugin("cartesia")
        return plugin.TTS(api_key=_key(settings.tts_api_key, settings, provider, "CALLCENTER_TTS_API_KEY"))
    raise SettingsError(f"CALLCENTER_TTS_PROVIDER: no text-to-speech for {provider!r}")


def _plugin(name: str) -> Any:
    import importlib

    try:
        return importlib.import_module(f"livekit.plugins.{name}")
    except ImportError:
        raise SettingsError(f"the {name} speech provider needs its extra: pip install 'callcenter[{name}]'") from None
