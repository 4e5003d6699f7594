"""The shared queue copy: full listings, the small 'what changed' listings in between, and
decisions made in the console dropping their request at once."""

from __future__ import annotations

from datetime import datetime

from console.operations import QueueItem
from console.web.snapshot import QueueSnapshot


def item(rid: str) -> QueueItem:
    return QueueItem(rid, "refund", "pending", "C1001", 15000, 0, "", "", "billing/refund", "2026-01-01T00:00:00+00:00")


class Fake:
    def __init__(self) -> None:
        self.full, self.new, self.gone, self.calls = ["a", "b"], [], set(), []

    async def lister(self) -> list[QueueItem]:
        self.calls.append("full")
        return [item(r) for r in self.full]

    async def changes(self, since: datetime) -> tuple[list[QueueItem], set[str]]:
        self.calls.append("delta")
        return [item(r) for r in self.new], set(self.gone)


async def test_full_then_deltas_then_full_again() -> None:
    f = Fake()
    snap = QueueSnapshot(f.lister, f.changes, full_every_s=3600)
    await snap._refresh_once()
    f.new, f.gone = ["c", "a"], {"b"}  # "a" is known: not added twice
    await snap._refresh_once()
    assert [i.request_id for i in snap.items] == ["a", "c"] and f.calls == ["full", "delta"]
    snap.full_every_s = 0
    f.full = ["c"]
    await snap._refresh_once()
    assert [i.request_id for i in snap.items] == ["c"] and f.calls[-1] == "full"


async def test_a_decision_here_drops_the_request_until_a_newer_listing() -> None:
    f = Fake()
    snap = QueueSnapshot(f.lister, f.changes, idle_stop_s=0)
    items, error, _ = await snap.get()
    assert [i.request_id for i in items] == ["a", "b"] and error is None
    snap.drop("a")
    assert [i.request_id for i in (await snap.get())[0]] == ["b"]
    await snap.close()


async def test_a_failed_listing_keeps_the_last_copy_and_says_why() -> None:
    f = Fake()
    snap = QueueSnapshot(f.lister, f.changes)
    await snap._refresh_once()

    async def down(since: datetime) -> tuple[list[QueueItem], set[str]]:
        raise RuntimeError("cannot reach Temporal at 127.0.0.1:1: refused")

    snap._changes = down
    await snap._refresh_once()
    assert [i.request_id for i in snap.items] == ["a", "b"] and snap.error and "cannot reach Temporal" in snap.error
