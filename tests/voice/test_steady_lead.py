"""The same words reach the recogniser as the same samples wherever the caller began against
the VAD's 32 ms windows (callcenter/speech/early_stt.py). The VAD's start of speech carries
its prefix padding plus however far into a window the caller began; tiny.en wrote another id
for one such offset, and a CI run failed on it. EarlySTT cuts every utterance to the same
quiet before its onset, as it cuts the same quiet after it."""

from __future__ import annotations

import numpy as np
from livekit import rtc
from livekit.agents import APIConnectOptions, stt, utils
from livekit.agents.types import NOT_GIVEN, NotGivenOr

from benchmarks.voice.voices import hibari, trim
from callcenter.settings import Settings
from callcenter.speech.early_stt import LEAD_S, EarlySTT
from callcenter.speech.factory import build_vad
from meta.voice_io import resample

RATE = 16000


class Heard(stt.STT):
    """Keeps what EarlySTT hands the recogniser: the samples are what this test is about."""

    def __init__(self) -> None:
        super().__init__(capabilities=stt.STTCapabilities(streaming=False, interim_results=False))
        self.buffers: list[bytes] = []

    async def _recognize_impl(
        self, buffer: utils.AudioBuffer, *, language: NotGivenOr[str] = NOT_GIVEN, conn_options: APIConnectOptions
    ) -> stt.SpeechEvent:
        self.buffers.append(bytes(rtc.combine_audio_frames(buffer).data))
        return stt.SpeechEvent(stt.SpeechEventType.FINAL_TRANSCRIPT, alternatives=[stt.SpeechData(language="en", text="x")])


async def _handed(words: np.ndarray, lead_ms: int) -> bytes:
    heard = Heard()
    early = EarlySTT(heard, build_vad(Settings()), early_s=0.2)
    pcm = np.concatenate([np.zeros(RATE * (700 + lead_ms) // 1000, np.int16), words, np.zeros(RATE, np.int16)])
    stream = early.stream()
    for at in range(0, len(pcm) - 160 + 1, 160):  # 10 ms frames, as a room sends them
        stream.push_frame(rtc.AudioFrame(pcm[at:at + 160].tobytes(), RATE, 1, 160))
    stream.end_input()
    finals = [ev async for ev in stream if ev.type == stt.SpeechEventType.FINAL_TRANSCRIPT]
    await stream.aclose()
    assert len(finals) == 1 and heard.buffers
    return heard.buffers[-1]


async def test_the_same_words_are_the_same_samples_at_every_offset(engines: None) -> None:
    pcm, rate = hibari("It's C one oh oh three, zip code six oh six oh one.")
    words = resample(trim(pcm), rate, RATE).astype(np.int16)
    handed = {ms: await _handed(words, ms) for ms in (0, 7, 13, 21, 29)}
    assert len(set(handed.values())) == 1, {ms: len(b) for ms, b in handed.items()}
    # The quiet kept before the words is LEAD_S, not the VAD's prefix padding plus a window.
    first_loud = int(np.argmax(np.abs(np.frombuffer(handed[0], np.int16)) > 0))
    assert first_loud <= LEAD_S * RATE
