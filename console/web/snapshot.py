"""One shared, continuously refreshed copy of the pending queue for every operator's page.

Listing 1,000 running workflows costs the Temporal server about half a second (SQLite
visibility on the dev server), so pages do not list per request. While someone is
watching, a background task asks every `min_interval_s` only for what changed (approvals
started or finished since the last look: two small listings) and lists the whole queue
every `full_every_s` (state changes such as an escalation, decisions made elsewhere that
have not finished). Every render filters this copy in memory. A decision made in this
console drops its request at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta

from console.operations import QueueItem

Lister = Callable[[], Awaitable[list[QueueItem]]]
Changes = Callable[[datetime], Awaitable[tuple[list[QueueItem], set[str]]]]
# Visibility is updated asynchronously: look a little further back than the last look.
OVERLAP = timedelta(seconds=3)


class QueueSnapshot:
    def __init__(self, lister: Lister, changes: Changes | None = None, *, min_interval_s: float = 1.0,
                 full_every_s: float = 10.0, idle_stop_s: float = 15.0) -> None:
        self._lister, self._changes = lister, changes
        self.min_interval_s, self.full_every_s, self.idle_stop_s = min_interval_s, full_every_s, idle_stop_s
        self._full_at = 0.0
        self._since: datetime | None = None
        self.items: list[QueueItem] = []
        self.error: str | None = None
        self.taken_at = 0.0  # monotonic time of the listing's start
        self._loaded = asyncio.Event()
        self._wanted = 0.0
        self._task: asyncio.Task[None] | None = None
        self._dropped: dict[str, float] = {}

    async def get(self) -> tuple[list[QueueItem], str | None, float]:
        """(items, error, seconds since the listing was taken), starting the refresher if idle."""
        self._wanted = time.monotonic()
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._refresh_while_watched())
        await self._loaded.wait()
        items = [i for i in self.items if i.request_id not in self._dropped]
        return items, self.error, time.monotonic() - self.taken_at

    def drop(self, request_id: str) -> None:
        """A decision here took the request out of the queue (or changed its state)."""
        self._dropped[request_id] = time.monotonic()

    async def _refresh_once(self) -> float:
        started = time.monotonic()
        wall = datetime.now(UTC)
        full = self._changes is None or self._since is None or started - self._full_at >= self.full_every_s
        try:
            if full:
                items, error = await self._lister(), None
                self._full_at = started
            else:
                assert self._changes is not None and self._since is not None
                new, gone = await self._changes(self._since - OVERLAP)
                known = {i.request_id for i in self.items}
                items = [i for i in self.items if i.request_id not in gone]
                items += [i for i in new if i.request_id not in known and i.request_id not in gone]
                error = None
            self._since = wall
        except Exception as err:  # noqa: BLE001 - a down Temporal is one line on the page
            items, error = self.items, (str(err).splitlines()[0][:200] if str(err) else type(err).__name__)
            started = self.taken_at
        self.items, self.error, self.taken_at = items, error, started
        # Decisions made before this listing began are reflected in it now.
        self._dropped = {k: t for k, t in self._dropped.items() if t >= started}
        self._loaded.set()
        return time.monotonic() - started

    async def _refresh_while_watched(self) -> None:
        while True:
            took = await self._refresh_once()
            if time.monotonic() - self._wanted >= self.idle_stop_s:
                return
            # A slow listing (a big queue on a busy server) is repeated less often, so the
            # console never keeps the Temporal server busy more than a third of the time.
            await asyncio.sleep(max(self.min_interval_s, 2 * took))

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
