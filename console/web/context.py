"""What every handler shares: settings, the store, the Temporal client and the signing key."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from starlette.templating import Jinja2Templates
from temporalio.client import Client

from callcenter.settings import Settings
from callcenter.store import Store
from console.operations import list_queue, queue_changes
from console.records import CustomerRecords
from console.signin import Throttles
from console.web.snapshot import QueueSnapshot
from workflows import authz

HERE = Path(__file__).parent


def money(cents: int | None) -> str:
    return "-" if cents is None else f"${cents / 100:,.2f}"


def duration(s: int | None) -> str:
    if s is None:
        return "-"
    sign, s = ("-" if s < 0 else ""), abs(int(s))
    if s < 120:
        return f"{sign}{s}s"
    if s < 7200:
        return f"{sign}{s // 60}m"
    if s < 172800:
        return f"{sign}{s // 3600}h {s % 3600 // 60}m"
    return f"{sign}{s // 86400}d"


def templates() -> Jinja2Templates:
    t = Jinja2Templates(directory=str(HERE / "templates"))  # autoescape on for .html
    t.env.filters.update(money=money, duration=duration, clean=authz.clean)
    return t


@dataclass
class Console:
    settings: Settings
    store: Store
    key: bytes
    client: Client | None = None
    address: str | None = None
    # The business systems (the line's ports) and the tables the domains show an operator
    # beside a request (console/records.py), handed in by the composition root.
    ports: Any = None
    records: tuple[CustomerRecords, ...] = ()
    throttles: Throttles = field(init=False)
    kind_domains: dict[str, str] = field(default_factory=dict)  # durable request kind -> its domain
    templates: Jinja2Templates = field(default_factory=templates)
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    queue: QueueSnapshot = field(init=False)

    def __post_init__(self) -> None:
        self.throttles = Throttles(self.settings)
        async def pending() -> list:
            return await list_queue(await self.temporal())

        async def changes(since: datetime) -> tuple[list, set[str]]:
            return await queue_changes(await self.temporal(), since)

        self.queue = QueueSnapshot(pending, changes)

    async def temporal(self) -> Client:
        """Connected on first use; a down Temporal shows as a one-line error on the page."""
        if self.client is None:
            async with self._lock:
                if self.client is None:
                    from workflows.client import connect

                    self.client = await connect(self.settings, address=self.address)
        return self.client

    def page(self, request: Any, name: str, **ctx: Any) -> Any:
        sess = getattr(request.state, "session", None)
        status = int(ctx.pop("status", 200))
        return self.templates.TemplateResponse(
            request, name, {"op": sess.operator if sess else None, "csrf": sess.csrf if sess else "", **ctx},
            status_code=status,
        )
