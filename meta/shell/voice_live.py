"""The live microphone and speaker for `callcenter call --voice` (needs PortAudio and devices).

The microphone feeds the same `CallerAudioInput` that files use (live: no padding, frames
arrive at the device's pace); the agent's audio is written to the speaker as it is produced,
and dropped at once on barge-in. Ctrl-C ends the call.

Ending is bounded: PortAudio's stop waits for the sound server to play out what it holds, and
a sound server that stops answering (starved on a loaded machine, a headset that went away)
made that wait, on the event loop, last forever. The streams are aborted (pending audio is
dropped: the caller hung up) in a thread of their own, waited for at most `DEVICE_CLOSE_S`;
a device still stuck after that is left behind, and the process must not wait for it at exit.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sys
import threading
from collections.abc import AsyncIterator
from typing import Any

import numpy as np

from meta.voice import VoiceCall, VoiceTurn

BLOCK_S = 0.02
DEVICE_CLOSE_S = 3.0  # a healthy PortAudio abort takes milliseconds


class DeviceStuck(RuntimeError):
    """The sound device did not close within DEVICE_CLOSE_S."""


@contextlib.asynccontextmanager
async def live_audio(voice: VoiceCall) -> AsyncIterator[AsyncIterator[VoiceTurn | dict[str, Any]]]:
    import sounddevice as sd

    loop = asyncio.get_running_loop()
    mic, speaker = voice.mic, voice.speaker
    mic.live = True
    out_q: queue.Queue[bytes] = queue.Queue()
    ending = threading.Event()

    def on_input(data: Any, frames: int, _time: Any, _status: Any) -> None:
        if ending.is_set():
            return  # the loop may be closing or closed: nothing more goes to the call
        pcm = np.frombuffer(bytes(data), np.int16).copy()
        with contextlib.suppress(RuntimeError):  # the loop closed between the check and here
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
    streams = [
        sd.RawInputStream(samplerate=mic.rate, channels=1, dtype="int16", blocksize=int(mic.rate * BLOCK_S), callback=on_input),
        sd.RawOutputStream(samplerate=rate_out, channels=1, dtype="int16", blocksize=int(rate_out * BLOCK_S), callback=on_output),
    ]
    try:
        for stream in streams:
            stream.start()
        yield voice.listen()
    finally:
        ending.set()
        speaker.sink = None
        await close_streams(streams, DEVICE_CLOSE_S)


async def close_streams(streams: list[Any], timeout_s: float) -> None:
    """Abort and close the streams in a daemon thread, waiting at most `timeout_s`: a stuck
    PortAudio call must neither block the event loop nor keep the process from exiting."""
    import sounddevice as sd

    loop = asyncio.get_running_loop()
    done = asyncio.Event()

    def work() -> None:
        try:
            for stream in streams:
                stream.abort(ignore_errors=True)
                stream.close(ignore_errors=True)
        finally:
            with contextlib.suppress(RuntimeError):  # the loop is gone: nobody waits any more
                loop.call_soon_threadsafe(done.set)

    # Not the loop's default executor: asyncio.run joins its threads at exit, without a bound.
    threading.Thread(target=work, name="close sound device", daemon=True).start()
    try:
        await asyncio.wait_for(done.wait(), timeout_s)
    except TimeoutError:
        # PortAudio's own exit handler would close the stuck streams again, and wait forever.
        import atexit

        atexit.unregister(sd._exit_handler)
        print(f"warning: the sound device did not close within {timeout_s:.0f} s; leaving it", file=sys.stderr)
