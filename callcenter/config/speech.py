"""Speech settings: recogniser, voice, turn detection; read by the LiveKit worker and `callcenter call --voice`."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings

from callcenter.config.base import CONFIG


class SpeechSettings(BaseSettings):
    """Read where audio is heard and spoken (callcenter/speech, meta/voice*)."""

    model_config = CONFIG

    # local = engines whose models ship inside the `voice` extra's packages: nothing downloads.
    stt_provider: Literal["none", "local", "openai", "deepgram"] = Field(
        "local", description="Speech-to-text: local (offline), openai, deepgram; none = text-only rooms."
    )
    stt_model: str = Field("gpt-4o-mini-transcribe", description="Speech-to-text model of a cloud provider.")
    stt_api_key: SecretStr | None = Field(None, description="API key of the cloud STT (openai falls back to the LLM key).")
    tts_provider: Literal["none", "local", "openai", "cartesia"] = Field(
        "local", description="Text-to-speech: local (offline), openai, cartesia; none = text-only rooms."
    )
    tts_model: str = Field("gpt-4o-mini-tts", description="Text-to-speech model of a cloud provider.")
    tts_voice: str = Field("alloy", description="Text-to-speech voice of a cloud provider.")
    tts_api_key: SecretStr | None = Field(None, description="API key of the cloud TTS (openai falls back to the LLM key).")
    vad_activation: float = Field(0.5, ge=0.05, le=0.95, description="VAD speech probability that starts a caller turn.")
    vad_min_silence_s: float = Field(
        0.6, ge=0.1, le=3, description="Silence that ends a caller utterance (0.25 cut sentences at commas)."
    )
    turn_detection: Literal["vad", "model", "stt"] = Field(
        "vad", description="End of turn: vad (silence), model (LiveKit's on-device turn model), stt (the recogniser)."
    )
    endpointing_min_delay_s: float = Field(0.3, ge=0, le=5, description="Least wait after speech before the turn ends.")
    endpointing_max_delay_s: float = Field(3.0, ge=0.1, le=10, description="Most wait after speech before the turn ends.")
    stt_early_decode_s: float = Field(
        0.2, ge=0, le=3,
        description="Silence after which a batch recogniser starts decoding before the turn ends (0 = off).",
    )
    stt_window_s: float = Field(
        15.0, ge=0, le=30,
        description="Audio window the local recogniser encodes per utterance (0 or 30 = Whisper's full 30 s).",
    )
    speech_threads: int = Field(2, ge=1, le=32, description="CPU threads of the local recogniser per process.")
    filler_after_s: float = Field(
        1.0, ge=0, le=30, description="Silence before a short spoken filler during long work (0 = never)."
    )
    transfer_number: str | None = Field(
        None, pattern=r"^(\+[1-9]\d{6,14}|sip:[^\s]+)$",
        description="E.164 number or sip: URI a caller asking for a person is transferred to (unset = callback ticket).",
    )
