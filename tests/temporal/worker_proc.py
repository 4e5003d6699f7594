"""A worker in its own process, for tests that SIGKILL it.

argv: address task_queue db_path [pause_marker]. With pause_marker, the refund is written,
the marker file created, and the activity then hangs: the test kills the process right
there, the worst moment (effect written, completion not yet reported).
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

from temporalio.client import Client

from callcenter.store import Store
from meta.actions import durable_actions
from workflows.worker import build_worker


async def main() -> None:
    address, task_queue, db = sys.argv[1:4]
    marker = Path(sys.argv[4]) if len(sys.argv) > 4 else None
    store = Store(db)
    if marker is not None:
        from domains.billing.ledger import Ledger

        original = Ledger.record_refund

        def record_then_hang(self, **kw):  # noqa: ANN001, ANN003, ANN202
            result = original(self, **kw)
            marker.write_text(str(os.getpid()))
            time.sleep(120)
            return result

        Ledger.record_refund = record_then_hang  # type: ignore[method-assign]  # the refund is written, then the worker hangs
    client = await Client.connect(address)
    async with build_worker(client, store, task_queue, actions=durable_actions()):
        Path(os.environ["CC_WORKER_READY"]).write_text("ready")
        await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main())
