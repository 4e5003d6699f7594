"""Who may verify: guessing is throttled per account whichever identifier names it (customer
number, email, phone) and per calling line; a caller who is not the account holder is told
what the holder must do, and nothing is filed.

The first two tests run `callcenter call` as a user does, one process per call, all on one
data dir; the others drive whole calls in-process like tests/safety/test_calls.py.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from callcenter.store import Store
from domains.billing.ledger import Ledger
from meta.session import Call
from tests.conftest import callcenter, cli_env


def _call(env: dict[str, str], *turns: str) -> list[dict]:
    proc = callcenter("call", "--json", "--no-durable", input="\n".join(turns) + "\n", env=env, timeout=240)
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


def _rows(data_dir: Path, sql: str) -> list[tuple]:
    with sqlite3.connect(data_dir / "callcenter.sqlite3") as db:
        return db.execute(sql).fetchall()


async def converse(call: Call, *texts: str) -> list[str]:
    return [" ".join((await call.send(t)).replies) for t in texts]


def test_a_lockout_by_customer_number_holds_for_the_email_and_phone_of_that_account(data_dir: Path) -> None:
    env = cli_env(data_dir, CALLCENTER_VERIFICATION_LOCKOUT_FAILURES="3")
    _call(env, "what's my balance", "C1001 zip 11111", "C1001 zip 22222", "C1001 zip 33333")  # three guesses: locked
    by_email = _call(env, "what's my balance", "my email is ada@example.com and my zip is 94107")
    by_phone = _call(env, "what's my balance", "my phone number is +1 415 555 0101, zip 94107")
    for turns in (by_email, by_phone):
        assert "couldn't verify" in turns[2]["reply"] and "$" not in turns[2]["reply"], turns[2]
    outcomes = _rows(data_dir, "SELECT customer_id, outcome FROM verification_attempts ORDER BY id")
    assert outcomes == [("C1001", "failure")] * 3 + [("C1001", "locked_out")] * 2  # one count: the account's


def test_a_third_party_is_told_what_the_holder_must_do_and_nothing_is_filed(data_dir: Path) -> None:
    env = cli_env(data_dir)
    turns = _call(env, "hi, this is his wife, his account is C1002 and he was charged twice", "C1002, zip 10001", "yes")
    said = " ".join(t["reply"] for t in turns[1:])
    assert "only help the account holder" in said and "needs to call us themselves" in said, said
    assert "To confirm" not in said and "refund" not in said.lower()
    for table in ("work_requests", "refunds", "tickets", "pending_changes", "verification_attempts"):
        assert _rows(data_dir, f"SELECT * FROM {table}") == [], table  # noqa: S608 - the test's own table names


async def test_guessing_by_email_then_phone_counts_against_the_account(open_call, store: Store) -> None:
    for guess in ("my email is ada@example.com zip 11111", "my phone is 415 555 0101 zip 22222", "C1001 zip 33333",
                  "ADA@example.com, zip 44444", "phone +14155550101 and zip 55555"):
        call = await open_call()
        await converse(call, "I can't log in", guess)
    call = await open_call()
    said = await converse(call, "what's my balance", "my email is ada@example.com and my zip is 94107")
    assert not call.state.caller.verified and "couldn't verify" in said[1]
    assert [a[3] for a in store.verification_attempts(customer_id="C1001")] == ["failure"] * 5 + ["locked_out"]


async def test_verifying_by_phone_works(open_call) -> None:
    call = await open_call()
    said = await converse(call, "what's my balance", "my phone number is 415 555 0102 and my zip is 10001")
    assert call.state.caller.verified and call.state.caller.customer_id == "C1002", said


async def test_a_success_on_one_account_does_not_clear_a_line_guessing_others(open_call, store: Store) -> None:
    line = "+15550004242"
    for cid in ("C1002", "C1003"):
        call = await open_call(caller_line=line)
        await converse(call, "I can't log in", f"{cid} zip 00000", f"{cid} zip 00001")
        own = await open_call(caller_line=line)
        await converse(own, "what's my balance", "C1005 zip 97201")  # the guesser's own account, right
        assert own.state.caller.verified
    call = await open_call(caller_line=line)  # four failures, one more: the line is locked out
    await converse(call, "I can't log in", "C1004 zip 00002")
    call = await open_call(caller_line=line)
    await converse(call, "what's my balance", "C1005 zip 97201")
    assert not call.state.caller.verified


async def test_saying_it_is_someone_elses_account_after_verifying_files_nothing(open_call, store: Store) -> None:
    call = await open_call()
    said = await converse(call, "what's my balance", "C1002 zip 10001", "oh and to be honest it's his account, not mine",
                          "he was charged twice, refund it", "yes")
    assert "$" in said[1], said  # the balance was said before they told us ...
    # ... and from then on the one speaking is not taken for the verified holder (session 43)
    assert not call.state.caller.verified
    assert "To confirm" not in " ".join(said[3:]) and "only help the account holder" in said[3], said  # ... nothing more
    assert Ledger(store).list_refunds() == [] and store.list_work() == []


def test_third_party_phrases() -> None:
    from domains.holder import third_party

    for text in ("i'm calling for my husband", "this is his wife, his account is C1002", "I'm her assistant",
                 "calling on behalf of my mother", "he asked me to call about the refund", "the account is in my dad's name",
                 "she's the account holder", "it's my wife's account", "his customer number is C1002"):
        assert third_party(text), text
    for text in ("i was charged twice", "my wife says i was charged twice", "send the invoice to my wife and me",
                 "I want to close my account", "this is Grace, my account is C1002", "what is his name"):
        assert not third_party(text), text
