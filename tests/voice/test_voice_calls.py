"""Spoken calls end to end: caller audio -> VAD -> Whisper -> the hierarchy -> hibari -> captured
audio, through a real AgentSession with no room. Assertions are on effects (refunds in the
store, verification, hops) and on what the agent's audio says when transcribed back."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from types import SimpleNamespace

import numpy as np
import pytest
from prometheus_client import REGISTRY

from benchmarks.voice.voices import hibari, piper, telephone
from callcenter.speech.local_stt import WhisperSTT
from callcenter.spoken import normalise
from domains.billing.ledger import Ledger
from meta.voice import VoiceCall
from meta.voice_io import resample, segment_pcm

OpenVoiceCall = Callable[..., Awaitable[VoiceCall]]


def _stage_count(stage: str) -> float:
    return REGISTRY.get_sample_value("callcenter_voice_stage_seconds_count", {"stage": stage}) or 0.0


def _heard_back(recogniser: WhisperSTT, voice: VoiceCall, first_segment: int = 0) -> str:
    """The agent's audio since a segment, transcribed by the line's own recogniser."""
    pcm = np.concatenate([segment_pcm(s, 16000) for s in voice.speaker.segments[first_segment:]])
    return normalise(recogniser.transcribe(pcm.astype(np.float32) / 32768)[0])


@pytest.mark.parametrize("band", ["16k", "8k-telephone"])
async def test_spoken_duplicate_charge_call_refunds_49_once(open_voice_call: OpenVoiceCall, recogniser: WhisperSTT, band: str, sox_bin: str) -> None:
    voice = await open_voice_call()
    stages_before = {s: _stage_count(s) for s in ("transcript", "llm_first_output", "first_audio")}

    def say(text: str, take: int = 1) -> tuple[np.ndarray, int]:
        pcm, rate = hibari(text, seed=take)
        return telephone(pcm, rate) if band != "16k" else (pcm, rate)

    first = await voice.speak(*say("I was charged twice for my subscription."))
    assert first.record is not None and [h.to_agent for h in first.record.hops][:1] == ["billing"]
    segments_before = len(voice.speaker.segments)
    heard = []
    # tiny.en sometimes writes "C one zero zero one" as C10001 (benchmarks/voice, WER): the
    # line then asks again, and the caller says it again (another take of the same words).
    for take in (1, 2):
        second = await voice.speak(*say("C one zero zero one, zip nine four one oh seven.", take))
        heard.append(second.heard)
        if voice.call.state.caller.verified:
            break
    assert "C1001" in second.heard and "94107" in second.heard, heard
    assert voice.call.state.caller.verified
    store = voice.call.line.store
    assert Ledger(store).list_refunds("C1001") == []  # read back first: nothing moves before a yes
    await voice.speak(*say("Yes, please."))
    refunds = Ledger(store).list_refunds("C1001")
    assert [r.amount_cents for r in refunds] == [4900]
    # Per-stage timings are measured from the end of the caller's speech, in order.
    t = second.timings
    assert 0 < t["transcript"] <= t["first_llm_output"] <= t["first_audio"] < 15
    # The same stages reach Prometheus from LiveKit's per-message metrics (the 1.8 API).
    # LiveKit reports a turn's metrics after the turn's audio ends: wait for them, do not race.
    for _ in range(200):
        if all(_stage_count(s) >= n + 2 for s, n in stages_before.items()):
            break
        await asyncio.sleep(0.05)
    assert all(_stage_count(s) >= n + 2 for s, n in stages_before.items()), (
        stages_before, {s: _stage_count(s) for s in stages_before})
    # What the caller hears carries the amount.
    assert "49" in _heard_back(recogniser, voice, segments_before)


@pytest.mark.parametrize("band", ["16k", "8k-telephone"])
async def test_second_voice_identity_check_verifies(open_voice_call: OpenVoiceCall, joe_voice: None, sox_bin: str, band: str) -> None:
    # Piper's joe: another speaker, model and phonemiser than the line's own hibari, so the
    # recogniser is not only tested on its twin's audio. (espeak-ng's robotic voice is
    # measured in benchmarks/voice, WER table, not asserted on.)
    voice = await open_voice_call()

    def say(text: str) -> tuple[np.ndarray, int]:
        pcm, rate = piper(text)
        return telephone(pcm, rate) if band != "16k" else (pcm, rate)

    await voice.speak(*say("What is my balance?"))
    heard = []
    for _ in range(2):  # asked again if not understood, as a caller would be
        turn = await voice.speak(*say("C one zero zero one, zip nine four one oh seven."))
        heard.append(turn.heard)
        if voice.call.state.caller.verified:
            break
    # The recogniser may hear the C as another letter that rhymes with it ("T1001", seen on
    # one CI machine); the line reads that as the number it asked for. The digits must be right.
    assert "1001" in turn.heard and "94107" in turn.heard, heard
    assert voice.call.state.caller.verified, heard
    assert voice.call.state.caller.customer_id == "C1001"


async def test_spoken_multi_need_call_reaches_every_domain(open_voice_call: OpenVoiceCall) -> None:
    voice = await open_voice_call(customer_id="C1001")
    turn = await voice.speak(*hibari("My API calls fail with four twenty nine errors, I was charged twice, and I can't log in."))
    await voice.speak(*hibari("Yes, please."))  # the refund is read back; the other needs follow
    reached = {h.to_agent for h in voice.call.state.log.hops}
    assert {"billing", "technical", "account"} <= reached, turn.heard


async def test_barge_in_stops_the_agents_audio(open_voice_call: OpenVoiceCall) -> None:
    voice = await open_voice_call(customer_id="C1001")
    voice.speaker.speed = 1.0  # real-time playout, so the caller can talk over it
    await voice.speak(*hibari("What can you help me with?"), wait_reply=False)
    await voice._wait_for(voice.speaker.playing.is_set, 20)
    speaking = voice.speaker.segments[-1]
    await voice.speak(*hibari("Sorry, wait, I need an invoice."), wait_reply=False)
    await voice._wait_for(lambda: speaking.interrupted or not voice.speaker.playing.is_set(), 20)
    assert speaking.interrupted
    assert speaking.played_s < speaking.duration


async def test_unusable_audio_gets_a_spoken_sorry_never_a_traceback(open_voice_call: OpenVoiceCall) -> None:
    voice = await open_voice_call()
    rate = 16000
    speech, r = hibari("uh hmm")
    unusable = {
        "silence": np.zeros(rate * 2, np.int16),
        "noise": np.random.default_rng(3).normal(0, 6000, rate * 2).astype(np.int16),
        # a recording far too loud: every sample at the rails
        "clipped": np.sign(resample(speech, r, rate)).astype(np.int16) * 32767,
    }
    for kind, pcm in unusable.items():
        turn = await voice.speak(pcm, rate)
        if turn.heard:  # the recogniser found words in it: the line answered them, no crash
            assert turn.replies, kind
        else:
            assert turn.replies == ["Sorry, I didn't catch that. Could you say it again?"], kind
            assert turn.timings["first_audio"] > 0, kind
    assert voice.call.state.log.hops == []
    assert Ledger(voice.call.line.store).list_refunds("C1001") == []


class _SlowApprovals:
    """Stands in for Temporal (tests/temporal runs the real one): the approval is started and
    no supervisor decides while the caller holds."""

    def __init__(self) -> None:
        self.submitted: list[str] = []

    async def submit_approval(self, req: object) -> SimpleNamespace:
        self.submitted.append(req.request_id)  # type: ignore[attr-defined]
        return SimpleNamespace(status="started")

    async def wait_for_decision(self, request_id: str, timeout_s: float) -> SimpleNamespace:
        await asyncio.sleep(timeout_s)
        return SimpleNamespace(state="pending")

    async def status(self, request_id: str) -> SimpleNamespace:
        return SimpleNamespace(state="pending")


async def test_a_hold_gets_a_spoken_filler_instead_of_silence(open_voice_call: OpenVoiceCall, voice_line) -> None:  # noqa: ANN001
    voice_line.settings = voice_line.settings.model_copy(update={"hold_on_line_s": 4.0, "filler_after_s": 0.5})
    approvals = _SlowApprovals()
    voice = await open_voice_call(customer_id="C1002", durable=approvals)  # $249 duplicate: needs approval
    await voice.speak(*hibari("I was charged twice."))
    turn = await voice.speak(*hibari("Yes, please."))  # confirmed after the read-back: now it waits
    assert approvals.submitted, turn.heard
    assert voice.filler.spoken >= 1
    assert turn.record is not None and [r.status for r in turn.record.results] == ["needs_approval"]
