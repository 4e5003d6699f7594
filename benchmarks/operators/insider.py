"""Issue 27's insider, as a repeatable adversary: someone with shell access to a pod (the
standard `temporal` CLI against the cluster, curl against the console, the `callcenter` CLI)
tries to decide what they may not, to make payable work, to end requests unseen, and to get
into or flood the console.

Everything runs as in production on one machine: the local Temporal dev server, the real
`callcenter temporal-worker` (with its reconciler) and `callcenter console` processes, the
line filing requests through `DurableWork`. Each probe says which of the issue's bullets it
tries and whether the boundary held; a failure is a row in the table.

    .venv/bin/python benchmarks/operators/insider.py            # every probe
    .venv/bin/python benchmarks/operators/insider.py --only grant forged   # some bullets
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from benchmarks.operators.probes import BULLETS, Insider  # noqa: E402
from callcenter.settings import load_settings  # noqa: E402
from callcenter.store import Store  # noqa: E402
from domains import registry  # noqa: E402
from meta.actions import durable_actions  # noqa: E402
from tests.conftest import CALLCENTER, cli_env, free_port  # noqa: E402
from tests.console.conftest import Console  # noqa: E402
from tests.temporal.conftest import TemporalWorkerCommand  # noqa: E402
from workflows.client import DurableWork, connect  # noqa: E402
from workflows.devserver import LocalTemporal  # noqa: E402


def worker_command(settings: Any) -> TemporalWorkerCommand:
    """The real `callcenter temporal-worker`, its reconciler every second (probes wait on its audit)."""
    w = TemporalWorkerCommand.__new__(TemporalWorkerCommand)
    w.probes = free_port()
    env = cli_env(settings.data_dir, CALLCENTER_TEMPORAL_ADDRESS=settings.temporal_address,
                  CALLCENTER_TEMPORAL_TASK_QUEUE=settings.temporal_task_queue,
                  CALLCENTER_WORKER_METRICS_PORT=str(w.probes), CALLCENTER_TEMPORAL_SDK_METRICS_PORT="0",
                  CALLCENTER_RECONCILE_EVERY_S="1")
    w.proc = subprocess.Popen([CALLCENTER, "temporal-worker"], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE)
    return w


async def run(only: list[str] | None, log: Callable[[str], None]) -> list[dict[str, Any]]:
    """A fresh dev server and data directory, then every probe (or those of `only`)."""
    with tempfile.TemporaryDirectory(prefix="cc-insider-") as tmp:
        data = Path(tmp)
        async with LocalTemporal(data / "temporal", write_discovery=False) as server:
            settings = load_settings(data_dir=data, temporal_address=server.address, temporal_task_queue="insider",
                                     worker_metrics_port=0, temporal_sdk_metrics_port=0)
            store = Store(settings.db_path, schemas=registry.schemas())
            try:
                client = await connect(settings, address=server.address)
                work = DurableWork(settings, store, client=client, actions=durable_actions())
                return await run_against(settings, store, client, work, only, log)
            finally:
                store.close()


async def run_against(settings: Any, store: Store, client: Any, work: DurableWork, only: list[str] | None,
                      log: Callable[[str], None]) -> list[dict[str, Any]]:
    """The probes against a running dev server (tests pass theirs): the real worker command
    and console are started here, in their own processes, and stopped after."""
    worker = worker_command(settings)
    console = None
    try:
        await worker.wait_ready(60)
        console = Console(settings)
        return await Insider(settings, store, client, work, console.url, log).run(only)
    finally:
        if console is not None:
            console.stop()
        worker.stop()


def table(rows: list[dict[str, Any]]) -> str:
    fails = [r for r in rows if not r["held"]]
    lines = [f"{len(rows)} probes, {len(fails)} failures", "", "| bullet | probe | held | what happened |",
             "|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['bullet']} | {r['probe']} | {'yes' if r['held'] else '**NO**'} | {r['detail']} |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", nargs="*", choices=sorted(BULLETS), help="only these bullets")
    ap.add_argument("--json", type=Path, help="also write the rows here")
    args = ap.parse_args()
    started = time.monotonic()
    rows = asyncio.run(run(args.only, lambda s: print(s, file=sys.stderr, flush=True)))
    print(table(rows))
    print(f"\n{time.monotonic() - started:.0f} s")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")
    sys.stdout.flush()
    os._exit(0 if all(r["held"] for r in rows) else 1)  # the SDK can crash at interpreter exit


if __name__ == "__main__":
    main()
