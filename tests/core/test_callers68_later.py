"""Turns found by the session-38 dev work (callers66: callers not at home in English;
callers67: words that mean one thing in one department and another in the next; callers68:
longer calls whose needs arrive over the whole call), in other words than the parts'. Each
failed on 9cca30b but the guard, which says so.

What they hold: a turn that raised another need while a read-back waits is no part of this
action's words, so "alright, now about that refund" is no yes to the plan; a no said last after
a reason ("that's too little, so no"), an idea let go ("scrap the pro idea") and a cancel said
in Italian or Spanish stop the action; a cancel's words asked as a question ("you can't skip
it?") and a milder way asked about ("is there any way to just put it on hold instead") are
questions; a request beside a taken-in finding ("ok but lock it anyway") takes the offer; a
person asked for from a named team, in the future tense, or beside a declined offer is booked;
follow-ups point back at an earlier answer: where the reset link went, an old key turned back
on, where to make a new one, when the engineers answer, how high the traffic went, a bare
"when?", how to stop the errors, whether the call back is booked, the number a call back uses
after the ticket status named it, where sign-ins came from asked in Spanish; a plan complained
of that costs more than the caller's is the one asked about; a plan's limit asked mid-turn is
answered with it; "what's happening with your api" is the status board; who the caller is,
not given ("i don't have my number on me"), is no need beside one that needs no identity; a
price complained of beside a way down the list is why, no refund.
"""

from __future__ import annotations

from callcenter.store import Store
from domains.billing.ledger import Ledger


def said(turn) -> str:
    return " ".join(turn.replies)


def plan_of(store: Store, customer: str) -> str:
    plan = Ledger(store).current_plan(customer)
    assert plan is not None
    return plan.id


async def test_a_need_raised_at_a_read_back_does_not_make_a_later_turn_a_yes(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("can you move me up to the enterprise plan")
    queued = await call.send("oh and refund my double charge too")
    assert "right after this" in said(queued), said(queued)
    turn = await call.send("alright so now about that refund")
    assert "you're now on" not in said(turn) and "Shall I go ahead with the switch" in said(turn), said(turn)
    assert plan_of(store, "C1001") == "starter"


async def test_a_no_said_last_after_a_reason_stops_the_switch(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("our bill is too high, can we go down a plan")
    turn = await call.send("sixty a minute is way too little, so no")
    assert "haven't changed anything" in said(turn), said(turn)
    await call.send("yes")
    assert plan_of(store, "C1002") == "pro"


async def test_an_idea_let_go_stops_the_switch(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("please upgrade me to pro")
    turn = await call.send("you know what, scrap the pro idea")
    assert "nothing was changed" in said(turn), said(turn)
    assert plan_of(store, "C1001") == "starter"


async def test_a_cancel_in_italian_or_spanish_stops_the_action(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("i need my two factor reset, my phone is gone")
    turn = await call.send("lascia stare")
    assert "nothing was changed" in said(turn), said(turn)
    other = await open_call("C1002")
    await other.send("change my phone number please")
    turn = await other.send("déjalo, lo hago otro día")
    assert "nothing was changed" in said(turn), said(turn)
    assert store.list_work(customer_id="C1005") == []


async def test_a_cancel_asked_as_a_question_is_answered_and_the_read_back_stands(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("you charged me twice last month, i want that money back")
    turn = await call.send("why does a supervisor have to see it? you can't just skip it?")
    assert "stopped" not in said(turn) and "Shall I go ahead" in said(turn), said(turn)
    done = await call.send("fine then yes")
    assert "refund-CH-1002-D" in said(done), said(done)


async def test_a_milder_way_asked_about_at_a_closure_is_answered(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("i'd like to close our account")
    turn = await call.send("hmm is there any way we could put it on hold instead")
    assert "no way to pause" in said(turn) and "Shall I go ahead" in said(turn), said(turn)
    await call.send("no, leave it open then")
    assert store.list_work(customer_id="C1003") == []


async def test_ok_but_with_the_offered_thing_takes_the_offer(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("i got an email saying my password was changed and that wasn't me")
    turn = await call.send("alright but lock it anyway")
    assert "To confirm: lock account C1002" in said(turn), said(turn)


async def test_a_person_from_a_named_team_or_needed_later_is_booked(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("could somebody from your billing department ring me")
    assert "booked a call back" in said(turn), said(turn)
    other = await open_call("C1004")
    turn = await other.send("ok i'll need someone to phone me back about paying this off")
    assert "booked a call back" in said(turn), said(turn)


async def test_a_person_asked_for_beside_a_declined_offer_is_booked(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("we keep getting too many requests errors")
    offer = await call.send("would going to pro sort that out")
    assert "Would you like to switch to Pro?" in said(offer), said(offer)
    turn = await call.send("nah keep the plan, i'd rather talk it over with a person")
    assert "booked a call back" in said(turn), said(turn)
    assert plan_of(store, "C1001") == "starter"


async def test_where_the_reset_link_went(open_call) -> None:
    call = await open_call("C1001")
    await call.send("i forgot my password")
    turn = await call.send("sorry what email did you send that to")
    assert "a***@example.com" in said(turn), said(turn)


async def test_an_old_key_asked_back_and_where_to_make_a_new_one(open_call) -> None:
    call = await open_call("C1002")
    await call.send("our api key suddenly stopped working")
    back = await call.send("is there any chance you could bring the old key back")
    assert "can't turn an old key back on" in said(back), said(back)
    new = await call.send("ok so where do i make a new one")
    assert "Developers" in said(new), said(new)


async def test_when_the_engineers_answer_and_how_high_the_traffic_went(open_call) -> None:
    call = await open_call("C1002")
    await call.send("please open a ticket with engineering about our four oh ones")
    turn = await call.send("and when do we hear back")
    assert "24 hours" in said(turn), said(turn)
    other = await open_call("C1001")
    await other.send("our app keeps getting throttled")
    turn = await other.send("how many did we hit")
    assert "140" in said(turn), said(turn)
    turn = await other.send("so how do we avoid that happening")
    assert "backoff" in said(turn), said(turn)


async def test_a_bare_when_and_whether_a_call_back_is_booked(open_call) -> None:
    call = await open_call("C1002")
    await call.send("i want a callback from someone please")
    booked = await call.send("is my callback definitely booked")
    assert "call back is booked" in said(booked), said(booked)
    turn = await call.send("when?")
    assert "one business day" in said(turn), said(turn)


async def test_the_number_a_call_back_uses_after_the_ticket_status_named_it(open_call) -> None:
    call = await open_call("C1002")
    await call.send("i need a password reset and someone to call me")
    await call.send("cheers, and where's my ticket at")
    turn = await call.send("and which number are they going to ring")
    assert "0102" in said(turn), said(turn)


async def test_where_sign_ins_came_from_asked_in_spanish(open_call) -> None:
    call = await open_call("C1004")
    await call.send("hola, creo que alguien entró en mi cuenta")
    turn = await call.send("¿y de dónde?")
    assert "Romania" in said(turn), said(turn)


async def test_a_dearer_plan_complained_of_is_the_one_asked_about(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("hmm pro is a lot, what would that run on top of my current plan")
    assert "$200.00 more" in said(turn) and "To confirm" not in said(turn), said(turn)
    assert plan_of(store, "C1001") == "starter"


async def test_a_plans_limit_asked_in_a_later_clause_is_answered(open_call) -> None:
    call = await open_call("C1005")
    await call.send("what plans do you have")
    turn = await call.send("cheers, and going back to plans, how many requests a minute does pro come with")
    assert "600" in said(turn), said(turn)


async def test_whats_happening_with_the_api_is_the_status_board(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("get someone to call me back, and also tell me what's happening with your api")
    assert "booked a call back" in said(turn) and "incident" in said(turn), said(turn)


async def test_an_unknown_caller_without_their_number_hears_the_status(open_call, store: Store) -> None:
    call = await open_call(None)
    await call.send("how much do i owe right now")
    turn = await call.send("ugh i don't have my number on me, is your api down though")
    assert "incident" in said(turn), said(turn)
    assert [t for t in store.list_tickets() if t.kind == "callback"] == []


async def test_a_price_complained_of_beside_paying_less_is_no_refund(open_call, store: Store) -> None:
    """A guard (passes on 9cca30b): "the price is too much for us" alone reads as a refund at
    0.69, under today's stored threshold (0.74); a router trained on more phrasings (a second
    written batch, measured and not shipped this session) stored 0.66, and cut it off as one."""
    call = await open_call("C1003")
    turn = await call.send("honestly the price is way too much for us, we need to pay less every month")
    assert "refund" not in said(turn).lower() and "Pro" in said(turn), said(turn)
    await call.send("yes")
    assert plan_of(store, "C1003") == "pro"
    assert store.list_work(customer_id="C1003") == [] and Ledger(store).list_refunds("C1003") == []


async def test_libraries_asked_for_are_the_sdks(open_call) -> None:
    call = await open_call(None)
    turn = await call.send("which programming libraries do you have")
    assert "Python" in said(turn), said(turn)
