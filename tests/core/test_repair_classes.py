"""Failure classes of real callers, fixed as mechanisms (issue 18, third pass), through whole calls.

Each test speaks the way callers do (lower case, fillers, no punctuation) and asserts what
the line does and what the store holds afterwards.
"""

from __future__ import annotations

import pytest

from callcenter.llm import templates as t
from callcenter.routing.discourse import is_thanks_only, is_word_salad
from callcenter.routing.segment import after_retraction
from callcenter.store import Store
from domains import registry
from domains.billing.ledger import Ledger
from domains.intent import yes_or_no

PHRASES = registry.phrasebook()


def _agents(turn) -> list[str]:  # noqa: ANN001 - a session turn record
    return [h.to_agent for h in turn.hops if h.path != "return"]


# --- everyday confirmations of a read-back ---------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["that works for me", "perfect go ahead", "fine by me lets do it", "great thanks yes", "of course", "you bet",
     "okay sure", "cool do it"],
)
def test_everyday_assent_is_a_yes(text: str) -> None:
    assert yes_or_no(text) is True


@pytest.mark.parametrize(
    "text",
    ["that works but for my other account", "sounds good but make it twenty dollars", "can you do it", "great question",
     "fine whatever you think", "perfect timing actually"],
)
def test_assent_words_with_anything_else_are_asked_again(text: str) -> None:
    assert yes_or_no(text) is None


@pytest.mark.parametrize("answer", ["that works for me", "perfect go ahead", "fine by me lets do it"])
async def test_read_back_accepts_everyday_assent(open_call, store: Store, answer: str) -> None:
    call = await open_call("C1003")
    asked = await call.send("um my authenticator app is gone i need to reset two factor")
    assert "yes or no" in " ".join(asked.replies).lower()
    await call.send(answer)
    assert [w.kind for w in store.list_work()] == ["two_factor_reset"]


async def test_read_back_with_a_condition_files_nothing(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("um my authenticator app is gone i need to reset two factor")
    turn = await call.send("sounds good but only for my work account")
    assert "yes or no" in " ".join(turn.replies).lower()
    assert store.list_work() == []


# --- a new phone (the device) is about login codes, not contact details ------------------------


@pytest.mark.parametrize(
    "text",
    ["so i upgraded to a new phone and the login codes dont show up",
     "um my phone got replaced and the authenticator on it is empty now",
     "i bought a new phone and now the verification codes go nowhere"],
)
async def test_new_device_goes_to_two_factor_not_profile(open_call, store: Store, text: str) -> None:
    call = await open_call("C1003")
    turn = await call.send(text)
    agents = _agents(turn)
    assert "account.two_factor_reset" in agents
    assert "account.profile_update" not in agents


async def test_a_new_phone_number_is_still_a_profile_change(open_call) -> None:
    call = await open_call("C1003")
    turn = await call.send("uh i got a new phone number can you update it")
    assert "account.profile_update" in _agents(turn)


# --- words that make no sentence: "didn't catch that", not "can't help with that" -------------


@pytest.mark.parametrize("text", ["banana carpet seventeen", "tofu rocket saxophone window", "blorp flim zanko"])
async def test_word_salad_is_not_caught_rather_than_out_of_scope(open_call, store: Store, text: str) -> None:
    call = await open_call("C1001")
    turn = await call.send(text)
    assert turn.replies == [t.EMPTY_TURN]
    assert turn.hops == [] and Ledger(store).list_refunds() == []


async def test_a_real_request_we_cannot_serve_is_still_out_of_scope(open_call) -> None:
    call = await open_call("C1001")
    turn = await call.send("um can you book me a flight to denver")
    assert turn.replies == [PHRASES.out_of_scope]


def test_word_salad_needs_several_words_and_no_function_word() -> None:
    assert is_word_salad("noodle hammer violin")
    assert not is_word_salad("weather tomorrow")  # too short to judge
    assert not is_word_salad("tell me a joke")
    assert not is_word_salad("uh my api is broken")


# --- thanks before any business is politeness, not a goodbye -----------------------------------


@pytest.mark.parametrize("text", ["thanks a lot", "oh thanks a bunch", "thank you very much"])
async def test_thanks_as_first_turn_is_welcomed_and_the_call_stays_open(open_call, text: str) -> None:
    call = await open_call("C1001")
    turn = await call.send(text)
    reply = " ".join(turn.replies)
    assert reply.startswith(t.WELCOME) and reply.endswith("?")
    assert "goodbye" not in reply.lower()
    served = await call.send("whats my balance")
    assert "billing.balance" in _agents(served)


async def test_thanks_after_an_answer_still_ends_the_call(open_call) -> None:
    call = await open_call("C1001")
    await call.send("whats my balance")
    turn = await call.send("thanks a lot")
    assert turn.replies == [PHRASES.front_desk_replies["goodbye"]]


def test_thanks_only_has_no_farewell() -> None:
    assert is_thanks_only("thanks a lot") and is_thanks_only("cheers")
    assert not is_thanks_only("thanks bye") and not is_thanks_only("ok thats all thank you")


@pytest.mark.parametrize("bye", ["that should be everything", "ok that will do thanks"])
async def test_a_modal_thats_all_ends_the_call_mid_question(open_call, store: Store, bye: str) -> None:
    call = await open_call("C1003")
    await call.send("i want to change my plan")
    turn = await call.send(bye)
    assert "goodbye" in " ".join(turn.replies).lower()
    assert Ledger(store).current_plan("C1003").id == "enterprise"


# --- a retraction mid-question routes only what the caller wants instead -----------------------


@pytest.mark.parametrize(
    "switch",
    ["actually forget the plan id rather shut the whole thing down",
     "actually never mind the plan can you just cancel everything instead"],
)
async def test_retraction_routes_the_new_need_and_files_it_once_confirmed(open_call, store: Store, switch: str) -> None:
    call = await open_call("C1003")
    await call.send("i want to change my plan")
    turn = await call.send(switch)
    agents = _agents(turn)
    assert "account.close_account" in agents
    assert "billing.plan_change" not in agents  # the part taken back does not bring the caller back
    await call.send("mm-hm do it")
    assert [w.kind for w in store.list_work()] == ["close_account"]
    assert Ledger(store).current_plan("C1003").id == "enterprise"


@pytest.mark.parametrize(
    ("text", "instead"),
    [("actually forget the plan id rather shut the whole thing down", "shut the whole thing down"),
     ("no wait never mind that i want to close my account instead", "i want to close my account"),
     ("close my account", "close my account")],
)
def test_after_retraction(text: str, instead: str) -> None:
    assert after_retraction(text) == instead


# --- a misheard customer number: the letters that rhyme with C ---------------------------------


@pytest.mark.parametrize("answer", ["T1001, ZIP 94107.", "uh tee 1001 zip 94107", "d 1001 and the zip is 94107"])
async def test_e_set_letter_answering_the_number_question_verifies(open_call, answer: str) -> None:
    call = await open_call()
    await call.send("whats my balance")
    turn = await call.send(answer)
    assert call.state.caller.verified and call.state.caller.customer_id == "C1001"
    assert "$0.00" in " ".join(turn.replies)


async def test_e_set_letter_with_the_wrong_zip_still_fails(open_call, store: Store) -> None:
    call = await open_call()
    await call.send("whats my balance")
    await call.send("T1001 zip 94108")
    assert not call.state.caller.verified
    assert store.verification_failures(customer_id="C1001", window_s=3600) == 1  # throttled as C1001


@pytest.mark.parametrize("text", ["ticket T-1A2B3C", "zip 94107", "apartment 12", "I'm on the t 12 plan", "x1001"])
def test_only_an_e_set_letter_before_four_to_six_digits_is_a_number(text: str) -> None:
    from domains.identity import heard_customer_number

    assert heard_customer_number(text) is None


# --- asking again for a refund already given -------------------------------------------------


async def test_a_refund_already_given_is_said_with_when_and_how_much(open_call, store: Store) -> None:
    first = await open_call("C1001")
    await first.send("um i was charged twice this month")
    await first.send("yes please")
    [refund] = Ledger(store).list_refunds()
    again = await open_call("C1001")  # a later call: the caller asks again
    turn = await again.send("hi uh i got charged twice can i get my money back")
    said = " ".join(turn.replies)
    assert "already been refunded" in said and "$49.00" in said, said
    assert refund.created_at[:10] in said  # when it went back
    assert "don't see a duplicate" not in said
    assert len(Ledger(store).list_refunds()) == 1  # nothing paid twice
