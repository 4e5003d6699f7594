"""Turns found by the callers55 and callers56 dev parts (issue 25), in other words than the
parts': a list counted "one, two, three" (its "two" no two-factor reset); a yes said with a
goodbye at a read-back does it, then ends the call; a pause to fetch a card or ask a boss
waits, and the yes brought back is a yes; a person asked for at a read-back is booked; the
read-back's own word said back ("a supervisor?") asks for no one; "never mind" stops; how the
API authenticates is set-up help; the price list's hop is recorded; the full price charged for
an outage is its credit; "gone and" taken twice is the duplicate; how the caller feels is no
need; the top and the middle plan; a figure said back in Italian; a need in German beside an
English greeting; "how come, we hardly send anything" after a diagnosis; a yes after taking in
an offer; a caller introducing themselves with their number beside the needs; "¿cuarenta y
nueve?" said back; a month said, then corrected ("no wait, ..."); why the limit bites, with what
to do. Each failed on d525cc5.
"""

from __future__ import annotations

from callcenter.store import Store
from domains.billing.ledger import Ledger


def said(turn) -> str:
    return " ".join(turn.replies)


def reached(turn) -> set[str]:
    return {h.to_agent for h in turn.hops}


async def test_a_list_counted_one_two_three_reads_its_two_as_a_count(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("ok list time, one is there an outage, two how do i get a new api key, three switch me up to pro")
    reply = said(turn)
    assert "two-factor" not in reply and "incident" in reply and "Pro plan at $249.00" in reply, reply
    assert "account.two_factor_reset" not in reached(turn)


async def test_a_yes_with_a_goodbye_at_the_read_back_does_it_and_ends_the_call(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("bump me up to pro")
    turn = await call.send("yeah do it, cheers, that's me sorted")
    assert "now on the Pro plan" in said(turn) and "Goodbye" in said(turn), said(turn)
    assert Ledger(store).current_plan("C1001").id == "pro"


async def test_a_yes_then_leaving_at_a_lock_read_back_locks(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("please lock my account, i clicked a dodgy link")
    turn = await call.send("yes do that and then i'm off, bye")
    assert "locked your account" in said(turn) and "Goodbye" in said(turn), said(turn)
    assert store.get_customer("C1003").locked


async def test_a_pause_to_fetch_the_card_waits_and_the_yes_after_it_refunds(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("you charged the forty nine twice and i'd like it back")
    held = await call.send("wait wait lemme dig out the card")
    assert "take your time" in said(held).lower() and "won't go ahead" not in said(held), said(held)
    assert Ledger(store).list_refunds("C1001") == []
    turn = await call.send("ok got it here, yes go ahead")
    assert "refunded $49.00" in said(turn), said(turn)


async def test_a_yes_brought_back_from_the_boss_is_a_yes(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("move us down to the starter plan")
    held = await call.send("gimme a moment i need to run it by my boss")
    assert "take your time" in said(held).lower() and not store.list_tickets("C1002"), said(held)
    turn = await call.send("ok my manager says go ahead")
    assert "now on the Starter plan" in said(turn) and Ledger(store).current_plan("C1002").id == "starter", said(turn)


async def test_a_person_asked_for_at_a_read_back_is_booked(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("i got billed twice this month")
    turn = await call.send("look just get a real person to phone me about it")
    assert "call back" in said(turn), said(turn)
    assert any(t.kind == "callback" for t in store.list_tickets("C1002")) and store.list_work() == []


async def test_the_read_backs_own_word_said_back_asks_for_no_one(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("i got billed twice this month, i want the money back")
    turn = await call.send("a supervisor? can you not just skip that part")
    assert "can't skip that" in said(turn) and "call back" not in said(turn), said(turn)
    assert store.list_tickets("C1002") == []


async def test_never_mind_at_a_closure_read_back_stops_it(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("i want to close my account")
    turn = await call.send("ah never mind, forget it")
    assert "stopped" in said(turn) and "nothing was changed" in said(turn), said(turn)
    assert not store.get_customer("C1005").closed and store.list_work() == []


async def test_how_the_api_authenticates_is_set_up_help(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("our new developer has no clue how authentication works with you")
    assert "technical.integration_help" in reached(turn) and "two-factor" not in said(turn), said(turn)


async def test_the_price_list_records_its_specialists_hop(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("what plans have you got and what do they each cost")
    assert "Enterprise at $999.00" in said(turn) and "billing.plan_change" in reached(turn), (said(turn), reached(turn))


async def test_the_full_price_charged_through_an_outage_is_its_credit(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("half our requests died during your outage and you still billed us the full amount")
    assert "service-failure credit" in said(turn), said(turn)
    assert store.list_work() == []  # read back, nothing asked for yet


async def test_gone_and_taken_twice_is_the_duplicates_refund(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("you lot have gone and taken my money a second time haven't you")
    assert "To confirm: a refund of $249.00" in said(turn) and "Goodbye" not in said(turn), said(turn)


async def test_how_the_caller_feels_is_no_need_and_the_needs_after_it_are_each_answered(open_call, store: Store) -> None:
    call = await open_call("C1004")
    turn = await call.send("honestly i'm so fed up, i can't log in, apparently i owe you money")
    assert {"account.login_help", "billing.balance"} <= reached(turn), (said(turn), reached(turn))


async def test_the_top_plan_is_the_most_expensive_one(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("put us on your most expensive plan please")
    assert "Enterprise plan at $999.00" in said(turn) and "which" not in said(turn).lower(), said(turn)
    assert Ledger(store).current_plan("C1001").id == "starter"


async def test_the_middle_ones_price_is_answered(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("what would the middle plan cost me a month")
    assert "Pro plan is $249.00" in said(turn) and "to confirm" not in said(turn).lower(), said(turn)


async def test_a_figure_said_back_in_italian_is_the_figure(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("quanto devo pagare il mese prossimo?")
    turn = await call.send("quarantanove?")
    assert "$49.00" in said(turn) and "not something I can help" not in said(turn), said(turn)


async def test_a_need_in_german_beside_an_english_greeting_is_read(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("hi um, unsere api gibt dauernd fehler fünfhundert, why is that")
    assert "technical.api_errors" in reached(turn), (said(turn), reached(turn))


async def test_we_hardly_send_anything_after_a_rate_limit_diagnosis_is_answered_from_it(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("why do we keep getting too many requests errors")
    turn = await call.send("how come? we hardly send anything")
    assert "140" in said(turn) and "balance" not in said(turn), said(turn)


async def test_a_yes_after_taking_in_an_offer_takes_it(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("did the refund for my double charge ever go through")
    turn = await call.send("huh, i was sure i'd asked for that. ok yes please do it")
    assert "To confirm: a refund of $249.00" in said(turn), said(turn)


async def test_a_caller_introducing_themselves_with_their_number_asks_for_nothing_by_it(open_call, store: Store) -> None:
    call = await open_call("C1005")
    turn = await call.send("this is linus, c one double oh five. i need my email changed and my two factor reset")
    assert "technical" not in said(turn) and "account.profile_update" in reached(turn), (said(turn), reached(turn))


async def test_a_figure_said_back_in_spanish_with_its_marks_is_the_figure(open_call, store: Store) -> None:
    call = await open_call("C1004")
    await call.send("hola, ¿cuánto tengo que pagar?")
    turn = await call.send("¿cuarenta y nueve?")
    assert "$49.00" in said(turn), said(turn)


async def test_a_month_said_then_corrected_is_the_corrected_one(open_call, store: Store) -> None:
    call = await open_call("C1004")
    turn = await call.send("can i get the bill from, uh, four months ago, no wait, three months ago")
    assert "invoice is INV-1004-3" in said(turn) and "I don't see an invoice" not in said(turn), said(turn)


async def test_why_we_are_limited_names_the_limit_and_what_to_do(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("we keep hitting the too many requests error")
    turn = await call.send("how come, we barely use it")
    assert "rate limit is 60 a minute" in said(turn) and "backoff" in said(turn), said(turn)
