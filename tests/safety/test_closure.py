"""An approved closure ends the account: no plan change, no refund, no new request by phone,
the subscription ended, the changes still waiting for a call back cancelled.

The closure is carried out by the Temporal worker's own activity (in Temporal's activity test
environment, as an operator's approval would); then the customer calls with `callcenter call`.
"""

from __future__ import annotations

import json
from pathlib import Path

from callcenter.settings import load_settings
from callcenter.store import Store
from callcenter.store.adapters import load_ports
from domains import registry
from domains.billing.ledger import Ledger
from tests.conftest import callcenter, cli_env


def _close(store: Store, data_dir: Path, customer: str) -> str:
    from temporalio.testing import ActivityEnvironment

    from workflows.activities import CallcenterActivities
    from workflows.models import ApprovalRequest, FinishInput

    ports = load_ports(store, load_settings(data_dir=data_dir), registry.port_specs())
    acts = CallcenterActivities(store, registry.action_table(), ports=ports)
    req = ApprovalRequest(kind="close_account", customer_id=customer, amount_cents=None, caller_reason="moving away",
                          policy_finding="closure", requested_by="account.close_account", request_id=f"close_account-{customer}")
    done = FinishInput(request=req, verdict="approved", decided_by="maria", reason="confirmed with the holder", waited_s=5.0)
    return ActivityEnvironment().run(acts.finish_approval, done).state


def test_after_an_approved_closure_nothing_starts_on_the_account(data_dir: Path) -> None:
    store = Store(data_dir / "callcenter.sqlite3", schemas=registry.schemas())
    try:
        waiting = store.add_pending_change(customer_id="C1001", field="unlock", new_value=None)
        assert _close(store, data_dir, "C1001") == "completed"
        assert store.get_customer("C1001").closed  # type: ignore[union-attr]
        assert Ledger(store).current_plan("C1001") is None  # the subscription ended with the account
        assert store.pending_change(waiting.id).status == "cancelled"  # type: ignore[union-attr]
    finally:
        store.close()
    said = ["i want to upgrade to the enterprise plan", "C1001 zip 94107", "yes", "i was charged twice", "yes",
            "change my email to new.ada@example.com", "yes", "reset my two factor please", "yes", "lock my account", "yes"]
    proc = callcenter("call", "--json", "--no-durable", input="\n".join(said) + "\n", env=cli_env(data_dir), timeout=300)
    assert proc.returncode == 0, proc.stderr
    replies = [json.loads(line)["reply"] for line in proc.stdout.splitlines()]
    assert "account is closed" in replies[2], replies[2]
    assert not any("To confirm" in r for r in replies), replies
    store = Store(data_dir / "callcenter.sqlite3", schemas=registry.schemas())
    try:
        assert Ledger(store).list_refunds("C1001") == [] and store.list_work(customer_id="C1001") == []
        assert Ledger(store).current_plan("C1001") is None  # no new subscription
        assert [c.status for c in store.list_pending_changes("C1001")] == ["cancelled"]
        assert [a.action for a in store.audit_for("C1001") if a.action == "lock"] == []
    finally:
        store.close()
