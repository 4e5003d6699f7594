"""The line's own voice says the words it writes: "Please say yes or no." ends in "no", not in
"number" (hibari's phonemiser reads a lower-case "no." as the abbreviation)."""

from __future__ import annotations

import numpy as np

from callcenter.speech.local_stt import WhisperSTT
from callcenter.speech.local_tts import HibariTTS, for_hibari, load_hibari
from callcenter.spoken import for_the_ear

NUMBER = "nˈʌmbəɹ"  # the phonemes of "number"
NO = "nˈO"


# The end of every read-back (domains/intent.py, ActionGate.check).
QUESTION = for_the_ear("To confirm: a refund of $49.00. Shall I go ahead? Please say yes or no.")


def test_yes_or_no_is_read_as_no_not_number() -> None:
    question = QUESTION
    assert question.endswith("Please say yes or no.")
    hibari = load_hibari()
    assert NUMBER in " ".join(hibari.phonemize(question))  # the engine's own quirk, still there
    phonemes = " ".join(hibari.phonemize(for_hibari(question)))
    assert NUMBER not in phonemes and phonemes.endswith(f"{NO}."), phonemes
    # Other "no"s are left alone: the word at a sentence's start, a "no" in the middle.
    assert for_hibari("No, nothing. I know. no") == "No, nothing. I know. no"


def test_the_line_is_heard_saying_yes_or_no(recogniser: WhisperSTT) -> None:
    audio = HibariTTS().render("Please say yes or no.")  # 24 kHz float
    from scipy.signal import resample_poly

    heard = recogniser.transcribe(resample_poly(audio, 2, 3).astype(np.float32))[0].lower()
    assert "yes or no" in heard and "number" not in heard, heard
