"""Found by the callers19 and callers20 dev parts (issue 25), in other words than the parts':
a polite no to a read-back refuses it and the call goes on (it had ended the call), and a
booked call back is an answer the caller can ask about ("when will they ring?").
"""

from __future__ import annotations

from callcenter.store import Store


def said(turn) -> str:
    return " ".join(turn.replies)


async def test_a_polite_no_to_a_read_back_refuses_it_and_the_call_goes_on(open_call, store: Store) -> None:
    call = await open_call("C1004")
    turn = await call.send("i can't get in, it says my account is locked")
    assert "Shall I go ahead" in said(turn), said(turn)
    turn = await call.send("no thank you")
    assert "won't go ahead" in said(turn) and "goodbye" not in said(turn).lower(), said(turn)
    turn = await call.send("how do i paginate the list endpoints")
    assert "page" in said(turn).lower(), said(turn)
    assert [t.kind for t in store.list_tickets("C1004")] == []


async def test_a_polite_no_with_a_farewell_still_ends_the_call(open_call, store: Store) -> None:
    call = await open_call("C1004")
    await call.send("locked out of my account")
    turn = await call.send("nah thanks, bye now")
    assert "goodbye" in said(turn).lower(), said(turn)
    assert store.list_tickets("C1004") == []


async def test_the_caller_asks_when_the_call_back_comes(open_call, store: Store) -> None:
    call = await open_call("C1005")
    turn = await call.send("honestly just put me through to a human")
    [ticket] = store.list_tickets("C1005", kind="callback")
    assert ticket.id in said(turn), said(turn)
    turn = await call.send("ok and how long before somebody phones me?")
    assert "within one business day" in said(turn) and "not something I can help with" not in said(turn), said(turn)
    turn = await call.send("so when are they gonna ring me back")
    assert ticket.id in said(turn) and "within one business day" in said(turn), said(turn)
    assert len(store.list_tickets("C1005", kind="callback")) == 1


async def test_a_texted_yes_confirms_a_read_back(open_call, store: Store) -> None:
    from domains.billing.ledger import Ledger

    for yes in ("yh pls", "kk go on", "yeah grand, do it"):
        call = await open_call("C1005")
        await call.send("move me to starter")
        turn = await call.send(yes)
        assert "Starter" in said(turn) and "yes or a no" not in said(turn), (yes, said(turn))
        assert Ledger(store).current_plan("C1005").id == "starter"
        Ledger(store).change_plan("C1005", "pro")


async def test_a_caller_hanging_up_in_so_many_words_gets_a_goodbye(open_call, store: Store) -> None:
    for bye in ("right, i'm gonna hang up now", "ok thank you sir, i will disconnect now", "cheers hey, sharp sharp",
                "valeu, beleza, tchau"):
        call = await open_call("C1005")
        turn = await call.send(bye)
        assert "goodbye" in said(turn).lower() or "tchau" in said(turn).lower(), (bye, said(turn))
    assert store.list_work() == [] and store.list_tickets() == []


async def test_cancel_with_its_reason_in_another_sentence_is_the_closure(open_call, store: Store) -> None:
    for words in ("i'd like to cancel please. we've gone with a different provider",
                  "can you cancel it all for me? honestly we don't use it any more",
                  "please cancel me account"):
        call = await open_call("C1005")
        turn = await call.send(words)
        assert "close account C1005" in said(turn) and "Just so I get this right" not in said(turn), (words, said(turn))
    assert store.list_work() == []


async def test_contractions_texted_without_apostrophes_are_understood(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("key isnt working at all")
    assert "401" in said(turn), said(turn)


async def test_what_is_left_for_the_caller_is_about_the_read_back(open_call, store: Store) -> None:
    call = await open_call("C1004")
    await call.send("i lost my phone with the authenticator on it")
    turn = await call.send("ok and will i have to do anything afterwards?")
    assert "Nothing on your side" in said(turn) and "balance" not in said(turn), said(turn)
    assert store.list_work() == []


async def test_a_customer_number_corrected_in_the_same_breath_is_the_one_checked(open_call, store: Store) -> None:
    call = await open_call()
    await call.send("what's my balance")
    turn = await call.send("it is c one oh oh two, no sorry, that is my old one, mine is c one oh oh five, zip nine seven two oh one")
    assert "$249.00 for the Pro plan" in said(turn), said(turn)


async def test_where_to_find_the_customer_number_is_answered_at_the_identity_question(open_call, store: Store) -> None:
    call = await open_call()
    await call.send("i need a copy of my invoice")
    turn = await call.send("hmm where would i find my customer number?")
    assert "top of every invoice" in said(turn) and "customer number" in said(turn).split("C.")[-1], said(turn)
    turn = await call.send("ah got it, c one oh oh one, zip nine four one oh seven")
    assert "INV-1001" in said(turn), said(turn)


async def test_an_incident_named_in_words_beside_a_ticket_question_is_answered(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("how is my ticket doing, and is inc forty two sorted yet")
    assert "Elevated 5xx" in said(turn), said(turn)


async def test_when_it_will_be_fixed_after_an_incident_is_a_follow_up(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("is the api having problems right now")
    turn = await call.send("right. and when's it'll be fixed, any idea?")
    assert "status page" in said(turn) and "tickets" not in said(turn), said(turn)
