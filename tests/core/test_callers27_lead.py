"""Turns found by the callers27 and callers28 dev parts (issue 25), in other words than the
parts': a plan's limit asked about is answered with it; plans compared are laid side by side;
a statement about the last answer checked back ("that one's paid, right?") is confirmed from it;
an overdue invoice's due date says it is overdue; a laugh at oneself before a goodbye ends the
call; "ciao" last in a turn takes leave; a German review of sign-ins asked for is the review;
Italian and Spanish change requests are heard as those languages; "my account is locked" is a
sign-in problem (and an account that is not locked is said not to be); two charges of one amount
said in words are two charges; a phone number's last group corrected keeps the rest; a phone
number is read back in its groups; how a key is sent is the authorization guide; a guide named
and asked about is set-up help; thinking about closing the account is the closure; someone
else's account is the holder's to ask about; a lock declined after the review is no review
again; "catch ya" is a goodbye; "yeah, both of them" after two things done recaps both; the plan
or the use of the API said as who the caller is, beside their need, is no need of its own; a
figure said back before a goodbye, and a no to an offer with a goodbye in Italian, end the call.
"""

from __future__ import annotations

from callcenter.spoken import for_the_ear, normalise
from callcenter.store import Store
from domains.billing.ledger import Ledger
from tests.conftest import demo_invoice


def said(turn) -> str:
    return " ".join(turn.replies)


def reached(turn) -> set[str]:
    return {h.to_agent for h in turn.hops}


async def test_a_plans_limit_asked_by_a_caller_on_it_is_answered(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("ok and uh what's the limit on starter, like how many requests")
    assert "60 API requests a minute" in said(turn) and "To confirm" not in said(turn), said(turn)


async def test_the_rate_limit_of_the_plan_just_priced(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("how much is pro these days")
    turn = await call.send("and what's the rate limit on that")
    assert "600" in said(turn) and "failed API calls" not in said(turn), said(turn)


async def test_two_plans_compared_are_laid_side_by_side(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("so how's enterprise different from starter, i'm just comparing for now")
    assert "Starter at $49.00" in said(turn) and "Enterprise at $999.00" in said(turn), said(turn)
    assert "just so i get this right" not in said(turn).lower() and "To confirm" not in said(turn), said(turn)


async def test_a_statement_about_the_last_answer_is_confirmed_from_it(open_call, store: Store) -> None:
    named = demo_invoice(store, "C1002", 2)[1].split()[0].lower()
    call = await open_call("C1002")
    await call.send(f"what was on my bill for {named}")
    turn = await call.send("ok so that one's been paid, yeah?")
    assert said(turn).startswith("Yes:") and "paid" in said(turn), said(turn)
    assert "just so i get this right" not in said(turn).lower(), said(turn)


async def test_an_overdue_invoice_asked_if_late_is_said_overdue(open_call, store: Store) -> None:
    call = await open_call("C1004")
    await call.send("what's my balance right now")
    turn = await call.send("hang on, is that past due already?")
    assert "is overdue" in said(turn), said(turn)


async def test_a_laugh_at_oneself_before_goodbye_ends_the_call(open_call, store: Store) -> None:
    call = await open_call("C1003")
    await call.send("what's the nine ninety nine on my statement")
    turn = await call.send("ahh the plan, duh. ok cheers, bye")
    assert "Goodbye" in said(turn) and "Could you tell me" not in said(turn), said(turn)


async def test_ciao_last_in_the_turn_takes_leave(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("ho un doppio addebito, vorrei un rimborso")
    turn = await call.send("va bene dai, lasciamo stare. ciao ciao")
    assert "Arrivederci" in said(turn) and "solo in inglese" not in said(turn), said(turn)


async def test_a_german_review_of_sign_ins_asked_for_is_the_review(open_call, store: Store) -> None:
    call = await open_call("C1004")
    turn = await call.send("kann sein dass sich jemand in mein konto eingeloggt hat, prüfen sie bitte die anmeldungen")
    assert "account.security" in reached(turn) and "RO" in said(turn), said(turn)


async def test_italian_and_spanish_change_requests_are_heard_as_those_languages(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("vorrei passare all'enterprise")
    assert "inglese" in said(turn) and "just so i get this right" not in said(turn).lower(), said(turn)
    call = await open_call("C1002")
    turn = await call.send("necesito cambiar mi correo, es ana punto g arroba example punto com")
    assert "inglés" in said(turn) and "not something I can help with" not in said(turn), said(turn)


async def test_my_account_is_locked_is_a_sign_in_problem(open_call, store: Store) -> None:
    call = await open_call("C1004")
    turn = await call.send("the app keeps saying my account is locked and i haven't done anything weird")
    assert "account.login_help" in reached(turn) and "unlocked" in said(turn), said(turn)
    call = await open_call("C1002")
    turn = await call.send("the app keeps saying my account is locked and i haven't done anything weird")
    assert "isn't locked" in said(turn) and "lock account" not in said(turn), said(turn)


def test_two_charges_of_one_amount_said_in_words_are_two_charges() -> None:
    assert normalise("i see two nine ninety nine dollar payments this month") == "i see two $999 payments this month"
    assert normalise("a three ninety nine dollar charge") == "a $399 charge"  # one charge: the amount


async def test_two_charges_of_forty_nine_are_the_duplicate(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("hiya, my statement shows two forty nine dollar charges from you on the same day")
    assert "To confirm: a refund of $49.00" in said(turn), said(turn)


def test_a_phone_numbers_last_group_corrected_keeps_the_rest() -> None:
    assert normalise("six one seven, five five five, oh two nine... sorry, oh two nine one") == "6175550291"


async def test_a_phone_number_is_read_back_in_its_groups(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("i need to update my mobile number")
    turn = await call.send("it's six one seven five five five oh two nine one")
    assert "+1 617 555 0291" in said(turn), said(turn)
    assert "plus 1, 6 1 7, 5 5 5, 0 2 9 1" in for_the_ear(said(turn))  # the voice: each digit, a pause per group


async def test_how_a_key_is_sent_is_the_authorization_guide(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("quick q, how do i pass the api key when i call your endpoints")
    assert "Authorization header" in said(turn), said(turn)


async def test_a_guide_named_and_asked_about_is_set_up_help(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("what sdks do you offer")
    assert "technical.integration_help" in reached(turn) and "SDKs" in said(turn), said(turn)
    turn = await call.send("and is there pagination")
    assert "next_cursor" in said(turn) and "just so i get this right" not in said(turn).lower(), said(turn)


async def test_thinking_about_closing_the_account_is_the_closure(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("honestly i've been thinking about closing the account")
    assert "To confirm: close account C1002" in said(turn), said(turn)
    turn = await call.send("no, not today")
    assert "won't go ahead" in said(turn), said(turn)
    assert store.list_work(customer_id="C1002") == []  # no closure request filed


# Passes before the change too (the refund's identity question refuses a third party): kept as
# the behaviour's guard when the turn reads as no need the router is sure of.
async def test_someone_elses_account_is_the_holders_to_ask_about(open_call, store: Store) -> None:
    call = await open_call(None)
    turn = await call.send("hello, it's about my dad's account, he was billed twice and he's not great with phones")
    assert "account holder" in said(turn) and "just so i get this right" not in said(turn).lower(), said(turn)
    assert Ledger(store).list_refunds() == []


async def test_a_lock_declined_after_the_review_is_no_review_again(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("i got a weird sign in alert, can you look")
    turn = await call.send("nah don't bother locking it, it was probably me")
    assert "nothing was changed" in said(turn) and "sign-in attempts" not in said(turn), said(turn)
    assert "two-factor" not in said(turn), said(turn)


async def test_catch_ya_is_a_goodbye(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("what's my balance")
    turn = await call.send("ok sweet, catch ya")
    assert "Goodbye" in said(turn), said(turn)


async def test_yes_that_too_after_two_things_done_recaps_both(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("two things, bump us up to enterprise, and get an engineer to open a ticket on the 500s")
    await call.send("yes")
    turn = await call.send("yeah, both of them")
    assert "Enterprise" in said(turn) and "ticket" in said(turn) and "Could you tell me" not in said(turn), said(turn)


async def test_the_plan_said_as_who_the_caller_is_is_no_plan_change(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("so we're a tiny bakery on your enterprise plan, and this morning everything throws five hundreds")
    assert "technical.api_errors" in reached(turn) and "billing.plan_change" not in reached(turn), said(turn)


async def test_what_the_api_is_used_for_is_no_set_up_question(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("we use your api for like order syncing, and since lunch we keep getting too many requests errors")
    assert "429" in said(turn) and "technical.integration_help" not in reached(turn), said(turn)


async def test_a_figure_said_back_before_goodbye_ends_the_call(open_call, store: Store) -> None:
    named = demo_invoice(store, "C1003", 2)[1].split()[0].lower()
    call = await open_call("C1003")
    await call.send(f"what did we pay in {named}")
    turn = await call.send("nine ninety nine, right, makes sense. thanks for checking, bye now")
    assert "Goodbye" in said(turn) and "failed API calls" not in said(turn), said(turn)


async def test_a_no_to_the_offer_with_a_goodbye_in_italian_ends_the_call(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("buonasera, vorrei passare al piano pro")
    turn = await call.send("no, ci devo pensare ancora. grazie mille, arrivederci")
    assert "Goodbye" in said(turn) and "anything else" not in said(turn), said(turn)


def test_done_for_now_is_no_yes() -> None:
    # "ok thats all thank you" to a read-back: a caller who is done (heard at 8 kHz too); a clear
    # yes beside it still is one
    from domains.intent import yes_or_no
    assert yes_or_no("ok thats all thank you") is None
    assert yes_or_no("yes, that's all") is True


async def test_out_of_the_contract_is_the_closure(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("look i just want out of this contract, end it please")
    assert "To confirm: close account C1002" in said(turn), said(turn)


async def test_my_rate_limit_asked_is_the_plans_limit(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("um what's our current rate limit again")
    assert "600" in said(turn) and "failed API calls" not in said(turn), said(turn)


async def test_it_says_locked_is_a_sign_in_problem(open_call, store: Store) -> None:
    call = await open_call("C1004")
    turn = await call.send("the login page says locked and i didn't do anything")
    assert "account.login_help" in reached(turn) and "unlocked" in said(turn), said(turn)


async def test_ok_thanks_after_an_answer_that_offers_something_takes_nothing_up(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("what would pro run me a month")
    turn = await call.send("ok thanks")
    assert "To confirm" not in said(turn), said(turn)
    call = await open_call("C1005")
    await call.send("um i think someone's been in my account")
    turn = await call.send("ok cheers")
    assert "To confirm" not in said(turn), said(turn)


async def test_a_check_back_the_answer_denies_is_not_confirmed(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await call.send("it says my account is locked")
    turn = await call.send("so it's locked, right?")
    assert not said(turn).startswith("Yes:"), said(turn)
