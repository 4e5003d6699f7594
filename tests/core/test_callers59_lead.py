"""Turns found by the session-35 dev work (callers59 and callers60, issue 25), in other words
than the parts': a status code said again and again is that code; money back asked after with
"whatever happened to"; where the key goes in a request; the page limit told is the paging guide;
the amount taken "the month before last" is that month's invoice, and "the one prior" the one
before; a comment on what was said ("which is great") asks nothing; "on the hook for" is the
balance; "scrap that" stops a read-back; an old key asked back on is the key's diagnosis; "bill
me less" moves down a plan; "someone then" after the language notice is booked; a human asked for
while a value is pending is booked; "where does our account stand" is the balance; a request put
off and a goodbye end the call; a bare counted list with pauses after the counts, and what the
caller will ask last, told first, asks nothing; where an outage stands; a subject listed apart
from the next clause; sign-in alerts not the caller's, and "where were they coming from" after
them; when they'll "ring" after a call back; billed double is the duplicate; "has that really
gone through" after a refund; the monthly fee too steep is a move down; "sí, adelante" at a
read-back; "our account." said apart from "we're cancelling" is the closure; a cancel whose reason
says the trouble is solved ("i found my recovery codes") stops the request; "what you guys charged
us" is the invoices. Each failed on 91b8633.
"""

from __future__ import annotations

from callcenter.store import Store
from domains.billing.ledger import Ledger


def said(turn) -> str:
    return " ".join(turn.replies)


def reached(turn) -> set[str]:
    return {h.to_agent for h in turn.hops}


async def test_a_status_code_said_again_and_again_is_that_code(open_call) -> None:
    call = await open_call("C1002")
    turn = await call.send("it's just four oh one, four oh one, four oh one the whole afternoon, i'm losing my mind")
    assert "401" in said(turn) and "Just so I get this right" not in said(turn), said(turn)


async def test_whatever_happened_to_the_refund_asks_after_it(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("whatever happened to that money back thing, did it ever land")
    assert "billing.refund_status" in reached(turn) and "billing.refund" not in reached(turn), reached(turn)
    assert Ledger(store).list_refunds("C1001") == []


async def test_where_the_key_goes_in_a_request_is_the_authentication_guide(open_call) -> None:
    call = await open_call("C1001")
    turn = await call.send("quick one, where should my api key go when i hit your endpoints, the header or the query string")
    assert "Authorization" in said(turn), said(turn)


async def test_the_page_limit_told_is_the_paging_guide(open_call) -> None:
    call = await open_call("C1001")
    turn = await call.send("your endpoint only returns the first hundred records and i need all of them")
    assert "cursor" in said(turn) and "429" not in said(turn), said(turn)


async def test_what_was_taken_the_month_before_last_is_that_months_invoice(open_call) -> None:
    call = await open_call("C1003")
    turn = await call.send("how much did you take from me the month before last")
    assert "INV-1003-2" in said(turn) and "To confirm" not in said(turn), said(turn)
    turn = await call.send("and the one prior")
    assert "INV-1003-3" in said(turn), said(turn)


async def test_a_comment_on_what_was_said_asks_for_nothing(open_call) -> None:
    call = await open_call("C1001")
    turn = await call.send("you took my money twice which is great and the api keeps rate limiting us which is also great, sort both of those out please")
    assert {"billing.refund", "technical.api_errors"} <= reached(turn), reached(turn)


async def test_on_the_hook_for_is_the_balance(open_call) -> None:
    call = await open_call("C1004")
    turn = await call.send("what am i on the hook for right now, and also is the api down")
    assert {"billing.balance", "technical.service_status"} <= reached(turn), reached(turn)
    assert "$49.00" in said(turn) and "Just so I get this right" not in said(turn), said(turn)


async def test_scrap_that_stops_a_read_back(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("refund the second charge please")
    turn = await call.send("hmm scrap that, my bank will handle it")
    assert "stopped" in said(turn), said(turn)
    assert Ledger(store).list_refunds("C1001") == []


async def test_an_old_key_asked_back_on_is_the_keys_diagnosis(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("could you flip our previous key back on")
    assert "technical.api_errors" in reached(turn) and "billing.plan_change" not in reached(turn), reached(turn)
    assert Ledger(store).current_plan("C1002").id == "pro"


async def test_bill_me_less_moves_down_a_plan(open_call) -> None:
    call = await open_call("C1002")
    turn = await call.send("could you bill us less from now on")
    assert "Starter" in said(turn) and "To confirm" in said(turn), said(turn)


async def test_a_person_then_after_the_language_notice_is_booked(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("je voudrais parler à quelqu'un s'il vous plaît")
    turn = await call.send("okay, someone then please")
    assert "call back" in said(turn), said(turn)
    assert any(t.kind == "callback" for t in store.list_tickets("C1003"))


async def test_a_real_person_asked_for_while_a_value_is_pending_is_booked(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("i want to change my email")
    turn = await call.send("this is a pain, can i please get a human")
    assert "call back" in said(turn), said(turn)
    assert any(t.kind == "callback" for t in store.list_tickets("C1001"))


async def test_where_we_stand_is_the_balance(open_call) -> None:
    call = await open_call("C1004")
    turn = await call.send("where does our account stand right now")
    assert "$49.00" in said(turn) and "overdue" in said(turn), said(turn)


async def test_a_request_put_off_with_a_goodbye_ends_the_call(open_call) -> None:
    call = await open_call("C1001")
    await call.send("i need to change my email")
    turn = await call.send("eh i'll do it another time, bye")
    assert "goodbye" in said(turn).lower(), said(turn)


async def test_a_counted_list_with_pauses_after_the_counts(open_call) -> None:
    call = await open_call("C1001")
    turn = await call.send("one, is the api having problems, two, um, what do i owe you")
    assert {"technical.service_status", "billing.balance"} <= reached(turn), reached(turn)
    assert "two-factor" not in said(turn).lower(), said(turn)


async def test_what_the_caller_will_ask_last_told_first_asks_nothing(open_call) -> None:
    call = await open_call("C1001")
    turn = await call.send("ok i'll save the big one for last. one, is the api down, two, what's my balance, and three and this is the main one, lock my account")
    assert {"technical.service_status", "billing.balance", "account.security"} <= reached(turn), reached(turn)
    assert "account.two_factor_reset" not in reached(turn), reached(turn)
    turn = await call.send("yes")
    assert "locked your account" in said(turn) and "the other thing you said" not in said(turn), said(turn)


async def test_where_an_incident_stands_is_the_board(open_call) -> None:
    call = await open_call("C1003")
    turn = await call.send("hey how's that outage going")
    assert "technical.service_status" in reached(turn), reached(turn)


async def test_a_subject_listed_apart_from_the_next_clause_is_its_own_need(open_call) -> None:
    call = await open_call("C1003")
    turn = await call.send("i wanted to ask about the incident, and also my key, how do i make a new one")
    assert {"technical.service_status", "technical.integration_help"} <= reached(turn), reached(turn)


async def test_sign_in_alerts_not_the_callers_are_the_security_review(open_call) -> None:
    call = await open_call("C1004")
    turn = await call.send("i keep getting emails about failed sign in attempts and none of them were me. where were they coming from")
    assert reached(turn) == {"account", "account.security"}, reached(turn)
    assert "(RO)" in said(turn), said(turn)


async def test_when_they_will_ring_after_a_call_back_is_the_call_back(open_call) -> None:
    call = await open_call("C1004")
    await call.send("get a person to call me and what's my balance")
    turn = await call.send("when will they ring me")
    assert "one business day" in said(turn), said(turn)


async def test_billed_double_is_the_duplicate_refund(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("we got billed double for the pro plan, can we have one of them back")
    assert "$249.00" in said(turn) and "To confirm" in said(turn), said(turn)
    assert "billing.plan_change" not in reached(turn), reached(turn)


async def test_did_that_really_go_through_after_a_refund(open_call) -> None:
    call = await open_call("C1001")
    await call.send("refund the duplicate")
    await call.send("yes")
    turn = await call.send("hang on, has that really gone through")
    assert "done" in said(turn) and "$49.00" in said(turn), said(turn)


async def test_a_monthly_bill_too_high_is_a_move_down(open_call) -> None:
    call = await open_call("C1003")
    turn = await call.send("our monthly fee is just too steep, can we go to something that costs less")
    assert "Pro" in said(turn) and "To confirm" in said(turn), said(turn)
    assert "billing.balance" not in reached(turn), reached(turn)


async def test_si_adelante_at_a_read_back_is_a_yes(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("refund the duplicate charge")
    turn = await call.send("sí, adelante")
    assert "refunded" in said(turn), said(turn)
    assert [r.amount_cents for r in Ledger(store).list_refunds("C1001")] == [4900]


async def test_the_account_named_in_a_fragment_of_its_own_is_the_closure(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("we're cancelling. our account. shut it")
    assert "close account C1003" in said(turn) and "Just so I get this right" not in said(turn), said(turn)
    assert Ledger(store).current_plan("C1003").id == "enterprise"


async def test_a_cancel_whose_reason_says_the_trouble_is_solved_stops_the_request(open_call) -> None:
    call = await open_call("C1005")
    await call.send("i need my two factor reset, my phone is gone")
    turn = await call.send("scratch that, i found my recovery codes")
    assert "stopped" in said(turn) and "go ahead" not in said(turn), said(turn)
    turn = await call.send("yes")
    assert "two_factor_reset-C1005" not in said(turn), said(turn)


async def test_what_was_taken_asked_plainly_is_the_invoices(open_call) -> None:
    call = await open_call("C1004")
    turn = await call.send("hi, i just want to understand what you guys charged us")
    assert "INV-1004-1" in said(turn) and "refund" not in said(turn).lower(), said(turn)
