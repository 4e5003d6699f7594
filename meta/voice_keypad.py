"""The phone keypad (DTMF) as caller input, as IVRs take it: on a SIP call the identity and
amount questions accept digits typed on the keypad.

LiveKit delivers each key a SIP caller presses as a room event (`sip_dtmf_received`, an
`rtc.SipDTMF` carrying the digit; livekit-agents 1.8 only resets its away timer on it).
Keys collect into one entry, which ends at '#' or `TIMEOUT_S` after the last key; the entry
becomes the caller's turn, in the words the pending question expects: the identity task
reads digits as its customer number or ZIP code (domains/identity.py, `keypad_reading`);
after a "how much" question digits are dollars, '*' the decimal point. `callcenter call
--voice` feeds the same collector from `.dtmf` files, so the path is tested offline.

When the keypad can answer (a phone caller), a question it can answer ends with `HINT`.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterable, AsyncIterator, Callable
from typing import Any

from livekit import rtc
from livekit.agents import AgentSession

from domains.identity import asks_for_digits
from meta.voice_transfer import sip_caller

KEYS = frozenset("0123456789*#")
# An IVR's usual inter-digit timeout: a caller reading a number off a letter types slowly.
TIMEOUT_S = 3.0
HINT = "You can also type it on your keypad, then press the pound key."
_HOW_MUCH = re.compile(r"\bhow much\b[^.!]*\?\s*(?:Or say [^.?!]*[.?!])?\s*$", re.I)


def asks_amount(reply: str) -> bool:
    """The line's question for an amount ("How much would you like refunded, in US dollars?")."""
    return bool(_HOW_MUCH.search(reply))


def keypad_dollars(keys: str) -> str | None:
    """'49' -> '$49', '49*50' -> '$49.50' ('*' is the decimal point); None if not an amount."""
    whole, _, cents = keys.partition("*")
    if not whole.isdigit() or (cents and not (cents.isdigit() and len(cents) <= 2)):
        return None
    return f"${int(whole)}" + (f".{cents.ljust(2, '0')}" if cents else "")


def last_reply(agent: Any) -> str:
    """What the active agent said last (its pending question)."""
    ctx = getattr(agent, "chat_ctx", None)
    for item in reversed(ctx.items if ctx is not None else []):
        if item.type == "message" and item.role == "assistant":
            return item.text_content or ""
    return ""


def keypad_reading(agent: Any, keys: str) -> str:
    """An entry of keys -> the caller's turn, in the words the pending question expects."""
    read = getattr(agent, "keypad_reading", None)
    text = read(keys) if callable(read) else None
    if text:
        return text
    if asks_amount(last_reply(agent)) and (amount := keypad_dollars(keys)):
        return amount
    return " ".join(g for g in keys.split("*") if g)


class Keypad:
    """Collects keys into entries and hands each entry to the session as a caller turn."""

    def __init__(self, session: AgentSession, *, timeout_s: float = TIMEOUT_S) -> None:
        self.session = session
        self.timeout_s = timeout_s
        self.listeners: list[Callable[[str], None]] = []  # told each entry's words first
        self.entries = 0
        self._keys: list[str] = []
        self._timer: asyncio.TimerHandle | None = None

    def press(self, key: str) -> None:
        """One key, as LiveKit reports it; '#' ends the entry at once."""
        if key not in KEYS:
            return
        self._cancel()
        if key == "#":
            self._submit()
            return
        self._keys.append(key)
        self._timer = asyncio.get_running_loop().call_later(self.timeout_s, self._submit)

    def _submit(self) -> None:
        self._timer = None
        keys, self._keys = "".join(self._keys), []
        if not keys:
            return
        text = keypad_reading(self.session.current_agent, keys)
        self.entries += 1
        for listener in self.listeners:
            listener(text)
        if self.session.agent_state == "speaking":
            self.session.interrupt()  # a caller who types over the question has heard enough
        self.session.generate_reply(user_input=text)

    def _cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def close(self) -> None:
        self._cancel()
        self._keys = []


def keypad_hint(available: Callable[[], bool]) -> Callable[[AsyncIterable[str]], AsyncIterator[str]]:
    """A TTS text transform: a question the keypad can answer ends with `HINT`, when
    `available()` (a phone caller). Text passes through as it streams; the hint follows it."""

    async def transform(text: AsyncIterable[str]) -> AsyncIterator[str]:
        said = ""
        async for chunk in text:
            said += chunk
            yield chunk
        if available() and (asks_for_digits(said) or asks_amount(said)):
            yield " " + HINT

    return transform


class RoomKeypad(Keypad):
    """The SIP caller's keys in a LiveKit room, as caller turns. `close()` at the call's end."""

    def __init__(self, session: AgentSession, room: rtc.Room, *, timeout_s: float = TIMEOUT_S) -> None:
        super().__init__(session, timeout_s=timeout_s)
        self.room = room
        room.on("sip_dtmf_received", self._on_dtmf)

    def _on_dtmf(self, ev: rtc.SipDTMF) -> None:
        caller = sip_caller(self.room)  # only the phone caller's keys, not another participant's
        if caller is not None and ev.participant is not None and ev.participant.identity == caller.identity:
            self.press(ev.digit)

    def close(self) -> None:
        self.room.off("sip_dtmf_received", self._on_dtmf)
        super().close()


def phone_caller(room: rtc.Room) -> Callable[[], bool]:
    """Whether the room's caller has a keypad (came in over SIP), asked at each reply."""
    return lambda: sip_caller(room) is not None
