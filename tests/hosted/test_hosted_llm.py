"""The hosted path, through livekit-plugins-openai on the wire: what each turn type asks of the LLM.

Budgets from the orchestration issue: a confident single need makes at most one LLM request
end to end (routing and slot filling by the fast path, the answer spoken from the typed
result) and a multi-need turn at most two. The effects are checked too: fewer requests must
not mean a different outcome.
"""

from __future__ import annotations

import pytest

from callcenter.llm import templates as t

pytestmark = pytest.mark.timeout(120)


async def test_confident_single_need_makes_at_most_one_request(hosted_call) -> None:
    call, counter = await hosted_call("C1004")
    before = counter.requests
    turn = await call.send("uh how much do i owe you guys")
    assert counter.requests - before <= 1
    assert "$49.00" in " ".join(turn.replies)
    assert [h.to_agent for h in turn.hops if h.path != "return"] == ["billing", "billing.balance"]


async def test_an_action_with_its_arguments_said_needs_no_slot_filling_request(hosted_call) -> None:
    call, counter = await hosted_call("C1001")
    before = counter.requests
    turn = await call.send("i was charged twice for my subscription")
    reply = " ".join(turn.replies)
    assert counter.requests - before <= 1
    assert "$49.00" in reply
    assert reply.endswith("?")  # a refund is read back or asked about, never silent


async def test_multi_need_makes_at_most_two_requests(hosted_call) -> None:
    call, counter = await hosted_call("C1001")
    before = counter.requests
    turn = await call.send("whats my balance and also is the service down right now")
    assert counter.requests - before <= 2
    reached = {h.to_agent for h in turn.hops}
    assert {"billing.balance", "technical.service_status"} <= reached
    reply = " ".join(turn.replies)
    assert "$0.00" in reply and "incident" in reply


async def test_follow_up_is_answered_without_a_request(hosted_call) -> None:
    call, counter = await hosted_call("C1001")
    await call.send("my api calls keep failing")
    before = counter.requests
    turn = await call.send("how come")
    assert counter.requests - before == 0
    assert "at your busiest minute" in " ".join(turn.replies).lower()


async def test_unsure_turn_goes_to_the_llm_and_gets_a_question(hosted_call) -> None:
    call, counter = await hosted_call("C1001")
    before = counter.requests
    turn = await call.send("my bill")
    assert counter.requests - before >= 1  # the slow path is used where it should be
    assert " ".join(turn.replies).rstrip().endswith("?")
    assert turn.results == []


async def test_greeting_is_spoken_by_the_session_not_the_llm(hosted_call) -> None:
    call, counter = await hosted_call()
    assert call.greeting == t.GREETING
    assert counter.requests == 0
