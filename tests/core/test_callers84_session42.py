"""Turns found in session 42 (callers82-85, written fresh by helpers: older callers who correct
their numbers, English as a second language, callers who answer read-backs sideways, terse
callers), in other words than the parts'. Each failed on e5ac796 except the guards, whose
docstrings say so.

What they hold: a yes said last in a run-on the recogniser wrote without a full stop is a yes,
and one after a doubt, a condition or a question is not; a take-back ("forget it") said first is
the no, whatever its reason restates, unless it names the action's new figure, which changes the
read-back; a figure corrected in the same breath is the one read back; a terse follow-up ("fix?")
asks what to do; "how soon would somebody ring me" asks about the call back, it books none; a
bare word the router is unsure of takes its meaning from the bare thing beside it ("credit. the
downtime"); a month said after a bill is which bill; a wish begun again mid-sentence ("... i want
my phone number changed") is a need of its own; "can i have" asks for a plan, it does not say
which one the caller has; a learner's small talk is small talk, "i forget it" is no take-back and
"i want that someone call me" books a call back; the harvest labels no greeting.
"""

from __future__ import annotations

from benchmarks.calls import harvest
from callcenter.routing.frames import is_small_talk
from callcenter.routing.segment import is_greeting
from callcenter.store import Store
from domains.billing.ledger import Ledger


def said(turn) -> str:
    return " ".join(turn.replies)


async def test_a_yes_said_last_after_taking_the_answer_in_is_a_yes(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("that forty nine dollar one came out twice, put it back please")
    turn = await call.send("right ok i've got the statement here and yes it's there twice so yeah do it")
    assert "I've refunded $49.00" in said(turn), said(turn)
    assert [r.amount_cents for r in Ledger(store).list_refunds("C1001")] == [4900]


async def test_a_yes_after_a_condition_or_a_doubt_is_no_yes(open_call, store: Store) -> None:
    """Guard: passed before too. A condition, a doubt, or a statement asked with a tag ("..., yeah")
    before the closing yes leaves it none."""
    call = await open_call("C1001")
    await call.send("that forty nine dollar one came out twice, put it back please")
    turn = await call.send("if it shows up by friday then go ahead")
    assert Ledger(store).list_refunds("C1001") == [], said(turn)
    turn = await call.send("i'm not sure it was twice go ahead")
    assert Ledger(store).list_refunds("C1001") == [], said(turn)
    turn = await call.send("and that'll be back on my card by monday yeah")
    assert Ledger(store).list_refunds("C1001") == [], said(turn)


async def test_a_question_said_after_do_it_is_no_yes(open_call, store: Store) -> None:
    """Guard: passed before; an earlier form of the run-on yes failed it (an unsafe refund in
    blind38, the one call read there). "do it" opens a question about doing it, not a yes."""
    call = await open_call("C1001")
    await call.send("that forty nine dollar one came out twice, put it back please")
    turn = await call.send("so after you do it will it show up on my statement")
    assert Ledger(store).list_refunds("C1001") == [], said(turn)
    turn = await call.send("once you do it can it be undone")
    assert Ledger(store).list_refunds("C1001") == [] and "Shall I go ahead" in said(turn), said(turn)


async def test_a_plan_yes_with_the_generic_word_for_the_action_is_a_yes(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("put me on the pro plan")
    turn = await call.send("sure make the change")
    assert "now on the Pro plan" in said(turn), said(turn)
    assert Ledger(store).current_plan("C1001").id == "pro"


async def test_forget_it_with_a_reason_that_restates_the_need_stops_it(open_call, store: Store) -> None:
    call = await open_call("C1004")
    await call.send("please close down my account")
    turn = await call.send("forget it. we stay with you then")
    assert "nothing was changed" in said(turn) or "haven't changed" in said(turn), said(turn)
    assert store.list_work() == []


async def test_forget_it_with_the_need_found_solved_stops_it(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("my two factor codes stopped coming can you reset it")
    turn = await call.send("forget it i've found the old phone now")
    assert "nothing was changed" in said(turn), said(turn)
    turn = await call.send("yes")
    assert store.list_work() == [], said(turn)


async def test_a_take_back_that_names_a_new_figure_changes_the_refund(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("i was billed the forty nine twice")
    turn = await call.send("hmm you know what just send back thirty of it for now")
    assert "a refund of $30.00" in said(turn), said(turn)
    turn = await call.send("yes")
    assert [r.amount_cents for r in Ledger(store).list_refunds("C1001")] == [3000], said(turn)


async def test_a_figure_corrected_in_the_same_breath_is_the_one_read_back(open_call) -> None:
    call = await open_call("C1001")
    turn = await call.send("you double charged me so give me fifteen back, no sorry, make that eighteen dollars back")
    assert "a refund of $18.00" in said(turn), said(turn)


async def test_a_terse_follow_up_asks_what_to_do(open_call) -> None:
    call = await open_call("C1001")
    await call.send("too many requests errors")
    turn = await call.send("solution?")
    assert "backoff" in said(turn), said(turn)


async def test_how_soon_someone_rings_about_the_unlock_books_nothing(open_call, store: Store) -> None:
    call = await open_call("C1004")
    await call.send("the dashboard won't let me in it says locked")
    turn = await call.send("and how soon would someone ring me about that")
    assert "Shall I go ahead" in said(turn) and "reference is T-" not in said(turn), said(turn)
    assert store.list_tickets("C1004", kind="callback") == []


async def test_a_bare_word_takes_its_meaning_from_the_thing_beside_it(open_call) -> None:
    call = await open_call("C1003")
    turn = await call.send("credit. the downtime")
    assert "$199.80" in said(turn), said(turn)


async def test_a_month_said_after_the_bill_is_which_bill(open_call) -> None:
    call = await open_call("C1002")
    turn = await call.send("invoice. two months ago")
    assert "Just so I get this right" not in said(turn) and "INV-1002-" in said(turn), said(turn)


async def test_a_wish_begun_again_mid_sentence_is_a_need_of_its_own(open_call) -> None:
    call = await open_call("C1002")
    turn = await call.send("ok so my authenticator is gone i need my phone number updated as well and what do we owe")
    replies = said(turn)
    assert "balance" in replies and "contact details" in replies and "two-factor" in replies, replies


async def test_can_i_have_a_cheaper_plan_is_the_next_plan_down(open_call) -> None:
    call = await open_call("C1002")
    turn = await call.send("could i have a cheaper plan please")
    assert "To confirm: switch account C1002 to the Starter plan" in said(turn), said(turn)


async def test_a_learners_small_talk_is_small_talk(open_call) -> None:
    call = await open_call("C1005")
    turn = await call.send("good morning. how is going your week")
    assert "incident" not in said(turn) and "Just so I get this right" not in said(turn), said(turn)


def test_the_harvest_labels_no_greeting_with_a_need() -> None:
    """The call data's first asks: a greeting or small talk before the need is passed over."""
    rows = harvest.harvest([harvest.HERE / f"callers{n}.yaml" for n in harvest.HARVESTED])
    assert rows and not [text for text, _ in rows if is_greeting(text) or is_small_talk(text)]


async def test_i_forget_it_is_a_learners_past_not_a_take_back(open_call) -> None:
    call = await open_call("C1005")
    turn = await call.send("two questions. how much is my bill. and the password of the dashboard i forget it")
    assert "balance" in said(turn) and "nothing was changed" not in said(turn), said(turn)


async def test_a_learner_asking_that_someone_calls_books_a_call_back(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("we need that a colleague of you phone us")
    assert "call back" in said(turn), said(turn)
    assert [t.kind for t in store.list_tickets("C1003")] == ["callback"]
