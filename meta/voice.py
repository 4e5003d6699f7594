"""A spoken call: the same `Call` (hierarchy, observer, metrics) with caller audio in and the
agent's audio out, through the session's own audio input/output (no room, no server).

`VoiceCall.speak(samples, rate)` plays one caller utterance in real time and waits until the
agent has answered (or found nothing to answer), returning the turn with what the recogniser
heard and per-stage timings from the end of the caller's speech. Used by
`callcenter call --voice`, the voice tests and the voice benchmark alike.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterable, AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from livekit.agents.voice.events import (
    UserInputTranscribedEvent,
    UserStateChangedEvent,
)

from callcenter.speech.factory import session_speech
from meta.observer import TurnRecord
from meta.session import Call, Line, start_call
from meta.voice_filler import SpokenFiller
from meta.voice_io import CallerAudioInput, CapturedAudioOutput
from meta.voice_keypad import Keypad, keypad_hint
from meta.voice_prompt import recogniser_prompt
from meta.voice_slots import SlotWatcher
from meta.voice_sorry import SORRY

# How long after the caller stops a transcript may take before we say we did not catch it:
# VAD silence + endpointing + recognition on a busy 2-core box.
HEARD_TIMEOUT_S = 8.0
REPLY_TIMEOUT_S = 60.0
NO_SPEECH_S = 1.0  # after the caller's audio ends, how long the VAD may take to notice speech


@dataclass
class VoiceTurn:
    heard: str  # what the recogniser heard, normalised ('' = nothing recognised)
    record: TurnRecord | None
    timings: dict[str, float] = field(default_factory=dict)  # seconds after the caller stopped
    replies: list[str] = field(default_factory=list)
    spoken: str = ""  # the words the line's voice was given (ids spelled out, the keypad hint)

    def as_json(self) -> dict[str, Any]:
        rec = self.record
        return {
            "turn": rec.index if rec else None,
            "user": self.heard,
            "reply": " ".join(self.replies),
            "spoken": self.spoken,
            "hops": [h.as_json() for h in rec.hops] if rec else [],
            "results": [r.as_json() for r in rec.results] if rec else [],
            "timings": {k: round(v, 3) for k, v in self.timings.items()},
        }


class VoiceCall:
    def __init__(self, call: Call, mic: CallerAudioInput, speaker: CapturedAudioOutput, *, filler_after_s: float) -> None:
        self.call = call
        self.mic = mic
        self.speaker = speaker
        self.session = call.session
        self._heard: list[tuple[float, str]] = []  # (wall time, text) of final transcripts
        self._first_text_at: float | None = None
        self._spoken: list[str] = []  # text chunks sent to the TTS since the turn began
        self.filler = SpokenFiller(self.session, after_s=filler_after_s)
        self._turn_open = False
        self._speech_starts = 0  # times the VAD heard the caller start speaking
        self.session.on("user_state_changed", self._on_user_state)
        self.session.on("user_input_transcribed", self._on_transcript)
        # The phone keypad: the same collector a SIP call's keys go through (meta/voice_keypad.py).
        self.keypad = Keypad(self.session)
        self.keypad.listeners.append(self._on_keys)
        # The recogniser hears the value a question asks for, and reads an open turn the line's
        # router puts out of scope again (voice_slots.py).
        self.slots = SlotWatcher(self.session, call.state.ports.customers, router=call.state.router)

    # --- events --------------------------------------------------------------------
    def _on_transcript(self, ev: UserInputTranscribedEvent) -> None:
        if not ev.is_final or not ev.transcript.strip():
            return
        self._heard.append((time.time(), ev.transcript.strip()))
        obs = self.call.observer
        if not self._turn_open:
            self._turn_open = True
            obs.begin_turn(ev.transcript.strip())
        elif obs.turn is not None:
            obs.turn.user = f"{obs.turn.user} {ev.transcript.strip()}"

    def _on_keys(self, text: str) -> None:
        """A keypad entry is a caller turn, like a final transcript."""
        self._heard.append((time.time(), text))
        if self._turn_open and self.call.observer.turn is not None:
            self.call.observer.turn.user = f"{self.call.observer.turn.user} {text}"
        else:
            self._turn_open = True
            self.call.observer.begin_turn(text)

    def _on_user_state(self, ev: UserStateChangedEvent) -> None:
        if ev.new_state == "speaking":
            self._speech_starts += 1

    async def mark_first_text(self, text: AsyncIterable[str]) -> AsyncIterator[str]:
        """A tts text transform: notes when the first reply text reaches the TTS."""
        async for chunk in text:
            if self._first_text_at is None and chunk.strip():
                self._first_text_at = time.time()
            self._spoken.append(chunk)
            yield chunk

    # --- turns ---------------------------------------------------------------------
    def spoken_text(self) -> str:
        return " ".join("".join(self._spoken).split())

    async def wait_idle(self, timeout: float = REPLY_TIMEOUT_S) -> None:
        """Until the agent has nothing left to say and its audio has played out."""
        deadline = time.monotonic() + timeout
        quiet_since: float | None = None
        while time.monotonic() < deadline:
            busy = (
                self.session.agent_state in ("thinking", "speaking")
                or self.call._speech_pending()
                or not self.speaker.idle.is_set()
            )
            if busy:
                quiet_since = None
            elif quiet_since is None:
                quiet_since = time.monotonic()
            elif time.monotonic() - quiet_since >= 0.3:  # a reply's next sentence starts within this
                return
            await asyncio.sleep(0.02)
        raise TimeoutError("the agent did not finish its reply")

    async def speak(self, samples: np.ndarray, rate: int, *, wait_reply: bool = True) -> VoiceTurn:
        """Play one caller utterance; with wait_reply, wait for the agent's whole answer."""
        seen, segs, starts = len(self._heard), len(self.speaker.segments), self._speech_starts
        self._first_text_at = None
        self._spoken = []
        self.mic.play(samples, rate)
        await self.mic.drained.wait()
        ended = self.mic.speech_ended_at or time.time()
        if not wait_reply:
            return VoiceTurn(heard="", record=None)
        # No voice activity at all (silence, a hum): nothing will be transcribed.
        # Both waits are for the caller's words: they run out only while the recogniser is idle,
        # so a loaded CPU (a slow VAD, a long decode) delays the answer instead of losing it.
        if not await self._wait_unless_busy(lambda: self._speech_starts > starts or len(self._heard) > seen, NO_SPEECH_S):
            return await self._not_caught(ended)
        if not await self._wait_unless_busy(lambda: len(self._heard) > seen or len(self.speaker.segments) > segs, HEARD_TIMEOUT_S):
            return await self._not_caught(ended)
        await self.wait_idle()
        heard = " ".join(t for _, t in self._heard[seen:])
        record = self.call.observer.end_turn() if self._turn_open else None
        self._turn_open = False
        if not heard:
            return await self._not_caught(ended)
        turn = VoiceTurn(heard=heard, record=record, replies=list(record.replies) if record else [], spoken=self.spoken_text())
        turn.timings["transcript"] = self._heard[seen][0] - ended
        if self._first_text_at is not None:
            turn.timings["first_llm_output"] = self._first_text_at - ended
        new = self.speaker.segments[segs:]
        if new:
            turn.timings["first_audio"] = new[0].started_at - ended
        return turn

    async def press(self, keys: str) -> VoiceTurn:
        """Type one entry on the keypad (a SIP caller's DTMF keys) and wait for the answer.
        Without a closing '#', the entry ends after the keypad's inter-digit timeout."""
        seen, segs = len(self._heard), len(self.speaker.segments)
        self._first_text_at = None
        self._spoken = []
        for key in keys:
            self.keypad.press(key)
        ended = time.time()
        if not await self._wait_for(lambda: len(self._heard) > seen, self.keypad.timeout_s + 1.0):
            return await self._not_caught(ended)
        ended = self._heard[seen][0]
        await self._wait_for(lambda: self.session.agent_state != "listening" or len(self.speaker.segments) > segs, 2.0)
        await self.wait_idle()
        record = self.call.observer.end_turn() if self._turn_open else None
        self._turn_open = False
        turn = VoiceTurn(heard=" ".join(t for _, t in self._heard[seen:]), record=record,
                         replies=list(record.replies) if record else [], spoken=self.spoken_text())
        if self._first_text_at is not None:
            turn.timings["first_llm_output"] = self._first_text_at - ended
        if len(self.speaker.segments) > segs:
            turn.timings["first_audio"] = self.speaker.segments[segs].started_at - ended
        return turn

    async def listen(self) -> AsyncIterator[VoiceTurn]:
        """Live mode: one turn each time the caller has spoken and the agent has answered."""
        while True:
            seen = len(self._heard)
            self._first_text_at = None
            self._spoken = []
            await self._wait_for(lambda seen=seen: len(self._heard) > seen, float("inf"))
            await self.wait_idle()
            record = self.call.observer.end_turn() if self._turn_open else None
            self._turn_open = False
            heard = " ".join(t for _, t in self._heard[seen:])
            yield VoiceTurn(heard=heard, record=record, replies=list(record.replies) if record else [], spoken=self.spoken_text())

    async def _not_caught(self, ended: float) -> VoiceTurn:
        """Nothing recognised (silence, noise, a clipped file): say so instead of going quiet."""
        segs = len(self.speaker.segments)
        self.session.say(SORRY, add_to_chat_ctx=False)
        await self.wait_idle()
        turn = VoiceTurn(heard="", record=None, replies=[SORRY])
        if len(self.speaker.segments) > segs:
            turn.timings["first_audio"] = self.speaker.segments[segs].started_at - ended
        return turn

    async def _wait_unless_busy(self, cond: Any, idle_s: float) -> bool:
        """Until `cond`; False after `idle_s` in which the recogniser did no work (at most
        REPLY_TIMEOUT_S in all, so a wedged recogniser still ends the wait)."""
        started = deadline = time.monotonic()
        deadline += idle_s
        while not cond():
            now = time.monotonic()
            if getattr(self.session.stt, "busy", False) and now - started < REPLY_TIMEOUT_S:
                deadline = now + idle_s
            elif now >= deadline:
                return cond()
            await asyncio.sleep(0.02)
        return True

    async def _wait_for(self, cond: Any, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if cond():
                return True
            await asyncio.sleep(0.02)
        return cond()

    async def close(self, outcome: str = "completed") -> None:
        self.filler.close()
        self.keypad.close()
        self.slots.close()
        self.mic.close()
        if not getattr(self.session.stt, "busy", True):
            _no_last_words(self.session)
        await self.call.close(outcome)


def _no_last_words(session: Any) -> None:
    """LiveKit's session close waits up to `session_close_transcript_timeout` (2 s) for the
    caller's last words once the audio is detached; with no utterance under way and no decode
    running (EarlySTT.busy false), none can come, and the 2 s were most of a live call's exit
    after Ctrl-C (benchmarks/README.md, issue 26). Words the VAD had not yet marked as speech
    when the caller hung up (a few tens of ms) are lost, as they would be on a dropped line.
    The option has no setter after the session is made; without it the close waits as before."""
    opts = getattr(session, "_opts", None)
    if opts is not None and hasattr(opts, "session_close_transcript_timeout"):
        opts.session_close_transcript_timeout = 0.0


async def start_voice_call(
    line: Line,
    *,
    customer_id: str | None = None,
    durable: Any = None,
    rate: int = 16000,
    speech: dict[str, Any] | None = None,
    playout_speed: float = 1.0,
    keypad: bool = False,
) -> VoiceCall:
    """A call whose caller speaks: local (or configured) speech, the greeting already played.
    `keypad`: the caller has a phone keypad (the questions it can answer say so)."""
    settings = line.settings
    kwargs = dict(speech) if speech is not None else session_speech(settings, prompt=recogniser_prompt(), ear=line.ear, words=line.router.rejoin)
    mic, speaker = CallerAudioInput(rate=rate), CapturedAudioOutput(sample_rate=kwargs["tts"].sample_rate, speed=playout_speed)
    holder: dict[str, VoiceCall] = {}

    async def first_text(text: AsyncIterable[str]) -> AsyncIterator[str]:
        async for chunk in holder["v"].mark_first_text(text) if "v" in holder else text:
            yield chunk

    kwargs["tts_text_transforms"] = [
        *kwargs.get("tts_text_transforms", []), *([keypad_hint(lambda: True)] if keypad else []), first_text]
    call = await start_call(line, customer_id=customer_id, durable=durable, session_kwargs=kwargs, audio=(mic, speaker))
    voice = VoiceCall(call, mic, speaker, filler_after_s=settings.filler_after_s)
    holder["v"] = voice
    await voice.wait_idle()  # the greeting plays before the caller speaks
    return voice
