"""Turns found in session 43 (callers84's leftovers and callers86-89, written fresh by helpers:
callers calling back about an earlier call, distracted callers, a poor recogniser's transcripts,
callers for someone else), in other words than the parts'. Each failed on 32b4c90 except the
guards, whose docstrings say so.

What they hold: a take-back that names the action's new value in so many words ("forget that, go
enterprise instead") changes the read-back, it does not stop the request; a plain yes said first
and then another need, or a person, answers the read-back, and the rest is kept and taken once the
action is done; a yes held back ("yes but first ...") is no yes. A known caller who says the
account is someone else's hears what the holder must do, and nothing of the account is read; who
the caller is at their own business ("i'm the finance manager", "the account is in my name") is no
need; "a security alert" is no request to lock; "so what do we do" after a trouble asks about that
trouble; a question for a detail an answer gave gets that sentence again; "what should i tell her
to do" is the next step; a person wished for by someone on the account books a call back; a
recogniser's split words ("e mail", "a count", "for get it") and homophones in a customer number
("see won zero zero four") are heard as meant. Thinking aloud and then a yes ("hmm maybe yeah ok
sure") takes an offer up (its read-back follows); "skip it?" said alone at an approval asks whether
it can be skipped; "the ticket then" after "say 'open a ticket'" opens one; a goodbye read from
words with no farewell in them ends no call.
"""

from __future__ import annotations

from callcenter.store import Store
from domains.billing.ledger import Ledger


def said(turn) -> str:
    return " ".join(turn.replies)


async def test_a_take_back_naming_the_new_plan_reads_the_new_plan_back(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("um can you move me up to the pro plan")
    turn = await call.send("hmm forget that go enterprise instead")
    assert "Enterprise" in said(turn) and "shall i go ahead" in said(turn).lower(), said(turn)
    await call.send("yeah")
    assert Ledger(store).current_plan("C1001").id == "enterprise"


async def test_a_bare_take_back_still_stops_the_request(open_call, store: Store) -> None:
    """Guard: passed before. With no new value the take-back stops the switch."""
    call = await open_call("C1001")
    await call.send("um can you move me up to the pro plan")
    turn = await call.send("oh hang on scratch that")
    assert "nothing was changed" in said(turn), said(turn)
    assert Ledger(store).current_plan("C1001").id == "starter"


async def test_a_yes_then_a_person_does_both(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("that forty nine dollar one came out twice, put it back please")
    turn = await call.send("yep go for it, and then can somebody ring me about my invoices")
    assert "I've refunded $49.00" in said(turn) and "call back" in said(turn), said(turn)
    assert [r.amount_cents for r in Ledger(store).list_refunds("C1001")] == [4900]
    assert len(store.list_tickets("C1001", kind="callback")) == 1


async def test_a_yes_then_another_question_does_both(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("that forty nine dollar one came out twice, put it back please")
    turn = await call.send("sure do it. and also has the api been down today")
    assert "I've refunded $49.00" in said(turn) and "incident" in said(turn), said(turn)
    assert "Shall I go ahead" not in said(turn), said(turn)
    assert [r.amount_cents for r in Ledger(store).list_refunds("C1001")] == [4900]


async def test_a_yes_held_back_is_no_yes(open_call, store: Store) -> None:
    """Guard: passed before. A yes that waits on something, or takes something back, does nothing."""
    call = await open_call("C1001")
    await call.send("that forty nine dollar one came out twice, put it back please")
    turn = await call.send("yes but before that whats my balance")
    assert Ledger(store).list_refunds("C1001") == [] and "shall i go ahead" in said(turn).lower(), said(turn)
    turn = await call.send("ok yes, and actually can someone call me first")
    assert Ledger(store).list_refunds("C1001") == [], said(turn)


async def test_a_known_caller_who_speaks_for_the_holder_hears_what_the_holder_must_do(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("hiya, i'm phoning for my dad, it's his account really, he wants to know what he owes")
    assert "account holder" in said(turn) and "$" not in said(turn), said(turn)
    turn = await call.send("ok well can you at least say if the api is down")
    assert "incident" in said(turn), said(turn)


async def test_a_paper_for_someone_else_is_still_the_callers_own_account(open_call, store: Store) -> None:
    """Guard: passed before. A copy for the accountant, on our own account, is no disowning (the
    known caller's disowning must not take it for one)."""
    call = await open_call("C1001")
    turn = await call.send("could you send me the november invoice for our accountant")
    assert "INV-1001-1" in said(turn) and "account holder" not in said(turn), said(turn)


async def test_who_the_caller_is_at_the_business_is_no_need(open_call, store: Store) -> None:
    call = await open_call("C1004")
    turn = await call.send("hello i'm the finance manager and the account is in my name, what do we owe you at the minute and why can't i log into the dashboard")
    assert "$49.00" in said(turn) and "contact details" not in said(turn), said(turn)
    turn = await call.send("hey this is the office admin, two things, what's our balance and is there an outage")
    assert "$49.00" in said(turn) and "incident" in said(turn) and "engineering ticket" not in said(turn), said(turn)
    assert store.list_tickets() == [], said(turn)


async def test_a_security_alert_is_a_question_not_a_lock(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("i had a security alert by email, has anybody odd been signing in, and what's my balance")
    assert "to confirm" not in said(turn).lower() and "sign-in" in said(turn), said(turn)


async def test_what_do_i_do_after_a_trouble_asks_about_that_trouble(open_call) -> None:
    call = await open_call("C1003")
    turn = await call.send("our app got a load of five hundreds this morning, so what do we do")
    assert "incident" in said(turn) and "balance" not in said(turn).lower(), said(turn)


async def test_a_question_for_a_detail_already_said_gets_it_again(open_call) -> None:
    call = await open_call("C1001")
    await call.send("how do i get the next page of results from a list endpoint")
    turn = await call.send("hang on how many items per page")
    assert "100" in said(turn) and "not something i can help" not in said(turn).lower(), said(turn)


async def test_what_to_tell_a_colleague_to_do_is_the_next_step(open_call) -> None:
    call = await open_call("C1001")
    await call.send("our developer says every call comes back unauthorized")
    turn = await call.send("ok so what should i tell her to do")
    assert ("key" in said(turn) or "backoff" in said(turn)) and "balance" not in said(turn).lower(), said(turn)


async def test_a_person_wished_for_by_someone_on_the_account_books_a_call_back(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("my partner runs the accounts and he'd like somebody from your billing team to ring us")
    assert "call back" in said(turn), said(turn)
    assert len(store.list_tickets("C1002", kind="callback")) == 1


async def test_a_recognisers_split_words_and_homophones_are_heard_as_meant(open_call, store: Store) -> None:
    call = await open_call()
    turn = await call.send("see won zero zero four zip three oh three oh one")
    assert "verified" in said(turn), said(turn)
    await call.send("i want to change the e mail on my a count")
    turn = await call.send("actually for get it")
    assert "nothing was changed" in said(turn), said(turn)


async def test_thinking_aloud_then_yes_takes_an_offer_up(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("how much more would the biggest plan be")
    turn = await call.send("hmm maybe yeah ok sure")
    assert "Enterprise" in said(turn) and "shall i go ahead" in said(turn).lower(), said(turn)
    assert Ledger(store).current_plan("C1002").id == "pro"  # read back, not done


async def test_a_bare_skip_it_asked_at_the_approval_asks_whether(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("refund. the double one")
    await call.send("how come it needs approving")
    turn = await call.send("skip it?")
    assert "can't skip" in said(turn) and "stopped" not in said(turn), said(turn)
    turn = await call.send("ok fine yes")
    assert "approval" in said(turn) and store.list_work(), said(turn)


async def test_the_phrase_the_line_told_the_caller_to_say_said_back_short(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("loads of five hundreds")
    await call.send("and what do we do about it")
    turn = await call.send("the ticket then")
    assert "opened ticket" in said(turn), said(turn)
    assert len([t for t in store.list_tickets() if t.kind == "engineering"]) == 1


async def test_a_receipt_for_the_accountant_among_other_needs_is_the_callers_own(open_call, store: Store) -> None:
    """Guard: passed before; an earlier form of the known caller's disowning failed it (callers5)."""
    call = await open_call("C1001")
    turn = await call.send("two things. a receipt for the last payment for my bookkeeper please. and how do webhooks get signed")
    assert "INV-1001-1" in said(turn) and "account holder" not in said(turn), said(turn)


async def test_a_goodbye_read_from_words_without_one_ends_no_call(open_call) -> None:
    call = await open_call("C1001")
    await call.send("whats my balance")
    turn = await call.send("hmm yeah maybe ok yes")
    assert "goodbye" not in said(turn).lower(), said(turn)
    turn = await call.send("ok that's all, thanks, bye")
    assert "goodbye" in said(turn).lower(), said(turn)


async def test_a_yes_said_twice_is_one_yes_and_no_other_need(open_call, store: Store) -> None:
    """Guard: passed before; an earlier form of the yes-then-need took "file it" for another need."""
    call = await open_call("C1001")
    await call.send("that forty nine dollar one came out twice, put it back please")
    turn = await call.send("ok yes, send it through")
    assert "I've refunded $49.00" in said(turn) and "which one should change" not in said(turn).lower(), said(turn)
    turn = await call.send("is it done")
    assert "refunded" in said(turn).lower() or "yes" in said(turn).lower(), said(turn)
