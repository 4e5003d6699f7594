"""A decode whose result nobody will read stops at its next step.

`EarlySTT` starts a speculative decode in the caller's first short pause; when the caller
goes on, that guess is dropped, but its thread cannot be stopped from outside, so it ran to
the end. On an identity answer that end is far: a guess on the half said so far ("My customer
number is C one zero zero five," before the ZIP) fits no number and ZIP, so the recogniser
went on to the held decode and the id/ZIP grammar decode (about 7 CPU-s with Whisper base on
one thread), and the decode of the whole answer waited behind it on the recogniser's lock:
5.6 s to the transcript, 8.5 CPU-s for a turn whose own decode costs 0.4 (benchmarks/README.md,
issue 26, session 16).

The guess's task runs in a context that carries an event (`guess_context`); `asyncio.to_thread`
takes the context into the decode's thread, where the recogniser calls `check()` before each
costly step and between the grammar decode's steps. Setting the event (`EarlySTT` dropping the
guess) makes the next `check()` raise `Dropped`, which the dropped task's done-callback
swallows. A decode not started as a guess carries no event and always runs to the end.
"""

from __future__ import annotations

import contextvars
import threading

_EVENT: contextvars.ContextVar[threading.Event | None] = contextvars.ContextVar("stt_decode_dropped", default=None)


class Dropped(Exception):
    """The decode's result was dropped before the decode finished."""


def guess_context() -> tuple[contextvars.Context, threading.Event]:
    """A context for a speculative decode's task, and the event that drops it."""
    event = threading.Event()
    context = contextvars.copy_context()
    context.run(_EVENT.set, event)
    return context, event


def check() -> None:
    """Raise `Dropped` when the decode running in this context was dropped."""
    event = _EVENT.get()
    if event is not None and event.is_set():
        raise Dropped
