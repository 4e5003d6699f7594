"""Transfer a phone caller to a person through LiveKit SIP (a SIP REFER on the caller's own
call), when `CALLCENTER_TRANSFER_NUMBER` is set and the caller came in over SIP.

Anything else (no number configured, a browser or local call, LiveKit refusing the transfer)
returns None and the caller gets the callback ticket as before: nobody is dropped.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from livekit import rtc
from livekit.protocol.sip import TransferSIPParticipantRequest

from callcenter.logsafe import ref

log = logging.getLogger("callcenter.transfer")
TRANSFERRING = "I'm transferring you to a colleague now. Please stay on the line."
SPEECH_WAIT_S = 15.0


def transfer_target(number: str) -> str:
    """E.164 numbers become tel: URIs; sip: URIs pass through."""
    return number if number.startswith("sip:") else f"tel:{number}"


def sip_caller(room: Any) -> Any | None:
    """The SIP participant (the phone caller) of a room, if there is one."""
    for participant in getattr(room, "remote_participants", {}).values():
        if participant.kind == rtc.ParticipantKind.PARTICIPANT_KIND_SIP:
            return participant
    return None


def transfer_request(room_name: str, identity: str, number: str) -> TransferSIPParticipantRequest:
    return TransferSIPParticipantRequest(
        room_name=room_name, participant_identity=identity, transfer_to=transfer_target(number), play_dialtone=False
    )


def _job_context() -> Any | None:
    from livekit.agents import get_job_context

    try:
        return get_job_context()
    except RuntimeError:  # a local call: no job, no room
        return None


def start_transfer(number: str | None, session: Any, on_failure: Any, *, job: Any = None) -> str | None:
    """If this caller can be transferred, schedule the transfer for when the agent has said
    the returned words (a REFER cuts our audio), and return them; else None."""
    if not number:
        return None
    job = job if job is not None else _job_context()
    room = getattr(job, "room", None)
    caller = sip_caller(room) if room is not None else None
    if caller is None:
        return None
    request = transfer_request(room.name, caller.identity, number)
    task = asyncio.create_task(_transfer_after_speech(job, session, request, on_failure))
    _pending.add(task)
    task.add_done_callback(_pending.discard)
    return TRANSFERRING


_pending: set[asyncio.Task[None]] = set()


async def _transfer_after_speech(job: Any, session: Any, request: TransferSIPParticipantRequest, on_failure: Any) -> None:
    deadline = time.monotonic() + SPEECH_WAIT_S
    spoke = False
    while time.monotonic() < deadline:  # until the goodbye words have played
        spoke = spoke or session.agent_state == "speaking"
        if spoke and session.agent_state in ("listening", "idle") and session.current_speech is None:
            break
        await asyncio.sleep(0.05)
    try:
        await job.api.sip.transfer_sip_participant(request)
    except Exception as exc:  # the carrier or LiveKit refused: the caller gets a callback
        log.warning("SIP transfer failed (%s) for room %s", type(exc).__name__, ref(request.room_name))
        session.say(on_failure())
