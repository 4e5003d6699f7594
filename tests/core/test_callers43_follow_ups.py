"""Follow-ups in longer conversations (issue 25), found by the callers43 dev part and written
here in other words than the part's: a follow-up whose words beside its own question name no
other need asks of the last answer ("whats the reference then so i can pass it on to my
manager" after a ticket is no balance; "and how do i know when it's been done" after a
request is no ticket's status; "and you'll let us know when it's fixed?" after an outage asks
how long, not a ticket's status); a short question saying a word of the last answer asks on
of it ("is there a limit on how many records come back per page?" after the paging guide is no
outage; "and was that one paid or not" after the invoices is no refund); "the limit on pro would
be what" asks, it takes no offer up; how a key is sent and the header that says when to retry are
guides; "wait, go back" asks nothing about undoing. Each failed on 9ac1b89.
"""

from __future__ import annotations

from callcenter.store import Store
from tests.conftest import demo_invoice


def said(turn) -> str:
    return " ".join(turn.replies)


def reached(turn) -> set[str]:
    return {h.to_agent for h in turn.hops}


async def test_the_reference_for_the_boss_is_the_tickets(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("we keep getting five hundreds, please open a ticket with your engineers about it")
    turn = await call.send("whats the reference then so i can pass it on to my manager")
    assert "ticket t-" in said(turn).lower() and "balance" not in said(turn).lower(), said(turn)
    assert "billing.balance" not in reached(turn), reached(turn)


async def test_how_we_find_out_is_the_requests_next_step(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("my new phone wiped my authenticator app so i cant get past the two factor step")
    await call.send("yes go ahead")
    turn = await call.send("and how do i know when it's been done")
    assert "email" in said(turn).lower(), said(turn)
    assert "technical.ticket_status" not in reached(turn), reached(turn)


async def test_youll_let_us_know_when_its_fixed_asks_how_long(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("is your api having an outage at the moment")
    turn = await call.send("and you'll let us know when it's fixed?")
    assert "status page" in said(turn).lower(), said(turn)
    assert "technical.ticket_status" not in reached(turn), reached(turn)


async def test_what_happens_after_that_is_the_last_answers(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("someone got into my account from abroad, lock it please")
    await call.send("yes do it")
    turn = await call.send("right. and what happens next then")
    assert "balance" not in said(turn).lower() and "billing.balance" not in reached(turn), said(turn)


async def test_a_question_on_the_pages_asks_the_guide_again(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("how do i page through all the orders with your api")
    turn = await call.send("is there a limit on how many records come back per page?")
    assert "100" in said(turn), said(turn)
    assert "technical.service_status" not in reached(turn), reached(turn)


async def test_was_that_one_paid_asks_the_invoices_again(open_call, store: Store) -> None:
    named = demo_invoice(store, "C1005", 2)[1].split()[0].lower()
    call = await open_call("C1005")
    await call.send(f"what did you bill me in {named}")
    turn = await call.send("and was that one paid or not")
    assert "paid" in said(turn).lower(), said(turn)
    assert "billing.refund_status" not in reached(turn), reached(turn)


async def test_webhooks_those_fine_asks_the_board_again(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("is anything up on your status page right now")
    turn = await call.send("and the webhooks, those fine at least")
    assert "webhook" in said(turn).lower() and "just so i get this right" not in said(turn).lower(), said(turn)


async def test_the_limit_on_a_plan_said_last_asks(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("how much cheaper would starter be than what we pay now, just curious")
    turn = await call.send("and the requests per minute on starter would be what")
    assert "to confirm" not in said(turn).lower() and "60" in said(turn), said(turn)


async def test_where_the_key_goes_is_the_auth_guide(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("how do we authenticate against your api")
    turn = await call.send("ok and do we pass the token in the query string or a header")
    assert "authorization header" in said(turn).lower(), said(turn)


async def test_the_retry_header_is_a_guide(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("we keep hitting your rate limit, what's the limit on our plan")
    turn = await call.send("is there a header saying how long to wait before we retry")
    assert "retry-after" in said(turn).lower(), said(turn)


async def test_wait_go_back_asks_nothing_of_undoing(open_call, store: Store) -> None:
    call = await open_call("C1004")
    await call.send("i cant get into my account and how much do i owe")
    turn = await call.send("hold on, go back, what's the unlock thing again")
    assert "can't be undone" not in said(turn).lower() and "keep it locked" not in said(turn).lower(), said(turn)
