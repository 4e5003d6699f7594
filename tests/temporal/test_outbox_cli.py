"""Temporal down: nothing lost. Operator CLI (the installed `callcenter` command): output,
filters, exit codes, one-line errors. The embedded default: a local dev server and worker
that start and stop with the line; `temporal-server [--ui] [--worker]` and `temporal-worker`."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from callcenter.settings import load_settings
from callcenter.store import Store
from domains.billing.ledger import Ledger
from meta.actions import durable_actions
from meta.shell.cli_temporal import embedded_durable
from tests.conftest import CALLCENTER, callcenter, cli_env, refund_request
from workflows.client import ApprovalRequest, DurableWork, EscalationRequest
from workflows.devserver import discover, free_port
from workflows.worker import ensure_worker

from .conftest import ROOT, eventually, signed, uid


async def test_down_requests_are_queued_then_flushed(client, settings, store, worker) -> None:
    down = load_settings(data_dir=settings.data_dir, temporal_address=f"127.0.0.1:{free_port()}",
                         temporal_task_queue=settings.temporal_task_queue)
    offline = DurableWork(down, store, actions=durable_actions())
    req = refund_request(uid("refund-down"))
    # (how fast a down server is answered is measured in benchmarks, not asserted here)
    assert (await offline.submit_approval(req)).status == "queued"
    ticket = await offline.open_escalation(EscalationRequest("T-DOWN01", "C1002", "webhooks stuck"))
    assert ticket.status == "queued" and store.get_ticket("T-DOWN01") is not None
    assert (await offline.status(req.request_id)).state == "queued"
    assert (await offline.ticket_status("T-DOWN01")).state == "queued"
    mine = await offline.find_for_customer("C1002")
    assert {s.request_id for s in mine} >= {req.request_id, "ticket-T-DOWN01"}
    assert all(s.state == "queued" for s in mine)

    # Temporal is back: the same store's outbox is submitted, once, however often flushed.
    online = DurableWork(settings, store, client=client, actions=durable_actions())
    assert await online.flush_outbox() == 2
    assert await online.flush_outbox() == 0
    assert {w.status for w in store.list_work()} == {"submitted"}
    st = await online.status(req.request_id)
    assert (st.state, st.kind, st.amount_cents) == ("pending", "refund", 24900)
    await client.get_workflow_handle(req.request_id).execute_update("approve", await signed(client, store, req.request_id, "approve", "maria", "dup", "agent"))
    assert (await online.wait_for_decision(req.request_id, 10)).state == "completed"
    assert len(Ledger(store).list_refunds("C1002")) == 1
    # Down again: what the activities recorded still answers the caller.
    assert (await offline.status(req.request_id)).state == "completed"
    assert (await offline.ticket_status("T-DOWN01")).state == "pending"


async def test_flush_accepts_rows_written_without_temporal(client, settings, store, worker) -> None:
    # `callcenter call --no-durable` queues only a few fields; the row has the rest. This row was
    # written before 0.2 (`charge_id`, not `record_id`): its charge must still reach the workflow.
    store.queue_work(request_id="refund-CH-1002-1-legacy", kind="refund", customer_id="C1002", amount_cents=2000,
                     payload=json.dumps({"charge_id": "CH-1002-1", "policy_finding": "dup", "requested_by": "billing.refund"}))
    store.queue_work(request_id="junk-1", kind="mystery", customer_id=None, amount_cents=None, payload="{not json")
    work = DurableWork(settings, store, client=client, actions=durable_actions())
    assert await work.flush_outbox() == 1
    assert {w.id: w.status for w in store.list_work()} == {"refund-CH-1002-1-legacy": "submitted", "junk-1": "invalid"}
    st = await work.status("refund-CH-1002-1-legacy")
    assert (st.state, st.amount_cents, st.extra["record_id"]) == ("pending", 2000, "CH-1002-1")
    await client.get_workflow_handle("refund-CH-1002-1-legacy").terminate("test cleanup")


def cli(*args: str, env: dict[str, str], input: str | None = None) -> subprocess.CompletedProcess[str]:
    """The installed `callcenter` command with the given CALLCENTER_* settings."""
    return callcenter(*args, env=cli_env(Path(env["CALLCENTER_DATA_DIR"]), **env), input=input, timeout=60)


@pytest.fixture
async def strict_worker(client, store, settings):  # noqa: ANN001, ANN201
    """A worker whose settings let agents approve up to $100: the policy is the worker's."""
    strict = settings.model_copy(update={"approval_limit_agent": 100})
    async with ensure_worker(client, store, settings.temporal_task_queue, actions=durable_actions(), settings=strict):
        yield strict


async def test_operator_cli(client, settings, store, strict_worker, temporal) -> None:
    env = {"CALLCENTER_DATA_DIR": str(settings.data_dir), "CALLCENTER_TEMPORAL_ADDRESS": temporal.address,
           "CALLCENTER_TEMPORAL_TASK_QUEUE": settings.temporal_task_queue}
    strict = strict_worker  # agents: up to $100
    work = DurableWork(strict, store, client=client, actions=durable_actions())
    req = refund_request(uid("refund-cli"))
    await work.submit_approval(req)

    run = lambda *a: asyncio.to_thread(cli, *a, env=env)  # noqa: E731
    listed = await run("approvals", "list", "--json")
    assert listed.returncode == 0, listed.stderr
    row = next(r for r in json.loads(listed.stdout) if r["request_id"] == req.request_id)
    assert (row["kind"], row["amount_cents"], row["customer_id"], row["state"]) == ("refund", 24900, "C1002", "pending")
    assert row["caller_reason"] == "charged twice" and row["policy_finding"] == "duplicate"
    text = await run("approvals", "list")
    [line] = [ln for ln in text.stdout.splitlines() if ln.startswith(req.request_id + " ")]
    assert line.split()[:3] == [req.request_id, "refund", "$249.00"] and line.split()[3] == "C1002"

    # Accounts are made with the CLI; a token is issued to the account; role and limit come from it.
    made = await asyncio.to_thread(cli, "operators", "add", "kim", "--role", "agent", "--password-stdin",
                                   env=env, input="a long enough password\n")
    assert made.returncode == 0 and "kim: agent" in made.stdout, made.stderr
    await asyncio.to_thread(cli, "operators", "add", "lee", "--role", "manager", "--password-stdin",
                            env=env, input="another long password\n")
    reserved = await asyncio.to_thread(cli, "operators", "add", "auto", "--role", "manager", "--password-stdin",
                                       env=env, input="another long password\n")
    assert reserved.returncode == 1 and "reserved" in reserved.stderr
    kim = (await run("operators", "token", "kim")).stdout.strip()
    login = await asyncio.to_thread(cli, "operators", "login", "lee", "--password-stdin", env=env,
                                    input="another long password\n")
    lee = login.stdout.strip()
    assert kim.startswith("cco_") and lee.startswith("cco_"), login.stderr

    no_token = await run("approvals", "approve", req.request_id, "--reason", "ok")
    forged_role = await run("approvals", "approve", req.request_id, "--reason", "ok", "--role", "manager", "--token", kim)
    bad_token = await run("approvals", "approve", req.request_id, "--reason", "ok", "--token", "cco_made-up")
    over = await run("approvals", "approve", req.request_id, "--reason", "ok", "--token", kim)
    ok = await asyncio.to_thread(cli, "approvals", "deny", req.request_id, "--reason", "not a duplicate",
                                 env={**env, "CALLCENTER_OPERATOR_TOKEN": kim})
    again = await run("approvals", "approve", req.request_id, "--reason", "x", "--token", lee)
    unknown = await run("approvals", "show", "refund-nope")
    malformed = await run("approvals", "deny", "bad id!", "--reason", "x", "--token", kim)
    empty = await run("approvals", "deny", req.request_id, "--reason", "  ", "--token", kim)
    shown = await run("approvals", "show", req.request_id)
    down = await asyncio.to_thread(cli, "approvals", "list", env={**env, "CALLCENTER_TEMPORAL_ADDRESS": f"127.0.0.1:{free_port()}"})
    assert ok.returncode == 0 and "denied by kim (agent)" in ok.stdout, ok.stderr
    for bad, needle in [(unknown, "no such request"), (malformed, "malformed"), (empty, "reason"),
                        (down, "cannot reach Temporal"), (no_token, "an operator token is required"),
                        (bad_token, "unknown, expired or revoked")]:
        assert bad.returncode != 0 and needle in bad.stderr, (bad.stdout, bad.stderr)
        assert "Traceback" not in bad.stderr and len(bad.stderr.strip().splitlines()) == 1
    assert forged_role.returncode == 2 and "unrecognized arguments: --role" in forged_role.stderr
    # A decision on a decided or finished request: refused, one line.
    assert again.returncode == 1 and ("already" in again.stderr) and "Traceback" not in again.stderr
    # The over-limit attempt was refused by the workflow before it counted.
    assert over.returncode == 1 and "refused: kim (agent) may approve up to $100.00" in over.stderr, over.stderr
    assert "denied" in shown.stdout and "kim" in shown.stdout and "not a duplicate" in shown.stdout
    audit = store.audit_for(req.request_id)
    assert "denied" in [a.action for a in audit]
    refused = {(a.action, a.actor, a.role) for a in audit if a.action.endswith("_refused")}
    assert {("approve_refused", "unauthenticated:cli", None), ("approve_refused", "lee", "manager")} <= refused
    await eventually(lambda: ("approve_refused", "kim", "agent") in
                     {(a.action, a.actor, a.role) for a in store.audit_for(req.request_id)})
    shown_json = json.loads((await run("approvals", "show", req.request_id, "--json")).stdout)
    assert (shown_json["state"], shown_json["decided_by"], shown_json["decision_reason"]) == ("denied", "kim", "not a duplicate")


async def test_approvals_list_filters(client, settings, store, worker, temporal) -> None:
    env = {"CALLCENTER_DATA_DIR": str(settings.data_dir), "CALLCENTER_TEMPORAL_ADDRESS": temporal.address,
           "CALLCENTER_TEMPORAL_TASK_QUEUE": settings.temporal_task_queue}
    work = DurableWork(settings, store, client=client, actions=durable_actions())
    big, small = refund_request(uid("refund-big")), refund_request(uid("refund-small"))
    small = ApprovalRequest("refund", "C1001", 2000, "small", "dup", "billing/refund", small.request_id, record_id="CH-1001-2")
    close = ApprovalRequest("close_account", "C1005", None, "leaving", "human needed", "account/close", uid("close"))
    for r in (big, small, close):
        assert (await work.submit_approval(r)).status == "pending"

    async def ids(*flags: str) -> list[dict]:
        out = await asyncio.to_thread(cli, "approvals", "list", "--json", *flags, env=env)
        assert out.returncode == 0, out.stderr
        return json.loads(out.stdout)

    # the session's server holds other tests' requests too: check ours and every row's field
    mine = {big.request_id, small.request_id, close.request_id}
    rows = await ids("--kind", "refund")
    assert {r["request_id"] for r in rows} & mine == {big.request_id, small.request_id}
    assert {r["kind"] for r in rows} == {"refund"}
    rows = await ids("--customer", "C1005")
    assert {r["request_id"] for r in rows} & mine == {close.request_id}
    assert {r["customer_id"] for r in rows} == {"C1005"}
    rows = await ids("--min-amount", "200")
    assert {r["request_id"] for r in rows} & mine == {big.request_id}
    assert all(r["amount_cents"] >= 20000 for r in rows)
    rows = await ids("--kind", "refund", "--customer", "C1001", "--min-amount", "19.99")
    assert {r["request_id"] for r in rows} & mine == {small.request_id}
    bad = await asyncio.to_thread(cli, "approvals", "list", "--min-amount", "lots", env=env)
    assert bad.returncode == 2 and "--min-amount must be an amount in dollars" in bad.stderr
    for value in ("nan", "inf", "1e400000"):  # float() took these: a traceback or a stall
        bad = await asyncio.to_thread(cli, "approvals", "list", "--min-amount", value, env=env)
        assert bad.returncode == 2 and bad.stderr.count("\n") == 1, (value, bad.stderr)
    for r in (big, small, close):
        await client.get_workflow_handle(r.request_id).terminate("test cleanup")


async def test_tickets_list_and_resolve(client, settings, store, worker, temporal) -> None:
    env = {"CALLCENTER_DATA_DIR": str(settings.data_dir), "CALLCENTER_TEMPORAL_ADDRESS": temporal.address,
           "CALLCENTER_TEMPORAL_TASK_QUEUE": settings.temporal_task_queue}
    work = DurableWork(settings, store, client=client, actions=durable_actions())
    tid = f"T-{uid('X')[-6:].upper()}"
    assert (await work.open_escalation(EscalationRequest(tid, "C1003", "webhooks return 500 since deploy"))).status == "pending"
    run = lambda *a: asyncio.to_thread(cli, *a, env=env)  # noqa: E731

    listed = await run("tickets", "list", "--json")
    assert listed.returncode == 0, listed.stderr
    row = next(r for r in json.loads(listed.stdout) if r["request_id"] == f"ticket-{tid}")
    assert (row["customer_id"], row["state"], row["caller_reason"]) == ("C1003", "pending", "webhooks return 500 since deploy")
    text = await run("tickets", "list")
    [line] = [ln for ln in text.stdout.splitlines() if ln.startswith(tid)]
    assert line.split()[:3] == [tid, "pending", "C1003"] and line.endswith("webhooks return 500 since deploy")

    tokens = {}
    for name in ("ana", "bo"):
        made = await asyncio.to_thread(cli, "operators", "add", name, "--role", "agent", "--password-stdin",
                                       env=env, input="a long enough password\n")
        assert made.returncode == 0, made.stderr
        tokens[name] = (await run("operators", "token", name)).stdout.strip()
    no_token = await run("tickets", "resolve", tid, "--resolution", "rolled back deploy 4512")
    empty = await run("tickets", "resolve", tid, "--resolution", "  ", "--token", tokens["ana"])
    done = await run("tickets", "resolve", tid, "--resolution", "rolled back deploy 4512", "--token", tokens["ana"])
    again = await run("tickets", "resolve", tid, "--resolution", "again", "--token", tokens["bo"])
    unknown = await run("tickets", "resolve", "T-NOPE00", "--resolution", "x", "--token", tokens["ana"])
    assert no_token.returncode == 1 and "an operator token is required" in no_token.stderr, no_token.stderr
    assert (done.returncode, done.stdout.strip()) == (0, f"{tid}: resolved by ana"), done.stderr
    for bad, says in [(empty, "--resolution must not be empty"), (again, f"ticket {tid} is already closed (resolved by ana)"),
                      (unknown, "no such request: T-NOPE00")]:
        assert bad.returncode == 1 and bad.stderr.strip() == f"error: {says}", bad.stderr
    assert (await work.ticket_status(tid)).state == "completed"
    assert [n for n in store.list_notifications("C1003") if tid in n.dedupe_key]  # the customer is told
    after = json.loads((await run("tickets", "list", "--json")).stdout)
    assert f"ticket-{tid}" not in {r["request_id"] for r in after}


async def test_embedded_default_starts_and_stops_local_temporal(tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path, temporal_task_queue="embedded", hold_on_line_s=2)
    store = Store(settings.db_path)
    async with embedded_durable(settings, store) as work:
        address = discover(tmp_path)
        assert address is not None and (tmp_path / "temporal.sqlite3").exists()
        req = ApprovalRequest("two_factor_reset", "C1001", None, "new phone", "verified", "account/2fa", "2fa-emb")
        assert (await work.submit_approval(req)).status == "pending"
        info = json.loads((tmp_path / "temporal.json").read_text())
    assert discover(tmp_path) is None and not (tmp_path / "temporal.json").exists()
    for _ in range(50):
        try:
            os.kill(info["pid"], 0)
        except ProcessLookupError:
            break
        await asyncio.sleep(0.1)
    else:
        raise AssertionError("the local server outlived the line")
    # Next run of the line, same data dir: the pending approval is still there.
    async with embedded_durable(settings, store) as work:
        assert (await work.status("2fa-emb")).state == "pending"


async def test_server_and_worker_commands_with_standard_cli(tmp_path: Path) -> None:
    """`temporal-server` in one process, `temporal-worker` in another, the operator CLI and
    the standard `temporal` CLI finding them through the data dir: what the README shows."""
    from workflows.devserver import temporal_binary

    probes = free_port()
    env = cli_env(tmp_path, CALLCENTER_WORKER_METRICS_PORT=str(probes),
                  CALLCENTER_TEMPORAL_SDK_METRICS_PORT=str(free_port()))
    server = subprocess.Popen([CALLCENTER, "temporal-server"], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    worker = None
    try:
        address = await eventually(lambda: discover(tmp_path) or server.poll() is not None, timeout=30)
        assert isinstance(address, str), server.stderr.read()  # type: ignore[union-attr]
        worker = subprocess.Popen([CALLCENTER, "temporal-worker"], env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

        def ready() -> bool:
            try:
                return urllib.request.urlopen(f"http://127.0.0.1:{probes}/readyz", timeout=1).status == 200
            except OSError:
                return False

        async def up_or_gone() -> bool:
            return worker.poll() is not None or await asyncio.to_thread(ready)

        # A cap, not a pace: a loaded CI machine once took longer than 30 s to start it.
        await eventually(up_or_gone, timeout=90)
        assert worker.poll() is None, worker.stderr.read()  # type: ignore[union-attr]
        assert urllib.request.urlopen(f"http://127.0.0.1:{probes}/healthz", timeout=2).status == 200

        settings = load_settings(data_dir=tmp_path)
        store = Store(settings.db_path)
        work = DurableWork(settings, store, actions=durable_actions())  # no address: found through temporal.json
        req = refund_request("refund-CH-1002-D")
        assert (await work.submit_approval(req)).status == "pending"
        listed = await asyncio.to_thread(cli, "approvals", "list", "--json", env={"CALLCENTER_DATA_DIR": str(tmp_path)})
        assert [r["request_id"] for r in json.loads(listed.stdout)] == ["refund-CH-1002-D"], listed.stderr
        tcli = [temporal_binary(), "--address", address]
        q = "WorkflowType='ApprovalWorkflow' AND ExecutionStatus='Running' AND RequestState='pending'"
        out = subprocess.run([*tcli[:1], "workflow", "list", *tcli[1:], "--query", q], capture_output=True, text=True)
        assert "refund-CH-1002-D" in out.stdout, out.stderr
        out = subprocess.run([tcli[0], "workflow", "query", *tcli[1:], "--workflow-id", req.request_id, "--name", "state"],
                             capture_output=True, text=True)
        assert '"state":"pending"' in out.stdout, out.stderr
        # A forged decision through the standard temporal CLI: refused by the workflow, audited.
        out = subprocess.run([tcli[0], "workflow", "update", "execute", *tcli[1:], "--workflow-id", req.request_id,
                              "--name", "approve", "--update-id", "approve-forged",
                              "--input", '{"operator":"nobody","role":"manager","reason":"trust me"}'],
                             capture_output=True, text=True)
        assert out.returncode != 0 and "signed operator credential is required" in (out.stdout + out.stderr)
        await eventually(lambda: [(a.action, a.actor, a.role) for a in store.audit_for(req.request_id)]
                         == [("approve_refused", "unverified:nobody", "manager")])
        # With a credential the console signed for this request, the same CLI works.
        payload = json.dumps(await signed(await work.client(), store, req.request_id, "approve", "maria", "duplicate"))
        out = subprocess.run([tcli[0], "workflow", "update", "execute", *tcli[1:], "--workflow-id", req.request_id,
                              "--name", "approve", "--update-id", "approve-maria", "--input", payload],
                             capture_output=True, text=True)
        assert out.returncode == 0 and "Result    map[decided_by:maria request_id:refund-CH-1002-D state:approved]" in out.stdout, out.stderr
        assert (await work.wait_for_decision(req.request_id, 10)).state == "completed"
        assert len(Ledger(store).list_refunds("C1002")) == 1
        # the worker's own /metrics counted that decision and outcome
        metrics = urllib.request.urlopen(f"http://127.0.0.1:{probes}/metrics", timeout=2).read().decode()
        assert 'callcenter_approval_decisions_total{' in metrics and "# TYPE callcenter_approvals_pending gauge" in metrics
        assert _sample(metrics, "callcenter_approval_decisions_total", 'decision="approved"') == 1.0
        other = ApprovalRequest("close_account", "C1005", None, "leaving", "human needed", "account/close", "close-C1005")
        await work.submit_approval(other)
        payload = json.dumps(await signed(await work.client(), store, other.request_id, "deny", "lee", "open invoice"))
        out = subprocess.run([tcli[0], "workflow", "update", "execute", *tcli[1:], "--workflow-id", other.request_id,
                              "--name", "deny", "--update-id", "deny-lee", "--input", payload],
                             capture_output=True, text=True)
        assert out.returncode == 0 and "state:denied]" in out.stdout and "decided_by:lee" in out.stdout, out.stderr
        assert (await work.wait_for_decision(other.request_id, 10)).state == "denied"
        assert [a.actor for a in store.audit_for(req.request_id)] == ["unverified:nobody", "maria"]
    finally:
        for p in (worker, server):
            if p is not None and p.poll() is None:
                p.send_signal(signal.SIGTERM)
                p.wait(10)
    assert server.returncode == 0 and worker is not None and worker.returncode == 0
    assert not (tmp_path / "temporal.json").exists()


async def test_local_server_dies_with_a_killed_parent(tmp_path: Path) -> None:
    """A line killed with SIGKILL must not leave its dev server holding the SQLite file."""
    import signal

    script = ("import asyncio, sys\n"
              "from workflows.devserver import LocalTemporal\n"
              "async def main():\n"
              "    async with LocalTemporal(sys.argv[1]):\n"
              "        print('up', flush=True)\n"
              "        await asyncio.sleep(60)\n"
              "asyncio.run(main())\n")
    parent = subprocess.Popen([sys.executable, "-c", script, str(tmp_path)], stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert (await asyncio.to_thread(parent.stdout.readline)).strip() == "up"  # type: ignore[union-attr]
        pid = json.loads((tmp_path / "temporal.json").read_text())["pid"]
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        for _ in range(100):
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            await asyncio.sleep(0.1)
        else:
            raise AssertionError("the dev server outlived its killed parent")
        assert discover(tmp_path) is None  # a stale temporal.json is ignored: its pid is gone
    finally:
        if parent.poll() is None:
            parent.kill()


def _sample(exposition: str, name: str, label: str) -> float:
    """The summed value of the samples of ``name`` whose labels contain ``label``."""
    total = 0.0
    for line in exposition.splitlines():
        if line.startswith(name + "{") and label in line:
            total += float(line.rsplit(" ", 1)[1])
    return total


async def test_temporal_server_with_ui_and_worker(tmp_path: Path) -> None:
    """`callcenter temporal-server --ui --worker`: one command for operators: the server, its
    web UI and a worker that runs the approvals."""
    env = cli_env(tmp_path)
    server = subprocess.Popen([CALLCENTER, "temporal-server", "--ui", "--worker"], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = await asyncio.to_thread(server.stdout.readline)  # type: ignore[union-attr]
        assert first.startswith("Temporal dev server on 127.0.0.1:"), first + server.stderr.read()  # type: ignore[union-attr]
        ui = first.split("web UI ")[1].split(" ")[0]
        assert (await asyncio.to_thread(server.stdout.readline)).strip() == "worker on task queue 'callcenter'"  # type: ignore[union-attr]
        page = await asyncio.to_thread(lambda: urllib.request.urlopen(ui, timeout=10).read().decode())
        assert "<html" in page.lower()
        settings = load_settings(data_dir=tmp_path)
        store = Store(settings.db_path)
        work = DurableWork(settings, store, actions=durable_actions())  # found through temporal.json
        req = refund_request("refund-CH-1002-D")
        assert (await work.submit_approval(req)).status == "pending"
        made = await asyncio.to_thread(callcenter, "operators", "add", "maria", "--role", "agent", "--password-stdin",
                                       env=env, input="a long enough password\n")
        assert made.returncode == 0, made.stderr
        token = (await asyncio.to_thread(callcenter, "operators", "token", "maria", env=env)).stdout.strip()
        ok = await asyncio.to_thread(callcenter, "approvals", "approve", req.request_id, "--reason", "duplicate",
                                     "--token", token, env=env)
        assert ok.returncode == 0 and ok.stdout.strip() == f"{req.request_id}: approved by maria (agent)", ok.stderr
        # the worker inside `temporal-server --worker` paid it
        assert (await work.wait_for_decision(req.request_id, 20)).state == "completed"
        assert len(Ledger(store).list_refunds("C1002")) == 1
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGTERM)
            server.wait(20)
    assert server.returncode == 0, server.stderr.read()  # type: ignore[union-attr]
    assert not (tmp_path / "temporal.json").exists()


async def test_database_lost_after_the_workflow_started_still_tells_the_truth(client, settings, store, monkeypatch) -> None:
    # The narrow gap: the outbox row is written, the workflow starts, then the database goes
    # away before the row is marked. The caller must hear "pending" (a person has it), not a
    # failure, and the next flush must mark the row without starting a second workflow.
    from callcenter.store import StoreUnavailable

    work = DurableWork(settings, store, client=client, actions=durable_actions())
    req = refund_request("refund-CH-1002-D-gap")
    real = store.set_work_status

    def down(*_args: object) -> None:
        raise StoreUnavailable("the database cannot be reached")

    monkeypatch.setattr(store, "set_work_status", down)
    res = await work.submit_approval(req)
    assert res.status == "pending"
    assert {w.id: w.status for w in store.list_work()} == {req.request_id: "queued"}
    monkeypatch.setattr(store, "set_work_status", real)
    assert await work.flush_outbox() == 1
    assert {w.id: w.status for w in store.list_work()} == {req.request_id: "submitted"}
    async def runs() -> list[object]:
        return [w async for w in client.list_workflows(f"WorkflowId = '{req.request_id}'")]

    assert len(await eventually(runs)) == 1  # the flush found the running workflow, it did not start another
    await client.get_workflow_handle(req.request_id).terminate("test cleanup")
