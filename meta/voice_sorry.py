"""A spoken "sorry, I didn't catch that" when the caller spoke and the recogniser found no
words (a clipped or noisy turn, a word swallowed by the line): in a room, silence after
speaking sounds like a dropped call.

`callcenter call --voice` knows each turn's audio and says it in `VoiceCall.speak`; a LiveKit
room has no such turns, so this watches the session's events instead: the VAD heard the
caller speak for at least `MIN_SPEECH_S`, and no final transcript with words came from the
start of that speech to `wait_s` after its end while the agent was not answering. Not added to
the chat history.

The transcript can come before the speech's end: LiveKit commits a turn on the recogniser's
final words, and the session VAD's end-of-speech may arrive after it (and a handoff to a
specialist restarts the VAD, ending the speech again). So words are remembered by time, not
only used to cancel a wait already under way.
"""

from __future__ import annotations

import asyncio

from livekit.agents import AgentSession
from livekit.agents.voice.events import UserInputTranscribedEvent, UserStateChangedEvent

SORRY = "Sorry, I didn't catch that. Could you say it again?"
MIN_SPEECH_S = 0.3  # a cough or a click is not a turn
WAIT_S = 5.0  # end of speech -> transcript on a busy 2-core box stays well under this


class SorryWhenNotCaught:
    def __init__(self, session: AgentSession, *, wait_s: float = WAIT_S) -> None:
        self.session = session
        self.wait_s = wait_s
        self.spoken = 0
        self._started_at: float | None = None
        self._words_at = float("-inf")  # when the last final transcript with words came
        self._task: asyncio.Task[None] | None = None
        session.on("user_state_changed", self._on_user_state)
        session.on("user_input_transcribed", self._on_transcript)

    def _silence(self) -> float:
        return float(getattr(self.session.vad, "min_silence_duration", None) or 0.0)

    def _on_user_state(self, ev: UserStateChangedEvent) -> None:
        if ev.new_state == "speaking":
            self._cancel()
            self._started_at = ev.created_at
        elif ev.old_state == "speaking" and self._started_at is not None:
            started, self._started_at = self._started_at, None
            spoke = ev.created_at - started - self._silence()
            if spoke >= MIN_SPEECH_S and self._words_at < started:
                self._task = asyncio.create_task(self._wait(started))

    def _on_transcript(self, ev: UserInputTranscribedEvent) -> None:
        if ev.is_final and ev.transcript.strip():
            self._words_at = ev.created_at
            self._cancel()

    async def _wait(self, started: float) -> None:
        await asyncio.sleep(self.wait_s)
        if self._words_at >= started:
            return  # the words came after all
        if self.session.agent_state in ("thinking", "speaking") or self.session.user_state == "speaking":
            return  # the agent is answering after all, or the caller goes on
        self.session.say(SORRY, add_to_chat_ctx=False)
        self.spoken += 1

    def _cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    def close(self) -> None:
        self._cancel()
