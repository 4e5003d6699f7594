"""Conversation repair through whole calls: turns that are not a new need get the right reply."""

from __future__ import annotations

import pytest
from prometheus_client import REGISTRY

from callcenter.llm import templates as t
from callcenter.routing.discourse import follow_up_kind, is_closing
from callcenter.routing.noise import NoiseModel
from callcenter.store import Store
from domains import registry
from domains.billing.ledger import Ledger
from meta.router import noise_model, training_examples

PHRASES = registry.phrasebook()  # the shipped departments' wording


@pytest.mark.parametrize(
    ("need", "question", "expected"),
    [
        ("uh my api calls keep getting rejected", "how come", "at your busiest minute you sent"),
        ("my api keeps throwing errors", "ok so what should i do then", "backoff"),
        ("are you guys down right now", "and when will that be fixed", "no firm time yet"),
        ("whats my balance", "why is that", "every invoice on the account has been paid"),
    ],
)
async def test_follow_up_is_answered_from_the_last_result(open_call, store: Store, need: str, question: str, expected: str) -> None:
    call = await open_call("C1001")
    first = await call.send(need)
    assert first.results, "the need itself was answered by a specialist"
    turn = await call.send(question)
    reply = " ".join(turn.replies)
    assert expected in reply.lower()
    assert turn.hops == []  # answered at the front desk, no new delegation
    assert Ledger(store).list_refunds() == []


async def test_follow_up_without_an_answer_to_follow_is_not_invented(open_call) -> None:
    call = await open_call("C1001")
    turn = await call.send("how come")
    reply = " ".join(turn.replies)
    assert "what i can tell you" not in reply.lower()
    assert reply.endswith("?")


async def test_a_real_need_phrased_as_why_still_routes(open_call) -> None:
    call = await open_call("C1001")
    await call.send("whats my balance")
    turn = await call.send("why are my requests to your api getting rejected with errors")
    assert [h.to_agent for h in turn.hops if h.path != "return"][:2] == ["technical", "technical.api_errors"]


@pytest.mark.parametrize("noise", ["qwpz fjkd vvbn", "zxcq rrrt plmk", "hrrrmph gnnnx"])
async def test_noise_gets_didnt_catch_not_out_of_scope(open_call, noise: str) -> None:
    call = await open_call("C1001")
    turn = await call.send(noise)
    assert turn.replies == [t.EMPTY_TURN]


def test_noise_model_never_calls_the_training_turns_noise() -> None:
    model = noise_model()
    texts = [text for text, _ in training_examples()]
    assert not [x for x in texts if model.is_noise(x)]
    # Real words the router never saw are not noise either; backchannels are not judged.
    for text in ("my xylophone subscription renewal", "uh huh sure", "mm-hm", "hmm"):
        assert not model.is_noise(text), text
    assert NoiseModel.fit(["hello there"]).score("") is None


@pytest.mark.parametrize("text", ["um", "i have a question", "uh its about my thing"])
async def test_vague_turn_gets_an_open_question(open_call, text: str) -> None:
    call = await open_call("C1001")
    turn = await call.send(text)
    assert turn.replies == [PHRASES.how_can_i_help]


@pytest.mark.parametrize("bye", ["great thanks have a good one", "alright cheers", "ok thank you so much"])
async def test_thanks_and_goodbye_in_everyday_forms(open_call, bye: str) -> None:
    call = await open_call("C1001")
    await call.send("whats my balance")
    turn = await call.send(bye)
    assert turn.replies == [PHRASES.front_desk_replies["goodbye"]]


async def test_goodbye_while_a_specialist_waits_for_an_answer(open_call, store: Store) -> None:
    call = await open_call("C1003")
    asked = await call.send("i want to change my plan")
    assert " ".join(asked.replies).endswith("?")
    assert "the caller" not in " ".join(asked.replies).lower()  # slot questions are said to the caller
    turn = await call.send("ok thanks bye")
    assert "goodbye" in " ".join(turn.replies).lower()
    assert Ledger(store).current_plan("C1003").id == "enterprise"


async def test_retraction_mid_question_routes_the_new_need(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("i want to change my plan")
    turn = await call.send("no wait never mind that i want to close my account instead")
    assert "account.close_account" in [h.to_agent for h in turn.hops]
    assert Ledger(store).current_plan("C1003").id == "enterprise"


async def test_a_slot_question_cannot_hold_the_call(open_call, store: Store) -> None:
    def trips() -> float:
        return REGISTRY.get_sample_value("callcenter_loop_guard_trips_total", {"reason": "slot_stalled"}) or 0.0

    before = trips()
    call = await open_call("C1003")
    await call.send("i want to change my plan")
    replies = []
    for text in ["hmm", "let me think", "what do you have", "i dont know", "maybe", "the blue one"]:
        turn = await call.send(text)
        replies.append(" ".join(turn.replies))
    assert "noted it for a colleague" in " ".join(replies)
    assert trips() == before + 1
    assert Ledger(store).current_plan("C1003").id == "enterprise"


@pytest.mark.parametrize(
    ("text", "kind"),
    [("how come", "why"), ("so what do i do about it", "next_step"), ("how long does that take", "how_long"),
     ("cant you just do it yourself", "do_it"), ("why are my api calls failing every single time since monday morning", None)],
)
def test_follow_up_kinds(text: str, kind: str | None) -> None:
    assert follow_up_kind(text) == kind


def test_closing_needs_a_closing_cue() -> None:
    assert is_closing("ok great thanks")
    assert not is_closing("ok great")
    assert not is_closing("thanks can you check my balance")


def test_within_budget_keeps_instructions_and_the_newest_words() -> None:
    from livekit.agents import llm

    from domains.base import within_budget

    ctx = llm.ChatContext()
    ctx.add_message(role="system", content="You are the front desk.")
    for i in range(200):
        ctx.add_message(role="user" if i % 2 == 0 else "assistant", content=f"message number {i} " + "x" * 80)
    bounded = within_budget(ctx, 100)  # about 400 characters
    texts = [it.text_content for it in bounded.items if it.type == "message"]
    assert texts[0] == "You are the front desk."
    assert texts[-1].startswith("message number 199")
    assert sum(len(x) for x in texts[1:]) <= 400
    assert len(ctx.items) == 201  # the session's own history is untouched


async def test_how_long_after_a_refund_is_answered_from_the_refund(open_call) -> None:
    call = await open_call("C1001")
    await call.send("i was charged twice")
    await call.send("yes")
    turn = await call.send("how long does that take")
    assert turn.replies == ["Card refunds take 3 to 5 business days to show, depending on your bank."]
