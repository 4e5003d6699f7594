"""A caller's words are waited for while the recogniser works on them, however long the
decode takes on a loaded CPU: "Sorry, I didn't catch that" is for audio nothing was heard in,
never for a decode that was merely slow (a clean-clone run at load 5 lost an identity turn
that way: heard '', first audio after 8 s)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

import meta.voice
from benchmarks.voice.voices import hibari
from meta.voice import VoiceCall
from meta.voice_sorry import SORRY

OpenVoiceCall = Callable[..., Awaitable[VoiceCall]]


async def test_a_decode_slower_than_the_no_input_timer_is_still_heard(
    open_voice_call: OpenVoiceCall, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The no-input timer far shorter than any decode: as if the CPU were ten times slower.
    monkeypatch.setattr(meta.voice, "HEARD_TIMEOUT_S", 0.05)
    voice = await open_voice_call("C1001")
    turn = await voice.speak(*hibari("What is my balance?"))
    assert turn.heard and SORRY not in turn.replies, turn
    assert "$0.00" in " ".join(turn.replies) or "balance" in " ".join(turn.replies).lower(), turn.replies


async def test_silence_is_still_not_caught(open_voice_call: OpenVoiceCall) -> None:
    import numpy as np

    voice = await open_voice_call("C1001")
    turn = await voice.speak(np.zeros(16000, np.int16), 16000)
    assert turn.heard == "" and turn.replies == [SORRY]
