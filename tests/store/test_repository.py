"""The repository API behaves the same on the SQLite file and on PostgreSQL."""

from __future__ import annotations

import json

import pytest

from callcenter.store import Store
from callcenter.store import durable as d
from callcenter.store import operators as ops
from callcenter.store.migrate import HEAD
from domains.account.actions import cancel_step_ups
from domains.billing.ledger import Ledger
from domains.technical.status import StatusBoard


def test_new_database_is_current_and_seeded(store: Store) -> None:
    assert store.schema_version == HEAD
    ada = store.get_customer("c1001")  # ids are read case-insensitively, as callers say them
    assert ada is not None and ada.email == "ada@example.com"
    assert store.find_customer_by_email("ADA@example.com") == ada
    assert [p.id for p in Ledger(store).list_plans()] == ["starter", "pro", "enterprise"]
    assert Ledger(store).current_plan("C1001").id == "starter"  # type: ignore[union-attr]
    assert Ledger(store).get_charge("ch-1001-d").amount_cents == 4900  # type: ignore[union-attr]
    assert len(Ledger(store).list_charges("C1001")) == 4
    assert Ledger(store).balance_due_cents("C1004") > 0 and Ledger(store).balance_due_cents("C1001") == 0
    assert [i.id for i in StatusBoard(store).incidents(active_only=True)] == ["INC-42"]
    assert len(StatusBoard(store).api_usage("C1001")) >= 6
    assert [e.country for e in store.recent_logins("C1004")] == ["RO", "RO", "RO", "US"]


def test_refund_is_written_once_per_key_and_never_over_the_charge(store: Store) -> None:
    refund, created = Ledger(store).record_refund(charge_id="CH-1001-D", amount_cents=4000, reason="duplicate", idempotency_key="k1")
    assert created and refund.id is not None and refund.customer_id == "C1001"
    again, created = Ledger(store).record_refund(charge_id="CH-1001-D", amount_cents=4000, reason="duplicate", idempotency_key="k1")
    assert (again, created) == (refund, False)
    with pytest.raises(ValueError, match="exceeds"):
        Ledger(store).record_refund(charge_id="CH-1001-D", amount_cents=901, reason="more", idempotency_key="k2")
    Ledger(store).record_refund(charge_id="CH-1001-D", amount_cents=900, reason="rest", idempotency_key="k3")
    assert Ledger(store).refunded_cents("CH-1001-D") == 4900
    with pytest.raises(ValueError, match="unknown charge"):
        Ledger(store).record_refund(charge_id="CH-NOPE", amount_cents=1, reason="x", idempotency_key="k4")
    assert [r.idempotency_key for r in Ledger(store).list_refunds("C1001")] == ["k1", "k3"]
    assert Ledger(store).auto_refunded_since("C1001", "2000-01-01") == 4900


def test_card_numbers_are_masked_on_the_way_in(store: Store) -> None:
    ticket = store.create_ticket(customer_id="C1001", kind="callback", summary="card 4111 1111 1111 1111 failed")
    assert "4111 1111" not in ticket.summary and "1111" in ticket.summary


def test_tickets_outbox_notifications_and_audit(store: Store) -> None:
    t = store.create_ticket(customer_id="C1002", kind="engineering", summary="webhooks late", ticket_id="T-ABC123")
    assert store.create_ticket(customer_id="C1002", kind="engineering", summary="again", ticket_id="T-ABC123") == t
    store.set_ticket_status("T-ABC123", "resolved")
    assert store.get_ticket("t-abc123").status == "resolved"  # type: ignore[union-attr]
    assert [x.id for x in store.list_tickets(customer_id="C1002", kind="engineering")] == ["T-ABC123"]

    payload = json.dumps({"charge_id": "CH-1002-D", "amount_cents": 24900})
    w = store.queue_work(request_id="R-1", kind="refund", customer_id="C1002", amount_cents=24900, payload=payload)
    assert store.queue_work(request_id="R-1", kind="refund", customer_id="C1002", amount_cents=1, payload="{}") == w
    # Both payload formats name the record, under its name before 0.2 too; other kinds are apart.
    store.queue_work(request_id="R-2", kind="refund", customer_id="C1002", amount_cents=100,
                     payload=json.dumps({"type": "approval", "request": {"record_id": "CH-1002-1"}}))
    store.queue_work(request_id="R-3", kind="reship", customer_id="C1002", amount_cents=None, payload="{}")
    assert sorted(p.record_id or "" for p in store.pending_work("C1002", "refund")) == ["CH-1002-1", "CH-1002-D"]
    assert [p.request_id for p in store.pending_work("C1002", "reship")] == ["R-3"]
    store.set_work_status("R-1", "submitted")
    assert store.get_work("R-1").submitted_at is not None  # type: ignore[union-attr]
    assert [x.id for x in store.list_work(status="submitted")] == ["R-1"]

    assert store.add_notification(customer_id="C1002", channel="sms", body="hi", dedupe_key="n1") is True
    assert store.add_notification(customer_id="C1002", channel="sms", body="hi", dedupe_key="n1") is False
    store.add_audit(subject="R-1", action="asked", actor="line", reason="caller asked", customer_id="C1002")
    assert [a.action for a in store.audit_for("R-1")] == ["asked"]


def test_apply_once_runs_the_effect_once_and_keeps_order(store: Store) -> None:
    store.queue_work(request_id="R-2", kind="close_account", customer_id="C1005", amount_cents=None, payload="{}")
    d.apply_once(store, key="R-2:escalated-1", request_id="R-2", kind="close_account", customer_id="C1005", state="escalated")
    waiting = store.add_pending_change(customer_id="C1005", field="unlock", new_value=None)
    first, created = d.apply_once(
        store, key="R-2:decided", request_id="R-2", kind="close_account", customer_id="C1005", state="completed",
        decided_by="maria", detail="account C1005 closed", effect=cancel_step_ups("C1005"),
        audit=d.Audit("R-2", "approved", "maria", "ok", "supervisor", "C1005"),
        notice=d.Notice("C1005", "closed", "R-2:decided"),
    )
    assert created and first.detail == "account C1005 closed"
    assert store.pending_change(waiting.id).status == "cancelled"  # type: ignore[union-attr]
    again, created = d.apply_once(store, key="R-2:decided", request_id="R-2", kind="close_account",
                                  customer_id="C1005", state="denied")
    assert not created and again == first
    # Same-second steps come back in the order they were written.
    assert [o.state for o in d.outcomes_for(store, "R-2")] == ["escalated", "completed"]
    assert d.latest_outcome(store, "R-2").state == "completed"  # type: ignore[union-attr]
    assert len(store.list_notifications("C1005")) == 1
    def half_done(conn) -> None:  # noqa: ANN001
        conn.execute("UPDATE customers SET locked = 1 WHERE id = 'C1003'")
        raise ValueError("impossible")

    with pytest.raises(ValueError):  # an effect that fails leaves nothing behind
        d.apply_once(store, key="R-3:decided", request_id="R-3", kind="close_account", customer_id="C1003",
                     state="completed", effect=half_done)
    assert d.get_outcome(store, "R-3:decided") is None and not store.get_customer("C1003").locked  # type: ignore[union-attr]


def test_operators_sessions_tokens_and_audit_search(store: Store) -> None:
    ops.add_operator(store, name="maria", role="supervisor", limit_cents=50_000, password_hash="h")
    assert ops.note_failed_login(store, "maria", max_failures=2, lockout_s=60) is False
    assert ops.note_failed_login(store, "maria", max_failures=2, lockout_s=60) is True
    assert ops.is_locked(ops.get_operator(store, "maria"))  # type: ignore[arg-type]
    sid, csrf = ops.create_session(store, "maria", idle_s=600, max_s=3600)
    assert ops.get_session(store, sid, idle_s=600).csrf == csrf  # type: ignore[union-attr]
    token = ops.create_token(store, "maria", ttl_h=1)
    assert ops.operator_for_token(store, token).name == "maria"  # type: ignore[union-attr]
    assert ops.set_disabled(store, "maria", True)
    assert ops.operator_for_token(store, token) is None and ops.get_session(store, sid, idle_s=600) is None
    store.add_audit(subject="R_100%", action="approved", actor="maria", reason="x")
    store.add_audit(subject="R-100", action="approved", actor="maria", reason="x")
    assert [a.subject for a in ops.search_audit(store, subject="_100%")] == ["R_100%"]  # wildcards are literal


def test_safety_ledger_and_step_up(store: Store) -> None:
    for _ in range(3):
        store.record_verification(customer_id="c1001", line="+1555", outcome="failure", actor="line")
    assert store.verification_failures(customer_id="C1001", window_s=600) == 3
    store.record_verification(customer_id="C1001", line="+1555", outcome="success", actor="line")
    assert store.verification_failures(customer_id="C1001", window_s=600) == 0  # the account's count starts again
    assert store.verification_failures(line="+1555", window_s=600) == 3  # a line's does not: it may be guessing others
    for account, matched in (("C1002", False), ("C1002", True)):
        assert store.check_verification(key=account, line="+1666", matched=matched, actor="t", window_s=600, limit=1) == (
            "failure" if not matched else "locked_out")  # one failure is this test's limit
    change = store.add_pending_change(customer_id="C1001", field="email", new_value="grace@example.com")
    assert store.resolve_pending_change(change.id, confirmed=True, actor="maria") == "conflict"
    with pytest.raises(ValueError):  # decided once; a second colleague cannot apply it again
        store.resolve_pending_change(change.id, confirmed=True, actor="li")
    phone = store.add_pending_change(customer_id="C1001", field="phone", new_value="+14155550199")
    assert store.resolve_pending_change(phone.id, confirmed=True, actor="maria") == "applied"
    assert store.get_customer("C1001").phone == "+14155550199"  # type: ignore[union-attr]
    assert store.profile_changes("C1001") == ["phone"]


def test_transaction_is_all_or_nothing(store: Store) -> None:
    with pytest.raises(RuntimeError), store.transaction() as conn:
        conn.execute("UPDATE customers SET locked = 1 WHERE id = ?", ("C1001",))
        raise RuntimeError("crash mid-way")
    assert not store.get_customer("C1001").locked  # type: ignore[union-attr]
