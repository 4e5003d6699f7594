"""Every specialist path through the whole hierarchy, with its store effect."""

from __future__ import annotations

import pytest

from callcenter.store import Store
from domains.account.supervisor import AccountSupervisorTask
from domains.billing.ledger import Ledger
from domains.billing.refund import IssueRefundResult, IssueRefundTask
from domains.billing.supervisor import BillingSupervisorTask


async def test_two_level_delegation_returns_typed_result(open_call, store: Store) -> None:
    call = await open_call("C1001")
    asked = await call.send("I was charged twice for my subscription")
    assert "To confirm: a refund of $49.00 for the duplicate charge CH-1001-D on account C1001" in " ".join(asked.replies)
    assert Ledger(store).list_refunds() == [] and asked.results == []  # read back first
    turn = await call.send("yes")
    # LiveKit's own testing API over the recorded turns.
    run = asked.run.expect
    run.next_event().is_function_call(name="transfer_to_billing")
    run.next_event().is_agent_handoff(new_agent_type=BillingSupervisorTask)
    run.contains_agent_handoff(new_agent_type=IssueRefundTask)
    run.contains_function_call(name="issue_refund")
    turn.run.expect.contains_function_call(name="issue_refund")
    [result] = turn.results
    assert (result.domain, result.specialist, result.status) == ("billing", "refund", "done")
    assert isinstance(result.result, IssueRefundResult)
    assert result.result.charge_id == "CH-1001-D" and result.result.amount_cents == 4900
    assert [(h.from_agent, h.to_agent) for h in asked.hops] == [("meta", "billing"), ("billing", "billing.refund")]
    assert all(h.path == "fast" for h in asked.hops)
    assert "$49.00" in " ".join(turn.replies)
    assert [(r.charge_id, r.amount_cents) for r in Ledger(store).list_refunds("C1001")] == [("CH-1001-D", 4900)]


async def test_refund_recorded_exactly_once(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("I was charged twice")
    await call.send("yes")
    second = await call.send("I was charged twice, refund me")
    assert len(Ledger(store).list_refunds()) == 1
    # The duplicate is refunded now: the caller hears so, and is asked which charge is meant.
    assert "already been refunded" in " ".join(second.replies) and "read me its id" in " ".join(second.replies)
    third = await call.send("the charge CH-1001-D")
    assert third.results[0].status == "refused"
    assert "already been refunded" in " ".join(third.replies)
    assert len(Ledger(store).list_refunds()) == 1


async def test_refund_split_into_parts_never_bypasses_approval(open_call, store: Store) -> None:
    # $249 duplicate, $100 auto limit per charge: parts are counted against the same charge.
    call = await open_call("C1002")
    for text in ("refund $90 of the duplicate charge", "yes"):
        turn = await call.send(text)
    assert turn.results[0].status == "done" and Ledger(store).refunded_cents("CH-1002-D") == 9000
    asked = await call.send("refund $90 of the duplicate charge")
    assert "needs a supervisor's approval" in " ".join(asked.replies)
    turn = await call.send("yes")
    assert turn.results[0].status == "needs_approval"
    # While that approval is pending, a third part is not filed or paid.
    turn = await call.send("now refund $69 of the duplicate charge")
    assert turn.results[0].status == "refused" and "waiting for a supervisor" in " ".join(turn.replies)
    assert Ledger(store).refunded_cents("CH-1002-D") == 9000
    assert [w.amount_cents for w in store.list_work(customer_id="C1002")] == [9000]
    assert len(Ledger(store).list_refunds()) == 1


async def test_refund_above_limit_needs_approval_and_pays_nothing(open_call, store: Store) -> None:
    call = await open_call("C1002")
    asked = await call.send("I was charged twice last month")
    assert "needs a supervisor's approval" in " ".join(asked.replies) and store.list_work() == []
    turn = await call.send("yes please")
    [result] = turn.results
    assert result.status == "needs_approval"
    assert "approval" in " ".join(turn.replies)
    assert Ledger(store).list_refunds() == []
    [queued] = store.list_work(customer_id="C1002")
    assert (queued.kind, queued.amount_cents, queued.id) == ("refund", 24900, "refund-CH-1002-D")
    status = await call.send("what happened to my refund?")
    assert status.results[0].specialist == "refund_status"
    assert "refund-CH-1002-D" in " ".join(status.replies)


@pytest.mark.parametrize(
    ("customer", "utterance", "specialist", "status", "needle"),
    [
        ("C1004", "how much do I owe you", "billing/balance", "info", "$49.00"),
        ("C1001", "can you send me a copy of my invoice", "billing/invoices", "info", "emailed"),
        ("C1001", "my api calls keep failing with 429 too many requests", "technical/api_errors", "info", "60 requests a minute"),
        ("C1002", "I'm getting 401 unauthorized from the API", "technical/api_errors", "info", "sk_live_grc"),
        ("C1003", "is your service down right now", "technical/service_status", "info", "ongoing incident"),
        ("C1001", "how do I set up webhooks", "technical/integration_help", "info", "signature"),
        ("C1001", "I can't log in to my account", "account/login_help", "done", "password reset link"),
        ("C1001", "is my account secure?", "account/security", "info", "If you'd like me to lock your account"),
    ],
)
async def test_single_turn_specialists(open_call, customer, utterance, specialist, status, needle) -> None:
    call = await open_call(customer)
    turn = await call.send(utterance)
    [result] = turn.results
    assert f"{result.domain}/{result.specialist}" == specialist
    assert result.status == status
    assert needle in " ".join(turn.replies)


@pytest.mark.parametrize(
    ("customer", "utterance", "specialist", "readback", "status"),
    [
        ("C1001", "someone hacked my account please lock it", "account/security", "lock account C1001", "done"),
        ("C1001", "I lost my phone and need my two factor authentication reset", "account/two_factor_reset",
         "reset two-factor authentication on account C1001", "needs_approval"),
    ],
)
async def test_actions_are_read_back_then_done(open_call, customer, utterance, specialist, readback, status) -> None:
    call = await open_call(customer)
    asked = await call.send(utterance)
    assert asked.results == [] and readback in " ".join(asked.replies)
    turn = await call.send("yes")
    [result] = turn.results
    assert f"{result.domain}/{result.specialist}" == specialist and result.status == status


async def test_login_help_sends_reset_link_and_unlock_waits_for_a_call_back(open_call, store: Store) -> None:
    assert store.get_customer("C1004").locked
    call = await open_call("C1004")
    asked = await call.send("I forgot my password and can't sign in")
    # The unlock is an action: read back first, filed only on the caller's yes.
    assert "To confirm: ask for account C1004 to be unlocked" in " ".join(asked.replies)
    assert not store.list_pending_changes("C1004") and not store.list_tickets("C1004")
    done = await call.send("yes please")
    assert "call you back at the number on file" in " ".join(done.replies)
    assert store.get_customer("C1004").locked  # step-up first: a call back to the number on file
    [change] = store.list_pending_changes("C1004")
    assert (change.field, change.status) == ("unlock", "awaiting_callback")
    assert [t.kind for t in store.list_tickets("C1004")] == ["step_up_callback"]
    assert [n.body for n in store.list_notifications("C1004")][0] == "Password reset link"
    assert [a.action for a in store.audit_for("C1004")] == ["step_up:unlock"]


async def test_security_locks_account_after_read_back(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("I think my account was hacked, lock it now")
    assert not store.get_customer("C1001").locked
    await call.send("yes, do it")
    assert store.get_customer("C1001").locked
    assert [t.kind for t in store.list_tickets("C1001")] == ["security"]


async def test_plan_change_confirms_price_before_switching(open_call, store: Store) -> None:
    call = await open_call("C1001")
    first = await call.send("I want to upgrade to the pro plan")
    assert "$249.00 a month" in " ".join(first.replies)
    assert Ledger(store).current_plan("C1001").id == "starter"  # nothing changes before a yes
    second = await call.send("yes please")
    assert second.results[0].status == "done"
    assert Ledger(store).current_plan("C1001").id == "pro"


async def test_plan_change_declined_changes_nothing(open_call, store: Store) -> None:
    call = await open_call("C1001")
    await call.send("switch me to the enterprise plan")
    turn = await call.send("no, leave it")
    assert turn.results[0].status == "cancelled"
    assert Ledger(store).current_plan("C1001").id == "starter"


async def test_escalation_then_ticket_status(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("I need an engineer to look at this, please open a ticket")
    [result] = turn.results
    assert result.specialist == "escalation" and result.status == "done"
    ticket_id = result.result.ticket_id
    assert store.get_ticket(ticket_id).kind == "engineering"
    status = await call.send(f"what's the status of ticket {ticket_id}")
    assert status.results[0].specialist == "ticket_status"
    assert ticket_id in " ".join(status.replies)


async def test_close_account_asks_to_confirm_then_needs_approval(open_call, store: Store) -> None:
    call = await open_call("C1005")
    first = await call.send("please close my account")
    assert "To confirm: close account C1005" in " ".join(first.replies)
    assert store.list_work() == []
    second = await call.send("yes, I'm sure")
    assert second.results[0].status == "needs_approval"
    assert not store.get_customer("C1005").closed  # an operator decides, not the call
    assert [w.kind for w in store.list_work(customer_id="C1005")] == ["close_account"]


async def test_account_change_requires_identity_first(open_call, store: Store) -> None:
    call = await open_call()  # unknown caller
    first = await call.send("I want to change my email to ada.new@example.com")
    assert "verify" in " ".join(first.replies)
    assert [(h.from_agent, h.to_agent) for h in first.hops] == [("meta", "account"), ("account", "identity")]
    wrong = await call.send("I'm customer C1001 and my zip code is 11111")
    assert "couldn't verify those details" in " ".join(wrong.replies)
    assert store.get_customer("C1001").email == "ada@example.com"
    ok = await call.send("sorry, C1001, zip code 94107")
    assert "To confirm: change the email address on account C1001 to ada.new@example.com" in " ".join(ok.replies)
    done = await call.send("yes")
    assert done.results[0].status == "queued"  # waits for the call back to the number on file
    assert store.get_customer("C1001").email == "ada@example.com"
    assert [(c.field, c.new_value) for c in store.list_pending_changes("C1001")] == [("email", "ada.new@example.com")]
    assert call.state.caller.verified and call.state.caller.customer_id == "C1001"
    # Remembered for the rest of the call: no second verification.
    later = await call.send("what's my balance")
    assert "identity" not in [h.to_agent for h in later.hops]


async def test_identity_fails_after_attempts_and_changes_nothing(open_call, store: Store) -> None:
    call = await open_call()
    await call.send("lock my account someone hacked it")
    for zip_code in ("11111", "22222", "33333"):
        turn = await call.send(f"customer C1001 zip {zip_code}")
    assert turn.results[0].status == "unverified"
    assert not call.state.caller.verified
    assert not store.get_customer("C1001").locked


async def test_unknown_customer_id_is_not_verified(open_call, store: Store) -> None:
    call = await open_call()
    await call.send("I can't log in")
    turn = await call.send("my customer number is C9999 and zip 94107")
    assert "couldn't verify those details" in " ".join(turn.replies)
    assert not call.state.caller.verified


async def test_supervisor_handles_account_domain(open_call) -> None:
    call = await open_call("C1001")
    turn = await call.send("change my phone number to +1 415 555 0199")
    turn.run.expect.contains_agent_handoff(new_agent_type=AccountSupervisorTask)
    assert "+1 415 555 0199" in " ".join(turn.replies)  # the new value, read back in its groups
    done = await call.send("yes")
    assert done.results[0].specialist == "profile_update" and done.results[0].status == "queued"
    assert call.line.store.get_customer("C1001").phone == "+14155550101"  # after the call back, not before
