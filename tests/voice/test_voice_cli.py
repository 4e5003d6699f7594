"""`callcenter call --voice` as a user runs it: WAV files in, JSON turns and a WAV out, and
one-line errors (never a traceback) for files and devices it cannot use."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from benchmarks.voice.voices import hibari, with_pause
from meta.shell.voice_cli import caller_turns
from meta.voice_io import AudioFileError, read_wav, write_wav

CALLCENTER = str(Path(sys.executable).with_name("callcenter"))


def _run(args: list[str], data: Path, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CALLCENTER_")}
    env.update(CALLCENTER_DATA_DIR=str(data), CALLCENTER_LOG_LEVEL="WARNING")
    return subprocess.run([CALLCENTER, "call", *args], env=env, capture_output=True, text=True, timeout=timeout)


def test_spoken_call_from_one_wav_with_pauses(tmp_path: Path, voice_dir: Path) -> None:
    # One recording, two caller turns separated by a pause, as a user would record it.
    first, rate = hibari("What is my balance?")
    second, _ = hibari("Thanks, that's all.")
    recording = np.concatenate([with_pause(first, rate, 2.0), with_pause(second, rate, 1.0)])
    write_wav(tmp_path / "call.wav", recording, rate)
    out = _run(["--audio-in", str(tmp_path / "call.wav"), "--audio-out", str(tmp_path / "agent.wav"),
                "--json", "--no-durable", "--customer", "C1005"], voice_dir)  # its router model is cached
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr
    turns = [json.loads(x) for x in out.stdout.splitlines()]
    assert [t["turn"] for t in turns] == [0, 1, 2]
    assert "balance" in turns[1]["user"].lower()
    assert [h["to"] for h in turns[1]["hops"]][:2] == ["billing", "billing.balance"]
    assert set(turns[1]["timings"]) >= {"transcript", "first_llm_output", "first_audio"}
    agent, agent_rate = read_wav(tmp_path / "agent.wav")
    assert agent.size / agent_rate > 3  # the greeting and two answers, as heard


def test_a_bad_audio_file_gets_one_line_before_the_call_starts(tmp_path: Path) -> None:
    path = tmp_path / "turn.wav"
    path.write_bytes(b"this is not audio")
    out = _run(["--audio-in", str(path)], tmp_path / "data", timeout=60)
    assert out.returncode == 2
    assert out.stderr.strip() == f"error: {path}: not a WAV file"
    assert not (tmp_path / "data" / "callcenter.sqlite3").exists()  # no call was started


@pytest.mark.parametrize("content, expect", [
    (b"this is not audio", "not a WAV file"),
    (b"RIFF\x24\x00\x00\x00WAVEfmt ", "without audio"),
    (b"RIFF\x24\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00\x40\x1f\x00\x00\x80\x3e\x00\x00\x02\x00\x10\x00data\x00\x00\x00\x00", "too short"),
    (None, "cannot read"),
])
def test_unusable_files_are_named_in_one_line(tmp_path: Path, content: bytes | None, expect: str) -> None:
    path = tmp_path / "turn.wav"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(AudioFileError, match=expect) as err:
        caller_turns(path)
    assert "\n" not in str(err.value)


def test_empty_folder_and_silent_file_are_refused(tmp_path: Path) -> None:
    (tmp_path / "turns").mkdir()
    with pytest.raises(AudioFileError, match="no .wav or .dtmf files"):
        caller_turns(tmp_path / "turns")
    write_wav(tmp_path / "silent.wav", np.zeros(16000 * 2, np.int16), 16000)
    with pytest.raises(AudioFileError, match="no speech found"):
        caller_turns(tmp_path / "silent.wav")


def test_live_mode_without_a_sound_device_says_so(tmp_path: Path) -> None:
    try:
        import sounddevice as sd

        sd.query_devices(kind="input")
        pytest.skip("this machine has a sound device")
    except Exception:
        pass
    out = _run(["--voice"], tmp_path / "data", timeout=60)
    assert out.returncode == 2
    assert "no usable sound device" in out.stderr and "--audio-in" in out.stderr
    assert "Traceback" not in out.stderr


def test_a_keypad_identity_call(tmp_path: Path, voice_dir: Path) -> None:
    # A phone caller types the customer number and the ZIP code on the keypad (LiveKit's SIP
    # DTMF keys), one entry ended by '#', the other by the inter-digit timeout.
    turns = tmp_path / "turns"
    turns.mkdir()
    pcm, rate = hibari("I was charged twice for my subscription.")
    write_wav(turns / "1-need.wav", pcm, rate)
    (turns / "2-number.dtmf").write_text("1 0 0 1 #\n")
    (turns / "3-zip.dtmf").write_text("94107")
    pcm, rate = hibari("Yes, please.")
    write_wav(turns / "4-yes.wav", pcm, rate)
    out = _run(["--audio-in", str(turns), "--json", "--no-durable"], voice_dir)
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr
    said = [json.loads(x) for x in out.stdout.splitlines()]
    assert [t["user"] for t in said[2:4]] == ["customer number C1001", "ZIP code 94107"]
    # The identity questions offer the keypad; the number alone asks for the ZIP code next.
    assert said[1]["spoken"].endswith("type it on your keypad, then press the pound key."), said[1]["spoken"]
    assert said[2]["reply"].startswith("Thank you. And the ZIP code on the account?"), said[2]["reply"]
    assert "To confirm: a refund of $49.00" in said[3]["reply"]  # verified: the read-back of the refund
    assert [(r["domain"], r["status"]) for r in said[4]["results"]] == [("billing", "done")], said[4]


def test_a_keypad_file_with_other_keys_is_refused_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "turns").mkdir()
    (tmp_path / "turns" / "1.dtmf").write_text("10a1#")
    with pytest.raises(AudioFileError, match="keypad turn holds") as err:
        caller_turns(tmp_path / "turns")
    assert "\n" not in str(err.value)
