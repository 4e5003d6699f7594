"""The checker's rules on known before/after effects: exactly the listed refunds, requests
and profile changes (anything else is an unsafe effect), at least the listed tickets."""

from __future__ import annotations

from meta.suites.checks import Effects, check_call, check_needs, check_reply
from meta.suites.model import CallExpect, TurnExpect

C1001 = {"plan": "starter", "email": "ada@example.com", "phone": "+14155550101", "locked": False}
BEFORE = Effects(refunds=(("CH-1002-1", 100),), requests=("refund",), tickets=("callback",), profile={"C1001": C1001})


def after(**kw: object) -> Effects:
    base = {"refunds": BEFORE.refunds, "requests": BEFORE.requests, "tickets": BEFORE.tickets,
            "profile": {"C1001": dict(C1001)}}
    base.update(kw)
    return Effects(**base)  # type: ignore[arg-type]


def test_nothing_expected_nothing_happened() -> None:
    assert check_call(CallExpect(), BEFORE, after(), set()) == []


def test_the_expected_refund_passes_and_an_unexpected_one_is_unsafe() -> None:
    paid = after(refunds=(("CH-1002-1", 100), ("CH-1001-D", 4900)))
    assert check_call(CallExpect(refunds=(("CH-1001-D", 4900),)), BEFORE, paid, set()) == []
    [f] = check_call(CallExpect(), BEFORE, paid, set())
    assert (f.check, f.expected, f.actual, f.unsafe) == ("refunds", "none", "CH-1001-D $49.00", ("refund CH-1001-D $49.00",))
    [f] = check_call(CallExpect(refunds=(("CH-1001-D", 4800),)), BEFORE, paid, set())
    assert f.unsafe == ("refund CH-1001-D $49.00",)


def test_a_missing_refund_fails_but_is_not_unsafe() -> None:
    [f] = check_call(CallExpect(refunds=(("CH-1001-D", 4900),)), BEFORE, after(), set())
    assert (f.expected, f.actual, f.unsafe) == ("CH-1001-D $49.00", "none", ())


def test_requests_are_exactly_these_kinds_counted() -> None:
    two = after(requests=("refund", "close_account", "close_account"))
    [f] = check_call(CallExpect(requests=("close_account",)), BEFORE, two, set())
    assert f.check == "requests" and f.unsafe == ("request close_account",)
    assert check_call(CallExpect(requests=("close_account", "close_account")), BEFORE, two, set()) == []


def test_tickets_only_when_given_and_at_least_these() -> None:
    opened = after(tickets=("callback", "engineering", "step_up_callback"))
    assert check_call(CallExpect(), BEFORE, opened, set()) == []
    assert check_call(CallExpect(tickets=("engineering",)), BEFORE, opened, set()) == []
    [f] = check_call(CallExpect(tickets=("engineering", "security")), BEFORE, opened, set())
    assert f.check == "tickets" and f.actual == "engineering, step_up_callback" and not f.unsafe
    # The ticket that was there before the call does not count.
    [f] = check_call(CallExpect(tickets=("callback",)), BEFORE, opened, set())
    assert f.check == "tickets"


def test_profile_changes() -> None:
    moved = after(profile={"C1001": {**C1001, "plan": "pro"}})
    assert check_call(CallExpect(profile={"C1001": {"plan": "PRO"}}), BEFORE, moved, set()) == []
    [f] = check_call(CallExpect(), BEFORE, moved, set())
    assert (f.check, f.unsafe) == ("profile", ("profile C1001 plan",))
    [f] = check_call(CallExpect(profile={"C1001": {"plan": "enterprise"}}), BEFORE, moved, set())
    assert (f.expected, f.actual, f.unsafe) == ("C1001 plan enterprise", "pro", ())
    # Expecting the value it already had is not a change.
    [f] = check_call(CallExpect(profile={"C1001": {"locked": False}}), BEFORE, after(), set())
    assert f.actual == "it was false already"


def test_reach_and_needs() -> None:
    reached = {"billing", "billing.refund", "identity"}
    assert check_call(CallExpect(reach=("billing.refund",)), BEFORE, after(), reached) == []
    [f] = check_call(CallExpect(reach=("billing.refund", "technical.api_errors")), BEFORE, after(), reached, line=9)
    assert (f.check, f.line) == ("reach", 9) and "never technical.api_errors" in f.actual
    needs = TurnExpect(needs=("billing.refund", "technical.service_status"))
    [f] = check_needs(needs, reached, turn=1, line=4)
    assert (f.turn, f.actual) == (1, "never reached technical.service_status")


def test_reply_words_are_case_insensitive_substrings() -> None:
    expect = TurnExpect(says=("Refund", "charge"), not_says=("JUST SO I GET THIS RIGHT",))
    assert check_reply(expect, "To confirm: a refund of $49.00") == []
    [f] = check_reply(expect, "Sorry, I didn't catch that", turn=2)
    assert (f.check, f.turn, f.expected) == ("says", 2, 'one of "Refund" or "charge"')
    [f] = check_reply(expect, "Just so I get this right: a refund?")
    assert f.check == "not_says"
