"""Caller text and reasons with escape sequences and newlines are neutralised in the CLI's
output: they can neither clear the operator's terminal nor forge an audit line."""

from __future__ import annotations

import asyncio
import subprocess

from tests.conftest import callcenter, cli_env
from workflows.client import ApprovalRequest, DurableWork

from .conftest import operator, uid

FORGED = "i want my money\n  audit 2026-01-01 approved boss\x1b[2J\x1b]0;pwned\x07"


def cli(settings, *args: str, **env: str) -> subprocess.CompletedProcess[str]:  # noqa: ANN001
    """The installed `callcenter` command (tests/temporal/cli_driver.py is gone)."""
    return callcenter(*args, timeout=60, env=cli_env(
        settings.data_dir, CALLCENTER_TEMPORAL_ADDRESS=str(settings.temporal_address),
        CALLCENTER_TEMPORAL_TASK_QUEUE=settings.temporal_task_queue, **env))


async def test_cli_output_is_neutralised(settings, store, worker, work: DurableWork) -> None:
    operator(store, "maria", "agent")
    req = ApprovalRequest("close_account", "C1005", None, FORGED, "closure needs a human",
                          "account/close_account", uid("close-C1005"))
    await work.submit_approval(req)
    token = (await asyncio.to_thread(cli, settings, "operators", "token", "maria")).stdout.strip()
    denied = await asyncio.to_thread(cli, settings, "approvals", "deny", req.request_id, "--reason", FORGED,
                                     "--token", token)
    assert denied.returncode == 0, denied.stderr
    await work.wait_for_decision(req.request_id, 10)
    for args in (("approvals", "show", req.request_id), ("approvals", "list", "--all")):
        out = await asyncio.to_thread(cli, settings, *args)
        assert "\x1b" not in out.stdout and "\x07" not in out.stdout, args
    shown = (await asyncio.to_thread(cli, settings, "approvals", "show", req.request_id)).stdout
    # One audit line per entry: the forged "audit ..." text stays inside the real line.
    audit_lines = [ln for ln in shown.splitlines() if ln.lstrip().startswith("audit ")]
    assert len(audit_lines) == 1 and "denied" in audit_lines[0] and "maria" in audit_lines[0]
    assert "caller said:" in shown and "\ufffd" in shown
