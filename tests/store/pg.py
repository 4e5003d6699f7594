"""A throwaway PostgreSQL cluster from Debian's package: initdb in a temp dir, 127.0.0.1 only.

PostgreSQL refuses to run as root, so under root the cluster belongs to the unprivileged
`postgres` user the Debian package creates (commands run through `runuser`).
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg


def _bin(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


def missing() -> str | None:
    """Why no cluster can be started here, or None."""
    if _bin("initdb") is None or _bin("pg_ctl") is None:
        return "PostgreSQL server binaries (initdb, pg_ctl) not found: apt-get install -y postgresql"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no unprivileged 'postgres' user to own the cluster"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LocalPostgres:
    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="cc-pg-"))
        self.port = _free_port()
        self._as: list[str] = []
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(self.dir, user.pw_uid, user.pw_gid)
            self._as = ["runuser", "-u", "postgres", "--"]
        self.data = self.dir / "data"

    def _run(self, *cmd: str) -> None:
        subprocess.run([*self._as, *cmd], check=True, capture_output=True, timeout=120)

    def start(self) -> None:
        self._run(_bin("initdb") or "initdb", "-D", str(self.data), "-U", "callcenter", "--auth=trust",
                  "-E", "UTF8", "--no-sync")
        opts = (f"-c listen_addresses=127.0.0.1 -p {self.port} -c unix_socket_directories={self.dir}"
                " -c fsync=off -c max_connections=200")
        self._run(_bin("pg_ctl") or "pg_ctl", "-D", str(self.data), "-l", str(self.dir / "log"),
                  "-o", opts, "-w", "-t", "60", "start")

    def stop(self) -> None:
        with contextlib.suppress(subprocess.SubprocessError):
            self._run(_bin("pg_ctl") or "pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.dir, ignore_errors=True)

    def url(self, db: str = "postgres") -> str:
        return f"postgresql+psycopg://callcenter@127.0.0.1:{self.port}/{db}"

    def new_database(self) -> str:
        """A fresh, empty database on the cluster; returns its URL."""
        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=callcenter dbname=postgres",
                             autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


@contextlib.contextmanager
def running() -> Iterator[LocalPostgres]:
    pg = LocalPostgres()
    try:
        pg.start()
        yield pg
    finally:
        pg.stop()
