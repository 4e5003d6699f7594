"""Callers' turns found by the callers17 and callers18 dev parts (issue 25), in other words than
the parts': thanks in the caller's language or in words no list holds leave a pending read-back
and end the call (nothing done), texted thanks close the call, regional and insistent yeses
confirm, an email corrected mid-sentence is read back as meant, a full stop after "at" is no
email, and an identity statement with its ZIP code first, or with a request for a person,
verifies the caller and loses nothing.
"""

from __future__ import annotations

from callcenter.store import Store
from domains.billing.ledger import Ledger


def said(turn) -> str:
    return " ".join(turn.replies)


async def test_thanks_in_the_callers_language_leaves_the_read_back(open_call, store: Store) -> None:
    for thanks in ("ah merci bien", "muchas gracias, muy amable", "thanks, grazie mille"):
        call = await open_call("C1002")
        await call.send("you took two hundred forty nine twice, i'd like one back")
        turn = await call.send(thanks)
        assert "goodbye" in said(turn).lower() and "yes or a no" not in said(turn), said(turn)
    assert store.list_work() == [] and Ledger(store).list_refunds() == []


async def test_kind_words_then_a_goodbye_leave_the_read_back_and_end_the_call(open_call, store: Store) -> None:
    call = await open_call("C1004")
    await call.send("the site says my account's been locked")
    turn = await call.send("well that's awfully good of you, dear. thanks ever so much, bye for now")
    assert "goodbye" in said(turn).lower() and "yes or a no" not in said(turn), said(turn)
    call = await open_call("C1001")
    await call.send("close the whole account please")
    turn = await call.send("oh forget i said anything. i'll ring again next week. bye")
    assert "goodbye" in said(turn).lower() and "anything else" not in said(turn).lower(), said(turn)
    assert store.list_work() == [] and store.list_tickets() == []


async def test_texted_thanks_close_the_call(open_call, store: Store) -> None:
    for thanks in ("ty", "ok thx", "grand so, ta"):
        call = await open_call("C1005")
        await call.send("whats my balance")
        turn = await call.send(thanks)
        assert "Goodbye" in said(turn) and "English" not in said(turn) and "catch" not in said(turn), (thanks, said(turn))


async def test_a_regional_or_insistent_yes_confirms(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("the forty nine went out two times, refund one")
    turn = await call.send("aye, go on then")
    assert [r.charge_id for r in Ledger(store).list_refunds()] == ["CH-1001-D"], said(turn)
    call = await open_call("C1005")
    await call.send("i want the account closed")
    turn = await call.send("yes, submit it anyway")
    assert [w.kind for w in store.list_work()] == ["close_account"], said(turn)


def test_a_full_stop_after_at_is_no_email() -> None:
    from callcenter.spoken import normalise

    # every reader of a turn reads it normalised: "i'm@home.thanks" was read as an email
    assert normalise("no i'm at home. thanks") == "no i'm at home. thanks"
    assert normalise("it's grace at hopper dot io") == "it's grace@hopper.io"


async def test_an_email_corrected_mid_sentence_is_read_back_as_corrected(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("i need a new email on the account")
    turn = await call.send("grace@navy.mil, oh no, that's the previous one, grace@cobol.dev")
    assert "grace@cobol.dev" in said(turn) and "navy.mil" not in said(turn), said(turn)


async def test_a_zip_said_before_the_customer_number_verifies(open_call, store: Store) -> None:
    call = await open_call(None)
    turn = await call.send("one zero zero zero one, that's the zip. and it's customer c one zero zero two")
    assert "you're verified" in said(turn), said(turn)
    assert store.list_tickets() == [] and store.list_work() == []
    call = await open_call(None)
    turn = await call.send("zip code is nine four one oh seven and the customer number is c one oh oh one, how much do i owe")
    assert "balance" in said(turn) and "email address or the phone" not in said(turn), said(turn)


async def test_identity_with_a_request_for_a_person_books_the_call_back_once_verified(open_call, store: Store) -> None:
    call = await open_call(None)
    turn = await call.send("c one oh oh five, nine seven two oh one. could somebody from your team phone me back")
    assert "you're verified" in said(turn) and "call back" in said(turn), said(turn)
    assert [t.kind for t in store.list_tickets()] == ["callback"]
