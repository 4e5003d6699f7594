"""Temporal being down is logged without the caller's ids (business ids embed them)."""

from __future__ import annotations

import logging
from pathlib import Path

from callcenter.logsafe import ref
from callcenter.settings import load_settings
from callcenter.store import Store
from meta.actions import durable_actions
from workflows.client import ApprovalRequest, DurableWork
from workflows.devserver import free_port


async def test_down_temporal_logs_a_reference_not_the_ids(tmp_path: Path, caplog) -> None:
    settings = load_settings(data_dir=tmp_path, temporal_address=f"127.0.0.1:{free_port()}")
    store = Store(tmp_path / "db.sqlite3")
    work = DurableWork(settings, store, actions=durable_actions())
    req = ApprovalRequest(
        kind="refund", customer_id="C1002", amount_cents=24900, record_id="CH-1002-D",
        caller_reason="charged twice, email grace@example.com", policy_finding="above limit",
        requested_by="billing.refund", request_id="refund-CH-1002-D",
    )
    with caplog.at_level(logging.DEBUG):
        result = await work.submit_approval(req)
    await work.close()
    assert result.status == "queued"
    assert [w.id for w in store.list_work(status="queued")] == ["refund-CH-1002-D"]
    assert ref("refund-CH-1002-D") in caplog.text
    for secret in ("CH-1002-D", "C1002", "grace@example.com"):
        assert secret not in caplog.text
