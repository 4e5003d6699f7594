"""Turns found by the session-36 dev work on long calls whose needs unfold (callers62), in other
words than the part's: asking whether this is the support line, or a person or a machine, is
small talk (no ticket opened); whether a refund was ever had asks after refunds (no read-back);
where to pay, what to do meanwhile, whereabouts, why it even happened and whether a filed request
has been closed are follow-ups of the last answer; retries, scopes and the SDKs' environment
variable are guides; "couldn't you just switch it back on" asks to undo; someone else getting in
is security's; "i'd also like someone to phone me" books a call back and asks nothing more; a
ticket's status says when engineers answer; "i'll do that later" stops a request without ending
the call; status codes said in the plural ("four oh threes") are that code; "wanna raise a
ticket" asks for one. Each failed on 2412d59.
"""

from __future__ import annotations

from callcenter.store import Store
from domains.billing.ledger import Ledger


def said(turn) -> str:
    return " ".join(turn.replies)


def reached(turn) -> set[str]:
    return {h.to_agent for h in turn.hops}


async def test_asking_if_this_is_the_support_number_opens_no_ticket(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("hi, am i through to tech support")
    assert "technical.escalation" not in reached(turn) and "ticket" not in said(turn).lower(), said(turn)
    assert store.list_tickets("C1003") == []


async def test_a_person_or_a_machine_after_hello_is_answered(open_call) -> None:
    call = await open_call("C1003")
    turn = await call.send("hello! are you a human or a machine")
    assert "virtual assistant" in said(turn), said(turn)


async def test_whether_a_refund_was_ever_had_reads_back_nothing(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("have we had a refund from you before")
    assert "To confirm" not in said(turn) and "billing.refund_status" in reached(turn), said(turn)
    assert Ledger(store).list_refunds("C1001") == []


async def test_where_to_go_to_pay_follows_the_overdue_invoice(open_call) -> None:
    call = await open_call("C1004")
    await call.send("what were my last few invoices")
    turn = await call.send("right, so where do i go to pay that")
    assert "dashboard" in said(turn), said(turn)


async def test_what_to_do_meanwhile_follows_the_outage(open_call) -> None:
    call = await open_call("C1003")
    await call.send("is there an outage on your side right now")
    turn = await call.send("so what do we do meanwhile")
    assert "backoff" in said(turn) and "balance" not in said(turn), said(turn)


async def test_whereabouts_follows_the_sign_ins(open_call) -> None:
    call = await open_call("C1004")
    await call.send("has anybody weird been logging into my account")
    turn = await call.send("whereabouts though")
    assert "Romania" in said(turn), said(turn)


async def test_retries_asked_plainly_is_the_retries_guide(open_call) -> None:
    call = await open_call("C1001")
    turn = await call.send("can you explain how retrying works with the api")
    assert "Retry-After" in said(turn) and "Is your question about" not in said(turn), said(turn)


async def test_the_sdks_env_var_is_the_sdk_guide(open_call) -> None:
    call = await open_call("C1001")
    turn = await call.send("what env variable should hold the key")
    assert "CALLCENTER_API_KEY" in said(turn), said(turn)


async def test_couldnt_you_switch_the_old_key_back_on_asks_to_undo(open_call) -> None:
    call = await open_call("C1002")
    await call.send("every request we make comes back four oh one")
    turn = await call.send("couldn't you just switch our old key back on")
    assert "can't turn" in said(turn), said(turn)


async def test_someone_else_getting_in_is_security(open_call) -> None:
    call = await open_call("C1001")
    turn = await call.send("has anyone else managed to get into my account")
    assert "account.security" in reached(turn) and "Just so I get this right" not in said(turn), said(turn)


async def test_id_also_like_someone_to_phone_me_books_a_call_back_and_nothing_more(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("our calls keep getting four oh ones")
    turn = await call.send("i'd also like someone to phone me about all this")
    assert any(t.kind == "callback" for t in store.list_tickets("C1002")), said(turn)
    assert "Just so I get this right" not in said(turn), said(turn)


async def test_a_tickets_status_says_when_engineers_answer(open_call) -> None:
    call = await open_call("C1003")
    await call.send("please open a ticket with engineering about our failing webhooks")
    await call.send("what's my balance")
    turn = await call.send("and when am i going to hear about that ticket")
    assert "24 hours" in said(turn), said(turn)


async def test_why_it_even_happened_follows_the_refund(open_call) -> None:
    call = await open_call("C1001")
    await call.send("you took forty nine dollars twice on the same day")
    await call.send("yes please")
    turn = await call.send("how did that even happen")
    assert "twice" in said(turn) and "ticket" not in said(turn), said(turn)


async def test_whether_a_filed_closure_is_closed_is_not_yet(open_call) -> None:
    call = await open_call("C1005")
    await call.send("close my account for good please")
    await call.send("yes")
    turn = await call.send("did you get all that, has it been closed")
    assert "Not yet" in said(turn), said(turn)


async def test_doing_it_later_stops_the_request_and_the_call_goes_on(open_call) -> None:
    call = await open_call("C1005")
    await call.send("i need to change my email address")
    turn = await call.send("oh forget it, i'll do that later")
    assert "goodbye" not in said(turn).lower() and "nothing was changed" in said(turn), said(turn)


async def test_status_codes_said_in_the_plural_are_that_code(open_call) -> None:
    call = await open_call("C1002")
    turn = await call.send("what do the four oh threes we keep hitting mean")
    assert "403" in said(turn) and "401" not in said(turn), said(turn)


async def test_wanna_raise_a_ticket_asks_for_one(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("we wanna raise a ticket about our key getting refused")
    assert any(t.kind == "engineering" for t in store.list_tickets("C1002")), said(turn)
