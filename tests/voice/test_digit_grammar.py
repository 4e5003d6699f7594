"""The identity grammar decode (callcenter/speech/digit_grammar.py): tiny.en writes "C one oh
oh three" as "C one oh three" (a repeated digit dropped), so the first answer did not verify
and the caller was asked again; held to C and four digits, five digits for the ZIP, the
recogniser places the digit it skipped. A caller who says something else is not made into
an id."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from benchmarks.voice.voices import espeak_as, hibari, telephone, to_16k
from callcenter.speech.local_stt import Heard, WhisperSTT
from callcenter.spoken import normalise
from domains.identity import heard_customer_number
from domains.identity_readings import on_file
from meta.voice import VoiceCall
from meta.voice_io import resample
from meta.voice_prompt import SLOT_PROMPTS

OpenVoiceCall = Callable[..., Awaitable[VoiceCall]]


async def test_an_id_with_a_repeated_digit_verifies_at_the_first_answer(open_voice_call: OpenVoiceCall) -> None:
    voice = await open_voice_call()
    await voice.speak(*hibari("I was charged twice for my subscription."))
    assert voice.slots.slot == "identity"
    answer = await voice.speak(*hibari("It's C one oh oh three, zip code six oh six oh one."))
    assert voice.call.state.caller.verified, answer.heard
    assert voice.call.state.caller.customer_id == "C1003"


async def test_a_whole_sentence_around_the_numbers_verifies_at_the_first_answer(open_voice_call: OpenVoiceCall) -> None:
    # Ten tokens of words around the numbers: the grammar allowed 8 over the whole answer, so
    # its ZIP could not be written and the id-alone reading ended the search; tiny.en alone
    # writes "C one oh three" (the repeated digit dropped) and the caller was asked again.
    voice = await open_voice_call()
    await voice.speak(*hibari("I was charged twice for my subscription."))
    answer = await voice.speak(*hibari("My customer number is C one oh oh three and my zip code is six oh six oh one."))
    assert voice.call.state.caller.verified, answer.heard
    assert voice.call.state.caller.customer_id == "C1003"


def test_a_caller_without_the_number_is_not_given_one(recogniser: WhisperSTT) -> None:
    for said in ("I don't remember my customer number.", "Sorry, can you say that again?"):
        pcm, rate = hibari(said)
        text, _ = recogniser.transcribe(resample(pcm, rate, 16000).astype("float32") / 32768, "identity")
        assert heard_customer_number(normalise(text)) is None, text



# espeak-ng voices on the telephone band. What int8 Whisper writes for these two depends on the
# CPU's instruction set (oneDNN/MKL kernels: AVX2, AVX-512, AMX give different words for the
# same audio; the Caribbean voice read "C1004, 30301" on one machine and no number at all on
# the next), so this test holds what must hold on every machine: whatever was heard, the
# caller is never made into another customer (issue 26's floor).
@pytest.mark.parametrize("variant, wpm", [("en-gb-scotland", 150), ("en-029+m2", 165)])
async def test_a_hard_voice_is_never_read_as_another_customer(
    recogniser: WhisperSTT, store: Any, espeak_ng: str, sox_bin: str, variant: str, wpm: int
) -> None:
    pcm, rate = telephone(*espeak_as(variant, wpm)("Customer number C one zero zero four, zip three zero three zero one."))
    saved = recogniser.slot_prompts, recogniser.on_file
    recogniser.slot_prompts, recogniser.on_file = SLOT_PROMPTS, on_file(store)  # as a call sets them (meta/voice_slots.py)
    try:
        heard = normalise(recogniser.hear(to_16k(pcm, rate), "identity").text)  # as the line resamples it (to_whisper_audio)
    finally:
        recogniser.slot_prompts, recogniser.on_file = saved  # the recogniser is shared by the session's tests
    named = heard_customer_number(heard)
    customer = store.get_customer(named) if named else None
    if customer is not None and customer.zip_code in heard.replace(" ", ""):
        assert customer.id == "C1004", heard


# The choice among readings, given the readings: on the machine where it was found, the
# Caribbean voice above was written "It's three zero three zero one." (no letter heard) and the
# grammar's best reading, under its threshold, named C1004 with C1004's ZIP. That reading sat at
# index 0 of the pool and was dropped ('if index' read 0 as none); the caller was asked again.
CARIBBEAN = Heard("It's three zero three zero one.", 0.4, ["It's three zero three zero one."], grammar_tried=True,
                  unsure=["C one zero zero four, zip three zero three zero one",
                          "C one zero zero four, zip three zero three zero four"])


def test_a_less_sure_reading_is_taken_when_it_names_an_account(
    recogniser: WhisperSTT, store: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(recogniser, "on_file", on_file(store))
    monkeypatch.setattr(recogniser, "read", lambda audio, slot=None: CARIBBEAN)
    assert recogniser.hear(np.zeros(16000, np.float32), "identity").text == CARIBBEAN.unsure[0]
    # A pool where no reading names an account leaves the recogniser's words as they were.
    nobody = replace(CARIBBEAN, unsure=["C nine nine nine nine, zip three zero three zero one"])
    monkeypatch.setattr(recogniser, "read", lambda audio, slot=None: nobody)
    assert recogniser.hear(np.zeros(16000, np.float32), "identity").text == CARIBBEAN.text
