"""Speech for the LiveKit worker's rooms, from settings: what meta/shell/livekit_worker.py calls.

`room_speech` gives the session's speech arguments (local engines by default, a cloud
provider by setting, text-only with `none`); `prewarm_speech` loads the local engines once
per job process, before a call is assigned, so the first caller does not wait for them and
a worker that cannot load them fails its self-check instead of failing every call.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from livekit.agents import AgentSession

from callcenter.routing import IntentRouter
from callcenter.settings import Settings
from callcenter.speech.factory import session_speech, speech_enabled
from callcenter.spoken import SpokenIds
from callcenter.store.ports import Customers
from meta.router import build_router
from meta.voice_filler import SpokenFiller
from meta.voice_prompt import recogniser_prompt
from meta.voice_slots import SlotWatcher
from meta.voice_sorry import SorryWhenNotCaught


def room_speech(settings: Settings, ear: SpokenIds, words: Callable[[str], str] | None = None) -> dict[str, Any]:
    """AgentSession keyword arguments for a room's speech (`{"vad": None}` = text only);
    `ear` is the line's way of reading its record ids aloud, `words` its repair of each
    transcript (`router.rejoin`: split words joined)."""
    if not speech_enabled(settings):
        return {"vad": None}
    return session_speech(settings, prompt=recogniser_prompt(), ear=ear, words=words)


def prewarm_speech(settings: Settings) -> None:
    """Load the local engines this process will use (models are cached per process)."""
    if not speech_enabled(settings):
        return
    if settings.stt_provider == "local":
        from callcenter.speech.local_stt import load_identity_whisper, load_whisper

        load_whisper(settings.speech_threads)
        load_identity_whisper(settings.speech_threads)  # the identity answers (both bands), when installed
    if settings.tts_provider == "local":
        from callcenter.speech.local_tts import load_hibari

        load_hibari()
    recogniser_prompt()


@dataclass
class RoomHelpers:
    """What a spoken room session gets on top of the hierarchy; `close()` at the call's end."""

    filler: SpokenFiller
    sorry: SorryWhenNotCaught
    slots: SlotWatcher

    def close(self) -> None:
        self.filler.close()
        self.sorry.close()
        self.slots.close()


def attach_room_helpers(session: AgentSession, settings: Settings, customers: Customers | None = None,
                        router: IntentRouter | None = None) -> RoomHelpers | None:
    """The spoken filler during long work, the spoken "sorry" for a turn with no words and
    the pending slot told to the recogniser (with the line's `customers`, to tell which
    reading of an id and ZIP names an account), for a session that speaks."""
    if session.stt is None or session.tts is None:
        return None
    return RoomHelpers(SpokenFiller(session, after_s=settings.filler_after_s), SorryWhenNotCaught(session),
                       SlotWatcher(session, customers, router=router or build_router(settings)))
