"""The per-turn voice stages are timed whichever event comes first: the recogniser's final
transcript (EarlySTT has its own VAD) or the session's end of speech. CI once lost two of
three transcript timings because the transcript arrived first."""

from __future__ import annotations

from types import SimpleNamespace

from livekit.agents import utils
from livekit.agents.voice.events import UserInputTranscribedEvent, UserStateChangedEvent

from meta.voice_metrics import VoiceStageTimer


def _timer() -> tuple[VoiceStageTimer, utils.EventEmitter]:
    session: utils.EventEmitter = utils.EventEmitter()
    session.vad = SimpleNamespace(min_silence_duration=0.6)  # type: ignore[attr-defined]
    return VoiceStageTimer(session), session  # type: ignore[arg-type]


def _speak(session: utils.EventEmitter, start: float) -> None:
    session.emit("user_state_changed", UserStateChangedEvent(old_state="listening", new_state="speaking", created_at=start))


def _stop(session: utils.EventEmitter, at: float) -> None:
    session.emit("user_state_changed", UserStateChangedEvent(old_state="speaking", new_state="listening", created_at=at))


def _final(session: utils.EventEmitter, at: float, text: str = "c one oh oh one") -> None:
    session.emit("user_input_transcribed", UserInputTranscribedEvent(transcript=text, is_final=True, created_at=at))


def test_transcript_after_end_of_speech_is_timed_from_the_speech_end() -> None:
    timer, session = _timer()
    _speak(session, 100.0)
    _stop(session, 102.6)  # speech ended at 102.0 (0.6 s of silence before the event)
    _final(session, 102.9)
    assert round(timer.last["transcript"], 3) == 0.9


def test_transcript_before_end_of_speech_is_timed_once_the_end_is_known() -> None:
    timer, session = _timer()
    _speak(session, 100.0)
    _final(session, 102.4)  # the recogniser's own VAD finished first
    assert "transcript" not in timer.last
    _stop(session, 102.6)
    assert round(timer.last["transcript"], 3) == 0.4


def test_every_turn_is_timed_once_in_either_order() -> None:
    timer, session = _timer()
    seen = []
    for i, early in enumerate([True, False, True]):
        t0 = 100.0 + 10 * i
        _speak(session, t0)
        if early:
            _final(session, t0 + 2.4)
        _stop(session, t0 + 2.6)
        if not early:
            _final(session, t0 + 2.9)
            _final(session, t0 + 3.5, "a second final for the same turn is not a second timing")
        seen.append(timer.last.get("transcript"))
    assert [round(s, 3) for s in seen if s is not None] == [0.4, 0.9, 0.4]


def test_a_stale_early_transcript_does_not_leak_into_the_next_turn() -> None:
    timer, session = _timer()
    _speak(session, 100.0)
    _final(session, 101.0)
    _speak(session, 105.0)  # the caller started again before any end of speech
    _stop(session, 107.6)
    assert "transcript" not in timer.last
