"""`callcenter worker start` is not ready while it is not registered with LiveKit: against an
unreachable LiveKit URL its readiness probe (`/readyz`) answers 503 while LiveKit's health
check (`/`, the liveness probe) still answers 200 during the retries (issue 26: the probe
the chart used answered 200 for the whole 30 s of retries). The real command, as the chart
runs it; the URL is a free port on the loopback, so nothing answers."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

from tests.conftest import cli_env, free_port

CALLCENTER = str(Path(sys.executable).with_name("callcenter"))


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status
    except urllib.error.HTTPError as err:
        return err.code


def test_worker_is_not_ready_while_livekit_is_unreachable(tmp_path: Path) -> None:
    health = free_port()
    env = cli_env(tmp_path, LIVEKIT_URL=f"ws://127.0.0.1:{free_port()}", LIVEKIT_API_KEY="devkey",
                  LIVEKIT_API_SECRET="secretsecretsecretsecretsecret12", CALLCENTER_WORKER_SELFCHECK="false",
                  CALLCENTER_WORKER_HTTP_PORT=str(health), CALLCENTER_METRICS_PORT="0",
                  CALLCENTER_STT_PROVIDER="none", CALLCENTER_TTS_PROVIDER="none")
    proc = subprocess.Popen([CALLCENTER, "worker", "start"], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, start_new_session=True)
    seen: list[str] = []
    try:
        assert proc.stdout is not None
        for line in proc.stdout:  # until the worker has tried LiveKit and is retrying
            seen.append(line)
            if "failed to connect to livekit" in line:
                break
        assert "failed to connect to livekit" in "".join(seen), "".join(seen)[-3000:]
        assert _status(f"http://127.0.0.1:{health}/") == 200  # alive: LiveKit's own health check
        assert _status(f"http://127.0.0.1:{health}/readyz") == 503  # ... but takes no calls
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
