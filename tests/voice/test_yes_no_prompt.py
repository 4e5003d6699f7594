"""The answer to a read-back on the telephone band is read with a prompt of yes, no and
held-back answers (meta/voice_prompt.py `YESNO_PROMPT`), as the line wires it (`SlotWatcher`).
espeak-ng en-us-nyc+f3 at 150 wpm is a devx voice (tuned on, never unseen): with the line's
topic prompt tiny.en reads its "mm-hm do it" at 8 kHz as "My email can do it.", which the
read-back gate cannot take as a yes and asks again (the call's action never runs)."""

from __future__ import annotations

from benchmarks.voice.voices import espeak_as, telephone, to_16k
from callcenter.speech.local_stt import WhisperSTT
from domains.intent import yes_or_no
from meta.voice_prompt import YESNO_PROMPT, recogniser_prompt

NYC = espeak_as("en-us-nyc+f3", 150)


def _heard(stt: WhisperSTT, said: str, band: str = "8k") -> str:
    pcm, rate = NYC(said)
    if band == "8k":
        pcm, rate = telephone(pcm, rate)
    return stt.hear(to_16k(pcm, rate), stt.slot()).text


def test_a_yes_said_as_mm_hm_is_a_yes_on_the_telephone_band(line_recogniser: WhisperSTT, espeak_ng: str,
                                                             sox_bin: str) -> None:
    heard = _heard(line_recogniser, "mm-hm do it")
    assert yes_or_no(heard) is True, heard  # "My email can do it." with the line's prompt: asked again


def test_a_no_is_still_a_no(line_recogniser: WhisperSTT, espeak_ng: str, sox_bin: str) -> None:
    heard = _heard(line_recogniser, "nah leave it")
    assert yes_or_no(heard) is False, heard  # "And I'll leave it." with the line's prompt


def test_the_answers_prompt_is_read_only_on_the_telephone_band(line_recogniser: WhisperSTT, sox_bin: str) -> None:
    import numpy as np

    rng = np.random.default_rng(0)
    wide = rng.standard_normal(16000).astype(np.float32) * 0.1  # energy above 4 kHz: not the telephone band
    assert line_recogniser._slot_prompt(wide, "yesno") == recogniser_prompt()
    narrow = to_16k(*telephone((wide * 20000).astype(np.int16), 16000))
    assert line_recogniser._slot_prompt(narrow, "yesno") == YESNO_PROMPT
    assert line_recogniser._slot_prompt(narrow, None) == recogniser_prompt()
