"""A one-value answer (the number alone, the ZIP alone, the read-back's fix) is one run of digits,
and a decode held to digit words writes one from any turn: after a read-back, "great thanks
have a good one" in espeak-ng en-us+m3 at 8 kHz was "Three, two, three, two, one." (a ZIP, read
back to the caller as heard) where the recogniser's own readings were a clear goodbye. That
decode is now asked only when a reading holds two digits or digit words
(`slot_grammar.heard_a_number`)."""

from __future__ import annotations

import numpy as np

from benchmarks.voice.voices import espeak, telephone, to_16k
from callcenter.speech.local_stt import WhisperSTT
from callcenter.speech.slot_grammar import fit, heard_a_number
from meta.voice_prompt import SLOT_PROMPTS

RATE = 16000


def _as_a_call_cuts_it(audio: np.ndarray) -> np.ndarray:
    """0.4 s of quiet before the first sound and 0.2 s after the last, as EarlySTT cuts a turn."""
    sound = np.flatnonzero(np.abs(audio) > 1e-3)
    quiet = np.zeros(int(0.4 * RATE), np.float32)
    return np.concatenate([quiet, audio[sound[0]:sound[-1] + 1], quiet[: int(0.2 * RATE)]])


def test_a_goodbye_after_a_read_back_is_no_zip(recogniser: WhisperSTT, espeak_ng: str, sox_bin: str) -> None:
    audio = _as_a_call_cuts_it(to_16k(*telephone(*espeak("great thanks have a good one"))))
    saved = recogniser.slot_prompts
    recogniser.slot_prompts = SLOT_PROMPTS  # as a call sets them (meta/voice_slots.py)
    try:
        heard = recogniser.hear(audio, "fix").text
    finally:
        recogniser.slot_prompts = saved  # the recogniser is shared by the session's tests
    assert fit("fix", heard) == 0 and "good one" in heard.lower(), heard  # "Three, two, three, two, one." before


def test_a_number_heard_is_two_digits_or_digit_words() -> None:
    assert heard_a_number(["See 103."]) and heard_a_number(["Great.", "It's C one oh oh three."])
    assert heard_a_number(["nine four one oh seven"])
    assert not heard_a_number(["Great, thanks. Have a good one."])  # one digit word is no number
    assert not heard_a_number(["I don't know it."])
