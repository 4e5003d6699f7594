"""`HibariTTS`: a livekit-agents `tts.TTS` over hibari-tts, whose American English voice and
phonemiser ship inside the wheel. Only that voice is ever selected: hibari downloads other
voices on first use, and the line must never touch the network.

Non-streaming: LiveKit wraps it in `tts.StreamAdapter`, which splits the reply into sentences
so the first sentence is heard while the rest is synthesised.
"""

from __future__ import annotations

import asyncio
import re
import threading
from functools import lru_cache
from typing import Any

import numpy as np
from livekit.agents import APIConnectOptions, tts, utils
from livekit.agents.types import DEFAULT_API_CONNECT_OPTIONS

from callcenter.speech.local_stt import SpeechEngineMissing

SAMPLE_RATE = 24000
VOICE = "heart"  # the voice inside the wheel; every other voice is a download
# hibari's phonemiser reads a lower-case "no." as the abbreviation ("number"): the end of
# every read-back, "Please say yes or no.", was heard as "yes or number". A capital "No."
# is read as the word, with the same intonation (checked on its phonemes, tests/voice).
_NO_ABBREVIATION = re.compile(r"(?<![\w.])no\.(?!\w)")


def for_hibari(text: str) -> str:
    """Text as hibari should read it: the words the line means, not abbreviations."""
    return _NO_ABBREVIATION.sub("No.", text)


@lru_cache(maxsize=1)
def load_hibari() -> Any:
    try:
        from hibari import Hibari
    except ImportError as exc:
        raise SpeechEngineMissing("local text-to-speech needs the voice extra: pip install 'callcenter[voice]'") from exc
    engine = Hibari(voice=VOICE, threads=1)
    engine("Ready.")  # loads the phonemiser now, not on the caller's first reply
    return engine


def pcm16(audio: np.ndarray) -> bytes:
    return (np.clip(audio, -1.0, 1.0) * 32767.0).astype("<i2").tobytes()


class HibariTTS(tts.TTS):
    def __init__(self, *, speed: float = 1.0, seed: int | None = 7) -> None:
        super().__init__(capabilities=tts.TTSCapabilities(streaming=False), sample_rate=SAMPLE_RATE, num_channels=1)
        self._engine = load_hibari()
        self._speed = speed
        self._seed = seed  # fixed noise: the same reply sounds the same (repeatable tests)
        self._lock = threading.Lock()

    @property
    def model(self) -> str:
        return f"hibari-{VOICE}"

    @property
    def provider(self) -> str:
        return "local"

    def render(self, text: str) -> np.ndarray:
        """Blocking: text -> float32 mono audio at 24 kHz."""
        with self._lock:
            return self._engine(for_hibari(text), speed=self._speed, seed=self._seed)

    def synthesize(self, text: str, *, conn_options: APIConnectOptions = DEFAULT_API_CONNECT_OPTIONS) -> tts.ChunkedStream:
        return _HibariStream(tts=self, input_text=text, conn_options=conn_options)


class _HibariStream(tts.ChunkedStream):
    _tts: HibariTTS

    async def _run(self, output_emitter: tts.AudioEmitter) -> None:
        output_emitter.initialize(
            request_id=utils.shortuuid(), sample_rate=SAMPLE_RATE, num_channels=1, mime_type="audio/pcm"
        )
        if self.input_text.strip():
            audio = await asyncio.to_thread(self._tts.render, self.input_text)
            output_emitter.push(pcm16(audio))
        output_emitter.flush()
