"""A short spoken filler while the agent works in silence (a durable request, a hold):
on a phone line, silence sounds like a dropped call.

Attached to any spoken session (a local `--voice` call or a LiveKit room): when the agent has
been thinking for `after_s` with nothing playing, it says one short line, then another every
few seconds while the work goes on. Fillers are not added to the conversation history.
"""

from __future__ import annotations

import asyncio

from livekit.agents import AgentSession
from livekit.agents.voice.events import AgentStateChangedEvent

FILLERS = ("One moment, please.", "Still working on it, thanks for holding.")
EVERY_S = 5.0


class SpokenFiller:
    def __init__(self, session: AgentSession, *, after_s: float) -> None:
        self.session = session
        self.after_s = after_s
        self.spoken = 0
        self._task: asyncio.Task[None] | None = None
        if after_s > 0:
            session.on("agent_state_changed", self._on_state)

    def _on_state(self, ev: AgentStateChangedEvent) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None
        if ev.new_state == "thinking":
            self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        await asyncio.sleep(self.after_s)
        n = 0
        while self.session.agent_state == "thinking":  # a state change cancels this task
            self.session.say(FILLERS[min(n, len(FILLERS) - 1)], add_to_chat_ctx=False)
            self.spoken += 1
            n += 1
            await asyncio.sleep(EVERY_S)

    def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
