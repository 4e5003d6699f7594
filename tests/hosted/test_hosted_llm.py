"""The hosted path, through livekit-plugins-openai on the wire: what each turn type asks of the LLM.

Budgets from the orchestration issue: a confident single need makes at most one LLM request
end to end (routing and slot filling by the fast path, the answer spoken from the typed
result) and a multi-need turn at most two. The effects are checked too: fewer requests must
not mean a different outcome.
"""

from __future__ import annotations

import pytest

from domains import registry
from domains.billing.ledger import Ledger

PHRASES = registry.phrasebook()  # the shipped departments' wording

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
    assert counter.requests - before <= 1
    assert "To confirm: a refund of $49.00" in " ".join(turn.replies)  # read back, not paid yet
    assert Ledger(call.line.store).list_refunds() == []
    before = counter.requests
    turn = await call.send("yes please")
    assert counter.requests - before <= 1
    assert [(r.charge_id, r.amount_cents) for r in Ledger(call.line.store).list_refunds()] == [("CH-1001-D", 4900)]


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
    # not a bare topic ("something with my money" is asked about by the supervisor itself,
    # callcenter/routing/topic_only.py): an unsure reading of a sentence goes to the LLM
    turn = await call.send("something seems wrong with my payments i think")
    assert counter.requests - before >= 1  # the slow path is used where it should be
    assert " ".join(turn.replies).rstrip().endswith("?")
    assert turn.results == []


async def test_greeting_is_spoken_by_the_session_not_the_llm(hosted_call) -> None:
    call, counter = await hosted_call()
    assert call.greeting == PHRASES.greeting
    assert counter.requests == 0


@pytest.mark.parametrize("fault", ["llm=error", "llm=slow:3"])
async def test_a_failing_or_stalled_endpoint_falls_back_to_the_embedded_llm(endpoint, tmp_path, fault: str) -> None:
    from callcenter.settings import load_settings
    from callcenter.store import Store
    from meta.session import build_line, start_call

    settings = load_settings(
        data_dir=tmp_path, hold_on_line_s=0, llm_provider="openai", llm_base_url=endpoint.base_url,
        llm_api_key=endpoint.api_key, llm_model=endpoint.model, faults=fault, llm_timeout_s=1.0,
    )
    store = Store(tmp_path / "s.db")
    call = await start_call(build_line(settings, store=store), customer_id="C1001")
    # An unsure turn needs the LLM: the caller still gets the clarifying question.
    turn = await call.send("something seems wrong with my payments i think")
    assert " ".join(turn.replies).startswith("Just so I get this right")
    await call.close()
    # A multi-need turn with a conversational need is split by the LLM: still both needs.
    call = await start_call(build_line(settings, store=store), customer_id="C1001")
    first = await call.send("i was charged twice and also is the service down")
    second = await call.send("yes please")  # the refund is read back first; the status follows
    assert {"billing.refund", "technical.service_status"} <= {h.to_agent for h in first.hops + second.hops}
    await call.close()
    store.close()


async def test_a_long_call_sends_a_bounded_history(scripted_endpoint, tmp_path) -> None:
    """Context scoping: the meta level sends at most CALLCENTER_LLM_CONTEXT_TOKENS of history.
    The request bodies are seen on the scripted server, whichever endpoint the others use."""
    from callcenter.settings import load_settings
    from callcenter.store import Store
    from meta.session import build_line, start_call

    endpoint = scripted_endpoint
    budget = 300
    settings = load_settings(
        data_dir=tmp_path, hold_on_line_s=0, llm_provider="openai", llm_base_url=endpoint.base_url,
        llm_api_key=endpoint.api_key, llm_model=endpoint.model, llm_context_tokens=budget,
    )
    store = Store(tmp_path / "s.db")
    call = await start_call(build_line(settings, store=store), customer_id="C1001")
    seen = len(endpoint.scripted.recorded.history_chars)
    for _ in range(10):
        for text in ("hello there", "whats my balance", "is the service down right now"):
            await call.send(text)
    sizes = endpoint.scripted.recorded.history_chars[seen:]
    assert len(sizes) >= 10  # every greeting went to the LLM
    # JSON quoting adds a little; the newest turn is always kept even if alone it were larger.
    assert max(sizes) <= budget * 4 * 1.2
    assert sizes[-1] <= sizes[len(sizes) // 2] * 1.2  # flat, not growing with the call
    await call.close()
    store.close()
