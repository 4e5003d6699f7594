"""A tool that changes something and has not answered in time: the write runs to its end,
the caller hears an honest sentence inside the same turn, and the outcome reaches them later.

Cancelling a write half-way could tell the caller "nothing was changed" while the change
still lands, so a changing tool runs in an asyncio task of its own that nothing in the
call cancels: `asyncio.wait` never cancels what it waits on, so neither the write budget,
the turn limit nor a hang-up tears it. Past its budget the caller hears `UNCONFIRMED`
(never "done", never "nothing was changed": neither is known yet) and a call-back ticket
holds the request for a colleague in case no outcome ever comes (the process dies). When
the write ends, its outcome is logged (ids as references only), sent to the caller as a
notification, and the ticket is resolved if the outcome is known. It is never started a
second time: the same caller asking again while it runs hears `STILL_RUNNING`.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

from callcenter.logsafe import ref
from domains.base import hung_up

if TYPE_CHECKING:
    from domains.results import SpecialistResult
    from domains.state import CallState

log = logging.getLogger("callcenter.domains")

# A changing tool's share of CALLCENTER_TURN_TIMEOUT_S: the rest of the turn is left for the
# sentence to be spoken (and for the routing that came before the tool).
WRITE_BUDGET_SHARE = 0.5

UNCONFIRMED = (
    "I couldn't confirm that just now: our system is taking longer than usual to answer. Nothing is lost and "
    "it won't be done twice; we'll send you a message with the outcome as soon as we have it{reference}."
)
STILL_RUNNING = (
    "Your earlier request is still going through, so I haven't started it again; we'll send you a message "
    "with the outcome as soon as we have it."
)
# The notification when the write ended without a result of its own (it asked the caller
# something, which only happens before a tool acts): nothing was changed.
LATE_NOTHING = "We couldn't finish your request during the call, and nothing was changed. Call us whenever suits you."
# The notification when the write raised: whether it landed is not known, so a person checks.
LATE_FAILED = "We couldn't confirm the outcome of your request; a colleague will check it and call you back."

# Every write still running, by (customer, specialist): the reference keeps the task alive
# (asyncio holds only weak ones) and stops a second attempt of the same request.
_RUNNING: dict[tuple[str, str], asyncio.Task[Any]] = {}


class WritingTask(Protocol):
    """What a write needs of the specialist that runs it (domains/specialist.py's task),
    named here so this module does not import the specialist that imports it."""

    state: CallState
    id: str
    result_type: Any
    last_result: Any

    def finish(self, result: Any) -> None: ...


class WriteUnconfirmed(Exception):  # noqa: N818 - an outcome, not an error: the caller was told
    """The write outlived its budget (or an earlier one still runs); the task already finished."""


def budget_s(turn_timeout_s: float) -> float:
    return turn_timeout_s * WRITE_BUDGET_SHARE


def running() -> list[asyncio.Task[Any]]:
    return [t for t in _RUNNING.values() if not t.done()]


async def drain(timeout_s: float | None = None) -> None:
    """Wait for the writes still running (a shutdown, a test), at most `timeout_s`."""
    pending = running()
    if pending:
        await asyncio.wait(pending, timeout=timeout_s)


async def run_write(task: WritingTask, work: Callable[[], Awaitable[Any]]) -> Any:
    """Run a changing tool's work; its result if it ends within the budget.

    Otherwise the specialist finishes as "queued" with `UNCONFIRMED`, the work goes on, and
    `WriteUnconfirmed` is raised for the breaker to count."""
    # Callers not identified (yet) are told apart by their call.
    key = (task.state.caller.customer_id or f"call {task.state.call_id}", task.id)
    earlier = _RUNNING.get(key)
    if earlier is not None and not earlier.done():
        task.finish(task.result_type(status="queued", summary=STILL_RUNNING))  # type: ignore[arg-type]
        raise WriteUnconfirmed
    before = task.last_result  # a result after this one is the write's own
    write = asyncio.ensure_future(work())
    _RUNNING[key] = write
    write.add_done_callback(functools.partial(_forget, key))
    try:
        await asyncio.wait({write}, timeout=budget_s(task.state.settings.turn_timeout_s))
    except asyncio.CancelledError:
        # The call ended first: the write goes on, and its outcome is still sent and logged.
        _report_later(task, write, before, ticket=_book_call_back(task))
        raise
    if write.done():
        ended = not write.cancelled() and write.exception() is None and task.last_result is not before
        if ended and hung_up(task):  # the caller left while it ran: nobody heard its result
            _report_later(task, write, before, ticket=None)
        return write.result()
    ticket = _book_call_back(task)
    told = task.result_type(  # type: ignore[arg-type]
        status="queued", summary=UNCONFIRMED.format(reference=f"; your reference is {ticket}" if ticket else ""))
    task.finish(told)
    _report_later(task, write, told, ticket=ticket)
    raise WriteUnconfirmed


def _forget(key: tuple[str, str], write: asyncio.Task[Any]) -> None:
    if _RUNNING.get(key) is write:
        del _RUNNING[key]


def _book_call_back(task: WritingTask) -> str | None:
    """A ticket naming the part of the system, never the caller's words (as `base.fallback`)."""
    try:
        ticket = task.state.ports.tickets.create_ticket(
            customer_id=task.state.caller.customer_id, kind="callback",
            summary=f"Call back: {task.id} did not answer in time during the call; check whether the change went through",
        )
    except Exception as exc:
        log.error("could not book a call back for %s: %s", task.id, type(exc).__name__)
        return None
    return ticket.id


def _report_later(task: WritingTask, write: asyncio.Task[Any], before: SpecialistResult | None, *,
                  ticket: str | None) -> None:
    dedupe = f"late-write-{task.state.call_id}-{task.id}-{task.state.guard.turn}"
    write.add_done_callback(functools.partial(_report, task, before, ticket, dedupe))


def _report(task: WritingTask, before: SpecialistResult | None, ticket: str | None, dedupe: str,
            write: asyncio.Task[Any]) -> None:
    """The write ended after the caller was told it was not confirmed (or had hung up): log it, tell them."""
    state, customer = task.state, task.state.caller.customer_id
    error = None if write.cancelled() else write.exception()
    late = task.last_result if task.last_result is not before else None
    if late is not None:  # the tool's own result wins over a later error (a closed session)
        outcome, body, known = late.status, late.summary, True
    elif write.cancelled():
        outcome, body, known = "cancelled", None, False  # the process is stopping: the ticket stays
    elif error is not None:
        outcome, body, known = f"error {type(error).__name__}", LATE_FAILED, False
    else:
        outcome, body, known = "nothing changed", LATE_NOTHING, True
    log.warning("write %s ended after the caller stopped waiting: %s (customer %s, ticket %s)",
                task.id, outcome, ref(customer) if customer else "-", ticket or "-")
    try:
        if body is not None and customer is not None:
            about = f"About your call today (reference {ticket}): " if ticket else "About your call today: "
            state.store.add_notification(customer_id=customer, channel="email", body=about + body, dedupe_key=dedupe)
        if ticket is not None and known:
            state.ports.tickets.set_ticket_status(ticket, "resolved")
    except Exception as exc:  # the ticket, if any, stays open for a colleague
        log.error("could not send the outcome of %s: %s", task.id, type(exc).__name__)
