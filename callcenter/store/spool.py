"""The outbox's outbox: requests the line took while the database was down, kept on local disk.

The durable outbox (`work_requests`) and call-back tickets live in the database, so a
request made while the database cannot be reached would be lost with the sentence "try
again later". Instead the write is kept here, one JSON file per request in the process's
data folder (masked, as the database would store it, and readable by this user only), and
a background thread writes it to the database as soon as the database answers again.

Replaying is safe to repeat: every held write is idempotent in the store (a work request
by its id, a ticket by its pre-assigned id), so a crash between the write and the file's
removal, or two processes sharing the folder, write it once. What the folder holds is lost
only with the folder itself (in the chart, a pod's emptyDir: if the pod is deleted while
the database is down).
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from callcenter.store.engine import StoreUnavailable

log = logging.getLogger("callcenter.store.spool")

OPS = ("queue_work", "create_ticket")


class Spool:
    """Held writes in `folder`, replayed through `apply(op, args)` until the database takes them."""

    def __init__(self, folder: Path, apply: Callable[[str, dict[str, Any]], None], *, retry_s: float = 1.0, max_retry_s: float = 15.0) -> None:
        self.folder = folder
        self._apply = apply
        self._retry_s, self._max_retry_s = retry_s, max_retry_s
        self._lock = threading.Lock()  # one replay at a time in this process
        self._start_lock = threading.Lock()  # guards `_thread`: a write held as the replayer ends starts a new one
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def held(self) -> list[Path]:
        try:
            return sorted(self.folder.glob("*.json"))
        except OSError:
            return []

    def hold(self, op: str, key: str, args: dict[str, Any]) -> None:
        """Keep one write on disk (fsynced) and make sure a replayer is running."""
        assert op in OPS, op
        self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        name = f"{time.time_ns():020d}-{op}-{''.join(c if c.isalnum() or c in '-_' else '_' for c in key)[:80]}.json"
        tmp = self.folder / f".{name}.tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            json.dump({"op": op, "args": args}, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.folder / name)  # atomic: a crash leaves the old state or the whole file
        log.warning("database unavailable: %s kept on local disk until it is back", op)
        self.start()

    def replay(self) -> int:
        """Write what is held, oldest first; stops at the first sign the database is still down."""
        done = 0
        with self._lock:
            for path in self.held():
                try:
                    item = json.loads(path.read_text())
                except FileNotFoundError:
                    continue  # another process sharing the folder took it
                except ValueError:
                    path.rename(path.with_suffix(".unreadable"))
                    log.error("an unreadable held request was set aside: %s", path.name)
                    continue
                try:
                    self._apply(item["op"], item["args"])
                except StoreUnavailable:
                    return done
                except Exception as exc:  # the database refused it: keep it for a person, never loop on it
                    path.rename(path.with_suffix(".refused"))
                    log.error("the database refused a held %s (%s); set aside as %s", item.get("op"), type(exc).__name__, path.name)
                    continue
                path.unlink(missing_ok=True)
                done += 1
        if done:
            log.warning("database back: %d held request(s) written", done)
        return done

    def start(self) -> None:
        """Run the replayer in the background until nothing is held."""
        self._wake.set()
        with self._start_lock:
            if self._thread is not None:
                return
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="callcenter-spool", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        wait = self._retry_s
        while True:
            self._wake.clear()
            self.replay()
            with self._start_lock:
                if self._stop.is_set() or not self.held():
                    self._thread = None
                    return
            self._wake.wait(wait)  # a new held write wakes it early; otherwise back off
            wait = min(wait * 2, self._max_retry_s)

    def close(self) -> None:
        self._stop.set()
        self._wake.set()
        t = self._thread
        if t is not None and t is not threading.current_thread():
            t.join(timeout=5)


__all__ = ["OPS", "Spool"]
