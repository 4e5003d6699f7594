"""Voice latency per turn, from session events: end of the caller's speech -> final transcript
-> first reply text reaching the TTS -> first agent audio, as `callcenter_voice_stage_seconds`.

LiveKit's own `e2e_latency` is missing whenever a task other than the one that heard the
caller answers (every delegated turn here), so the stages are rebuilt from events that every
session emits, in a room or not: the VAD's end of speech, the final transcript, and the
assistant message's `started_speaking_at` / `tts_node_ttfb` / `playback_latency`.
"""

from __future__ import annotations

from typing import Any

from livekit.agents import AgentSession
from livekit.agents.llm import ChatMessage
from livekit.agents.voice.events import (
    ConversationItemAddedEvent,
    UserInputTranscribedEvent,
    UserStateChangedEvent,
)

from callcenter import metrics


class VoiceStageTimer:
    def __init__(self, session: AgentSession) -> None:
        self.session = session
        self._speech_end: float | None = None  # wall clock, None once the turn is answered
        self._transcribed = False
        # The recogniser has its own VAD (EarlySTT), so a final transcript may arrive before
        # the session's end-of-speech event: it waits here until the turn's end is known.
        self._early_transcript: float | None = None
        self.last: dict[str, float] = {}  # the last spoken turn's stages (seconds)
        session.on("user_state_changed", self._on_user_state)
        session.on("user_input_transcribed", self._on_transcript)
        session.on("conversation_item_added", self._on_item)

    def _silence(self) -> float:
        # The VAD reports the end of speech after this much silence; the caller stopped before.
        vad = self.session.vad
        return float(getattr(vad, "min_silence_duration", None) or 0.0) if vad is not None else 0.0

    def _on_user_state(self, ev: UserStateChangedEvent) -> None:
        if ev.new_state == "speaking":  # a new turn: whatever was pending belongs to an older one
            self._speech_end = None
            self._transcribed = False
            self._early_transcript = None
        elif ev.old_state == "speaking" and ev.new_state == "listening":
            self._speech_end = ev.created_at - self._silence()
            self.last = {}
            self._transcribed = self._early_transcript is not None
            if self._early_transcript is not None:
                self._observe("transcript", max(0.0, self._early_transcript - self._speech_end))
                self._early_transcript = None

    def _on_transcript(self, ev: UserInputTranscribedEvent) -> None:
        if not ev.is_final or not ev.transcript.strip() or self._transcribed:
            return
        if self._speech_end is None:
            self._early_transcript = ev.created_at
            return
        self._transcribed = True
        self._observe("transcript", ev.created_at - self._speech_end)

    def _on_item(self, ev: ConversationItemAddedEvent) -> None:
        item = ev.item
        if not isinstance(item, ChatMessage) or item.role != "assistant" or self._speech_end is None:
            return
        m: dict[str, Any] = dict(item.metrics or {})
        started = m.get("started_speaking_at")
        if started is None:
            return
        if m.get("tts_node_ttfb") is not None:
            first_text = started - (m.get("playback_latency") or 0.0) - m["tts_node_ttfb"]
            self._observe("llm_first_output", first_text - self._speech_end)
        self._observe("first_audio", started - self._speech_end)
        self._speech_end = None  # one reply per caller turn is timed: the first

    def _observe(self, stage: str, seconds: float) -> None:
        self.last[stage] = seconds
        metrics.voice_stage(stage=stage, seconds=seconds)
