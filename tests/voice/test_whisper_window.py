"""The recogniser's short window: what fills it after the caller stops must be what Whisper
itself computes for silence, and the benchmark's caller audio must be the same on every run."""

from __future__ import annotations

import numpy as np

from benchmarks.voice.voices import dithered, hibari, to_16k
from callcenter.speech.whisper_window import FRAMES_PER_S, window_features
from tests.conftest import require_module

FeatureExtractor = require_module("faster_whisper.feature_extractor", "the voice extra: bash .ci/setup --test").FeatureExtractor


def _speech() -> np.ndarray:
    pcm, rate = hibari("What is my balance?")
    return to_16k(pcm, rate)


def test_silence_pad_is_the_log_mel_of_digital_silence() -> None:
    extract = FeatureExtractor(feature_size=80)
    audio = _speech()
    features = extract(audio)
    padded = window_features(features, 15.0, pad="silence")
    assert padded is not None and padded.shape == (80, 15 * FRAMES_PER_S)
    # Whisper's own way: pad the audio with zeros, then compute the mel of the whole window.
    whole = extract(np.concatenate([audio, np.zeros(16000 * 15 - audio.size, np.float32)]))
    tail = slice(features.shape[-1] + 5, 15 * FRAMES_PER_S - 5)  # clear of the STFT's edges
    np.testing.assert_allclose(padded[:, tail], whole[:, tail], atol=1e-5)
    # faster-whisper's zero fill is not silence: it sits 2 above the floor of a loud clip.
    zero = window_features(features, 15.0, pad="zero")
    assert zero is not None and float(np.abs(zero[:, tail] - whole[:, tail]).min()) > 0.5


def test_the_utterance_is_kept_and_a_long_one_needs_the_full_window() -> None:
    features = FeatureExtractor(feature_size=80)(_speech())
    padded = window_features(features, 15.0)
    assert padded is not None
    np.testing.assert_array_equal(padded[:, : features.shape[-1]], features)
    assert window_features(np.zeros((80, 2950), np.float32), 15.0) is None


def test_benchmark_audio_is_the_same_on_every_run_and_draws_differ_by_one_lsb() -> None:
    audio = _speech()
    assert np.array_equal(audio, _speech())
    a, b = dithered(audio, 0), dithered(audio, 1)
    assert np.array_equal(a, dithered(audio, 0))
    assert not np.array_equal(a, b)
    assert float(np.abs(a - b).max()) <= 2.0 / 32768 + 1e-9


def test_room_audio_reaches_the_recogniser_at_16k_in_float_with_no_dither() -> None:
    from livekit import rtc

    from callcenter.speech.local_stt import to_whisper_audio

    t = np.arange(48000) / 48000
    tone = (0.25 * np.sin(2 * np.pi * 440 * t) * 32767).astype(np.int16)
    stereo = np.stack([tone, tone], axis=1).reshape(-1)
    frame = rtc.AudioFrame(stereo.tobytes(), 48000, 2, tone.size)
    audio = to_whisper_audio(frame)
    assert audio.dtype == np.float32 and audio.size == 16000
    spectrum = np.abs(np.fft.rfft(audio))
    assert int(np.argmax(spectrum)) == 440  # 1 s of audio: bin = Hz
    assert 0.24 < float(np.abs(audio[100:-100]).max()) < 0.26
    # not re-quantised to int16: values between the int16 steps survive
    assert np.any(np.abs(audio * 32768 - np.round(audio * 32768)) > 0.01)
    assert np.array_equal(audio, to_whisper_audio(frame))
