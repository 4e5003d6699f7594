"""A yes that names what it agrees to is a yes; a yes that names something else is not (issue 25).

Callers rarely answer a read-back with a bare "yes": they say "yeah put the refund through",
"yes bump me up to enterprise", "ok then yes, lock it". Before, any word outside a closed
list turned the yes into "Sorry, I need a yes or a no" (or into a new need), up to the end
of the call. A yes is taken when every word after it is a word of the read-back, a word that
only says "do it", or words the router reads as this very action; a changed value is a
changed action, read back again, and a hedge ("but", "only", "actually") is never a yes.
Callers' words, new phrasings (not the dev suite's).
"""

from __future__ import annotations

from callcenter.store import Store
from domains.billing.ledger import Ledger


def said(turn) -> str:
    return " ".join(turn.replies)


async def test_a_yes_that_names_the_refund_pays_it(open_call, store: Store) -> None:
    call = await open_call("C1001")
    readback = said(await call.send("so theres two of the same charge on my statement this month"))
    assert "To confirm: a refund of $49.00" in readback
    done = await call.send("mhm yes put the refund through")
    assert [(r.specialist, r.status) for r in done.results] == [("refund", "done")]
    assert [r.amount_cents for r in Ledger(store).list_refunds()] == [4900]


async def test_a_yes_in_the_callers_own_words_for_the_action_switches_the_plan(open_call, store: Store) -> None:
    call = await open_call("C1002")
    readback = said(await call.send("we need more seats so enterprise please"))
    assert "Enterprise plan" in readback
    done = await call.send("uh yeah bump us up to enterprise then")
    assert [(r.specialist, r.status) for r in done.results] == [("plan_change", "done")]
    assert Ledger(store).current_plan("C1002").id == "enterprise"


async def test_a_yes_after_a_question_and_thanks_is_still_a_yes(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("please close my account, we found another vendor")
    await call.send("is it shut already or not")
    done = await call.send("ok thanks. then yes, close it please")
    assert [(r.specialist, r.status) for r in done.results] == [("close_account", "needs_approval")]
    assert [w.kind for w in store.list_work()] == ["close_account"]


async def test_a_yes_with_another_value_is_read_back_again_not_taken(open_call, store: Store) -> None:
    call = await open_call("C1001")
    readback = said(await call.send("can you move me to the pro plan"))
    assert "Pro plan" in readback
    turn = await call.send("yes, enterprise")
    assert Ledger(store).current_plan("C1001").id == "starter"  # neither plan: the action changed
    assert "Enterprise plan" in said(turn) and "yes or no" in said(turn).lower()


async def test_a_hedged_yes_moves_no_money(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("i got billed twice for april")
    for text in ("yes but only refund half of it", "yeah actually not the refund"):
        turn = await call.send(text)
        assert turn.results == [] or all(r.status != "done" for r in turn.results)
    assert Ledger(store).list_refunds() == []


async def test_a_yes_that_names_the_next_need_does_not_confirm_this_one(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("my card was charged twice and also my authenticator app got wiped")
    turn = await call.send("yes reset the two step codes")
    assert Ledger(store).list_refunds() == []  # the refund's read-back was not the one agreed to
    assert "refund" in said(turn).lower()


async def test_a_question_about_another_department_during_a_read_back_is_answered(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("change the phone number on my account to three one two five five five zero one nine nine")
    turn = await call.send("oh and is your api still broken today")
    reply = said(turn).lower()
    assert "incident" in reply and "back to where we were" in reply and "phone number" in reply
    assert "not yet" not in reply


async def test_cant_you_after_a_sigh_is_a_question_about_the_approval(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("the two forty nine came out twice i want one back")
    turn = await call.send("ugh cant you just do it without the supervisor")
    assert "can't skip" in said(turn) and store.list_work() == []


async def test_a_price_question_at_the_plan_question_is_answered(open_call, store: Store) -> None:
    call = await open_call("C1001")
    asked = await call.send("i think i want a different plan")
    assert said(asked).endswith("?")
    turn = await call.send("hmm how much is the enterprise one a month")
    assert "$999" in said(turn) and said(asked) in said(turn)


async def test_a_sign_in_report_is_reviewed_and_a_lock_only_read_back_when_asked(open_call, store: Store) -> None:
    call = await open_call("C1005")
    turn = await call.send("i got an email about someone logging in from overseas can you have a look")
    reply = said(turn)
    assert "sign-in attempts" in reply and "To confirm" not in reply and "lock" in reply.lower()
    asked = await call.send("yes please lock the account")
    assert "To confirm: lock account C1005" in said(asked)
    done = await call.send("yes")
    assert [(r.specialist, r.status) for r in done.results] == [("security", "done")]
    assert store.get_customer("C1005").locked
