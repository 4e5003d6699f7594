"""Turns found by the callers43 and callers45 dev parts (issue 25: longer conversations), in
other words than the parts': money asked back "for that" after errors told is the credit; "when
does the next payment come out" after the balance is when it is due; a figure said back with a
tag question ("that's what it is every month, right") hears the answer again; "sì" is a yes;
"bloquee mi cuenta" asks for the lock; a "bye" said last without a comma ends the call ("actually
leave it for now bye" to a read-back); how long a reset link lasts, when the call back for a
change comes and which number it rings are that answer's; "how would i pay that off" after the balance is the dashboard; "where did you
say they came from" is the sign-ins'; "where would i go to make a new key" is no Go SDK; the
platform's retry policy is the webhooks guide; "no not now. and what do i owe" to an offer
declines it and answers the balance. Each failed on 9ac1b89, except the last two, which pass there
and guard "no worries": beside a clear yes it agrees, and "ok, no worries then" to a read-back
files nothing (it filed a refund request in blind18 on f827988, before it was tightened).
"""

from __future__ import annotations

from callcenter.store import Store


def said(turn) -> str:
    return " ".join(turn.replies)


def reached(turn) -> set[str]:
    return {h.to_agent for h in turn.hops}


async def test_anything_back_for_that_after_errors_is_the_credit(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("we've had nothing but five hundred errors since this morning, do we get anything back for it")
    assert "billing.refund" in reached(turn) and "199.80" in said(turn) and "to confirm" in said(turn).lower(), said(turn)


async def test_is_there_a_credit_for_that_is_the_credit(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("half our calls failed with five hundreds today, is there any sort of credit for that")
    assert "billing.refund" in reached(turn) and "credit" in said(turn).lower(), said(turn)


async def test_when_the_next_payment_comes_out_is_when_its_due(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("am i behind on anything with you")
    turn = await call.send("ok and when does the next payment come out")
    assert "due around" in said(turn).lower(), said(turn)


async def test_a_figure_with_a_tag_question_hears_the_answer_again(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("what's my next bill going to be")
    turn = await call.send("two forty nine. that's what it is every month, right")
    assert "249" in said(turn) and "just so i get this right" not in said(turn).lower(), said(turn)


async def test_si_with_a_grave_accent_is_a_yes(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("mi hanno addebitato due volte lo stesso mese")
    turn = await call.send("sì")
    assert "to confirm" in said(turn).lower() and "249" in said(turn), said(turn)


async def test_bloquee_mi_cuenta_asks_for_the_lock(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("por favor bloquee mi cuenta")
    assert "lock" in said(turn).lower() and "sorry, i didn't catch" not in said(turn).lower(), said(turn)
    assert not store.get_customer("C1001").locked  # read back, not done on the turn that asks


async def test_a_last_bye_without_a_comma_ends_the_call(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("we want the credit for today's outage")
    turn = await call.send("actually leave it for now bye")
    assert "goodbye" in said(turn).lower(), said(turn)


async def test_how_long_the_reset_link_lasts(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("i forgot my password can you send me a reset")
    turn = await call.send("and how long does that link stay good")
    assert "30 minutes" in said(turn), said(turn)


async def test_when_the_change_call_back_comes(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("please change my email to linus at fastmail dot com")
    await call.send("yes")
    turn = await call.send("ok how long till you ring me then")
    assert "business day" in said(turn) and "0105" in said(turn), said(turn)


async def test_which_number_the_person_rings(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("i want to talk to an actual person")
    turn = await call.send("and what number are they ringing")
    assert "0103" in said(turn), said(turn)


async def test_how_would_i_pay_that_off(open_call, store: Store) -> None:
    call = await open_call("C1004")
    await call.send("do i owe you guys anything")
    turn = await call.send("how would i pay that off")
    assert "dashboard" in said(turn).lower(), said(turn)


async def test_where_did_you_say_they_came_from(open_call, store: Store) -> None:
    call = await open_call("C1004")
    await call.send("has anyone weird been trying to get into my account")
    turn = await call.send("where did you say those logins came from")
    assert "romania" in said(turn).lower(), said(turn)


async def test_where_to_go_for_a_new_key_is_no_go_sdk(open_call, store: Store) -> None:
    call = await open_call("C1005")
    turn = await call.send("where do i go to get a new api key")
    assert "developers" in said(turn).lower() and "python" not in said(turn).lower(), said(turn)


async def test_the_retry_policy_is_the_webhooks_guide(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("what's your retry policy if our webhook endpoint fails")
    assert "24 hours" in said(turn), said(turn)


async def test_no_to_an_offer_then_the_balance(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("how much is the pro plan")
    turn = await call.send("nah not right now. and what do i owe")
    assert "billing.balance" in reached(turn) and "$0.00" in said(turn), said(turn)


async def test_ok_no_worries_then_to_a_read_back_files_nothing(open_call, store: Store) -> None:
    # "no worries" beside a clear yes agrees ("yep no worries do it"); without one it lets the
    # matter drop. Found by blind18 at this session's end: the refund request was filed.
    call = await open_call("C1002")
    await call.send("i think you charged me twice for pro this month")
    turn = await call.send("oh right, ok, no worries then. cheers, bye")
    assert "goodbye" in said(turn).lower() and "refund-ch-1002-d" not in said(turn).lower(), said(turn)
    assert store.list_work(customer_id="C1002") == []


async def test_yep_no_worries_do_it_is_a_yes(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("i think you charged me twice for pro this month")
    turn = await call.send("yep no worries, do it")
    assert "refund-ch-1002-d" in said(turn).lower(), said(turn)
    assert [w.kind for w in store.list_work(customer_id="C1002")] == ["refund"]
