"""Whole calls for each attack class of issue 10, through meta.session like `callcenter call`.

Fresh cases of the same kind as the issue's reproductions; every test checks the store.
"""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime, timedelta

import pytest

from callcenter.store import Store
from domains.billing.ledger import Ledger
from meta.session import Call


async def converse(call: Call, *texts: str) -> list[str]:
    """Send each turn; return the agent's words per turn."""
    return [" ".join((await call.send(t)).replies) for t in texts]


def _money(store: Store) -> tuple:
    return ([(r.charge_id, r.amount_cents, r.approved_by) for r in Ledger(store).list_refunds()], [(w.id, w.amount_cents) for w in store.list_work()])


# --- approval bypassed by splitting --------------------------------------------------------
async def test_split_refunds_across_turns_and_calls_never_skip_approval(open_call, store: Store) -> None:
    call = await open_call("C1002")
    said = await converse(call, "uh refund $75 of the duplicate charge", "yes", "and another $75 of the duplicate charge", "yes")
    assert "I've refunded $75.00" in said[1] and "needs a supervisor's approval" in said[2]
    # A new call does not reset the count: the pending approval and the refund are in the ledger.
    again = await open_call("C1002")
    said = await converse(again, "refund $50 of the double charge", "yes")
    assert "waiting for a supervisor's approval" in said[0]
    refunds, work = _money(store)
    assert refunds == [("CH-1002-D", 7500, None)] and work == [("refund-CH-1002-D", 7500)]


async def test_per_customer_period_limit_spans_charges(open_call, store: Store) -> None:
    # Three separate $60 duplicates: each under the $100 per-charge limit; the third crosses
    # the $150 per customer per 30 days.
    conn = store._conn()  # noqa: SLF001 - test data: more duplicate charges for one customer
    now = datetime.now(UTC).replace(microsecond=0)
    for i in (1, 2, 3):
        at = now - timedelta(days=i)
        conn.execute("INSERT INTO charges VALUES (?, 'C1005', 6000, ?, ?, NULL)", (f"CH-1005-A{i}", f"Add-on {i}", at.isoformat()))
        conn.execute("INSERT INTO charges VALUES (?, 'C1005', 6000, ?, ?, NULL)", (f"CH-1005-B{i}", f"Add-on {i}", (at + timedelta(minutes=4)).isoformat()))
    call = await open_call("C1005")
    said = await converse(call, "refund charge CH-1005-B1", "yes", "refund charge CH-1005-B2", "yes", "refund charge CH-1005-B3")
    assert "I've refunded $60.00" in said[1] and "I've refunded $60.00" in said[3]
    assert "needs a supervisor's approval" in said[4]  # $120 paid + $60 > $150 per customer per 30 days
    assert sum(r.amount_cents for r in Ledger(store).list_refunds("C1005")) == 12000


# --- ordinary and overdue charges ------------------------------------------------------------
@pytest.mark.parametrize(("customer", "charge"), [("C1005", "CH-1005-1"), ("C1003", "CH-1003-3"), ("C1001", "CH-1001-2")])
async def test_ordinary_charges_are_not_refundable_on_request(open_call, store: Store, customer: str, charge: str) -> None:
    call = await open_call(customer)
    said = await converse(call, f"please refund {charge}, I don't want to pay it", "yes")
    assert "can't refund it by phone" in said[0]
    assert _money(store) == ([], [])


async def test_overdue_invoice_charge_is_not_refunded_even_if_duplicated(open_call, store: Store) -> None:
    first = Ledger(store).get_charge("CH-1004-1")
    at = (datetime.fromisoformat(first.charged_at) + timedelta(minutes=2)).isoformat()
    store._conn().execute(  # noqa: SLF001 - a duplicate of the charge on Katherine's overdue invoice
        "INSERT INTO charges VALUES ('CH-1004-D', 'C1004', ?, ?, ?, ?)", (first.amount_cents, first.description, at, first.invoice_id)
    )
    call = await open_call("C1004")
    said = await converse(call, "I got charged twice, refund CH-1004-D", "yes")
    assert "overdue invoice" in said[0]
    assert _money(store) == ([], [])


# --- account takeover through verification ------------------------------------------------
async def test_guessing_is_throttled_across_calls_and_audited(open_call, store: Store) -> None:
    for zip_code in ("11111", "22222", "33333", "44444", "55555"):
        call = await open_call()
        await converse(call, "I can't log in to my account", f"customer C1003, zip {zip_code}")
    call = await open_call()  # a sixth call with the right ZIP: locked out for a while
    said = await converse(call, "I can't log in", "it's C1003 zip 60601")
    assert not call.state.caller.verified and "couldn't verify" in said[1]
    outcomes = [a[3] for a in store.verification_attempts(customer_id="C1003")]
    assert outcomes == ["failure"] * 5 + ["locked_out"]
    assert not store.list_pending_changes() and not store.list_notifications("C1003")


async def test_one_calling_line_guessing_many_customers_is_locked_out(open_call, store: Store) -> None:
    line = "+15550009999"
    for cid in ("C1001", "C1002", "C1005", "C1001", "C1002"):
        call = await open_call(caller_line=line)
        await converse(call, "close my account", f"{cid} zip 00000")
    call = await open_call(caller_line=line)
    await converse(call, "what's my balance", "C1005 zip 97201")  # right, but from a line that just guessed
    assert not call.state.caller.verified
    other = await open_call(caller_line="+15550001234")
    await converse(other, "what's my balance", "C1005 zip 97201")
    assert other.state.caller.verified


async def test_guesses_within_one_call_do_not_reset_per_request(open_call, store: Store) -> None:
    call = await open_call()
    said = await converse(
        call, "I can't log in", "C1001 zip 11110", "what is my balance", "C1001 zip 11111", "close my account", "C1001 zip 11112",
        "change my email please", "what is my balance", "C1001 zip 94107",
    )
    assert "couldn't verify your identity" in said[5] and "couldn't verify your identity" in said[6]
    # After three failures no new request gets another guess: the right ZIP is never checked.
    assert not call.state.caller.verified
    assert [a[3] for a in store.verification_attempts(customer_id="C1001")] == ["failure"] * 3


async def test_replies_do_not_disclose_which_ids_or_emails_exist(open_call) -> None:
    known = await open_call()
    unknown = await open_call()
    a = await converse(known, "I can't log in", "C1002 zip 99999")
    b = await converse(unknown, "I can't log in", "C7777 zip 99999")
    # The read-back repeats what the caller said, digit by digit (issue 26); nothing else differs.
    assert "C 1 0 0 2" in a[1] and "C 7 7 7 7" in b[1]
    assert a[1].replace("C 1 0 0 2", "X") == b[1].replace("C 7 7 7 7", "X")
    ca = await open_call("C1001")
    taken = await converse(ca, "change my email to grace@example.com")  # another customer's address
    cb = await open_call("C1005")
    free = await converse(cb, "change my email to nobody.yet@example.com")
    # the read-back names each caller's own number on file for the call back: masked before comparing
    on_file = re.compile(r"ending \d{4}")
    assert "already" not in taken[0] and on_file.sub("Z", taken[0].replace("grace@example.com", "X").replace("C1001", "Y")) == on_file.sub(
        "Z", free[0].replace("nobody.yet@example.com", "X").replace("C1005", "Y"))


async def test_contact_change_and_unlock_need_a_call_back(open_call, store: Store) -> None:
    call = await open_call("C1004")
    said = await converse(call, "i forgot my password and i'm locked out", "yes", "change my phone number to +1 212 555 0188", "yes")
    assert store.get_customer("C1004").locked and store.get_customer("C1004").phone == "+14155550104"
    assert "ending 0104" in said[1] and "ending 0104" in said[3]  # the number on file, not the new one
    assert sorted(c.field for c in store.list_pending_changes("C1004")) == ["phone", "unlock"]


# --- actions nobody asked for ------------------------------------------------------------
@pytest.mark.parametrize("question", ["um is my account safe?", "has someone been logging into my account", "was my account compromised?"])
async def test_questions_are_answered_not_acted_on(open_call, store: Store, question: str) -> None:
    call = await open_call("C1001")
    said = await converse(call, question, "yes")
    assert "sign-in" in said[0]
    assert not store.get_customer("C1001").locked and not store.list_tickets("C1001")


async def test_email_said_in_passing_changes_nothing(open_call, store: Store) -> None:
    call = await open_call("C1002")
    await converse(call, "I think I was billed twice, you can reach me at g.hopper@newmail.example", "no")
    customer = store.get_customer("C1002")
    assert customer.email == "grace@example.com" and not store.list_pending_changes()


@pytest.mark.parametrize(
    "text",
    [
        "please reset two factor for customer C1005", "close the account C1003 for me",
        "my dad's account needs a two factor reset", "close this account, it's not my account",
    ],
)
async def test_another_customers_account_is_refused_and_nothing_filed(open_call, store: Store, text: str) -> None:
    call = await open_call("C1001")
    said = " ".join(await converse(call, text, "yes", "yes"))
    # Another customer's number is named, or the caller disowns the account (identity.py's words).
    assert "only make changes on the account you verified" in said or "only help the account holder" in said, said
    assert store.list_work() == [] and not store.get_customer("C1001").closed
    assert not store.get_customer("C1001").locked and store.get_customer("C1001").two_factor


# --- amounts misread ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "refund $5e2 for the double charge", "refund $2\u200b49 for the duplicate",
        "negative fifteen dollars for the duplicate", "two billion dollars for the double charge please",
        "they take $12 a month more than the price and I got charged twice", "refund $\uff12\uff10 for the double charge",
    ],
)
async def test_unclear_amounts_are_asked_and_move_nothing(open_call, store: Store, text: str) -> None:
    call = await open_call("C1002")
    said = await converse(call, text, "yes")
    assert "couldn't be sure" in said[0]
    assert _money(store) == ([], [])
    # A clear answer is then used as said.
    said = await converse(call, "$40", "yes")
    assert "$40.00" in said[0] and Ledger(store).refunded_cents("CH-1002-D") == 4000


async def test_a_spoken_amount_is_read_back_as_digits_before_anything_moves(open_call, store: Store) -> None:
    # The spoken-form normaliser turns "forty dollars" into $40 before the money policy reads it.
    call = await open_call("C1002")
    turn = await call.send("forty dollars back for the double charge")
    assert "To confirm: a refund of $40.00" in " ".join(turn.replies)
    assert _money(store) == ([], [])
    await call.send("yes")
    assert Ledger(store).refunded_cents("CH-1002-D") == 4000


# --- denial of service -------------------------------------------------------------------
@pytest.mark.parametrize("size", [4_000, 20_000])
async def test_one_long_word_then_a_need_is_fast(open_call, size: int) -> None:
    call = await open_call("C1001")
    t0 = time.perf_counter()
    turn = await call.send("Z" * size + " I was charged twice")
    assert time.perf_counter() - t0 < 5.0
    assert " ".join(turn.replies).strip()


async def test_a_long_answer_to_a_waiting_task_is_cut_too(open_call) -> None:
    call = await open_call("C1002")
    await call.send("refund fifty dollars for the duplicate")  # the refund task now waits for an amount
    t0 = time.perf_counter()
    turn = await call.send("q" * 30_000)
    assert time.perf_counter() - t0 < 5.0 and " ".join(turn.replies).strip()
    assert len(Ledger(call.state.store).list_refunds()) == 0


async def test_a_corrected_customer_number_acts_only_on_the_callers_own_account(open_call, store: Store) -> None:
    # Policy (issue 18 x 10): the last number said wins ("C1004, no sorry, C1001"), so a caller who
    # corrects themselves to their own verified account is not refused; the other account named
    # first is never touched, and whatever is filed is for the verified caller only.
    call = await open_call("C1001")
    await converse(call, "I want to close my account, it's customer C1004, no sorry, C1001", "yes", "yes")
    assert not store.get_customer("C1004").closed and not store.list_pending_changes("C1004")
    assert {w.customer_id for w in store.list_work()} <= {"C1001"}
