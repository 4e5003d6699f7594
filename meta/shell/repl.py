"""`callcenter call`: a pipe-friendly text call over the whole hierarchy.

One caller turn per input line (terminal, pipe or file). Plain output prints the agent's
words; `--json` prints one object per turn so a program can check the hop trail.
LiveKit's own `console` needs a real terminal and PortAudio; this needs neither.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sys
from collections.abc import AsyncIterator
from typing import Any, TextIO

from callcenter import metrics
from callcenter.redact import mask
from callcenter.settings import Settings
from meta.observer import TurnRecord
from meta.session import Call, build_line, start_call

log = logging.getLogger("callcenter.call")


def turn_json(turn: TurnRecord) -> dict[str, Any]:
    return {
        "turn": turn.index,
        "user": mask(turn.user),  # output is often kept (logs, files): no card numbers in it
        "reply": " ".join(turn.replies),
        "hops": [h.as_json() for h in turn.hops],
        "results": [r.as_json() for r in turn.results],
    }


def clean_line(line: str) -> tuple[str, bool]:
    """Undecodable input bytes (kept as lone surrogates by the reader) become U+FFFD; True if any."""
    if not any("\udc80" <= ch <= "\udcff" for ch in line):
        return line, False
    return line.encode("utf-8", "surrogateescape").decode("utf-8", "replace"), True


async def _lines(stream: TextIO) -> AsyncIterator[str]:
    loop = asyncio.get_running_loop()
    number = 0
    while True:
        line = await loop.run_in_executor(None, stream.readline)
        if not line:
            return
        number += 1
        line, bad = clean_line(line.rstrip("\r\n"))
        if bad:
            print(f"warning: input line {number} was not valid UTF-8; unreadable bytes were replaced", file=sys.stderr)
        yield line


@contextlib.asynccontextmanager
async def durable_work(settings: Settings, store: Any, enabled: bool) -> AsyncIterator[Any]:
    """Temporal for approvals when available; without it requests wait in the store's outbox."""
    if not enabled:
        yield None
        return
    try:
        from meta.shell.cli_temporal import embedded_durable
    except ImportError:  # durable work not installed: the outbox keeps requests
        yield None
        return
    async with embedded_durable(settings, store) as work:
        yield work


async def run_call(
    settings: Settings,
    *,
    customer_id: str | None,
    as_json: bool,
    metrics_port: int | None,
    durable: bool,
    stdin: TextIO = sys.stdin,
    stdout: TextIO = sys.stdout,
) -> int:
    line = build_line(settings)
    server = metrics.serve(metrics_port) if metrics_port is not None else None
    if server is not None:
        print(f"metrics on http://127.0.0.1:{server.port}/metrics", file=sys.stderr)
    prompt = stdin.isatty() and stdout.isatty() and not as_json
    try:
        async with durable_work(settings, line.store, durable) as work:
            call = await start_call(line, customer_id=customer_id, durable=work)
            _emit(call, None, as_json, stdout, prompt)
            async for text in _lines(stdin):
                turn = await call.send(text)
                _emit(call, turn, as_json, stdout, prompt)
            await call.close()
    finally:
        if server is not None:
            server.close()
    return 0


def _emit(call: Call, turn: TurnRecord | None, as_json: bool, out: TextIO, prompt: bool) -> None:
    if as_json:
        if turn is None:
            obj = {"turn": 0, "user": None, "reply": call.greeting, "hops": [], "results": []}
        else:
            obj = turn_json(turn)
        out.write(json.dumps(obj) + "\n")
    else:
        reply = call.greeting if turn is None else " ".join(turn.replies)
        out.write(f"agent> {reply}\n")
        if prompt:
            out.write("you> ")
    out.flush()
