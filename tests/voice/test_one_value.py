"""After a first answer that does not verify, the line asks for one value at a time, as IVRs
do, and reads each short answer held to its own grammar (callcenter/speech/digit_grammar.py):
the customer number alone (C and four digits), the ZIP code alone (five digits), or the
value a caller corrects after the read-back ("no, it's C one oh oh three"). tiny.en drops a
repeated digit when it writes one ("C one oh three"), so before, such an answer gave no
number and the caller was asked again. A caller who says something else is given no number."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from benchmarks.voice.voices import espeak_as, hibari, telephone, to_16k
from callcenter.speech.local_stt import WhisperSTT
from callcenter.spoken import normalise
from domains.identity import correction, heard_customer_number
from domains.identity_readings import number_on_file_with
from meta.voice import VoiceCall
from meta.voice_io import resample
from meta.voice_prompt import SLOT_PROMPTS

OpenVoiceCall = Callable[..., Awaitable[VoiceCall]]


async def test_an_answer_without_the_number_is_followed_by_the_number_alone(open_voice_call: OpenVoiceCall) -> None:
    voice = await open_voice_call()
    await voice.speak(*hibari("I was charged twice for my subscription."))
    assert voice.slots.slot == "identity"
    zip_only = await voice.speak(*hibari("My zip code is nine four one oh seven."))
    assert not voice.call.state.caller.verified, zip_only.heard
    assert "one at a time. What's your customer number?" in " ".join(zip_only.replies)  # not both again
    assert voice.slots.slot == "id"  # the recogniser is held to a customer number
    number = await voice.speak(*hibari("It's C one oh oh one."))
    assert voice.call.state.caller.verified, number.heard
    assert voice.call.state.caller.customer_id == "C1001"


async def test_a_number_corrected_after_the_read_back_is_read_whole(open_voice_call: OpenVoiceCall) -> None:
    voice = await open_voice_call()
    await voice.speak(*hibari("I was charged twice for my subscription."))
    wrong = await voice.speak(*hibari("C one zero zero eight, zip six oh six oh one."))
    assert "I heard customer number C 1 0 0 8, ZIP code 6 0 6 0 1." in " ".join(wrong.replies), wrong.heard
    assert voice.slots.slot == "fix"  # the read-back's answer: a number, a ZIP or both
    # Read with the first answer's grammar this came back "No it's C one oh three.": no number.
    fixed = await voice.speak(*hibari("No, it's C one oh oh three."))
    assert voice.call.state.caller.verified, fixed.heard
    assert voice.call.state.caller.customer_id == "C1003"


@pytest.mark.parametrize("slot", ["id", "zip", "fix"])
def test_a_caller_who_says_something_else_is_given_no_value(recogniser: WhisperSTT, slot: str) -> None:
    before, recogniser.slot_prompts = recogniser.slot_prompts, SLOT_PROMPTS  # as a call sets them (meta/voice_slots.py)
    try:
        for said in ("I don't remember my customer number.", "Yes, that's right.", "Hang on, let me find it."):
            pcm, rate = hibari(said)
            text, _ = recogniser.transcribe(resample(pcm, rate, 16000).astype("float32") / 32768, slot)
            heard = normalise(text)
            assert heard_customer_number(heard) is None and not any(len(w) >= 4 and w.isdigit() for w in heard.split()), text
    finally:
        recogniser.slot_prompts = before  # the recogniser is shared by the session's tests



# espeak-ng voices on the telephone band, the number said alone after a first answer that gave
# the ZIP but no number: tiny.en writes "It's C one zero zero zero four." / "... zero two."
# (a zero too many: no account), and the caller was asked again; or said to fix a read-back
# whose ZIP was right: "No, that's C one zero zero zero two.". Of the readings of the number,
# the line now takes the one that names an account with the ZIP the caller gave (or the line
# read back), and checks only that ZIP (domains/identity_readings.py number_on_file).
@pytest.mark.parametrize("variant, wpm, customer, said, slot", [
    ("en-gb-scotland", 150, "C1004", "It's C one zero zero four.", "id"),
    ("en-029+m2", 165, "C1002", "It's C one zero zero two.", "id"),
    ("en-gb-scotland", 150, "C1002", "No, it's C one zero zero two.", "fix"),
])
def test_a_number_said_alone_is_read_with_the_zip_given_before(
    recogniser: WhisperSTT, store: Any, espeak_ng: str, sox_bin: str, variant: str, wpm: int, customer: str, said: str,
    slot: str,
) -> None:
    pcm, rate = telephone(*espeak_as(variant, wpm)(said))
    given = store.get_customer(customer).zip_code  # said in the caller's first answer, or read back
    saved = recogniser.slot_prompts, getattr(recogniser, "number_on_file", None)
    # As a call sets them (meta/voice_slots.py).
    recogniser.slot_prompts, recogniser.number_on_file = SLOT_PROMPTS, number_on_file_with(store, lambda: given)
    try:
        heard = normalise(recogniser.hear(to_16k(pcm, rate), slot).text)  # as the line resamples it
    finally:
        recogniser.slot_prompts, recogniser.number_on_file = saved  # the recogniser is shared by the session's tests
    assert heard_customer_number(heard) == customer, heard


async def test_the_number_said_alone_is_tried_with_the_zip_the_caller_gave(open_voice_call: OpenVoiceCall) -> None:
    voice = await open_voice_call()
    await voice.speak(*hibari("I was charged twice for my subscription."))
    zip_only = await voice.speak(*hibari("My zip code is nine four one oh seven."))
    assert voice.slots.slot == "id", zip_only.heard
    choose = voice.slots.recogniser.number_on_file
    assert choose(["It's C one oh one.", "It's C one oh oh one."]) == 1  # C1001's ZIP is 94107
    assert choose(["It's C one oh oh two."]) is None  # C1002's is not: the ZIP said is the one tried
    assert choose(["It's C one oh oh two, zip one oh oh oh one."]) is None  # never a ZIP of its own


async def test_a_corrected_number_is_tried_with_the_zip_read_back(open_voice_call: OpenVoiceCall) -> None:
    voice = await open_voice_call()
    await voice.speak(*hibari("I was charged twice for my subscription."))
    wrong = await voice.speak(*hibari("C one zero zero eight, zip six oh six oh one."))
    assert voice.slots.slot == "fix", wrong.heard
    choose = voice.slots.recogniser.number_on_file
    assert choose(["No, it's C one oh three.", "No, it's C one oh oh three."]) == 1  # C1003's ZIP is 60601
    assert choose(["No, the zip is nine four one oh seven.", "No, it's C one oh oh one."]) is None  # a ZIP said now


def test_a_zip_heard_with_a_digit_too_many_is_read_again(recogniser: WhisperSTT, espeak_ng: str, sox_bin: str) -> None:
    # The read-back's answer on the telephone band (espeak-ng en-us-nyc+f3): tiny.en writes "It's
    # one zero zero zero zero one." (six digits, no ZIP), and the "s" of "it's" before them made
    # it fit as a customer number, so the ZIP's own grammar was never asked (slot_grammar.py).
    pcm, rate = telephone(*espeak_as("en-us-nyc+f3", 150)("The zip is one zero zero zero one."))
    before, recogniser.slot_prompts = recogniser.slot_prompts, SLOT_PROMPTS  # as a call sets them (meta/voice_slots.py)
    try:
        heard = normalise(recogniser.hear(to_16k(pcm, rate), "fix").text)
    finally:
        recogniser.slot_prompts = before  # the recogniser is shared by the session's tests
    assert correction(heard, "C1002", "10000") == ("C1002", "10001"), heard
