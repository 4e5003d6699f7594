"""The read-back of a misheard customer number, corrected by the caller, in a spoken call: the
line reads back what it heard digit by digit, the caller says the number again without its C
("no, it's one zero zero one", as the issue's callers did), and is verified as that customer.
The first answer carries a wrong number (C1008: no account has it, and none of the
recogniser's other readings with that ZIP names one, so nothing rescues it before the
read-back; domains/identity_readings.py); to the line a misheard number and a misspoken one
are the same."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from benchmarks.voice.voices import hibari
from meta.voice import VoiceCall

OpenVoiceCall = Callable[..., Awaitable[VoiceCall]]


async def test_a_misheard_number_is_read_back_and_corrected_by_voice(open_voice_call: OpenVoiceCall) -> None:
    voice = await open_voice_call()
    await voice.speak(*hibari("I was charged twice for my subscription."))
    assert voice.slots.slot == "identity"  # the recogniser was told what the question asks for
    wrong = await voice.speak(*hibari("C one zero zero eight, zip nine four one oh seven."))
    assert "C1008" in wrong.heard, wrong.heard
    assert not voice.call.state.caller.verified
    assert "I heard customer number C 1 0 0 8, ZIP code 9 4 1 0 7." in " ".join(wrong.replies)
    assert "C 1 0 0 8" in wrong.spoken  # read aloud one digit at a time
    fixed = await voice.speak(*hibari("No, it's one zero zero one."))
    assert voice.call.state.caller.verified, fixed.heard
    assert voice.call.state.caller.customer_id == "C1001"
    assert "To confirm: a refund of $49.00" in " ".join(fixed.replies)
    assert voice.slots.slot == "yesno"  # the refund's read-back asks for a yes or a no
