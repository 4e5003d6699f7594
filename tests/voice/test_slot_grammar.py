"""The recogniser with a slot pending (callcenter/speech/slot_grammar.py): the beam's reading
that fits the slot wins over a likelier one that does not; with nothing that fits, the most
likely reading stands; the held second decode writes only the slot's words."""

from __future__ import annotations

import re

from benchmarks.voice.voices import hibari, to_16k
from callcenter.speech.local_stt import WhisperSTT
from callcenter.speech.slot_grammar import VOCABULARY, fit, pick
from callcenter.speech.whisper_window import transcribe_window
from meta.voice_prompt import SLOT_PROMPTS
from meta.voice_slots import pending_slot


def test_the_reading_that_fits_the_slot_wins() -> None:
    assert pick("identity", ["See 1001 for 107.", "C1001, zip 94107."]) == "C1001, zip 94107."
    assert pick("identity", ["C one oh oh one", "C one zero zero one, zip nine four one oh seven"]).endswith("seven")
    assert pick("yesno", ["I, I sure.", "Uh-huh, sure."]) == "Uh-huh, sure."
    assert pick("zip", ["9417", "94107"]) == "94107"
    # Nothing fits (the caller said something else): the most likely reading stands.
    assert pick("identity", ["What's my balance?", "What is my balance?"]) == "What's my balance?"
    assert pick(None, ["a", "b"]) == "a"
    assert fit("amount", "forty nine dollars") == 1 and fit("amount", "the whole thing") == 0
    # The "s" of "it's" is no customer number's letter: six digits said are no id (nor a ZIP).
    assert fit("id", "It's one zero zero zero four.") == 0 and fit("fix", "It's one zero zero zero zero one.") == 0
    assert fit("id", "It's C one zero zero four.") == 1


def test_the_slot_is_read_from_the_lines_question() -> None:
    assert pending_slot("Before I can look at your account I need to verify who you are. Could you tell me "
                        "your customer number, and the ZIP code on the account?") == "identity"
    assert pending_slot("Thank you. And the ZIP code on the account?") == "zip"
    assert pending_slot("Let's take them one at a time. What's your customer number? It starts with a C.") == "id"
    assert pending_slot("Sorry, I couldn't verify those details. I heard customer number C 1 0 0 8, ZIP code 9 4 1 0 7. "
                        "If I misheard, please say the right one again.") == "fix"
    assert pending_slot("To confirm: a refund of $49.00. Shall I go ahead? Please say yes or no.") == "yesno"
    assert pending_slot("How much would you like refunded, in US dollars?") == "amount"
    assert pending_slot("Your balance is $0.00. Is there anything else I can help you with?") is None


def test_the_held_decode_writes_only_the_slots_words(recogniser: WhisperSTT) -> None:
    audio = to_16k(*hibari("Um, it's C one zero zero two, zip one zero zero zero one."))
    (segment,) = transcribe_window(recogniser._model, audio, prompt=SLOT_PROMPTS["identity"], window_s=15.0,  # noqa: SLF001
                                   beam_size=5, only=VOCABULARY["identity"]) or [None]
    allowed = {w.lower() for w in VOCABULARY["identity"]}
    said = [w for w in re.split(r"[\s,.?-]+", segment.text.lower()) if w]
    assert said and set(said) <= allowed, segment.text
    assert fit("identity", segment.text) == 3, segment.text
