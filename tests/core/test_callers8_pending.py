"""A pending question admits what callers say beside their answer (issue 25, found by the
callers8 dev part; phrasings not in any suite): a person asked for during a read-back, a yes
with a question, another choice said bare, a question about the read-back in words of its
own, a pause with a question or the answer after it, a retraction with nothing pending.
"""

from __future__ import annotations

from callcenter.store import Store


def said(turn) -> str:
    return " ".join(turn.replies)


async def test_a_person_asked_for_during_a_read_back_is_booked(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("cancel the whole account please, we're moving on")
    turn = await call.send("i give up, get me a human please")
    assert "call back" in said(turn), said(turn)
    assert [t.kind for t in store.list_tickets(customer_id="C1003")] == ["callback"]
    assert store.list_work(customer_id="C1003") == []


async def test_a_person_asked_for_before_identity_is_booked_once_verified(open_call, store: Store) -> None:
    call = await open_call()
    turn = await call.send("representative. representative please.")
    assert "verify" in said(turn), said(turn)
    turn = await call.send("ok its c one zero zero two, zip one zero zero zero one")
    assert "call back" in said(turn), said(turn)
    assert [t.kind for t in store.list_tickets(customer_id="C1002")] == ["callback"]


async def test_a_yes_with_a_question_is_a_yes_and_the_question_is_answered(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("that double charge of two forty nine, i want it back")
    turn = await call.send("yeah do it. how long before somebody signs off on it")
    assert [w.kind for w in store.list_work(customer_id="C1002")] == ["refund"]
    assert "within an hour" in said(turn) and "Shall I" not in said(turn), said(turn)


async def test_ok_with_a_question_is_no_yes(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("i got billed twice, refund the extra one")
    turn = await call.send("ok, and when would i see the money")
    assert "Shall I go ahead" in said(turn), said(turn)
    assert "I've refunded" not in said(turn), said(turn)


async def test_the_other_plan_said_bare_is_read_back(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("we'd like to pay less each month")
    turn = await call.send("the starter one")
    assert "To confirm" in said(turn) and "Starter plan" in said(turn), said(turn)


async def test_did_it_go_through_after_nothing_was_done(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("put me on the pro plan")
    turn = await call.send("did that go through ok?")
    assert "Nothing has been changed" in said(turn) and "Goodbye" not in said(turn), said(turn)


async def test_taking_back_what_was_already_done(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("refund the duplicate forty nine dollar charge")
    await call.send("yes")
    turn = await call.send("no hang on, actually don't")
    assert "already done" in said(turn), said(turn)


async def test_taking_back_with_nothing_done(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("is the api ok right now")
    turn = await call.send("oh wait, actually don't")
    assert "nothing was changed" in said(turn) and "Goodbye" not in said(turn), said(turn)


async def test_reluctant_yeses(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("switch me to starter")
    turn = await call.send("yeah i suppose so")
    assert "you're now on the Starter plan" in said(turn), said(turn)


async def test_questions_about_a_read_back_in_words_of_their_own(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("lock my account someone is using it")
    turn = await call.send("am i still going to be charged during the lock")
    assert "billing carries on" in said(turn), said(turn)
    call = await open_call("C1004")
    await call.send("i want to close the account")
    turn = await call.send("could it be reversed afterwards?")
    assert "withdraw" in said(turn), said(turn)
    call = await open_call("C1003")
    await call.send("reset the two factor on our account, the phone is gone")
    turn = await call.send("who reviews it and when")
    assert "senior colleague" in said(turn), said(turn)
    call = await open_call("C1001")
    await call.send("change my phone number to four one five five five five nine nine nine nine")
    turn = await call.send("which number will you ring to check?")
    assert "number already on file" in said(turn), said(turn)


async def test_a_pause_then_a_question_is_answered(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("refund the duplicate please")
    turn = await call.send("one sec, is the service down right now?")
    assert "incident" in said(turn) and "back to where we were" in said(turn), said(turn)


async def test_a_pause_then_the_answer_verifies(open_call, store: Store) -> None:
    call = await open_call()
    await call.send("what's my balance")
    turn = await call.send("c one zero zero two... one moment... ok zip is one zero zero zero one")
    assert "balance" in said(turn).lower() and "take your time" not in said(turn).lower(), said(turn)


async def test_oh_before_a_zip_is_no_zero(open_call, store: Store) -> None:
    call = await open_call()
    await call.send("how much do i owe")
    await call.send("c one zero zero three")
    turn = await call.send("oh, six oh six oh one")
    assert "balance" in said(turn).lower(), said(turn)


async def test_an_identity_read_out_slowly_with_its_announcement(open_call, store: Store) -> None:
    call = await open_call()
    turn = await call.send("hello. my account number, i have it here somewhere, c, one, zero, zero, four, and my zip is three oh three oh one")
    assert "you're verified" in said(turn), said(turn)
    assert store.list_work(customer_id="C1004") == [] and store.list_tickets(customer_id="C1004") == []


async def test_another_plan_named_to_an_offer_is_read_back(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("would the pro plan be cheaper for us")
    turn = await call.send("the starter one is enough tbh")
    assert "To confirm" in said(turn) and "Starter plan" in said(turn), said(turn)


async def test_an_eta_on_the_fix_follows_the_last_answer(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("is anything wrong with the api today")
    turn = await call.send("right, any eta on the fix?")
    assert "verify" not in said(turn) and "ticket" not in said(turn).lower(), said(turn)


async def test_why_the_zip_is_asked_is_answered(open_call, store: Store) -> None:
    call = await open_call()
    await call.send("i need to change my plan")
    turn = await call.send("hm how come you need my zip code")
    assert "account holder" in said(turn) and "ZIP" in said(turn), said(turn)
