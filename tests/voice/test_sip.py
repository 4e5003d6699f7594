"""LiveKit SIP: the shipped trunk and dispatch rule are valid livekit-api requests that send
calls to this agent, and a caller asking for a person is transferred when a number is set.

No LiveKit server or SIP carrier runs here (none is in any registry), so the transfer's
last step is checked against a recording stand-in for LiveKit's API; deploy/sip/README.md
lists what only a real trunk can show."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from google.protobuf import json_format
from livekit import rtc
from livekit.protocol import sip

from callcenter.settings import SettingsError, load_settings
from meta.voice_transfer import TRANSFERRING, start_transfer, transfer_request, transfer_target

SIP = Path(__file__).resolve().parents[2] / "deploy/sip"


def _parse(name: str, message: Any) -> Any:
    # Strict: an unknown or misspelt field is an error, as it is for LiveKit's server.
    return json_format.Parse((SIP / name).read_text(), message)


def test_inbound_trunk_is_a_valid_livekit_request() -> None:
    req = _parse("inbound-trunk.json", sip.CreateSIPInboundTrunkRequest())
    assert req.trunk.numbers and all(re.fullmatch(r"\+[1-9]\d{6,14}", n) for n in req.trunk.numbers)
    assert req.trunk.allowed_addresses, "an inbound trunk open to every address accepts anyone's calls"
    assert req.trunk.max_call_duration.seconds > 0


def test_dispatch_rule_sends_each_caller_to_this_agent_in_its_own_room(tmp_path: Path) -> None:
    req = _parse("dispatch-rule.json", sip.CreateSIPDispatchRuleRequest())
    rule = req.dispatch_rule
    assert rule.rule.WhichOneof("rule") == "dispatch_rule_individual"  # one room per call
    agents = [a.agent_name for a in rule.room_config.agents]
    assert agents == [load_settings(data_dir=tmp_path).agent_name]  # the worker's explicit dispatch name


def test_sip_files_are_json_livekit_cli_can_read() -> None:
    for path in SIP.glob("*.json"):
        assert isinstance(json.loads(path.read_text()), dict), path


@pytest.mark.parametrize("number, target", [("+14155550100", "tel:+14155550100"), ("sip:desk@pbx.example.com", "sip:desk@pbx.example.com")])
def test_transfer_request(number: str, target: str) -> None:
    assert transfer_target(number) == target
    req = transfer_request("call-abc", "sip_caller", number)
    assert (req.room_name, req.participant_identity, req.transfer_to) == ("call-abc", "sip_caller", target)


@pytest.mark.parametrize("bad", ["555-0100", "+0123", "tel:+14155550100", "call me"])
def test_bad_transfer_numbers_fail_at_start(tmp_path: Path, bad: str) -> None:
    with pytest.raises(SettingsError, match="CALLCENTER_TRANSFER_NUMBER"):
        load_settings(data_dir=tmp_path, transfer_number=bad)


def test_no_transfer_without_a_number_or_without_a_phone_caller() -> None:
    session = SimpleNamespace(agent_state="listening", current_speech=None)
    assert start_transfer(None, session, lambda: "callback") is None
    browser = SimpleNamespace(kind=rtc.ParticipantKind.PARTICIPANT_KIND_STANDARD, identity="web")
    job = SimpleNamespace(room=SimpleNamespace(name="r", remote_participants={"web": browser}))
    assert start_transfer("+14155550100", session, lambda: "callback", job=job) is None
    assert start_transfer("+14155550100", session, lambda: "callback") is None  # a local call: no job at all


class _RecordingSip:
    def __init__(self, fail: bool = False) -> None:
        self.requests: list[sip.TransferSIPParticipantRequest] = []
        self.fail = fail

    async def transfer_sip_participant(self, req: sip.TransferSIPParticipantRequest) -> None:
        self.requests.append(req)
        if self.fail:
            raise RuntimeError("503 from the carrier")


@pytest.mark.parametrize("fail", [False, True])
async def test_phone_caller_is_transferred_after_hearing_why(fail: bool) -> None:
    said: list[str] = []
    session = SimpleNamespace(agent_state="thinking", current_speech=None, say=said.append)
    phone = SimpleNamespace(kind=rtc.ParticipantKind.PARTICIPANT_KIND_SIP, identity="sip_+14155550123")
    api = SimpleNamespace(sip=_RecordingSip(fail))
    job = SimpleNamespace(room=SimpleNamespace(name="call-7", remote_participants={"p": phone}), api=api)
    words = start_transfer("+14155550100", session, lambda: "callback booked", job=job)
    assert words == TRANSFERRING
    await asyncio.sleep(0.2)
    assert api.sip.requests == []  # not while the agent has not spoken yet
    session.agent_state = "speaking"
    await asyncio.sleep(0.2)
    assert api.sip.requests == []  # not in the middle of the words either
    session.agent_state = "listening"
    for _ in range(100):
        if api.sip.requests and (not fail or said):
            break
        await asyncio.sleep(0.02)
    (req,) = api.sip.requests
    assert (req.room_name, req.participant_identity, req.transfer_to) == ("call-7", "sip_+14155550123", "tel:+14155550100")
    assert said == (["callback booked"] if fail else [])
