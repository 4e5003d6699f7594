"""The phone keypad in a LiveKit room: a SIP caller's DTMF keys (LiveKit's `sip_dtmf_received`
room event) become caller turns in the words the pending question expects; another
participant's keys do not. No LiveKit server runs here: the room is LiveKit's own event
emitter with a SIP participant in it, the session a recorder."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest
from livekit import rtc
from livekit.agents import llm

from domains.identity import correction
from meta.voice_keypad import HINT, RoomKeypad, keypad_dollars, keypad_hint, keypad_reading


class _Room(rtc.EventEmitter):
    def __init__(self) -> None:
        super().__init__()
        self.phone = SimpleNamespace(kind=rtc.ParticipantKind.PARTICIPANT_KIND_SIP, identity="sip_+14155550123")
        self.web = SimpleNamespace(kind=rtc.ParticipantKind.PARTICIPANT_KIND_STANDARD, identity="web")
        self.remote_participants = {"a": self.phone, "b": self.web}


class _Session:
    def __init__(self, question: str = "") -> None:
        ctx = llm.ChatContext()
        if question:
            ctx.add_message(role="assistant", content=question)
        self.current_agent = SimpleNamespace(chat_ctx=ctx)
        self.agent_state = "listening"
        self.turns: list[str] = []

    def generate_reply(self, *, user_input: str) -> None:
        self.turns.append(user_input)

    def interrupt(self) -> None:
        pass


def _dtmf(room: _Room, who: SimpleNamespace, keys: str) -> None:
    for key in keys:
        room.emit("sip_dtmf_received", rtc.SipDTMF(code=0, digit=key, participant=who))  # type: ignore[arg-type]


async def test_a_sip_callers_keys_are_one_turn_per_entry() -> None:
    room, session = _Room(), _Session("How much would you like refunded, in US dollars?")
    keypad = RoomKeypad(session, room, timeout_s=0.2)  # type: ignore[arg-type]
    _dtmf(room, room.web, "12#")  # a browser participant has no keypad turns
    _dtmf(room, room.phone, "49*5#")
    assert session.turns == ["$49.50"]
    _dtmf(room, room.phone, "20")  # no '#': the entry ends after the inter-digit timeout
    for _ in range(100):
        if len(session.turns) == 2:
            break
        await asyncio.sleep(0.02)
    assert session.turns == ["$49.50", "$20"]
    keypad.close()
    _dtmf(room, room.phone, "7#")
    assert len(session.turns) == 2  # closed: the call is over


def test_keys_read_as_the_pending_question_expects() -> None:
    identity = SimpleNamespace(keypad_reading=lambda keys: f"customer number C{keys}")
    assert keypad_reading(identity, "1001") == "customer number C1001"
    plain = SimpleNamespace(chat_ctx=llm.ChatContext())
    assert keypad_reading(plain, "12*34") == "12 34"  # no amount asked: the digits as typed
    assert keypad_dollars("49") == "$49" and keypad_dollars("0*5") == "$0.50"
    assert keypad_dollars("1*234") is None and keypad_dollars("*") is None


@pytest.mark.parametrize("said, fixed", [
    ("No, it's 1001.", ("C1001", "94107")),  # "no, it's one zero zero one": the number, without its C
    ("no it's C1001", ("C1001", "94107")),
    ("the zip is 94170", ("C10001", "94170")),
    ("94170", ("C10001", "94170")),  # five digits: nearer the ZIP heard than the number
    ("10011", ("C10011", "94107")),  # ... nearer the number
    ("C1001 zip 94107", ("C1001", "94107")),
    ("yes that's right", None),
])
def test_a_correction_after_the_read_back(said: str, fixed: tuple[str, str] | None) -> None:
    assert correction(said, "C10001", "94107") == fixed


async def test_the_hint_follows_a_question_the_keypad_answers() -> None:
    async def stream(*chunks: str):  # noqa: ANN202
        for c in chunks:
            yield c

    async def said(available: bool, *chunks: str) -> str:
        return "".join([c async for c in keypad_hint(lambda: available)(stream(*chunks))])

    ask = ("Before I can look at your account I need to verify who you are. ", "Could you tell me your customer number, and the ZIP code on the account?")
    assert (await said(True, *ask)).endswith(HINT)
    assert not (await said(False, *ask)).endswith(HINT)  # no keypad (a browser caller)
    assert await said(True, "Your balance is 20 dollars.") == "Your balance is 20 dollars."
