"""Callers' turns found by the callers13 dev part (issue 25), in other words than the part's:
a short question after an answer never ends the call, a bare yes after something was done
says what was done (once, nothing done twice), and a customer number or ZIP said with pauses,
fillers or another country's name for the ZIP code verifies the caller instead of starting a
contact-details change. In another language: a turn with few function words is still told
from noise (a character n-gram identifier), a follow-up about the last answer is answered, a
read-only question during a read-back is answered before the read-back again, and a request to
act is named and asked for in English (nothing acts on a gloss).
"""

from __future__ import annotations

from callcenter.store import Store
from domains.billing.ledger import Ledger


def said(turn) -> str:
    return " ".join(turn.replies)


async def test_a_short_question_after_an_answer_does_not_end_the_call(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("can i get my last invoice")
    turn = await call.send("and the one before that one?")
    assert "Goodbye" not in said(turn), said(turn)
    after = await call.send("what's my balance")
    assert "$0.00" in said(after), said(after)


async def test_a_bare_yes_after_a_ticket_was_opened_says_so_and_opens_no_second(open_call, store: Store) -> None:
    call = await open_call("C1001")
    first = await call.send("can you get an engineer on our rate limit thing, like open a ticket for it")
    assert "opened ticket" in said(first), said(first)
    turn = await call.send("yep")
    assert "opened ticket" in said(turn) and "How can I help" in said(turn), said(turn)
    assert len([t for t in store.list_tickets() if t.kind == "engineering"]) == 1


async def test_a_bare_yes_after_a_looked_up_answer_is_no_recap(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("how much do i owe right now")
    turn = await call.send("yeah")
    assert "recap" not in said(turn) and "How can I help" in said(turn), said(turn)


async def test_an_id_said_after_a_pause_verifies_and_starts_no_contact_change(open_call, store: Store) -> None:
    call = await open_call()
    turn = await call.send("good morning love, my number is... c one, oh, oh, three, and my zip code is six oh six oh one")
    assert "you're verified" in said(turn) and "phone number" not in said(turn), said(turn)


async def test_a_zip_code_named_twice_the_callers_way_verifies(open_call, store: Store) -> None:
    call = await open_call()
    turn = await call.send("alright then. customer number c one zero zero five, postleitzahl, uh, zip, nine seven two zero one")
    assert "you're verified" in said(turn) and "email address" not in said(turn), said(turn)


async def test_a_plan_change_asked_in_italian_is_named_and_asked_for_in_english(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("allora, eh, posso scendere al piano starter? spendo troppo, no?")
    assert "Mi dispiace" in said(turn) and "the plan change" in said(turn) and "in English" in said(turn), said(turn)
    assert Ledger(store).current_plan("C1002").id == "pro"  # nothing acts on a gloss


async def test_a_french_follow_up_about_the_incident_is_answered_as_one(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("is the service down?")
    turn = await call.send("et ça sera réparé quand?")
    assert "Désolé" in said(turn) and "status page" in said(turn), said(turn)


async def test_a_question_in_italian_during_a_read_back_is_answered_then_the_read_back_again(open_call, store: Store) -> None:
    call = await open_call("C1004")
    await call.send("i can't log in, my account is locked")
    turn = await call.send("e ci sono stati accessi sospetti?")
    assert "unusual locations" in said(turn) and "shall I go ahead" in said(turn), said(turn)
    assert store.list_tickets() == [] and store.list_work() == []


async def test_an_italian_goodbye_after_a_sigh_ends_the_call(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("what do i owe")
    turn = await call.send("uffa. ok, grazie mille, arrivederci")
    assert "Arrivederci" in said(turn), said(turn)


async def test_a_pick_between_a_departments_two_options_is_taken_not_asked_again(open_call, store: Store) -> None:
    call = await open_call("C1001")
    first = await call.send("could you email me last month's invoice for the accountant. and also a ticket opened, "
                            "our integration broke after the key change")
    assert "opening a ticket with engineering" in said(first), said(first)  # the department's either/or question
    turn = await call.send("yes open it please")
    assert "opened ticket" in said(turn) and "Just so I get this right" not in said(turn), said(turn)
    assert [t.kind for t in store.list_tickets()] == ["engineering"]
