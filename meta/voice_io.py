"""Audio in and out of a session without a room: WAV files, telephone audio, captured replies.

`CallerAudioInput` is the caller's side: turns are queued as PCM and played into the session
in real time (LiveKit's endpointing runs on the wall clock), with silence in between, like a
phone line. `CapturedAudioOutput` is the agent's side: it "plays" what the TTS produces in real
time, stops at once when the session clears it (barge-in), and keeps every segment so the
call can be written to a WAV and timed. Modelled on livekit/agents/cli/tcp_console.py.
"""

from __future__ import annotations

import asyncio
import math
import struct
import time
import wave
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from livekit import rtc
from livekit.agents.voice import io

RATE = 16000  # what the caller's audio is resampled to before the session sees it
FRAME_MS = 20


class AudioFileError(ValueError):
    """A caller audio file that cannot be used; the message is one line for the caller."""


# --- reading caller audio -------------------------------------------------------------
def read_wav(path: Path) -> tuple[np.ndarray, int]:
    """Mono int16 samples and their rate from a WAV: 16-bit or 8-bit PCM, 32-bit float,
    or 8-bit mu-law (format 7, telephone audio). Stereo is mixed down."""
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise AudioFileError(f"{path}: cannot read ({exc.strerror or type(exc).__name__})") from None
    if len(raw) < 12 or raw[:4] != b"RIFF" or raw[8:12] != b"WAVE":
        raise AudioFileError(f"{path}: not a WAV file")
    fmt: tuple[int, int, int, int] | None = None
    data: bytes | None = None
    pos = 12
    while pos + 8 <= len(raw):
        cid, size = raw[pos : pos + 4], struct.unpack("<I", raw[pos + 4 : pos + 8])[0]
        body = raw[pos + 8 : pos + 8 + size]
        if cid == b"fmt " and len(body) >= 16:
            tag, channels, rate, _, _, bits = struct.unpack("<HHIIHH", body[:16])
            fmt = (tag, channels, rate, bits)
        elif cid == b"data":
            data = body
        pos += 8 + size + (size & 1)
    if fmt is None or data is None:
        raise AudioFileError(f"{path}: WAV file without audio (missing fmt or data chunk)")
    tag, channels, rate, bits = fmt
    if tag == 0xFFFE:  # WAVE_FORMAT_EXTENSIBLE: the real format is in the sub-format
        tag = 3 if bits == 32 else 1
    if channels < 1 or not 4000 <= rate <= 192000:
        raise AudioFileError(f"{path}: unsupported WAV ({channels} channels at {rate} Hz)")
    samples = _decode(data, tag, bits)
    if samples is None:
        raise AudioFileError(f"{path}: unsupported WAV encoding (format {tag}, {bits} bits); use 16-bit PCM or mu-law")
    samples = samples[: len(samples) - len(samples) % channels].reshape(-1, channels).mean(axis=1)
    if samples.size < rate // 20:
        raise AudioFileError(f"{path}: too short to hold speech ({samples.size / rate:.2f} s)")
    return samples.astype(np.int16), rate


def _decode(data: bytes, tag: int, bits: int) -> np.ndarray | None:
    if tag == 1 and bits == 16:
        return np.frombuffer(data[: len(data) // 2 * 2], "<i2").astype(np.float32)
    if tag == 1 and bits == 8:
        return (np.frombuffer(data, np.uint8).astype(np.float32) - 128) * 256
    if tag == 3 and bits == 32:
        return np.clip(np.frombuffer(data[: len(data) // 4 * 4], "<f4"), -1, 1) * 32767
    if tag == 7 and bits == 8:
        return mulaw_decode(np.frombuffer(data, np.uint8)).astype(np.float32)
    return None


def mulaw_decode(codes: np.ndarray) -> np.ndarray:
    """G.711 mu-law bytes -> int16 (the codec of US telephone lines)."""
    u = ~codes.astype(np.int32) & 0xFF
    sign, exponent, mantissa = u & 0x80, (u >> 4) & 0x07, u & 0x0F
    magnitude = (((mantissa << 3) + 0x84) << exponent) - 0x84
    return np.where(sign != 0, -magnitude, magnitude).astype(np.int16)


def mulaw_encode(pcm: np.ndarray) -> np.ndarray:
    """int16 -> G.711 mu-law bytes."""
    x = pcm.astype(np.int32)
    sign = np.where(x < 0, 0x80, 0)
    x = np.minimum(np.abs(x), 32635) + 0x84
    exponent = np.floor(np.log2(x)).astype(np.int32) - 7
    mantissa = (x >> (exponent + 3)) & 0x0F
    return (~(sign | (exponent << 4) | mantissa) & 0xFF).astype(np.uint8)


def resample(samples: np.ndarray, rate: int, to: int = RATE) -> np.ndarray:
    """int16 audio at another rate, the same samples on every run: a polyphase filter (scipy),
    rounded without dither. LiveKit's resampler (soxr) dithers with a generator seeded anew
    each time, so the same caller file reached the recogniser as different samples and was
    heard as different words ("C10011" one run, "C1001" the next; issue 26)."""
    if rate == to or samples.size == 0:
        return samples.astype(np.int16)
    from scipy.signal import resample_poly  # scipy comes with scikit-learn, a base dependency

    g = math.gcd(rate, to)
    out = resample_poly(samples.astype(np.float32), to // g, rate // g)
    return np.clip(np.round(out), -32768, 32767).astype(np.int16)


def write_wav(path: Path, samples: np.ndarray, rate: int) -> None:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(samples.astype("<i2").tobytes())


def split_on_pauses(samples: np.ndarray, rate: int, *, pause_s: float = 1.2) -> list[np.ndarray]:
    """One recording with pauses -> one array per caller turn (quiet stretches of pause_s or more
    separate turns; a turn keeps a little silence on both sides)."""
    win = rate // 50
    n = samples.size // win
    if n == 0:
        return []
    energy = np.sqrt((samples[: n * win].astype(np.float32).reshape(n, win) ** 2).mean(axis=1))
    loud = energy > max(300.0, float(np.percentile(energy, 95)) * 0.1)
    turns: list[np.ndarray] = []
    start: int | None = None
    quiet = 0
    gap = int(pause_s * 50)
    for i, on in enumerate(loud):
        if on:
            start = i if start is None else start
            quiet = 0
        elif start is not None:
            quiet += 1
            if quiet >= gap:
                turns.append(samples[max(0, (start - 10) * win) : (i - quiet + 10) * win])
                start, quiet = None, 0
    if start is not None:
        turns.append(samples[max(0, (start - 10) * win) :])
    return [t for t in turns if t.size >= rate // 5]


# --- the caller's side ------------------------------------------------------------------
class CallerAudioInput(io.AudioInput):
    """Queued caller audio played into the session in real time, silence when the caller is quiet."""

    def __init__(self, *, rate: int = RATE) -> None:
        super().__init__(label="caller audio")
        self.rate = rate
        self._spf = rate * FRAME_MS // 1000
        self._pending = np.zeros(0, np.int16)
        self._next_at: float | None = None
        self._closed = False
        self.speech_ended_at: float | None = None  # wall clock (time.time) of the last queued sample
        self._speech_end_pos = 0
        self._played = 0
        self.drained = asyncio.Event()
        self.drained.set()
        self.live = False  # a microphone feeds frames at its own pace: never pad with silence
        self._fed = asyncio.Event()

    def feed(self, pcm: np.ndarray) -> None:
        """Live audio from a device, already at `rate`."""
        self._pending = np.concatenate([self._pending, pcm])
        self._fed.set()

    def play(self, samples: np.ndarray, rate: int) -> None:
        """Queue one caller utterance (any rate); it starts on the next frame."""
        pcm = resample(samples, rate, self.rate)
        self._pending = np.concatenate([self._pending, pcm])
        self._speech_end_pos = self._played + self._pending.size
        self.speech_ended_at = None
        self.drained.clear()

    def close(self) -> None:
        self._closed = True

    async def __anext__(self) -> rtc.AudioFrame:
        if self._closed:
            raise StopAsyncIteration
        while self.live and self._pending.size < self._spf:
            self._fed.clear()
            await self._fed.wait()
        now = time.monotonic()
        if self._next_at is None:
            self._next_at = now
        if self._next_at > now:
            await asyncio.sleep(self._next_at - now)  # real-time pacing, as a microphone would
        self._next_at += FRAME_MS / 1000
        chunk, self._pending = self._pending[: self._spf], self._pending[self._spf :]
        if chunk.size < self._spf:
            chunk = np.concatenate([chunk, np.zeros(self._spf - chunk.size, np.int16)])
        self._played += self._spf
        if not self.drained.is_set() and self._played >= self._speech_end_pos:
            self.speech_ended_at = time.time()
            self.drained.set()
        return rtc.AudioFrame(chunk.tobytes(), self.rate, 1, self._spf)


# --- the agent's side -------------------------------------------------------------------
@dataclass
class Segment:
    started_at: float  # wall clock of the first frame
    frames: list[rtc.AudioFrame] = field(default_factory=list)
    interrupted: bool = False
    played_s: float = 0.0

    @property
    def duration(self) -> float:
        return sum(f.duration for f in self.frames)


class CapturedAudioOutput(io.AudioOutput):
    """The agent's speech, 'played' in real time and kept. clear_buffer() (barge-in) stops the
    playout at once and marks the segment interrupted."""

    def __init__(self, *, sample_rate: int = 24000, speed: float = 1.0) -> None:
        super().__init__(label="captured agent audio", next_in_chain=None, sample_rate=sample_rate,
                         capabilities=io.AudioOutputCapabilities(pause=False))
        self.segments: list[Segment] = []
        self.speed = speed  # > 1 plays out faster than real time (tests, benchmarks)
        self._current: Segment | None = None
        self._capture_start = 0.0
        self._pushed = 0.0
        self._flush_task: asyncio.Task[None] | None = None
        self._interrupted = asyncio.Event()
        self.playing = asyncio.Event()
        self.idle = asyncio.Event()
        self.idle.set()
        self.sink: Callable[[np.ndarray], None] | None = None  # a speaker, in live mode
        self.on_clear: Callable[[], None] | None = None

    async def capture_frame(self, frame: rtc.AudioFrame) -> None:
        await super().capture_frame(frame)
        if self._flush_task is not None and not self._flush_task.done():
            await self._flush_task
        if self._current is None:
            self._current = Segment(started_at=time.time())
            self.segments.append(self._current)
            self._capture_start = time.monotonic()
            self._pushed = 0.0
            self._interrupted.clear()
            self.idle.clear()
            self.playing.set()
            self.on_playback_started(created_at=time.time())
        self._current.frames.append(frame)
        self._pushed += frame.duration
        if self.sink is not None:
            self.sink(np.frombuffer(frame.data, np.int16))

    def flush(self) -> None:
        super().flush()
        if self._current is None:
            return
        self._flush_task = asyncio.create_task(self._play_out(self._current))

    def clear_buffer(self) -> None:
        self._interrupted.set()
        if self.on_clear is not None:
            self.on_clear()

    async def _play_out(self, segment: Segment) -> None:
        remaining = self._pushed / self.speed - (time.monotonic() - self._capture_start)
        try:
            await asyncio.wait_for(self._interrupted.wait(), timeout=max(0.0, remaining))
            interrupted = True
        except TimeoutError:
            interrupted = False
        elapsed = (time.monotonic() - self._capture_start) * self.speed
        played = min(self._pushed, elapsed) if interrupted else self._pushed
        segment.interrupted, segment.played_s = interrupted, played
        self._current = None
        self.playing.clear()
        self.idle.set()
        self.on_playback_finished(playback_position=played, interrupted=interrupted)

    def audio(self, rate: int = 24000) -> np.ndarray:
        """The agent's side of the call as heard: segments at their times, cut where interrupted."""
        if not self.segments:
            return np.zeros(0, np.int16)
        t0 = self.segments[0].started_at
        parts: list[np.ndarray] = []
        cursor = 0
        for seg in self.segments:
            start = int((seg.started_at - t0) * rate)
            if start > cursor:
                parts.append(np.zeros(start - cursor, np.int16))
                cursor = start
            pcm = segment_pcm(seg, rate)
            if seg.interrupted:
                pcm = pcm[: int(seg.played_s * rate)]
            parts.append(pcm)
            cursor += pcm.size
        return np.concatenate(parts)


def segment_pcm(seg: Segment, rate: int = 24000) -> np.ndarray:
    if not seg.frames:
        return np.zeros(0, np.int16)
    frame = rtc.combine_audio_frames(seg.frames)
    pcm = np.frombuffer(frame.data, np.int16)
    return resample(pcm, frame.sample_rate, rate) if frame.sample_rate != rate else pcm
