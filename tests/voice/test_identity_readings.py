"""An id with a repeated digit ("C one oh oh three") is read right wherever the utterance
starts in the recogniser's input. How much silence leads it depends on where the caller
began against the VAD's 32 ms windows: at one such offset tiny.en and its digit grammar
wrote "one oh three zero", and a CI run failed on it. The grammar's beam now keeps readings
with different digits (not twins that differ in a comma) and the line takes the reading that
names an account (domains/identity_readings.py)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from livekit import rtc

from benchmarks.voice.voices import hibari
from callcenter.speech.local_stt import WhisperSTT
from callcenter.spoken import normalise
from domains.identity import heard_customer_number
from domains.identity_readings import on_file
from meta.voice_io import resample
from meta.voice_prompt import SLOT_PROMPTS, recogniser_prompt

# Leading silence in ms past 100 ms: spread over three VAD windows, and the offset that failed.
SHIFTS = (0, 15, 33, 51, 66, 69, 72, 87)


@pytest.fixture(scope="module")
def answer(engines: None) -> np.ndarray:
    pcm, rate = hibari("It's C one oh oh three, zip code six oh six oh one.")
    return resample(pcm, rate, 16000).astype(np.int16)


async def test_a_repeated_digit_is_placed_at_every_offset(answer: np.ndarray, store: Any) -> None:
    stt = WhisperSTT(prompt=recogniser_prompt())
    stt.slot_prompts, stt.slot, stt.on_file = SLOT_PROMPTS, lambda: "identity", on_file(store)
    heard = {}
    for ms in SHIFTS:
        pcm = np.concatenate([np.zeros(16 * (100 + ms), np.int16), answer, np.zeros(16 * 200, np.int16)])
        event = await stt.recognize(rtc.AudioFrame(pcm.tobytes(), 16000, 1, len(pcm)))
        heard[ms] = heard_customer_number(normalise(event.alternatives[0].text))
    assert set(heard.values()) == {"C1003"}, heard
