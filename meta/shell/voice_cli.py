"""`callcenter call --voice`: a spoken call from WAV files (or the microphone).

--audio-in DIR  one file per caller turn, in name order: a WAV (spoken) or a .dtmf file
                (keys typed on the phone keypad, e.g. "1001#"; '*' separates two numbers)
--audio-in FILE one WAV; pauses of 1.2 s or more separate caller turns
(neither)       the live microphone and speaker, when a sound device exists
--audio-out F   the agent's side of the call as a WAV
Every file is read and checked before the call starts, so a bad file loses nothing.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from callcenter import metrics
from callcenter.settings import Settings
from meta.session import build_line
from meta.shell.repl import durable_work
from meta.voice import VoiceCall, VoiceTurn, start_voice_call
from meta.voice_io import AudioFileError, read_wav, split_on_pauses, write_wav

FILE_PLAYOUT_SPEED = 4.0


class NoSoundDevice(RuntimeError):
    """Live mode without a usable microphone and speaker."""


@dataclass
class CallerTurn:
    """One caller turn from the files: speech (samples at rate) or keypad keys."""

    name: str
    samples: np.ndarray | None = None
    rate: int = 0
    keys: str | None = None


_KEYS = re.compile(r"[0-9*#]{1,40}")


def read_keys(path: Path) -> str:
    """A .dtmf file: the keys of one keypad entry (digits, '*', '#'; spaces ignored)."""
    try:
        keys = "".join(path.read_text().split())
    except (OSError, UnicodeDecodeError) as exc:
        raise AudioFileError(f"{path}: cannot read ({getattr(exc, 'strerror', None) or type(exc).__name__})") from None
    if not _KEYS.fullmatch(keys):
        raise AudioFileError(f"{path}: a keypad turn holds 1 to 40 keys: digits, '*' and '#'")
    return keys


def caller_turns(path: Path) -> list[CallerTurn]:
    """The caller's turns from a WAV file or a folder of WAV and .dtmf files."""
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix.lower() in (".wav", ".dtmf"))
        if not files:
            raise AudioFileError(f"{path}: no .wav or .dtmf files in this folder")
        return [CallerTurn(f.name, keys=read_keys(f)) if f.suffix.lower() == ".dtmf" else CallerTurn(f.name, *read_wav(f))
                for f in files]
    samples, rate = read_wav(path)
    parts = split_on_pauses(samples, rate)
    if not parts:
        raise AudioFileError(f"{path}: no speech found (silent or too quiet)")
    return [CallerTurn(f"{path.name}#{i + 1}", p, rate) for i, p in enumerate(parts)]


def check_sound_device() -> None:
    try:
        import sounddevice as sd

        sd.query_devices(kind="input")
        sd.query_devices(kind="output")
    except Exception as exc:  # PortAudio missing (OSError), no device (PortAudioError, ValueError)
        name = type(exc).__name__
        raise NoSoundDevice(
            f"no usable sound device for a live call ({name}); install PortAudio (Debian: libportaudio2) "
            "and connect a microphone, or pass --audio-in FILE|DIR"
        ) from None


async def run_voice_call(
    settings: Settings,
    *,
    customer_id: str | None,
    as_json: bool,
    durable: bool,
    audio_in: Path | None,
    audio_out: Path | None,
    metrics_port: int | None = None,
    stdout: TextIO = sys.stdout,
    on_closed: Callable[[], None] | None = None,
) -> int:
    """The call. `on_closed` is called once everything the call opened has closed without an
    error (its records written, the sound device, Temporal and the metrics server closed), at
    the end or after Ctrl-C (a cancellation): then nothing is left for the interpreter's own
    exit to do (meta/shell/cli.py)."""
    turns = caller_turns(audio_in) if audio_in is not None else None
    if turns is None:
        check_sound_device()
    line = build_line(settings)
    server = metrics.serve(metrics_port) if metrics_port is not None else None
    try:
        await _call(settings, line, customer_id, as_json, durable, turns, audio_out, stdout, server)
    except asyncio.CancelledError:
        if on_closed is not None:
            on_closed()  # Ctrl-C: every close in _call returned before the cancellation got here
        raise
    if on_closed is not None:
        on_closed()
    return 0


async def _call(settings: Settings, line: Any, customer_id: str | None, as_json: bool, durable: bool,
                turns: list[CallerTurn] | None, audio_out: Path | None, stdout: TextIO, server: Any) -> None:
    try:
        async with durable_work(settings, line.store, durable) as work:
            # With files there is no speaker to wait for: the agent's audio "plays" 4x faster
            # than real time (timings to first audio are unaffected; --audio-out keeps it all).
            voice = await start_voice_call(
                line, customer_id=customer_id, durable=work, playout_speed=1.0 if turns is None else FILE_PLAYOUT_SPEED,
                keypad=turns is not None and any(t.keys is not None for t in turns),
            )
            _emit({"turn": 0, "user": None, "reply": voice.call.greeting, "hops": [], "results": [], "timings": {}}, as_json, stdout)
            try:
                if turns is not None:
                    for turn in turns:
                        said = await (voice.press(turn.keys) if turn.keys is not None else voice.speak(turn.samples, turn.rate))
                        _emit(said.as_json(), as_json, stdout)
                else:
                    await _live(voice, as_json, stdout)
            finally:
                if audio_out is not None:
                    write_wav(audio_out, voice.speaker.audio(24000), 24000)
                await voice.close()
    finally:
        if server is not None:
            server.close()


async def _live(voice: VoiceCall, as_json: bool, stdout: TextIO) -> None:
    from meta.shell.voice_live import live_audio

    async with live_audio(voice) as turns:
        async for turn in turns:
            _emit(turn.as_json() if isinstance(turn, VoiceTurn) else turn, as_json, stdout)


def _emit(obj: dict[str, Any], as_json: bool, out: TextIO) -> None:
    if as_json:
        out.write(json.dumps(obj) + "\n")
    else:
        if obj.get("user") is not None:
            out.write(f"you (heard)> {obj['user'] or '(nothing)'}\n")
        out.write(f"agent> {obj['reply']}\n")
    out.flush()
