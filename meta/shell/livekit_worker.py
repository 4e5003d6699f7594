"""The LiveKit worker: `callcenter worker dev|start` serves real rooms with the same hierarchy.

LiveKit runs every call in a job process (or thread) of its own. The entrypoint and the
prewarm step are therefore module-level functions: the job executor pickles them by
reference, and each job process reads its settings from the environment it inherits.
Nothing here touches the network until LiveKit's CLI connects to `LIVEKIT_URL`.

Before `start`/`dev` registers with LiveKit, the worker runs one scripted, read-only call
through its own job executor (`selfcheck`). A worker whose job processes cannot start (a
pickling error, a broken model, an unreadable database) exits with a one-line error instead
of registering and reporting healthy while every call fails.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import json
import logging
import math
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from livekit.agents import AgentServer, JobContext, JobExecutorType, JobProcess, cli
from livekit.agents.worker import ServerEnvOption
from livekit.protocol import models

from callcenter import tracing
from callcenter.settings import Settings, get_settings
from callcenter.spoken import SHARED_EAR, SpokenIds
from meta.session import Line, build_line, start_call
from meta.shell.worker_help import print_help, wants_help
from meta.shell.worker_process import hand_logging_to_livekit, start_forkserver
from meta.voice_keypad import RoomKeypad, keypad_hint, phone_caller
from meta.voice_room import attach_room_helpers, prewarm_speech, room_speech

log = logging.getLogger("callcenter.worker")

SELFCHECK_ROOM = "callcenter-selfcheck"
# Read-only on purpose: the self-check runs on every worker start and must never move money.
SELFCHECK_TURNS = ("is the service down right now", "thanks, bye")
SELFCHECK_TIMEOUT_S = 120.0


def speech_kwargs(settings: Settings, ear: SpokenIds = SHARED_EAR, words: Callable[[str], str] | None = None) -> dict[str, Any]:
    """STT/TTS/VAD for a room's session from settings (meta/voice_room.py); `none` = text only.
    `ear`: the line's record ids read aloud (`Line.ear`); `words`: the line's repair of each
    transcript (`router.rejoin`)."""
    return room_speech(settings, ear, words)


def prewarm(settings: Settings, proc: JobProcess) -> None:
    """Build the line (store, router, LLM) once per job process, before a call is assigned.

    Bound to the worker's settings with functools.partial, which pickles by reference, so
    a job process runs with exactly the settings the worker was started with.
    A failure is kept, not raised: LiveKit would respawn the process forever, while the
    entrypoint can report it to the self-check (and to the log) at once.
    """
    tracing.install_log_filter()  # this process's log lines, forwarded to the worker, carry call ids
    try:
        proc.userdata["line"] = build_line(settings)
        prewarm_speech(settings)  # the local speech engines, once per process
        _freeze_once()
    except Exception as exc:  # the type only: messages may carry paths or caller data
        log.error("job process could not build the line: %s", type(exc).__name__)
        proc.userdata["line_error"] = type(exc).__name__


_frozen = False


def _freeze_once() -> None:
    """The router, models and imports live for the whole process: move them out of the
    collector's reach, so a full collection during calls walks only the calls' objects
    (benchmarks/capacity: p95 at 100 calls 42-66 ms frozen, 70-99 ms not). Once per
    process, at the first prewarm, before any call: in the thread executor later prewarms
    run beside live calls, whose cyclic garbage a freeze would keep forever."""
    global _frozen
    if not _frozen:
        _frozen = True
        gc.collect()
        gc.freeze()


class LineUnavailableError(RuntimeError):
    """The job process has no line (store, router, LLM) to answer calls with."""


def _line_of(ctx: JobContext) -> Line:
    if "line_error" in ctx.proc.userdata:
        raise LineUnavailableError(f"the line could not be built ({ctx.proc.userdata['line_error']})")
    line = ctx.proc.userdata.get("line")
    if line is None:  # a server built without our prewarm: fall back to the environment
        line = ctx.proc.userdata["line"] = build_line(get_settings())
    return line


async def entrypoint(ctx: JobContext) -> None:
    """One call: a LiveKit room job, or (fake jobs only) a scripted call such as the self-check."""
    if ctx.is_fake_job() and ctx.job.room.metadata:
        await _scripted_call(ctx, json.loads(ctx.job.room.metadata))
        return
    line = _line_of(ctx)
    settings = line.settings
    await ctx.connect()
    durable = None
    if settings.temporal_address:
        from workflows.client import DurableWork

        durable = DurableWork(settings, line.store, actions=line.actions)
    kwargs = speech_kwargs(settings, line.ear, line.router.rejoin)
    if "tts_text_transforms" in kwargs:  # a phone caller hears that the keypad answers too
        kwargs["tts_text_transforms"] = [*kwargs["tts_text_transforms"], keypad_hint(phone_caller(ctx.room))]
    call = await start_call(line, durable=durable, session_kwargs=kwargs, room=ctx.room)
    filler = attach_room_helpers(call.session, settings, call.state.ports.customers, call.state.router)
    keypad = RoomKeypad(call.session, ctx.room)  # a SIP caller's DTMF keys are caller turns

    async def _close() -> None:
        if filler is not None:
            filler.close()
        keypad.close()
        await call.close("completed")

    ctx.add_shutdown_callback(_close)


@dataclass
class ScriptReport:
    """What a scripted call did, written by the job process for the worker that launched it."""

    ok: bool
    replies: list[str] = field(default_factory=list)
    hops: list[list[str]] = field(default_factory=list)
    error: str | None = None
    seconds: float = 0.0


async def _scripted_call(ctx: JobContext, script: dict[str, Any]) -> None:
    """Run caller turns through a real session inside this job process; report to a file.

    Only fake jobs reach here, and only the worker itself creates those (`simulate_job`),
    so a LiveKit room's metadata can never script a call.
    """
    report_path = Path(script["report"])
    started = time.perf_counter()
    report = ScriptReport(ok=False)
    call = None
    try:
        call = await start_call(_line_of(ctx), customer_id=script.get("customer"))
        for text in script["turns"]:
            turn = await call.send(str(text))
            report.replies.append(" ".join(turn.replies))
            report.hops.extend([h.from_agent, h.to_agent] for h in turn.hops)
        report.ok = all(report.replies)
        if not report.ok:
            report.error = "a caller turn got no reply"
    except LineUnavailableError as exc:
        report.error = str(exc)
    except Exception as exc:  # reported to the launching worker; never caller data in it
        report.error = type(exc).__name__
        log.error("scripted call failed: %s", type(exc).__name__)
    finally:
        if call is not None:
            await call.close("completed")
        report.seconds = time.perf_counter() - started
        report_path.write_text(json.dumps(asdict(report)))


def worker_load(max_calls: int, server: AgentServer) -> float:
    from livekit.agents.worker import _DefaultLoadCalc  # LiveKit's own CPU average (a thread)

    return min(1.0, max(len(server.active_jobs) / max_calls, _DefaultLoadCalc.get_load(server)))


class LineServer(AgentServer):
    """LiveKit's AgentServer, with a readiness probe beside its health check.

    LiveKit's `/` answers 200 while the worker retries an unreachable LiveKit (for minutes,
    until its retries run out): right for liveness, wrong for readiness. `/readyz` answers
    200 only while the worker is registered with LiveKit and neither connecting again nor
    draining, so a pod that cannot take calls gets none. The route has to join LiveKit's own
    HTTP server before it starts; LiveKit 1.8 builds that server inside `run()`, so the
    assignment is intercepted (tests/core run the real `worker start` to catch an upgrade).
    """

    _health: Any = None

    @property  # type: ignore[override]
    def _http_server(self) -> Any:
        return self._health

    @_http_server.setter
    def _http_server(self, server: Any) -> None:
        self._health = server
        if server is not None:
            from aiohttp import web

            server.app.add_routes([web.get("/readyz", self._readiness)])

    def registered(self) -> bool:
        return (self.id != "unregistered" and not self._connecting and not self._connection_failed
                and not self._draining and not self._closed)

    async def _readiness(self, _request: Any) -> Any:
        from aiohttp import web

        if self.registered():
            return web.Response(text="ready")
        return web.Response(status=503, text="not registered with LiveKit")


def build_server(
    settings: Settings,
    *,
    executor: JobExecutorType | None = None,
    port: int | None = None,
    metrics: bool = True,
    idle_processes: int | None = None,
) -> AgentServer:
    """The worker from settings. `port`, `metrics` and `idle_processes` exist for the
    self-check, which runs beside (before) the real worker and must not take its ports."""
    extra: dict[str, Any] = {}
    if executor is not None:
        extra["job_executor_type"] = executor
    if port is not None:
        extra["port"] = port
    if idle_processes is not None:
        extra["num_idle_processes"] = idle_processes
    metrics_port = settings.metrics_port if metrics else 0
    server = LineServer(
        ws_url=settings.livekit_url,
        api_key=settings.livekit_api_key.get_secret_value() if settings.livekit_api_key else None,
        api_secret=settings.livekit_api_secret.get_secret_value() if settings.livekit_api_secret else None,
        drain_timeout=settings.drain_timeout_s,
        prometheus_port=metrics_port or None,
        # Each call runs in its own job process; they share metrics through this folder.
        prometheus_multiproc_dir=str(settings.data_dir / "prometheus-multiproc") if metrics_port else None,
        setup_fnc=functools.partial(prewarm, settings),
        # Building the line trains or loads the router: allow for a slow first start.
        initialize_process_timeout=120.0,
        # Load = share of CALLCENTER_WORKER_MAX_CALLS in use (or CPU, if higher): a full worker
        # gets no new dispatch. 0.99, not LiveKit's 0.7: full means max calls, not 70 % of it.
        load_fnc=functools.partial(worker_load, settings.worker_max_calls),
        load_threshold=ServerEnvOption(dev_default=math.inf, prod_default=0.99),
        **extra,
    )
    server.rtc_session(entrypoint, agent_name=settings.agent_name)
    return server


async def run_script(
    server: AgentServer, turns: list[str], *, customer: str | None = None, timeout: float = SELFCHECK_TIMEOUT_S
) -> ScriptReport:
    """Run `turns` as one call inside a job of `server`'s own executor (no LiveKit needed)."""
    with tempfile.TemporaryDirectory(prefix="callcenter-job-") as tmp:
        report_path = Path(tmp) / "report.json"
        script = {"turns": turns, "customer": customer, "report": str(report_path)}
        started = asyncio.Event()
        server.once("worker_started", lambda: started.set())
        runner = asyncio.create_task(server.run(devmode=False, unregistered=True))
        try:
            await asyncio.wait_for(_first(started.wait(), runner), timeout)
            if runner.done():
                runner.result()  # the server failed to start: raise its error
            room = models.Room(sid="RM_selfcheck", name=SELFCHECK_ROOM, metadata=json.dumps(script))
            await server.simulate_job(SELFCHECK_ROOM, fake_job=True, room_info=room)
            deadline = time.monotonic() + timeout
            while not report_path.exists():
                if time.monotonic() > deadline:
                    return ScriptReport(ok=False, error=f"no job finished within {timeout:.0f} s")
                if runner.done():
                    runner.result()
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.05)  # the job writes the file in one call; let it close
            return ScriptReport(**json.loads(report_path.read_text()))
        finally:
            await server.aclose()
            if not runner.done():
                runner.cancel()
            await asyncio.gather(runner, return_exceptions=True)


async def _first(*aws: Any) -> None:
    tasks = [a if isinstance(a, asyncio.Task) else asyncio.ensure_future(a) for a in aws]
    await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    for t in tasks[:-1]:
        if not t.done():
            t.cancel()


def selfcheck(settings: Settings) -> ScriptReport:
    """One read-only call through the worker's real job executor, on a private port."""
    server = build_server(settings, port=0, metrics=False, idle_processes=0)
    return asyncio.run(run_script(server, list(SELFCHECK_TURNS)))


def _report_selfcheck(settings: Settings) -> bool:
    try:
        report = selfcheck(settings)
    except Exception as exc:  # any failure to start a job process is the point of the check
        print(f"error: worker self-check could not run a job: {type(exc).__name__}", file=sys.stderr)
        return False
    if not report.ok:
        print(f"error: worker self-check call failed in the job process: {report.error}", file=sys.stderr)
        return False
    log.info("worker self-check passed: a scripted call ran in a job process in %.1f s", report.seconds)
    return True


def run(settings: Settings, argv: list[str]) -> int:
    command = argv[0] if argv else ""
    if wants_help(argv):
        return print_help(argv)
    if command == "selfcheck":
        return 0 if _report_selfcheck(settings) else 1
    if command == "console":
        # LiveKit's console needs a sound device (PortAudio) and its `lk` tool; neither is
        # part of this product, and a traceback helps nobody.
        print("error: `worker console` is LiveKit's sound-device console; use `callcenter call` "
              "for a call in this terminal", file=sys.stderr)
        return 2
    if command in ("dev", "start", "connect") and not settings.livekit_url:
        print("error: CALLCENTER_LIVEKIT_URL (or LIVEKIT_URL) is required for the worker", file=sys.stderr)
        return 2
    serving = command in ("dev", "start", "connect")
    if serving:
        from domains.registry import load_sections

        load_sections()  # a bad domain setting is one line naming it, here, not a failed job process
        start_forkserver()
    if command in ("dev", "start") and settings.worker_selfcheck:
        if not _report_selfcheck(settings):
            return 1
    server = build_server(settings, port=settings.worker_http_port if command == "start" else None)
    if serving:
        hand_logging_to_livekit()
    sys.argv = ["callcenter worker", *argv]
    cli.run_app(server)
    return 0
