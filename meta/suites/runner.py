"""Run suite calls through the real line: one fresh store per call, in parallel processes.

Each call gets a new demo store (or a copy of the suite's fixture) in a scratch folder and
its own `Line` on it (`meta.session.build_line`, as `callcenter call` builds it), so calls
never see each other's refunds. The LLM is the configured one (embedded by default). A
suite never touches a company's systems: CALLCENTER_DATABASE_URL and CALLCENTER_ADAPTERS
are set aside, and durable requests wait in the call's own outbox (no Temporal), which is
where the checker counts them. `-j N` runs calls in N worker processes, because one event
loop running the embedded router is bound to one CPU.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import shutil
import sqlite3
import tempfile
import threading
import time
import traceback
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from callcenter.settings import Settings
from meta.suites.checks import Effects, Failure, check_call, check_needs, check_reply, snapshot
from meta.suites.model import Call, Suite

log = logging.getLogger("callcenter.suites")


class StoreSetupError(RuntimeError):
    """The store a call starts from could not be made (a broken fixture)."""
VOICE_PLAYOUT_SPEED = 8.0  # the agent's replies "play" faster than real time; caller audio stays real time


@dataclass
class TurnOutcome:
    number: int  # 1-based
    say: str
    reply: str
    reached: tuple[str, ...] = ()  # agents entered this turn, in order
    heard: str | None = None  # what the recogniser heard (--voice)


@dataclass
class CallOutcome:
    suite: str
    call: str
    file: str
    line: int
    klass: str | None = None
    mode: str = "text"  # text | voice
    turns: list[TurnOutcome] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    error: str | None = None  # the call could not run to its end (last line of the exception)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.failures and self.error is None

    @property
    def unsafe(self) -> list[str]:
        return [u for f in self.failures for u in f.unsafe]


def suite_settings(settings: Settings) -> Settings:
    """The settings every suite call runs with: the company's line, on a scratch store."""
    return settings.model_copy(update={"database_url": None, "adapters": "", "hold_on_line_s": 0.0})


def fresh_store(path: Path, fixture: Path | None = None) -> Any:
    """A new store at `path`: the demo data, a copy of a SQLite fixture, or the demo data
    with an SQL fixture run over it."""
    from callcenter.store import Store
    from domains import registry

    if fixture is not None and fixture.suffix != ".sql":
        with sqlite3.connect(fixture) as src, sqlite3.connect(path) as dst:
            src.backup(dst)  # a consistent copy even of a database in WAL mode
        src.close()
        dst.close()
    store = Store(path, schemas=registry.schemas())
    if fixture is not None and fixture.suffix == ".sql":
        store.close()
        with sqlite3.connect(path) as db:
            db.executescript(fixture.read_text(encoding="utf-8"))
        db.close()
        store = Store(path, schemas=registry.schemas())
    return store


@dataclass
class Drive:
    """A call as it went: its turns, every agent entered, the effects before and after."""

    turns: list[TurnOutcome]
    reached: set[str]
    before: Effects
    after: Effects
    error: str | None = None
    mode: str = "text"


async def drive(line: Any, call: Call, *, voice: bool = False) -> Drive:
    """Play `call`'s turns through `line` (spoken if `voice` and the call has audio); no checks."""
    from meta.session import UnknownCustomerError

    spoken = voice and call.spoken
    out = Drive([], set(), snapshot(line.store, line.ports), Effects(), mode="voice" if spoken else "text")
    try:
        send, close = await (_open_voice(line, call) if spoken else _open_text(line, call))
        try:
            for number, turn in enumerate(call.turns, 1):
                reply, hops, heard = await send(turn)
                out.reached.update(h.to_agent for h in hops)
                out.turns.append(TurnOutcome(number, turn.say, reply, tuple(h.to_agent for h in hops if h.path != "return"), heard))
        finally:
            await close()
    except UnknownCustomerError:
        out.error = f"customer {call.customer} is not in the store this call starts from"
    except Exception as exc:  # the call broke: report it with the rest, never stop the run
        log.debug("call %s failed", call.name, exc_info=True)
        out.error = f"{type(exc).__name__}: {' '.join(str(exc).split())[:300]} ({_where(exc)})"
    out.after = snapshot(line.store, line.ports)
    return out


async def run_call(line: Any, call: Call, *, suite: str = "", file: str = "", voice: bool = False) -> CallOutcome:
    """Drive one call through `line` and check it (the line's store must be fresh)."""
    started = time.perf_counter()
    d = await drive(line, call, voice=voice)
    out = CallOutcome(suite=suite, call=call.name, file=file, line=call.line, klass=call.klass, mode=d.mode,
                      turns=d.turns, error=d.error)
    for t in d.turns:
        turn = call.turns[t.number - 1]
        out.failures += check_reply(turn.expect, t.reply, turn=t.number, line=turn.line)
    for number, turn in enumerate(call.turns, 1):
        out.failures += check_needs(turn.expect, d.reached, turn=number, line=turn.line)
    out.failures += check_call(call.expect, d.before, d.after, d.reached, line=call.expect_line or call.line)
    out.seconds = time.perf_counter() - started
    return out


def _where(exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    last = frames[-1] if frames else None
    return f"{Path(last.filename).name}:{last.lineno}" if last else "?"


async def _open_text(line: Any, call: Call) -> tuple[Callable[..., Any], Callable[..., Any]]:
    from meta.session import start_call

    session = await start_call(line, customer_id=call.customer)

    async def send(turn: Any) -> tuple[str, list[Any], None]:
        record = await session.send(turn.say)
        return " ".join(record.replies), record.hops, None

    return send, session.close


async def _open_voice(line: Any, call: Call) -> tuple[Callable[..., Any], Callable[..., Any]]:
    from meta.voice import start_voice_call
    from meta.voice_io import read_wav

    audio = [read_wav(t.audio) for t in call.turns]  # every file read before the call starts
    voice = await start_voice_call(line, customer_id=call.customer, playout_speed=VOICE_PLAYOUT_SPEED)
    index = iter(range(len(audio)))

    async def send(turn: Any) -> tuple[str, list[Any], str]:
        samples, rate = audio[next(index)]
        spoken = await voice.speak(samples, rate)
        return " ".join(spoken.replies), spoken.record.hops if spoken.record else [], spoken.heard

    return send, voice.close


# --- many calls ---------------------------------------------------------------------------
class CallRunner:
    """What one process needs to run calls: settings, a scratch folder, one event loop."""

    def __init__(self, settings: Settings, workdir: Path, voice: bool) -> None:
        self.settings = settings
        self.workdir = workdir
        self.voice = voice
        self.loop = asyncio.new_event_loop()

    def run(self, suite: Suite, index: int) -> CallOutcome:
        return self.loop.run_until_complete(self._run(suite, index))

    async def _run(self, suite: Suite, index: int) -> CallOutcome:
        call = suite.calls[index]
        try:
            async with self.line(suite.fixture) as line:
                return await run_call(line, call, suite=suite.name, file=str(suite.path), voice=self.voice)
        except StoreSetupError as exc:
            return CallOutcome(suite.name, call.name, str(suite.path), call.line, call.klass, error=str(exc))

    @contextlib.asynccontextmanager
    async def line(self, fixture: Path | None) -> AsyncIterator[Any]:
        """A line on a fresh store of its own, removed afterwards."""
        from meta.session import build_line

        folder = Path(tempfile.mkdtemp(prefix="call-", dir=self.workdir))
        try:
            try:
                store = fresh_store(folder / "store.sqlite3", fixture)
            except Exception as exc:
                raise StoreSetupError(f"the store could not be prepared: {' '.join(str(exc).split())[:300]}") from None
            try:
                yield build_line(self.settings, store=store)
            finally:
                store.close()
        finally:
            shutil.rmtree(folder, ignore_errors=True)


_WORKER: CallRunner | None = None


def _init_process(settings: Settings, workdir: Path, voice: bool, level: int) -> None:
    global _WORKER
    logging.basicConfig(level=level)
    logging.getLogger().setLevel(level)
    logging.getLogger("livekit.agents").setLevel(max(logging.ERROR, level))
    _WORKER = CallRunner(settings, workdir, voice)


def _run_in_process(suite: Suite, index: int) -> CallOutcome:
    assert _WORKER is not None
    return _WORKER.run(suite, index)


def _warm_router(settings: Settings) -> None:
    """Train the router once before the workers start, in a short-lived process of its own,
    when the data dir has no cached model yet: N workers would each train it (tens of
    seconds of CPU) and race to cache it. Not in this process: training may start native
    thread pools, and the workers are forked from here."""
    models = settings.data_dir / "models"
    if settings.router_model is not None or any(models.glob("router-*.model")):
        return
    proc = multiprocessing.get_context("spawn").Process(target=_train_router, args=(settings,))
    proc.start()
    proc.join()


def _train_router(settings: Settings) -> None:
    from meta.router import build_router

    build_router(settings)


def _context() -> multiprocessing.context.BaseContext:
    """How worker processes start. Forking is the fastest (the line is already imported) and
    safe while this process has no other thread: here it only loaded the suites, and no
    call has run in it. Otherwise a fork server that imported the line once, or (Windows)
    a fresh interpreter per worker."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        import meta.session  # noqa: F401  (imported before the fork, once for every worker)

        return multiprocessing.get_context("fork")
    if "forkserver" in methods:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["meta.suites.runner", "meta.session"])
        return ctx
    return multiprocessing.get_context("spawn")


def run_suites(
    suites: Sequence[Suite], settings: Settings, *, jobs: int = 1, voice: bool = False,
    on_result: Callable[[CallOutcome], None] | None = None,
) -> list[CallOutcome]:
    """Every call of `suites`; results in suite and call order. `on_result` hears each call
    as it ends (in the order they end)."""
    settings = suite_settings(settings)
    work = [(s, i) for s in suites for i in range(len(s.calls))]
    results: dict[tuple[int, int], CallOutcome] = {}
    with tempfile.TemporaryDirectory(prefix="callcenter-test-") as tmp:
        workdir = Path(tmp)
        if jobs <= 1 or len(work) <= 1:
            worker = CallRunner(settings, workdir, voice)
            try:
                for s, i in work:
                    res = results[(id(s), i)] = worker.run(s, i)
                    if on_result:
                        on_result(res)
            finally:
                worker.loop.close()
        else:
            _warm_router(settings)
            ctx = _context()
            level = logging.getLogger().level
            with ProcessPoolExecutor(max_workers=min(jobs, len(work)), mp_context=ctx, initializer=_init_process,
                                     initargs=(settings, workdir, voice, level)) as pool:
                pending: dict[Future[CallOutcome], tuple[Suite, int]] = {
                    pool.submit(_run_in_process, s, i): (s, i) for s, i in work
                }
                while pending:
                    done, _ = wait(pending, return_when=FIRST_COMPLETED)
                    for fut in done:
                        s, i = pending.pop(fut)
                        try:
                            res = fut.result()
                        except Exception as exc:  # the worker process died (out of memory, a crash)
                            call = s.calls[i]
                            res = CallOutcome(s.name, call.name, str(s.path), call.line, call.klass,
                                              error=f"the worker process running it failed ({type(exc).__name__})")
                        results[(id(s), i)] = res
                        if on_result:
                            on_result(res)
    return [results[(id(s), i)] for s, i in work]


__all__ = ["CallOutcome", "Drive", "Effects", "TurnOutcome", "drive", "fresh_store", "run_call", "run_suites", "suite_settings"]
