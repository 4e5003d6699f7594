"""The console as operators run it: `callcenter console` in its own process, against the real
Temporal dev server (the session fixture of tests/temporal) and a worker in this process."""

from __future__ import annotations

import os
import re
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from callcenter.settings import Settings
from tests.conftest import CALLCENTER
from tests.temporal.conftest import (  # noqa: F401 - fixtures
    PASSWORD,
    admitted,
    client,
    eventually,
    operator,
    settings,
    store,
    temporal,
    uid,
    work,
    worker,
)
from workflows.devserver import free_port

ROOT = Path(__file__).resolve().parents[2]


class Console:
    def __init__(self, settings: Settings, **extra: str) -> None:  # noqa: F811
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "PYTHONPATH": str(ROOT), "CALLCENTER_DATA_DIR": str(settings.data_dir),
               "CALLCENTER_TEMPORAL_ADDRESS": str(settings.temporal_address),
               "CALLCENTER_TEMPORAL_TASK_QUEUE": settings.temporal_task_queue,
               "CALLCENTER_CONSOLE_PORT": str(self.port), **extra}
        self.proc = subprocess.Popen([CALLCENTER, "console"], env=env,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        end = time.monotonic() + 30
        while True:
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None or time.monotonic() > end:
                raise RuntimeError(f"console did not start: {self.proc.stderr.read().decode()[-2000:]}")  # type: ignore[union-attr]
            time.sleep(0.05)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture
def console(settings: Settings, worker) -> Iterator[Console]:  # noqa: ANN001, F811
    c = Console(settings)
    yield c
    c.stop()


def csrf_in(html: str) -> str:
    m = re.search(r'name="csrf" value="([^"]+)"', html) or re.search(r'name="csrf-token" content="([^"]+)"', html)
    assert m, "no CSRF token on the page"
    return m.group(1)


async def sign_in(url: str, name: str, password: str = PASSWORD) -> tuple[httpx.AsyncClient, httpx.Response]:
    """An HTTP client that went through the sign-in form like a browser. Async: the worker
    runs on this event loop and must not be blocked."""
    c = httpx.AsyncClient(base_url=url, timeout=15)
    page = await c.get("/login")
    resp = await c.post("/login", data={"name": name, "password": password, "csrf": csrf_in(page.text)})
    return c, resp
