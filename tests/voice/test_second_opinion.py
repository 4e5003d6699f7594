"""Open speech on the telephone band: when tiny.en is unsure of what a caller said freely,
Whisper base reads it again, and its reading stands when base is surer of it and it makes no
yes or no (`callcenter/speech/second_opinion.py`). Before, espeak-ng en-us+m3's "how much do i
owe right now" at 8 kHz was "How much do I go right now?" and "... the authenticator on it is
empty now" was "... the authentic data is empty now."."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.voice.voices import espeak, telephone, to_16k
from callcenter.speech.local_stt import WhisperSTT
from callcenter.speech.second_opinion import take_second

RATE = 16000


def _as_a_call_cuts_it(audio: np.ndarray) -> np.ndarray:
    """0.4 s of quiet before the first sound and 0.2 s after the last, as EarlySTT cuts a turn."""
    sound = np.flatnonzero(np.abs(audio) > 1e-3)
    quiet = np.zeros(int(0.4 * RATE), np.float32)
    return np.concatenate([quiet, audio[sound[0]:sound[-1] + 1], quiet[: int(0.2 * RATE)]])


@pytest.mark.parametrize(("said", "word"), [("how much do i owe right now", "owe"),
                                            ("like um my phone got replaced and the authenticator on it is empty now",
                                             "authentication")])
def test_a_request_on_the_telephone_band_is_read_by_base_when_tiny_is_unsure(
    recogniser: WhisperSTT, base_model: object, espeak_ng: str, sox_bin: str, said: str, word: str,
) -> None:
    audio = _as_a_call_cuts_it(to_16k(*telephone(*espeak(said))))
    heard, _ = recogniser.transcribe(audio)
    assert word in heard.lower(), heard


def test_a_second_opinion_never_makes_a_yes_or_a_no() -> None:
    # espeak-ng's "um" at 8 kHz: tiny.en "Um." (-0.58), base "Uh-huh." (-0.59 in one probe;
    # were base surer, it would still make a yes to whatever the line just asked)
    assert not take_second("Um.", -0.58, "Uh-huh.", -0.2)
    assert not take_second("I want to clone my account.", -0.5, "No, I want to close my account.", -0.1)
    # a yes tiny.en heard too may stand in base's words
    assert take_second("Yes, go a hat.", -0.6, "Yes, go ahead.", -0.2)


def test_the_surer_reading_stands() -> None:
    assert take_second("How much do I go right now?", -0.42, "How much do I owe right now?", -0.15)
    assert not take_second("Hey, mayor.", -0.70, "Pay, error.", -0.61)  # surer, but by less than MARGIN
    assert not take_second("Hey, there.", -0.4, "Pay, error.", -0.56)  # base less sure: tiny.en's stands
    assert not take_second("Hello.", -0.4, "", -0.1)  # an empty reading is no reading


def test_a_reading_that_shares_no_word_is_a_guess() -> None:
    # espeak-ng's "hey there" in a dev call at 8 kHz: base's "A, error." was answered as API errors
    assert not take_second("Hey, there.", -0.6, "A, error.", -0.3)
    assert take_second("I want to clone my account.", -0.5, "I want to close my account.", -0.2)
