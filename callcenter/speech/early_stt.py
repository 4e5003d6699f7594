"""`EarlySTT`: a batch recogniser that starts decoding during the end-of-turn silence.

LiveKit's own `stt.StreamAdapter` recognises an utterance only after the VAD has heard
`min_silence` of quiet (0.6 s here, so a comma pause does not end the turn), so the caller
waits for the silence *and then* for the whole decode. This adapter starts the same decode
speculatively once the caller has been quiet for `early_s` (0.2 s): if the silence lasts
until the VAD's end of speech, that result is the final transcript (often already done);
if the caller speaks again, the guess is dropped and the full utterance is decoded as
before. The recogniser sees the same audio either way, minus some trailing silence, so
only CPU is spent on a wasted guess, never accuracy; and a dropped guess stops at its
recogniser's next costly step (dropped.py), so that CPU is one first decode at most.

Any non-streaming STT can be wrapped; streaming cloud STTs do not need it.
"""

from __future__ import annotations

import asyncio
import threading
import time

import numpy as np
from livekit import rtc
from livekit.agents import DEFAULT_API_CONNECT_OPTIONS, APIConnectOptions, stt, utils, vad
from livekit.agents.types import NOT_GIVEN, NotGivenOr

from callcenter.speech.dropped import guess_context
from callcenter.speech.wrapped import WrappedSTT

# A decode of a dropped guess is not awaited by anyone: keep a reference until it ends.
_STRAY: set[asyncio.Task[stt.SpeechEvent]] = set()


# The quiet kept before the caller's first sound and after the last. The VAD's events carry
# its prefix padding and its silence counted in 32 ms windows, plus however far into a window
# the caller began or stopped, so the same words reached the recogniser with 0-32 ms more or
# less quiet around them, and tiny.en wrote another id at one such offset ("one oh three
# zero" for "one oh oh three"). Cut to the same quiet, the same audio is the same input
# wherever the VAD's windows fell.
LEAD_S = 0.4
# A sample within this of the utterance's loudest is sound (a word's quiet onset and its
# decay included); above a phone line's noise floor, so noise is not taken for words. On a
# line noisier than that nothing is cut and the VAD's own bounds stand.
SOUND_DB = 35.0


def _steady(buffer: rtc.AudioFrame, tail_s: float) -> rtc.AudioFrame:
    """The utterance from `LEAD_S` before its first sound to `tail_s` after its last (quiet
    added at the end when the VAD's cut left less). Sound is found sample by sample against
    the loudest sample, so where the VAD's windows fell does not move it."""
    rate, ch = buffer.sample_rate, buffer.num_channels
    pcm = np.frombuffer(buffer.data, dtype=np.int16)
    mono = np.abs(pcm.reshape(-1, ch)[:, 0].astype(np.int32))
    if mono.size == 0 or mono.max() == 0:
        return buffer
    sound = np.flatnonzero(mono >= mono.max() * 10 ** (-SOUND_DB / 20))
    start = max(0, int(sound[0]) - int(LEAD_S * rate))
    end = int(sound[-1]) + 1 + int(tail_s * rate)
    kept = pcm[start * ch:end * ch]
    if end * ch > len(pcm):
        kept = np.concatenate([kept, np.zeros(end * ch - len(pcm), np.int16)])
    return rtc.AudioFrame(data=kept.tobytes(), sample_rate=rate, num_channels=ch, samples_per_channel=len(kept) // ch)


class EarlySTT(WrappedSTT):
    """A non-streaming STT plus a VAD, streaming final transcripts with an early decode."""

    def __init__(self, inner: stt.STT, vad: vad.VAD, *, early_s: float = 0.2) -> None:
        super().__init__(inner, capabilities=stt.STTCapabilities(streaming=True, interim_results=False))
        self.vad = vad
        self.early_s = early_s
        self.guesses = 0  # early decodes started
        self.guesses_used = 0  # ... and taken as the final transcript
        self.decoding = 0  # decodes running (a dropped guess included: it still takes the CPU)
        self.speaking = 0  # streams whose VAD is inside an utterance

    @property
    def busy(self) -> bool:
        """Inside an utterance or decoding one: a transcript may still come. Whoever waits for
        the caller's words (meta/voice.py) waits while this holds, however loaded the CPU."""
        return self.decoding > 0 or self.speaking > 0

    async def _recognize_impl(
        self, buffer: utils.AudioBuffer, *, language: NotGivenOr[str] = NOT_GIVEN, conn_options: APIConnectOptions
    ) -> stt.SpeechEvent:
        return await self.inner.recognize(buffer, language=language, conn_options=conn_options)

    def stream(
        self, *, language: NotGivenOr[str] = NOT_GIVEN, conn_options: APIConnectOptions = DEFAULT_API_CONNECT_OPTIONS
    ) -> stt.RecognizeStream:
        return _EarlyStream(stt=self, language=language, conn_options=conn_options)


class _EarlyStream(stt.RecognizeStream):
    _stt: EarlySTT

    def __init__(self, *, stt: EarlySTT, language: NotGivenOr[str], conn_options: APIConnectOptions) -> None:
        super().__init__(stt=stt, conn_options=conn_options)
        self._language = language
        self._speech: list[rtc.AudioFrame] = []  # this utterance so far, prefix padding included
        self._guess: asyncio.Task[stt.SpeechEvent] | None = None
        self._guess_dropped: threading.Event | None = None  # set: the guess's decode stops (dropped.py)
        self._speaking = False

    def _recognize(self, frames: list[rtc.AudioFrame], silence_s: float, *,
                   guess: bool = False) -> asyncio.Task[stt.SpeechEvent]:
        """Decode the utterance with exactly `early_s` of its trailing silence (`silence_s` is
        how much it ends with), then (`_steady`) with `LEAD_S` of quiet before its first sound
        and `early_s` after its last: how much silence an event carries depends on how far
        behind the VAD ran and where its windows fell, and the recogniser writes other words
        (a comma, a capital, a digit) for another length of silence, so the same audio must
        always reach it cut the same way. The first cut stays for a line so noisy that
        `_steady` finds sound everywhere."""
        buffer = utils.merge_frames(frames)
        extra = int(max(0.0, silence_s - self._stt.early_s) * buffer.sample_rate)
        if 0 < extra < buffer.samples_per_channel:
            keep = (buffer.samples_per_channel - extra) * buffer.num_channels
            buffer = rtc.AudioFrame(
                data=buffer.data[:keep].tobytes(), sample_rate=buffer.sample_rate,
                num_channels=buffer.num_channels, samples_per_channel=buffer.samples_per_channel - extra,
            )
        buffer = _steady(buffer, self._stt.early_s)
        coro = self._stt.inner.recognize(buffer, language=self._language)
        if guess:
            context, self._guess_dropped = guess_context()
            task = asyncio.create_task(coro, context=context)
        else:
            task = asyncio.create_task(coro)
        self._stt.decoding += 1
        task.add_done_callback(self._decoded)
        return task

    def _decoded(self, _task: asyncio.Task[stt.SpeechEvent]) -> None:
        self._stt.decoding -= 1

    def _in_speech(self, now: bool) -> None:
        if now != self._speaking:
            self._speaking = now
            self._stt.speaking += 1 if now else -1

    def _drop_guess(self) -> None:
        if self._guess is not None:
            # The decode runs in a thread and cannot be stopped from here: it is told to stop at
            # its next costly step (dropped.py) and ends unobserved.
            if self._guess_dropped is not None:
                self._guess_dropped.set()
            _STRAY.add(self._guess)
            self._guess.add_done_callback(lambda t: (_STRAY.discard(t), t.cancelled() or t.exception()))
            self._guess = None

    async def _run(self) -> None:
        vad_stream = self._stt.vad.stream()

        async def forward() -> None:
            async for item in self._input_ch:
                if isinstance(item, self._FlushSentinel):
                    vad_stream.flush()
                else:
                    vad_stream.push_frame(item)
            vad_stream.end_input()

        task = asyncio.create_task(forward())
        try:
            async for ev in vad_stream:
                await self._on_vad(ev)
        finally:
            await utils.aio.cancel_and_wait(task)
            self._in_speech(False)
            self._drop_guess()
            await vad_stream.aclose()

    async def _on_vad(self, ev: vad.VADEvent) -> None:
        if ev.type == vad.VADEventType.START_OF_SPEECH:
            self._speech = list(ev.frames)
            self._in_speech(True)
            self._drop_guess()
            self._event_ch.send_nowait(stt.SpeechEvent(stt.SpeechEventType.START_OF_SPEECH))
        elif ev.type == vad.VADEventType.INFERENCE_DONE and ev.speaking:
            self._speech.extend(ev.frames)
            if ev.raw_accumulated_silence == 0.0:
                self._drop_guess()  # the caller is speaking again: the guess is stale
            elif self._guess is None and ev.raw_accumulated_silence >= self._stt.early_s:
                self._stt.guesses += 1
                self._guess = self._recognize(self._speech, ev.raw_accumulated_silence, guess=True)
        elif ev.type == vad.VADEventType.END_OF_SPEECH:
            speech_end_time = time.time() - ev.silence_duration - ev.inference_duration
            self._event_ch.send_nowait(stt.SpeechEvent(stt.SpeechEventType.END_OF_SPEECH, speech_end_time=speech_end_time))
            guess, self._guess = self._guess, None
            if guess is not None:
                self._stt.guesses_used += 1
            try:
                result = await (guess or self._recognize(list(ev.frames), ev.silence_duration))
            finally:
                self._in_speech(False)  # after the decode: no gap in which nothing is at work
            self._speech = []
            if result.alternatives and result.alternatives[0].text:
                self._event_ch.send_nowait(
                    stt.SpeechEvent(
                        type=stt.SpeechEventType.FINAL_TRANSCRIPT,
                        alternatives=[result.alternatives[0]],
                        speech_end_time=speech_end_time,
                    )
                )

