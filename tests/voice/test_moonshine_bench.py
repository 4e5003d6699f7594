"""The benchmark's Moonshine base-en adapter (benchmarks/voice/moonshine_stt.py, session 25)
reads real audio through the C API it calls directly; skipped when `moonshine-cpp` is not
installed (it is in no extra: measured, not adopted, benchmarks/README.md)."""

from __future__ import annotations

import wave
from pathlib import Path

import numpy as np
import pytest

moonshine_cpp = pytest.importorskip("moonshine_cpp", reason="pip install moonshine-cpp==0.1.4")

from benchmarks.voice.bench_voice import edit_distance, words  # noqa: E402
from benchmarks.voice.moonshine_stt import MoonshineSTT  # noqa: E402


def test_moonshine_reads_the_packaged_wav_and_nothing_from_silence() -> None:
    path = Path(moonshine_cpp.__file__).parent / "test-data" / "beckett.wav"
    with wave.open(str(path)) as wav:
        assert wav.getframerate() == 16000 and wav.getnchannels() == 1
        audio = np.frombuffer(wav.readframes(wav.getnframes()), np.int16).astype(np.float32) / 32768.0
    text, confidence = MoonshineSTT().transcribe(audio)
    said = "Ever tried. Ever failed. No matter. Try again. Fail again. Fail better."
    assert edit_distance(words(said), words(text)) <= 2, text
    assert confidence == 1.0
    assert MoonshineSTT().transcribe(np.zeros(800, np.float32)) == ("", 0.0)  # under 0.1 s: not read
