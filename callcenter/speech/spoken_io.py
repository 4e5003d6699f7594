"""Spoken forms at the speech edges, for any provider.

- `NormalisedSTT` wraps any STT so every final transcript goes through `spoken.normalise`
  (the same function `Call.send` applies to typed turns): routing and slots always see
  "C1001", "$49", never "see one oh oh one" or "forty nine dollars".
- Replies go the other way through the line's `spoken.SpokenIds.ear_transform`, a session
  `tts_text_transforms` entry (speech/factory.py), sentence by sentence before any TTS.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from livekit.agents import DEFAULT_API_CONNECT_OPTIONS, APIConnectOptions, stt
from livekit.agents.types import NOT_GIVEN, NotGivenOr
from livekit.agents.utils import AudioBuffer

from callcenter.speech.wrapped import WrappedSTT
from callcenter.spoken import normalise


def normalise_event(event: stt.SpeechEvent, words: Callable[[str], str] | None = None) -> stt.SpeechEvent:
    if event.type in (stt.SpeechEventType.FINAL_TRANSCRIPT, stt.SpeechEventType.PREFLIGHT_TRANSCRIPT):
        for alt in event.alternatives:
            alt.text = normalise(alt.text)
            if words is not None:
                alt.text = words(alt.text)
    return event


class NormalisedSTT(WrappedSTT):
    """Any STT, with its final transcripts in written form. Streaming STTs keep streaming.
    `words`: the line's own repair of what it reads (the router's `rejoin`: split words
    joined), applied after the written forms, as `Call.send` does for typed turns."""

    def __init__(self, inner: stt.STT, *, words: Callable[[str], str] | None = None) -> None:
        super().__init__(inner, capabilities=inner.capabilities)
        self.words = words

    async def _recognize_impl(
        self, buffer: AudioBuffer, *, language: NotGivenOr[str] = NOT_GIVEN, conn_options: APIConnectOptions
    ) -> stt.SpeechEvent:
        return normalise_event(await self.inner.recognize(buffer, language=language, conn_options=conn_options), self.words)

    def stream(self, *, language: NotGivenOr[str] = NOT_GIVEN, conn_options: APIConnectOptions = DEFAULT_API_CONNECT_OPTIONS) -> stt.RecognizeStream:
        return _NormalisedStream(stt=self, inner=self.inner.stream(language=language, conn_options=conn_options), conn_options=conn_options)


class _NormalisedStream(stt.RecognizeStream):
    def __init__(self, *, stt: NormalisedSTT, inner: stt.RecognizeStream, conn_options: APIConnectOptions) -> None:
        super().__init__(stt=stt, conn_options=conn_options)
        self._inner = inner
        self._stt_words = stt.words

    async def _run(self) -> None:
        async def pump() -> None:
            async for item in self._input_ch:
                if isinstance(item, self._FlushSentinel):
                    self._inner.flush()
                else:
                    self._inner.push_frame(item)
            self._inner.end_input()

        task = asyncio.create_task(pump())
        try:
            async for event in self._inner:
                self._event_ch.send_nowait(normalise_event(event, self._stt_words))
        finally:
            task.cancel()
            await self._inner.aclose()
