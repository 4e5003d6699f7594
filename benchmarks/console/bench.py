"""Console pages under load, against a real dev server, worker and `callcenter console` process.

1. The queue with N pending approvals: GET / (the whole page) and POST /queue/rows (what the
   live page re-fetches every 2 s), p50/p95 over --renders requests each.
2. Decision round trip at --operators concurrent operators: POST the decision (the click) ->
   the workflow completed -> the next queue fetch no longer lists the request.

    .venv/bin/python benchmarks/console/bench.py --pending 1000 --renders 40 --operators 5 --decisions 60
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from callcenter.settings import load_settings  # noqa: E402
from callcenter.store import Store  # noqa: E402
from console.accounts import add_account  # noqa: E402
from meta.actions import durable_actions  # noqa: E402
from workflows.client import ApprovalRequest, DurableWork, connect  # noqa: E402
from workflows.devserver import LocalTemporal, free_port  # noqa: E402
from workflows.worker import ensure_worker  # noqa: E402

PASSWORD = "benchmark password 123"


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def summary(xs: list[float]) -> dict[str, float]:
    return {"n": len(xs), "p50_ms": round(statistics.median(xs) * 1000, 1),
            "p95_ms": round(pct(xs, 95) * 1000, 1), "max_ms": round(max(xs) * 1000, 1)}


async def sign_in(url: str, name: str) -> tuple[httpx.AsyncClient, str]:
    c = httpx.AsyncClient(base_url=url, timeout=60)
    page = await c.get("/login")
    token = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)  # type: ignore[union-attr]
    r = await c.post("/login", data={"name": name, "password": PASSWORD, "csrf": token})
    assert r.status_code == 303, r.text
    home = await c.get("/")
    return c, re.search(r'name="csrf-token" content="([^"]+)"', home.text).group(1)  # type: ignore[union-attr]


async def main(a: argparse.Namespace) -> dict:
    with tempfile.TemporaryDirectory(prefix="cc-bench-console-") as d:
        data = Path(d)
        server = LocalTemporal(data / "temporal", write_discovery=False)
        await server.start()
        console = None
        try:
            settings = load_settings(data_dir=data, temporal_address=server.address, temporal_task_queue="bench",
                                     worker_metrics_port=0, temporal_sdk_metrics_port=0)
            store = Store(settings.db_path)
            for i in range(a.operators):
                add_account(store, settings, name=f"op{i}", role="supervisor", password=PASSWORD)
            client = await connect(settings, address=server.address)
            work = DurableWork(settings, store, client=client, actions=durable_actions())
            async with ensure_worker(client, store, "bench", actions=durable_actions()):
                t0 = time.monotonic()
                sem = asyncio.Semaphore(20)

                async def submit(i: int) -> str:
                    req = ApprovalRequest("two_factor_reset" if i % 3 else "close_account", f"C100{1 + i % 5}",
                                          None, "um i lost my phone", "identity verified by the line",
                                          "account/two_factor", f"bench-{i:05d}")
                    async with sem:
                        await work.submit_approval(req)
                    return req.request_id

                ids = await asyncio.gather(*(submit(i) for i in range(a.pending)))
                filled = time.monotonic() - t0
                env = {**os.environ, "PYTHONPATH": str(ROOT), "CALLCENTER_DATA_DIR": str(data),
                       "CALLCENTER_TEMPORAL_ADDRESS": server.address, "CALLCENTER_TEMPORAL_TASK_QUEUE": "bench",
                       "CALLCENTER_CONSOLE_PORT": str(free_port())}
                url = f"http://127.0.0.1:{env['CALLCENTER_CONSOLE_PORT']}"
                console = subprocess.Popen([sys.executable, "-m", "meta.shell.cli", "console"], env=env,
                                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                while True:
                    try:
                        if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                            break
                    except httpx.HTTPError:
                        await asyncio.sleep(0.1)
                ops = [await sign_in(url, f"op{i}") for i in range(a.operators)]
                c0, csrf0 = ops[0]
                page_t, rows_t = [], []
                # Warm up until the shared queue copy lists every pending request.
                while (await c0.get("/")).text.count("<tr data-id=") < a.pending:
                    await asyncio.sleep(0.5)
                for _ in range(a.renders):
                    t = time.monotonic()
                    r = await c0.get("/")
                    page_t.append(time.monotonic() - t)
                    assert r.status_code == 200 and r.text.count("<tr data-id=") >= a.pending
                    t = time.monotonic()
                    r = await c0.post("/queue/rows", headers={"x-csrf-token": csrf0})
                    rows_t.append(time.monotonic() - t)
                    assert r.text.count("<tr data-id=") >= a.pending

                todo = list(ids[: a.decisions])
                trips: list[float] = []

                async def operator(c: httpx.AsyncClient, csrf: str) -> None:
                    while todo:
                        rid = todo.pop()
                        t = time.monotonic()
                        r = await c.post(f"/api/requests/{rid}/decide", json={"verdict": "approve", "reason": "ok"},
                                         headers={"x-csrf-token": csrf})
                        assert r.status_code == 200, r.text
                        await client.get_workflow_handle(rid).result()
                        while True:
                            rows = await c.post("/queue/rows", headers={"x-csrf-token": csrf})
                            if f'data-id="{rid}"' not in rows.text:
                                break
                        trips.append(time.monotonic() - t)

                t0 = time.monotonic()
                await asyncio.gather(*(operator(c, s) for c, s in ops))
                wall = time.monotonic() - t0
                for c, _ in ops:
                    await c.aclose()
            return {"pending": a.pending, "fill_s": round(filled, 1), "queue_page": summary(page_t),
                    "queue_rows": summary(rows_t), "operators": a.operators,
                    "round_trip": summary(trips), "decisions_per_s": round(len(trips) / wall, 2)}
        finally:
            if console is not None:
                console.terminate()
                console.wait(10)
            await server.stop()


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--pending", type=int, default=1000)
    p.add_argument("--renders", type=int, default=40)
    p.add_argument("--operators", type=int, default=5)
    p.add_argument("--decisions", type=int, default=60)
    p.add_argument("--json", type=Path, default=None, help="also write the results here")
    args = p.parse_args()
    out = asyncio.run(main(args))
    print(json.dumps(out, indent=2))
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")
    os._exit(0)  # the SDK can crash at interpreter exit in short-lived processes
