"""After a first answer that does not verify, the line asks for one value at a time, as IVRs
do, and reads each short answer held to its own grammar (callcenter/speech/digit_grammar.py):
the customer number alone (C and four digits), the ZIP code alone (five digits), or the
value a caller corrects after the read-back ("no, it's C one oh oh three"). tiny.en drops a
repeated digit when it writes one ("C one oh three"), so before, such an answer gave no
number and the caller was asked again. A caller who says something else is given no number."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from benchmarks.voice.voices import hibari
from callcenter.speech.local_stt import WhisperSTT
from callcenter.spoken import normalise
from domains.identity import heard_customer_number
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
