"""Callers who say who they are first (issue 25, identity_first): the customer number and ZIP
code, as words, before or with the need, or alone and the need next. Each such call verifies
once and goes on to the need; identity is never asked again and is never read as a need of
its own (callcenter/routing/identity_words.py). Callers' words, digits spoken as words.
"""

from __future__ import annotations

import pytest

from callcenter.routing.identity_words import without_identity
from callcenter.store import Store
from domains.billing.ledger import Ledger

ASKED = "customer number"


def said(turn) -> str:
    return " ".join(turn.replies)


@pytest.mark.parametrize(("words", "expected"), [
    ("hey there my customer number is c one zero zero one and my zip is nine four one zero seven, i got charged twice",
     "To confirm: a refund of $49.00"),
    ("good morning um account c one oh oh two, postal code one zero zero zero one, i want to switch to starter",
     "To confirm: switch account C1002 to the Starter plan"),
    ("c one oh oh one. nine four one oh seven. i need my two factor reset",
     "To confirm: reset two-factor authentication on account C1001"),
    ("hello, ada at example dot com, zip nine four one oh seven, uh i was charged twice",
     "To confirm: a refund of $49.00"),
])
async def test_identity_and_need_in_one_breath_verify_then_go_to_the_need(open_call, store: Store, words, expected) -> None:
    call = await open_call()
    reply = said(await call.send(words))
    assert expected in reply and ASKED not in reply.lower(), reply
    turn = await call.send("yes please")
    assert turn.results and turn.results[-1].status in ("done", "needs_approval"), said(turn)
    assert ASKED not in said(turn).lower()


async def test_identity_with_a_name_then_the_need_next_turn(open_call) -> None:
    call = await open_call()
    reply = said(await call.send("hello this is ada, c one oh oh one, zip nine four one oh seven"))
    assert "you're verified" in reply and "Just so I get this right" not in reply, reply
    turn = await call.send("uh yeah so can you email me my invoices")
    assert "invoices" in said(turn).lower() and ASKED not in said(turn).lower(), said(turn)


async def test_identity_then_two_needs_of_two_departments(open_call, store: Store) -> None:
    call = await open_call()
    turn = await call.send("hiya its c one oh oh one zip code nine four one oh seven. i was billed twice and is the api down")
    reply = said(turn)
    assert "incident" in reply and "refund of $49.00" in reply and ASKED not in reply.lower(), reply
    await call.send("yep")
    assert [r.charge_id for r in Ledger(store).list_refunds()] == ["CH-1001-D"]


def test_what_is_cut_and_what_is_left() -> None:
    assert without_identity("hi its C1002 zip 10001, whats my balance") == "hi. whats my balance"
    assert without_identity("my name is grace C1002 zip 10001") == ""
    assert without_identity("C1001 zip 94107 im locked out") == "im locked out"
    assert without_identity("my card ending 4242 was declined") == "my card ending 4242 was declined"
    # a new email said with the ZIP is the value to change to, not who the caller is
    assert without_identity("change my email to bob@new.com, my zip is 94107") == "change my email to bob@new.com"


async def test_the_email_on_file_as_identity_with_a_need(open_call) -> None:
    call = await open_call()
    reply = said(await call.send("hello, ada at example dot com zip nine four one oh seven, i need my invoices"))
    assert "Your recent invoices" in reply and "Is your question about webhooks" not in reply, reply


@pytest.mark.parametrize(("words", "expected"), [
    # A pause (a comma) between the number and the ZIP, the ZIP unnamed: two numbers, not one
    # nine-digit number (callcenter/spoken.py).
    ("hi it's c one oh oh five, nine seven two oh one, whats my balance", "balance"),
    # A ZIP, a pause, then "two things": the two is not run into the ZIP.
    ("c one oh oh one zip nine four one oh seven, two things. i was charged twice and is the api down", "incident"),
])
async def test_a_pause_after_the_number_ends_it(open_call, words, expected) -> None:
    call = await open_call()
    reply = said(await call.send(words))
    assert call.state.caller.verified and expected in reply.lower() and ASKED not in reply.lower(), reply
