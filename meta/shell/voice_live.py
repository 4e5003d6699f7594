"""The live microphone and speaker for `callcenter call --voice` (needs PortAudio and devices).

The microphone feeds the same `CallerAudioInput` that files use (live: no padding, frames
arrive at the device's pace); the agent's audio is written to the speaker as it is produced,
and dropped at once on barge-in. Ctrl-C ends the call.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
from collections.abc import AsyncIterator
from typing import Any

import numpy as np

from meta.voice import VoiceCall, VoiceTurn

BLOCK_S = 0.02


@contextlib.asynccontextmanager
async def live_audio(voice: VoiceCall) -> AsyncIterator[AsyncIterator[VoiceTurn | dict[str, Any]]]:
    import sounddevice as sd

    loop = asyncio.get_running_loop()
    mic, speaker = voice.mic, voice.speaker
    mic.live = True
    out_q: queue.Queue[bytes] = queue.Queue()

    def on_input(data: Any, frames: int, _time: Any, _status: Any) -> None:
        pcm = np.frombuffer(bytes(data), np.int16).copy()
        loop.call_soon_threadsafe(mic.feed, pcm)

    def on_output(out: Any, frames: int, _time: Any, _status: Any) -> None:
        want = frames * 2
        buf = b""
        while len(buf) < want:
            try:
                buf += out_q.get_nowait()
            except queue.Empty:
                break
        out[: len(buf[:want])] = buf[:want]
        out[len(buf[:want]) :] = b"\0" * (want - len(buf[:want]))
        if len(buf) > want:
            out_q.queue.appendleft(buf[want:])

    def clear() -> None:
        with out_q.mutex:
            out_q.queue.clear()

    speaker.sink = lambda pcm: out_q.put(pcm.tobytes())
    speaker.on_clear = clear
    rate_out = speaker.sample_rate or 24000
    with sd.RawInputStream(samplerate=mic.rate, channels=1, dtype="int16", blocksize=int(mic.rate * BLOCK_S), callback=on_input), \
            sd.RawOutputStream(samplerate=rate_out, channels=1, dtype="int16", blocksize=int(rate_out * BLOCK_S), callback=on_output):
        yield voice.listen()
