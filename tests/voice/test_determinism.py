"""The same caller audio gives the same words on every run (issue 26: one run heard "C10011",
the next "C1001"). The recogniser decodes at temperature 0 with no fallback and CTranslate2 is
deterministic; what differed was the audio: the caller's file was resampled by LiveKit's
resampler, which dithers with a freshly seeded generator."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import numpy as np

from benchmarks.voice.voices import hibari, telephone
from meta.voice import VoiceCall
from meta.voice_io import resample

OpenVoiceCall = Callable[..., Awaitable[VoiceCall]]


def test_caller_audio_is_resampled_to_the_same_samples_every_time() -> None:
    pcm, rate = hibari("C one zero zero one.")
    first = resample(pcm, rate)
    assert np.array_equal(first, resample(pcm, rate))
    tel, tel_rate = telephone(pcm, rate)
    assert np.array_equal(resample(tel, tel_rate), resample(tel, tel_rate))
    assert abs(first.size - pcm.size * 16000 / rate) <= 1


async def test_the_same_call_audio_is_heard_as_the_same_words(open_voice_call: OpenVoiceCall, sox_bin: str) -> None:
    said = telephone(*hibari("C one zero zero one, zip nine four one oh seven."))
    heard = []
    for _ in range(2):  # two calls, as two runs of the same file would be
        voice = await open_voice_call()
        await voice.speak(*hibari("What is my balance?"))
        heard.append((await voice.speak(*said)).heard)
    assert heard[0] and heard[0] == heard[1], heard
