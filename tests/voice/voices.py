"""Caller voices for the tests and the benchmark: hibari (the line's own TTS), espeak-ng (a
different, formant voice), and the telephone band (8 kHz mu-law made by sox, as a SIP
trunk would deliver it)."""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

import numpy as np

from callcenter.speech.local_tts import load_hibari, pcm16
from meta.voice_io import read_wav, write_wav

ESPEAK_VOICE = ["-v", "en-us+m3", "-s", "130", "-g", "2"]  # slower, male variant: a second speaker


def hibari(text: str, *, seed: int = 1) -> tuple[np.ndarray, int]:
    audio = load_hibari()(text, seed=seed)
    return np.frombuffer(pcm16(audio), np.int16), 24000


def espeak(text: str) -> tuple[np.ndarray, int]:
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "say.wav"
        subprocess.run(["espeak-ng", *ESPEAK_VOICE, "-w", str(out), text], check=True, capture_output=True)
        return read_wav(out)


def telephone(samples: np.ndarray, rate: int) -> tuple[np.ndarray, int]:
    """Through a phone line: band-limited, 8 kHz, mu-law (sox), read back by the line's reader."""
    with tempfile.TemporaryDirectory() as d:
        src, dst = Path(d) / "in.wav", Path(d) / "tel.wav"
        write_wav(src, samples, rate)
        subprocess.run(["sox", str(src), "-r", "8000", "-e", "u-law", "-b", "8", str(dst), "sinc", "300-3400"],
                       check=True, capture_output=True)
        return read_wav(dst)


def with_pause(samples: np.ndarray, rate: int, seconds: float) -> np.ndarray:
    return np.concatenate([samples, np.zeros(int(rate * seconds), np.int16)])
