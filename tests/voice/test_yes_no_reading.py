"""While a read-back waits for a yes or a no, the recogniser may take a less likely reading of
the caller's turn only when the most likely one already says a yes or a no word and is no
question (`slot_grammar.pick`). Before, any reading that opened with a yes word won: the 4th
of five readings of "Are you a robot?" in espeak-ng en-us+m3 at 8 kHz is "Uh-huh.", a clean yes
to the read-back gate (domains/intent.py), which would run the action read back on a question."""

from __future__ import annotations

from benchmarks.voice.voices import espeak, telephone, to_16k
from callcenter.speech.local_stt import WhisperSTT
from callcenter.speech.slot_grammar import pick

ROBOT = ["Are you a robot?", "Are you, robot?", "Are you robot?", "Uh-huh.", "Are you?"]  # tiny.en's beam, in order


def test_a_yes_is_never_made_from_a_turn_that_says_none() -> None:
    assert pick("yesno", ROBOT) == "Are you a robot?"
    assert pick("yesno", ["What's the fee?", "Yes, the fee."]) == "What's the fee?"  # a question stands
    # The beam disagreeing about the words around a yes word: the reading that is an answer wins.
    assert pick("yesno", ["I, I sure.", "Uh-huh, sure."]) == "Uh-huh, sure."
    assert pick("yesno", ["No believe it.", "No, leave it."]) == "No believe it."  # both fit: the likelier


def test_a_question_to_the_read_back_at_8_khz_stays_a_question(recogniser: WhisperSTT, espeak_ng: str, sox_bin: str) -> None:
    audio = to_16k(*telephone(*espeak("are you a robot")))
    heard = recogniser.hear(audio, "yesno").text
    assert heard == "Are you a robot?", heard  # "Uh-huh." before
    # (In a call EarlySTT trims the turn to 0.4 s of quiet before it, and that cut's beam holds
    # no "Uh-huh.": this is the recogniser's own reading of the whole file.)

