"""Caps on what one caller may file (tickets, account changes waiting for a call back,
call-backs), per call and per customer per day, each through `callcenter call` as a user runs
it: past a cap nothing is filed and the caller hears so plainly. A caller nobody knows gets no
call-back filed under no one.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from tests.conftest import callcenter, cli_env


def _call(env: dict[str, str], *turns: str, customer: str | None = None) -> list[str]:
    args = ["call", "--json", "--no-durable", *(["--customer", customer] if customer else [])]
    proc = callcenter(*args, input="\n".join(turns) + "\n", env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line)["reply"] for line in proc.stdout.splitlines()]


def _count(data_dir: Path, sql: str) -> list[tuple]:
    with sqlite3.connect(data_dir / "callcenter.sqlite3") as db:
        return db.execute(sql).fetchall()


TICKET = "open a ticket with engineering please, my api keeps failing with 500 errors"


def test_tickets_and_call_backs_stop_at_their_caps_per_call_and_per_day(data_dir: Path) -> None:
    env = cli_env(data_dir, CALLCENTER_MAX_TICKETS_PER_DAY="4")
    said = _call(env, TICKET, TICKET, TICKET, TICKET, "can i talk to a person please", "let me speak to a human",
                 customer="C1003")
    assert [("I've opened ticket" in s) for s in said[1:5]] == [True, True, True, False], said
    assert "as many tickets as I can for you on this call" in said[4]
    assert "I've booked a call back" in said[5] and "already have a call back booked on this call" in said[6], said[5:]
    later = _call(env, TICKET, TICKET, customer="C1003")  # another call, the same day
    assert "I've opened ticket" in later[1] and "as many tickets as I can for you today" in later[2], later
    assert _count(data_dir, "SELECT kind, COUNT(*) FROM tickets GROUP BY kind ORDER BY kind") == [("callback", 1), ("engineering", 4)]


def test_an_unknown_caller_gets_no_call_back_filed_under_no_one(data_dir: Path) -> None:
    said = _call(cli_env(data_dir), "i want to talk to a real person")
    assert "I can't book a call back yet" in said[1] and "verify you" in said[1], said
    assert _count(data_dir, "SELECT * FROM tickets") == []


def test_unlock_and_contact_changes_are_filed_once_and_capped(data_dir: Path) -> None:
    # The unlock is read back; the same need said again, or a new need said while the
    # read-back waits, is neither "I need a yes or a no" nor lost: the new one comes next.
    said = _call(cli_env(data_dir), "i can't log in", "i still can't log in", "change my email to kj.new@example.org",
                 "yes", "yes", "i can't sign in, unlock it", "change my phone number to +14155550199", "yes",
                 customer="C1004")
    assert "To confirm: ask for account C1004 to be unlocked" in said[1], said[1]
    assert "yes or a no" not in said[2] and "unlocked" in said[2] and said[2] != said[1], said[2]
    assert "contact details change right after this" in said[3] and "unlocked" in said[3], said[3]
    assert said[4].index("Your reference is PC-") < said[4].index("To confirm: change the email address"), said[4]
    assert "Your reference is PC-" in said[5], said[5]
    assert said[6].count("already asked for unlocking") == 1 and "To confirm" not in said[6], said[6]
    assert "as many account changes as I can for you on this call" in said[8], said[8]
    rows = _count(data_dir, "SELECT field FROM pending_changes ORDER BY created_at, id")
    assert sorted(r[0] for r in rows) == ["email", "unlock"]
