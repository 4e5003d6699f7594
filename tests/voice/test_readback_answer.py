"""The answer to a read-back at 8 kHz, checked against set yes and no answers scored under the
turn's audio (meta/voice_readback.py, callcenter/speech/forced.py), as the line wires it
(`SlotWatcher`). espeak-ng en-gb-scotland at 150 wpm is a devx voice (tuned on, never unseen):
its "yep thats right" is read "Yes, not right." by tiny.en, which the read-back gate asks
again; its "no, cancel that" is read "Uh-huh.", a clean yes that would run the action read
back on a no."""

from __future__ import annotations

from benchmarks.voice.voices import espeak_as, telephone, to_16k
from callcenter.speech.local_stt import WhisperSTT
from domains.intent import yes_or_no

SCOTLAND = espeak_as("en-gb-scotland", 150)


def _answer(stt: WhisperSTT, said: str) -> str:
    return stt.hear(to_16k(*telephone(*SCOTLAND(said))), stt.slot()).text


def test_a_yes_heard_with_a_not_in_it_is_a_yes(line_recogniser: WhisperSTT, espeak_ng: str, sox_bin: str) -> None:
    heard = _answer(line_recogniser, "yep thats right")
    assert yes_or_no(heard) is True, heard  # "Yes, not right." before: asked again


def test_a_no_heard_as_uh_huh_is_not_a_yes(line_recogniser: WhisperSTT, espeak_ng: str, sox_bin: str) -> None:
    heard = _answer(line_recogniser, "no, cancel that")
    assert yes_or_no(heard) is not True, heard  # "Uh-huh." before: the action read back would run


def test_a_yes_held_back_or_a_bare_yes_and_noise_is_never_made_a_yes() -> None:
    from meta.voice_readback import choose

    asked: list[list[str]] = []

    def yes_likelier(texts: list[str]) -> dict[str, float]:  # every set yes far likelier than any other answer
        asked.append(texts)
        return {t: (0.0 if t in ("Yes.", "Uh-huh.") else -20.0) for t in texts}

    for heard in ("Yes, wait.", "Yeah, hold on, please.", "Yes, not now.", "Yeah, poll, uh.", "So, that's good out of it?"):
        assert choose(heard, [heard], yes_likelier) is None, heard
    assert asked == []  # not even scored
    assert choose("Yes, not right.", ["Yes, not right."], yes_likelier) in ("Yes.", "Uh-huh.")


def test_a_clean_yes_stands_unless_a_no_is_clearly_likelier() -> None:
    from meta.voice_readback import LEAD, choose

    def no_by(margin: float):
        return lambda texts: {t: (-5.0 + margin if t == "No." else -5.0) for t in texts}

    assert choose("Uh-huh.", ["Uh-huh."], no_by(LEAD + 0.5)) == "No."
    assert choose("Uh-huh.", ["Uh-huh."], no_by(LEAD - 0.5)) is None
    assert choose("No.", ["No."], no_by(-10.0)) is None  # a no is never checked, never made a yes
