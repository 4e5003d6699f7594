"""How long `callcenter call --voice` takes to exit after Ctrl-C in live mode, quiet and under load.

    .venv/bin/python benchmarks/voice/bench_exit.py --runs 3                 # quiet machine
    .venv/bin/python benchmarks/voice/bench_exit.py --runs 3 --busy 6       # six busy loops at nice 0

Each run is the live test's call (tests/voice/test_live_mode.py): a userspace PulseAudio with a
virtual microphone and speaker, the line started as C1005, "What is my balance?" played into
the microphone, the answer waited for, then SIGINT; the time from SIGINT to the process's exit
is what is reported (and its exit code: 130 or 0). `--busy N` starts N pure-Python busy loops
before the call and stops them after, so the call gets a share of the CPU as on a loaded CI
machine. Every wait is on a condition (a printed turn, the process's exit), never a fixed sleep.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from benchmarks.voice.voices import hibari, with_pause  # noqa: E402
from meta.voice_io import write_wav  # noqa: E402

CALLCENTER = str(Path(sys.executable).with_name("callcenter"))
BUSY = "while True: pass"


def _until(cond: object, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():  # type: ignore[operator]
            return
        time.sleep(0.1)
    raise RuntimeError(f"timed out after {timeout:.0f} s waiting for {what}")


def _sound_server(tmp: Path) -> tuple[subprocess.Popen[str], dict[str, str]]:
    runtime = tmp / "run"
    runtime.mkdir(mode=0o700)
    env = {**os.environ, "XDG_RUNTIME_DIR": str(runtime), "HOME": str(tmp)}
    env.pop("PULSE_SERVER", None)
    server = subprocess.Popen(
        ["pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no", "--disallow-exit",
         "--load=module-native-protocol-unix", "--load=module-null-sink sink_name=caller",
         "--load=module-null-sink sink_name=speaker"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True,
    )
    _until(lambda: server.poll() is not None or subprocess.run(
        ["pactl", "info"], env=env, capture_output=True).returncode == 0, 30, "the sound server")
    for args in (["set-default-source", "caller.monitor"], ["set-default-sink", "speaker"]):
        subprocess.run(["pactl", *args], env=env, check=True, capture_output=True)
    return server, env


def one_exit(tmp: Path, data_dir: Path, env: dict[str, str], caller_wav: Path) -> dict[str, float | int]:
    call_env = {k: v for k, v in env.items() if not k.startswith("CALLCENTER_")}
    call_env.update(CALLCENTER_DATA_DIR=str(data_dir), CALLCENTER_LOG_LEVEL="WARNING")
    call = subprocess.Popen([CALLCENTER, "call", "--voice", "--json", "--no-durable", "--customer", "C1005"],
                            env=call_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(x) for x in call.stdout], daemon=True).start()  # type: ignore[union-attr]
    try:
        assert json.loads(lines.get(timeout=300))["turn"] == 0, "no greeting"
        subprocess.run(["paplay", "-d", "caller", str(caller_wav)], env=env, check=True, timeout=120)
        try:
            answer = json.loads(lines.get(timeout=120))
        except queue.Empty:
            streams = subprocess.run(["pactl", "list", "short", "source-outputs"], env=env, capture_output=True, text=True).stdout
            call.kill()
            raise RuntimeError(f"no answer; recording streams: {streams!r}; "
                               f"the call's stderr: {call.stderr.read()[-3000:] if call.stderr else ''}") from None
        assert "balance" in str(answer["user"]).lower(), answer
        load = os.getloadavg()[0]
        sent, sent_wall = time.monotonic(), time.time()
        call.send_signal(signal.SIGINT)
        code = call.wait(timeout=600)
        took = time.monotonic() - sent
        err = call.stderr.read() if call.stderr else ""
        assert "Traceback" not in err, err
        # A probe may print "PROBE <name> <wall time>" lines on stderr (a sitecustomize on
        # PYTHONPATH, not in the product): shown as seconds after the SIGINT.
        marks = {w[1]: round(float(w[2]) - sent_wall, 2) for w in (x.split() for x in err.splitlines())
                 if len(w) == 3 and w[0] == "PROBE"}
        return {"exit_s": round(took, 2), "code": code, "load_1min": round(load, 2), **({"marks": marks} if marks else {})}
    finally:
        if call.poll() is None:
            call.kill()
            call.wait(timeout=30)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--busy", type=int, default=0, help="pure-Python busy loops at nice 0 beside the call")
    args = ap.parse_args()
    missing = [t for t in ("pulseaudio", "pactl", "paplay") if shutil.which(t) is None]
    if missing:
        print(f"needs {', '.join(missing)} (bash .ci/setup --test installs pulseaudio)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="bench-exit-") as d:
        tmp = Path(d)
        question, rate = hibari("What is my balance?")
        caller_wav = tmp / "caller.wav"
        write_wav(caller_wav, with_pause(question, rate, 1.5), rate)
        server, env = _sound_server(tmp)
        busy = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(args.busy)]
        runs = []
        try:
            for i in range(args.runs):
                data_dir = tmp / f"data{i}"
                data_dir.mkdir()
                runs.append(one_exit(tmp, data_dir, env, caller_wav))
                print(json.dumps(runs[-1]), flush=True)
        finally:
            for p in busy:
                p.kill()
                p.wait()
            server.terminate()
            server.wait(timeout=30)
    exits = [r["exit_s"] for r in runs]
    print(json.dumps({"busy": args.busy, "runs": len(runs), "exit_s_median": statistics.median(exits),
                      "exit_s_max": max(exits), "codes": sorted({r["code"] for r in runs})}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
