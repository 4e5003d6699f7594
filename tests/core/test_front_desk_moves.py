"""Front-desk moves (issue 25 classes 4 and 5, the dialogue part): an identity statement
first verifies and files nothing; a follow-up is answered from the answer it follows."""

from __future__ import annotations

from callcenter.store import Store


def said(turn) -> str:
    return " ".join(turn.replies)


async def test_an_identity_statement_first_verifies_and_asks_what_they_need(open_call, store: Store) -> None:
    call = await open_call()
    turn = await call.send("hi um my customer number is c one zero zero two and the zip is one zero zero zero one")
    assert "verified" in said(turn) and said(turn).endswith("?")
    assert store.list_tickets() == [] and store.list_work() == [] and not store.list_pending_changes()
    balance = await call.send("great whats my balance")
    assert "balance is" in said(balance) and "verify" not in said(balance)


async def test_my_number_is_said_as_identity_is_not_a_phone_change(open_call, store: Store) -> None:
    # "my number is ..." reads to the router as a change of phone number, confidently: a turn
    # made only of identity words still verifies (before, it asked which contact detail to change).
    call = await open_call()
    turn = await call.send("hello. my number is c one zero zero three. uh zip six oh six oh one")
    assert "verified" in said(turn) and "email address or the phone number" not in said(turn)
    assert [h.to_agent for h in turn.hops if "." in h.to_agent] == []
    assert store.list_tickets() == [] and store.list_work() == [] and not store.list_pending_changes()


async def test_a_wrong_identity_statement_is_not_verified_and_files_nothing(open_call, store: Store) -> None:
    call = await open_call()
    turn = await call.send("yeah hi its customer c one zero zero two zip code nine nine nine nine nine")
    assert "couldn't verify" in said(turn) and not call.state.caller.verified
    assert store.list_tickets() == [] and store.list_work() == []


async def test_so_what_do_i_do_is_answered_from_the_api_answer(open_call) -> None:
    call = await open_call("C1001")
    await call.send("my api calls keep failing with four twenty nine errors")
    turn = await call.send("ok so what do i do now")
    assert "backoff" in said(turn) and "balance" not in said(turn)
    assert [h.to_agent for h in turn.hops] == []
