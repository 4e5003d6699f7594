"""A guess dropped because the caller went on stops at its recogniser's next costly step
(callcenter/speech/dropped.py).

A caller who pauses inside the identity answer ("My customer number is C one zero zero five,
... and my zip code is ...") gets an early decode of the first half, which fits no number and
ZIP: that guess went on to the id/ZIP grammar decode (about 7 CPU-s with Whisper base on one
thread) after the caller had already gone on, and the decode of the whole answer waited for it
on the recogniser's lock. Now the dropped guess stops, and only the whole answer is read."""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Awaitable, Callable
from typing import Any

import numpy as np
import pytest

from benchmarks.voice.voices import hibari, trim, with_pause
from callcenter.speech import early_stt, local_stt
from callcenter.speech.dropped import Dropped, check, guess_context
from meta.voice import VoiceCall

OpenVoiceCall = Callable[..., Awaitable[VoiceCall]]


async def _until(cond: Callable[[], bool]) -> None:
    while not cond():
        await asyncio.sleep(0.02)


async def test_a_pause_inside_the_identity_answer_runs_no_grammar_decode_for_its_first_half(
    open_voice_call: OpenVoiceCall, monkeypatch: pytest.MonkeyPatch,
) -> None:
    voice = await open_voice_call()  # not verified: the balance question asks who the caller is
    await voice.speak(*hibari("What is my balance?"))
    assert voice.slots.slot == "identity"
    grammar_decodes: list[Any] = []  # grammar decodes that ran to their end
    real = local_stt.read_identity

    def counted(*args: Any, **kwargs: Any) -> Any:
        out = real(*args, **kwargs)
        grammar_decodes.append(out)
        return out

    monkeypatch.setattr(local_stt, "read_identity", counted)
    early = voice.session.stt.inner  # type: ignore[union-attr]  # NormalisedSTT -> EarlySTT
    guesses = early.guesses
    first, rate = hibari("My customer number is C one zero zero five,")
    rest, _ = hibari("and my zip code is nine seven two zero one.")
    # 0.35 s of quiet: an early guess starts (0.2 s) and is dropped when the caller goes on.
    pcm = np.concatenate([with_pause(trim(first), rate, 0.35), trim(rest), np.zeros(rate // 2, np.int16)])
    turn = await voice.speak(pcm, rate)
    await _until(lambda: not early_stt._STRAY)  # the dropped guess's decode has ended
    assert early.guesses >= guesses + 2  # one in the pause (dropped), one at the end
    assert "97201" in turn.heard.replace(" ", ""), turn.heard
    assert any("balance" in r for r in turn.replies), turn.replies  # verified: the question is answered
    # The whole answer fits at its first decode; the half answer's grammar decode did not run.
    assert grammar_decodes == []


def test_only_a_dropped_guess_stops() -> None:
    check()  # no guess: never stops
    context, dropped = guess_context()
    context.run(check)  # a guess still wanted goes on
    dropped.set()
    with pytest.raises(Dropped):
        context.run(check)
    contextvars.copy_context().run(check)  # another decode is not told to stop
