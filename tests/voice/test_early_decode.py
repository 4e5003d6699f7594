"""The early decode (callcenter/speech/early_stt.py) in real spoken calls: the recogniser's
guess, started during the end-of-turn silence, becomes the transcript when the caller stays
quiet, and is dropped when the caller goes on after a short pause (no half sentence routed)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import numpy as np

from benchmarks.voice.voices import hibari, trim, with_pause
from callcenter.speech.early_stt import EarlySTT
from meta.voice import VoiceCall

OpenVoiceCall = Callable[..., Awaitable[VoiceCall]]


def _early(voice: VoiceCall) -> EarlySTT:
    inner = voice.session.stt.inner  # type: ignore[union-attr]  # NormalisedSTT -> EarlySTT
    assert isinstance(inner, EarlySTT)
    return inner


async def test_the_guess_started_in_the_silence_is_the_transcript(open_voice_call: OpenVoiceCall) -> None:
    voice = await open_voice_call(customer_id="C1005")
    early = _early(voice)
    started, used = early.guesses, early.guesses_used
    turn = await voice.speak(*hibari("What is my balance?"))
    assert "balance" in turn.heard.lower()
    assert early.guesses_used == used + 1 and early.guesses == started + 1
    assert turn.record is not None and [h.to_agent for h in turn.record.hops][:2] == ["billing", "billing.balance"]


async def test_a_pause_inside_a_sentence_drops_the_guess_and_keeps_one_turn(open_voice_call: OpenVoiceCall) -> None:
    voice = await open_voice_call(customer_id="C1001")
    early = _early(voice)
    first, rate = hibari("I was charged twice")
    rest, _ = hibari("for my subscription this month.")
    # 0.35 s of quiet: longer than the early decode's 0.2 s, shorter than the VAD's 0.6 s.
    pcm = np.concatenate([with_pause(trim(first), rate, 0.35), trim(rest), np.zeros(rate // 2, np.int16)])
    started, used = early.guesses, early.guesses_used
    turn = await voice.speak(pcm, rate)
    assert early.guesses >= started + 2  # one guess in the pause (dropped), one at the end
    assert early.guesses_used == used + 1
    heard = turn.heard.lower()
    assert "twice" in heard and "subscription" in heard, heard
    assert turn.record is not None and turn.record.index == 1  # one caller turn, not two
