"""Turns found by the callers53 and callers54 dev parts (issue 25), in other words than the
parts': a plan named by a figure of it (its limit a minute, its price, "more than" a limit) is
that plan, read back before anything changes, and a figure no plan has gets the price list, not
a guess; a pick said right after the price list ("the six thousand one") is that plan; "when
does it renew" is the next bill; the latest bill we got is the newest invoice; a month's invoice
asked beside a plan question is answered too; "bring that figure down" after the price said is
a plan down, no contact details change; "how's the api holding up" is the status board; a case
"we already raised" is asked after; "what's the workaround" after the diagnosis is what to do;
trouble told then "compensate us" is the outage credit; "the email on file is ..." with a ZIP
verifies and changes nothing; "chi è entrato nel mio account?" is the sign-in review. Each
failed on fcaaa0e.
"""

from __future__ import annotations

from callcenter.store import Store
from domains.billing.ledger import Ledger


def said(turn) -> str:
    return " ".join(turn.replies)


def reached(turn) -> set[str]:
    return {h.to_agent for h in turn.hops}


async def test_a_plan_named_by_its_limit_is_read_back_then_done(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("could you stick us on the one that does six thousand requests a minute")
    assert "to confirm" in said(turn).lower() and "Enterprise plan at $999.00" in said(turn), said(turn)
    assert Ledger(store).current_plan("C1001").id == "starter"  # nothing before the yes
    await call.send("yep go for it")
    assert Ledger(store).current_plan("C1001").id == "enterprise"


async def test_a_plan_named_by_its_price_is_that_plan(open_call, store: Store) -> None:
    call = await open_call("C1005")
    turn = await call.send("honestly just move me onto the forty nine dollar one")
    assert "Starter plan at $49.00" in said(turn) and "just so i get this right" not in said(turn).lower(), said(turn)
    assert Ledger(store).current_plan("C1005").id == "pro"


async def test_more_than_a_limit_is_the_cheapest_plan_past_it(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("we need a plan that allows more than six hundred a minute, can you switch us")
    assert "Enterprise plan at $999.00" in said(turn), said(turn)


async def test_a_figure_no_plan_has_gets_the_price_list_and_no_read_back(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("put me on the plan with twenty five thousand calls")
    reply = said(turn)
    assert "600 API requests a minute" in reply and "to confirm" not in reply.lower(), reply
    assert Ledger(store).current_plan("C1001").id == "starter"


async def test_a_pick_right_after_the_price_list_is_that_plan(open_call, store: Store) -> None:
    call = await open_call("C1004")
    listed = await call.send("which plans do you offer")
    assert "6,000 API requests a minute" in said(listed), said(listed)
    turn = await call.send("alright the six thousand one then")
    assert "Enterprise plan at $999.00" in said(turn) and "to confirm" in said(turn).lower(), said(turn)


async def test_when_it_renews_is_the_next_bill(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("uh when's our subscription up for renewal")
    assert "next bill" in said(turn) and "just so i get this right" not in said(turn).lower(), said(turn)
    assert "billing.balance" in reached(turn)


async def test_the_latest_bill_we_got_is_the_newest_invoice(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("can you pull up the latest bill you sent us")
    assert "INV-1003-1" in said(turn), said(turn)


async def test_a_months_invoice_beside_a_plan_question_is_answered_too(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("is pro a lot dearer than what we have, oh and what became of the earlier invoice, the one from two months ago")
    reply = said(turn)
    assert "$249.00" in reply and "INV-1001-2" in reply, reply


async def test_bring_that_figure_down_is_a_plan_down_not_a_contact_change(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("so we pay two forty nine a month on pro and i really need to bring that figure down")
    reply = said(turn)
    assert "Starter plan at $49.00" in reply and "contact details" not in reply, reply


async def test_how_the_api_is_holding_up_is_the_status_board(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("hows the api holding up today")
    assert "ongoing incident" in said(turn) and "technical.service_status" in reached(turn), said(turn)


async def test_a_case_already_raised_is_asked_after_not_opened_again(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("i need to chase the case we already raised with engineering, who handles that")
    assert "technical.ticket_status" in reached(turn) and "just so i get this right" not in said(turn).lower(), said(turn)
    assert [t for t in store.list_tickets("C1002") if t.kind != "callback"] == []


async def test_the_workaround_after_the_diagnosis_is_what_to_do(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("we keep getting four twenty nines")
    turn = await call.send("ok so whats the workaround")
    assert "backoff" in said(turn) and "ticket" not in said(turn), said(turn)


async def test_trouble_told_then_compensate_us_is_the_outage_credit(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("our integration died in the outage this morning so please compensate us")
    assert "$199.80" in said(turn) and "to confirm" in said(turn).lower(), said(turn)


async def test_the_email_on_file_and_zip_verify_and_change_nothing(open_call, store: Store) -> None:
    call = await open_call()
    turn = await call.send("hello the email on file is grace at example dot com, zip is one zero zero zero one")
    assert "you're verified" in said(turn) and "nothing needs changing" not in said(turn), said(turn)
    assert reached(turn) == {"identity"}


async def test_who_got_into_my_account_in_italian_is_the_sign_in_review(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("salve, chi è entrato nel mio account?")
    assert "sign-in attempts" in said(turn) and "account.security" in reached(turn), said(turn)


async def test_a_follow_up_and_a_new_need_in_one_breath_are_both_answered(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("my app keeps getting told too many requests")
    turn = await call.send("ok so what should we do about it, and what does enterprise cost a month")
    reply = said(turn)
    assert "backoff" in reply and "$999.00" in reply, reply
