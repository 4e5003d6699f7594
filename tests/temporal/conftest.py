"""A real Temporal dev server for the whole session (temp DB, free ports), a fresh store and
task queue per test, and helpers to run a worker in-process or as a killable subprocess."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from callcenter.settings import Settings, load_settings
from callcenter.store import Store
from domains import registry
from meta.actions import durable_actions
from workflows.client import DurableWork, connect
from workflows.devserver import LocalTemporal
from workflows.worker import ensure_worker

ROOT = Path(__file__).resolve().parents[2]
WORKER_PROC = Path(__file__).with_name("worker_proc.py")


@pytest.fixture(scope="session")
async def temporal() -> AsyncIterator[LocalTemporal]:
    with tempfile.TemporaryDirectory(prefix="cc-temporal-") as d:
        server = LocalTemporal(Path(d), write_discovery=False)
        await server.start()
        try:
            yield server
        finally:
            await server.stop()


@pytest.fixture(scope="session")
async def client(temporal: LocalTemporal):  # noqa: ANN201
    return await connect(load_settings(data_dir=temporal.data_dir), address=temporal.address)


@pytest.fixture
def settings(tmp_path: Path, temporal: LocalTemporal) -> Settings:
    return load_settings(
        data_dir=tmp_path, temporal_address=temporal.address,
        temporal_task_queue=f"tq-{uuid.uuid4().hex[:8]}", hold_on_line_s=2,
        worker_metrics_port=0, temporal_sdk_metrics_port=0,
    )


@pytest.fixture
def store(settings: Settings) -> Iterator[Store]:
    s = Store(settings.db_path, schemas=registry.schemas())  # as the line opens it: with the domains' tables
    yield s
    s.close()


@pytest.fixture
async def worker(client, store: Store, settings: Settings) -> AsyncIterator[None]:  # noqa: ANN001
    async with ensure_worker(client, store, settings.temporal_task_queue, actions=durable_actions(), settings=settings):
        yield


@pytest.fixture
async def work(client, store: Store, settings: Settings) -> DurableWork:  # noqa: ANN001
    return DurableWork(settings, store, client=client, actions=durable_actions())


def uid(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


class _WorkerProc:
    """A worker in its own process: ready when `_ready()` says so; killed or stopped by tests."""

    proc: subprocess.Popen
    grace_s: float = 10

    def _ready(self) -> bool:
        raise NotImplementedError

    async def wait_ready(self, timeout: float = 90) -> None:  # a cap for loaded machines, not a pace
        end = time.monotonic() + timeout
        while not await asyncio.to_thread(self._ready):
            if self.proc.poll() is not None:
                raise RuntimeError(f"worker exited: {self.proc.stderr.read().decode()[-2000:]}")  # type: ignore[union-attr]
            if time.monotonic() > end:
                raise TimeoutError("worker not ready")
            await asyncio.sleep(0.05)

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(self.grace_s)
            except subprocess.TimeoutExpired:
                self.kill()


class TemporalWorkerCommand(_WorkerProc):
    """The real `callcenter temporal-worker` in its own process, ready when its /readyz says so:
    the thing the durability tests SIGKILL."""

    def __init__(self, settings: Settings) -> None:
        from tests.conftest import CALLCENTER, cli_env, free_port

        self.probes = free_port()
        env = cli_env(settings.data_dir, CALLCENTER_TEMPORAL_ADDRESS=settings.temporal_address or "",
                      CALLCENTER_TEMPORAL_TASK_QUEUE=settings.temporal_task_queue,
                      CALLCENTER_WORKER_METRICS_PORT=str(self.probes),
                      CALLCENTER_TEMPORAL_SDK_METRICS_PORT="0")
        self.proc = subprocess.Popen([CALLCENTER, "temporal-worker"], env=env,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def _ready(self) -> bool:
        import urllib.request

        try:
            return urllib.request.urlopen(f"http://127.0.0.1:{self.probes}/readyz", timeout=1).status == 200
        except OSError:
            return False

class WorkerProcess(_WorkerProc):
    """`python worker_proc.py`: a worker whose refund activity can be made to hang right
    after writing its effect (a fault the real command cannot be asked to inject), for the
    one test that kills a worker mid-activity."""

    def __init__(self, address: str, task_queue: str, db: Path, *, pause_marker: Path | None = None) -> None:
        cmd = [sys.executable, str(WORKER_PROC), address, task_queue, str(db)]
        if pause_marker is not None:
            cmd.append(str(pause_marker))
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.ready = Path(tempfile.mktemp(prefix="cc-worker-ready-"))
        env["CC_WORKER_READY"] = str(self.ready)
        self.proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    grace_s = 5

    def _ready(self) -> bool:
        return self.ready.exists()

    def stop(self) -> None:
        super().stop()
        self.ready.unlink(missing_ok=True)


async def eventually(check, timeout: float = 10, every: float = 0.1):  # noqa: ANN001, ANN201
    """Poll an async or sync check until it returns truthy."""
    end = time.monotonic() + timeout
    while True:
        value = check()
        if asyncio.iscoroutine(value):
            value = await value
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(every)


# --- operators: decisions need a signed credential for a real account -----------------------
PASSWORD = "correct horse battery staple"


def operator(store: Store, name: str, role: str = "agent", *, customer_id: str | None = None):  # noqa: ANN201
    """The account `name` (created on first use with `role`): role and limit come from it."""
    from callcenter.store import operators as ops
    from console.accounts import add_account

    op = ops.get_operator(store, name)
    if op is None:
        op = add_account(store, load_settings(data_dir=store.path.parent), name=name, role=role,
                         password=PASSWORD, customer_id=customer_id)
    return op


def signing_key(store: Store) -> bytes:
    from workflows.keys import signing_keys

    return signing_keys(store.path.parent)[0]


async def decide_as(client, store: Store, request_id: str, *, verdict: str, operator: str, reason: str,  # noqa: ANN001, ANN201
                    role: str = "agent"):
    """`console.operations.decide` as the account `operator` (created with `role` if new)."""
    from console.operations import decide

    op = globals()["operator"](store, operator, role)
    return await decide(client, store, request_id, verdict=verdict, operator=op, reason=reason,
                        key=signing_key(store))


async def admitted(client, wid: str) -> None:  # noqa: ANN001
    """Until the workflow's first activity has checked the request against the line's record."""
    async def check() -> bool:
        return bool((await (await client.get_workflow_handle(wid).describe()).memo()).get("admitted"))

    await eventually(check)


async def signed(client, store: Store, request_id: str, verb: str, name: str, reason: str, role: str = "agent", *,  # noqa: ANN001
                 ttl_s: int = 60) -> dict:
    """A raw update payload as the console would send it (for `execute_update` in tests): a
    credential bound to the workflow's current run, as Temporal describes it."""
    from console.accounts import grant_for
    from console.operations import approval_target, ticket_target

    op = operator(store, name, role)
    wid = request_id if verb != "resolve" else f"ticket-{request_id}"
    await admitted(client, wid)
    desc = await client.get_workflow_handle(wid).describe()
    target = (ticket_target(desc, request_id) if verb == "resolve"
              else approval_target(desc, dict(await desc.memo())))
    grant, _ = grant_for(op, target, verb, signing_key(store), ttl_s)
    if verb == "resolve":
        return {"engineer": op.name, "resolution": reason, "role": op.role, "grant": grant}
    return {"operator": op.name, "reason": reason, "role": op.role, "grant": grant}
