"""The identity grammar decode (callcenter/speech/digit_grammar.py): tiny.en writes "C one oh
oh three" as "C one oh three" (a repeated digit dropped), so the first answer did not verify
and the caller was asked again; held to C and four digits, five digits for the ZIP, the
recogniser places the digit it skipped. A caller who says something else is not made into
an id."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from benchmarks.voice.voices import hibari
from callcenter.speech.local_stt import WhisperSTT
from callcenter.spoken import normalise
from domains.identity import heard_customer_number
from meta.voice import VoiceCall
from meta.voice_io import resample

OpenVoiceCall = Callable[..., Awaitable[VoiceCall]]


async def test_an_id_with_a_repeated_digit_verifies_at_the_first_answer(open_voice_call: OpenVoiceCall) -> None:
    voice = await open_voice_call()
    await voice.speak(*hibari("I was charged twice for my subscription."))
    assert voice.slots.slot == "identity"
    answer = await voice.speak(*hibari("It's C one oh oh three, zip code six oh six oh one."))
    assert voice.call.state.caller.verified, answer.heard
    assert voice.call.state.caller.customer_id == "C1003"


def test_a_caller_without_the_number_is_not_given_one(recogniser: WhisperSTT) -> None:
    for said in ("I don't remember my customer number.", "Sorry, can you say that again?"):
        pcm, rate = hibari(said)
        text, _ = recogniser.transcribe(resample(pcm, rate, 16000).astype("float32") / 32768, "identity")
        assert heard_customer_number(normalise(text)) is None, text
