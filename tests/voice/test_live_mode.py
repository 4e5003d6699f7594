"""`callcenter call --voice` in live mode (no --audio-in) against a real sound server.

There is no sound card on CI, so the test starts its own userspace PulseAudio with virtual
devices: a null sink "caller" whose monitor is the default microphone, and a null sink
"speaker" as the default output. PortAudio reaches them through ALSA's pulse plugin, exactly
as on a desktop. The caller's words are played into "caller" with paplay; the agent's voice
is recorded from the speaker's monitor with parecord. Every wait is on a condition with a
generous bound (the 2-core CI machine is loaded), never a fixed sleep.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from benchmarks.voice.voices import hibari, with_pause
from meta.shell.voice_live import DEVICE_CLOSE_S
from meta.voice_io import read_wav, write_wav
from tests.conftest import require

CALLCENTER = str(Path(sys.executable).with_name("callcenter"))
TOOLS = ("pulseaudio", "pactl", "paplay", "parecord")


def _until(cond: object, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():  # type: ignore[operator]
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")


@pytest.fixture
def sound_server(tmp_path: Path) -> Iterator[dict[str, str]]:
    missing = [t for t in TOOLS if shutil.which(t) is None]
    require(", ".join(missing) or "pulseaudio", not missing, "bash .ci/setup --test installs pulseaudio")
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    env = {**os.environ, "XDG_RUNTIME_DIR": str(runtime), "HOME": str(tmp_path)}
    env.pop("PULSE_SERVER", None)  # this test's own server, never a developer's desktop one
    server = subprocess.Popen(
        ["pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no", "--disallow-exit",
         "--load=module-native-protocol-unix", "--load=module-null-sink sink_name=caller",
         "--load=module-null-sink sink_name=speaker"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    try:
        _until(lambda: server.poll() is not None or subprocess.run(
            ["pactl", "info"], env=env, capture_output=True).returncode == 0, 30, "the sound server")
        assert server.poll() is None, server.stderr.read() if server.stderr else "pulseaudio exited"
        for args in (["set-default-source", "caller.monitor"], ["set-default-sink", "speaker"]):
            subprocess.run(["pactl", *args], env=env, check=True, capture_output=True)
        yield {**env, "server_pid": str(server.pid)}
    finally:
        server.send_signal(signal.SIGCONT)  # a test may have stopped it
        server.terminate()
        server.wait(timeout=30)


def _lines(stream: object, into: queue.Queue[str]) -> None:
    for line in stream:  # type: ignore[attr-defined]
        into.put(line)


# Shutting down after Ctrl-C is bounded in the product: the sound device gets DEVICE_CLOSE_S,
# then the session closes and the interpreter exits. The slack is for that on a loaded 2-core
# machine (a healthy exit takes about 0.1 s on an idle one since the quick exit, 3-4 s before); a hang (the old PortAudio stop on a
# sound server that stopped answering) never ends, so it fails here instead of at pytest-timeout.
EXIT_BOUND_S = DEVICE_CLOSE_S + 45.0


# Ctrl-C must reach the call as it does one started at a terminal. A test run started as a
# background job of a non-interactive shell (`bash .ci/run &`) ignores SIGINT, and children
# inherit that: the call then ignored the test's Ctrl-C, as Unix asks of a background job, and
# never exited (session 30's clean-clone "hang", reproduced only when started that way). The
# disposition is reset, then the call exec'd (not preexec_fn: unsafe beside the reader threads).
AT_A_TERMINAL = [sys.executable, "-c", "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
                 "os.execv(sys.argv[1], sys.argv[1:])"]


def _exits_after_ctrl_c(call: subprocess.Popen[str]) -> str:
    """Ctrl-C, then the process's exit within EXIT_BOUND_S: its stderr."""
    call.send_signal(signal.SIGINT)
    try:
        call.wait(timeout=EXIT_BOUND_S)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"the call did not exit within {EXIT_BOUND_S:.0f} s of Ctrl-C (a hang)") from None
    err = call.stderr.read() if call.stderr else ""
    assert call.returncode == 130, call.returncode  # Ctrl-C's code, as a shell expects it
    assert "Traceback" not in err, err
    return err


def _next_turn(lines: queue.Queue[str], timeout: float) -> dict[str, object]:
    # A live call uses CPU even while it only listens (audio callbacks), so "working" says
    # nothing here: the turn is waited for with a bound, as before.
    try:
        return json.loads(lines.get(timeout=timeout))
    except queue.Empty:
        raise AssertionError(f"no turn printed within {timeout:.0f} s") from None


def _call_env(sound_server: dict[str, str], voice_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in sound_server.items() if not k.startswith("CALLCENTER_") and k != "server_pid"}
    env.update(CALLCENTER_DATA_DIR=str(voice_dir), CALLCENTER_LOG_LEVEL="WARNING")
    return env


@pytest.mark.timeout(900)  # the bound for a machine under heavy load; the waits inside are on conditions
def test_a_live_call_through_microphone_and_speaker(tmp_path: Path, voice_dir: Path, sound_server: dict[str, str]) -> None:
    env = _call_env(sound_server, voice_dir)
    question, rate = hibari("What is my balance?")
    write_wav(tmp_path / "caller.wav", with_pause(question, rate, 1.5), rate)
    heard = tmp_path / "speaker.wav"
    recorder = subprocess.Popen(["parecord", "-d", "speaker.monitor", "--file-format=wav", str(heard)], env=env)
    call = subprocess.Popen([*AT_A_TERMINAL, CALLCENTER, "call", "--voice", "--json", "--no-durable", "--customer", "C1005"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=_lines, args=(call.stdout, lines), daemon=True).start()
    try:
        greeting = _next_turn(lines, 180)  # the engines load first
        assert greeting["turn"] == 0 and greeting["reply"]
        # The caller speaks into the virtual microphone once the line is listening.
        subprocess.run(["paplay", "-d", "caller", str(tmp_path / "caller.wav")], env=env, check=True, timeout=60)
        answer = _next_turn(lines, 120)
        assert "balance" in str(answer["user"]).lower()
        assert [h["to"] for h in answer["hops"]][:2] == ["billing", "billing.balance"]  # type: ignore[index]
        assert "$0.00" in str(answer["reply"]) or "balance" in str(answer["reply"]).lower()
        # Ctrl-C ends the call cleanly: no traceback, exit without hanging.
        _exits_after_ctrl_c(call)
    finally:
        if call.poll() is None:
            call.kill()
            call.wait(timeout=30)
        recorder.send_signal(signal.SIGINT)
        recorder.wait(timeout=30)
    # The agent was heard on the speaker: the greeting and the answer are real audio.
    samples, out_rate = read_wav(heard)
    loud = np.abs(samples.astype(np.int32)) > 500
    assert loud.sum() / out_rate > 2.0, f"only {loud.sum() / out_rate:.2f} s of agent audio reached the speaker"


@pytest.mark.timeout(600)  # the bound for a machine under heavy load; the waits inside are on conditions
def test_ctrl_c_ends_a_live_call_whose_sound_server_stopped_answering(
    tmp_path: Path, voice_dir: Path, sound_server: dict[str, str],
) -> None:
    """A sound server that no longer answers (starved on a loaded machine, a headset gone) made
    PortAudio's stop wait forever on the event loop: the call never exited after Ctrl-C."""
    question, rate = hibari("What is my balance?")
    write_wav(tmp_path / "caller.wav", with_pause(question, rate, 1.5), rate)
    call = subprocess.Popen([*AT_A_TERMINAL, CALLCENTER, "call", "--voice", "--json", "--no-durable", "--customer", "C1005"],
                            env=_call_env(sound_server, voice_dir), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=_lines, args=(call.stdout, lines), daemon=True).start()
    server = int(sound_server["server_pid"])
    try:
        assert _next_turn(lines, 180)["turn"] == 0  # the line is up and listening
        subprocess.run(["paplay", "-d", "caller", str(tmp_path / "caller.wav")], env=sound_server, check=True, timeout=60)
        assert _next_turn(lines, 120)["reply"]  # the speaker stream has played an answer
        os.kill(server, signal.SIGSTOP)
        _exits_after_ctrl_c(call)
    finally:
        os.kill(server, signal.SIGCONT)
        if call.poll() is None:
            call.kill()
            call.wait(timeout=30)
