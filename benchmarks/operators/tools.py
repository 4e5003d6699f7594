"""The insider's probes (see insider.py): each tries one thing issue 27 found open and
records whether the boundary held. Helpers here are what an insider has: the `temporal`
CLI, HTTP to the console, the `callcenter` CLI; and what the line does: file requests."""

from __future__ import annotations

import asyncio
import base64
import json
import re
import subprocess
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from callcenter.store import operators as ops
from console.accounts import grant_for
from console.operations import approval_target, ticket_target
from domains.billing.ledger import Ledger
from tests.conftest import CALLCENTER, cli_env, refund_request
from tests.console.conftest import csrf_in, sign_in
from tests.temporal.conftest import PASSWORD, operator
from workflows.client import ApprovalRequest, EscalationRequest, new_ticket_id
from workflows.devserver import temporal_binary
from workflows.keys import signing_keys
from workflows.models import SA_STATE

BULLETS = {
    "grant": "a grant replayed onto another request, run or verb; expired; reused; forged",
    "forged": "hand-started workflows: invented requests, null four-eyes, altered amounts",
    "ticket": "updates with no credential (tickets and approvals), from Temporal and the CLI",
    "ended": "terminate / cancel outside the line: audited, never shown as pending",
    "roles": "role limits per kind: two-factor reset, closure, refunds above a limit",
    "signin": "X-Forwarded-For from untrusted peers, one answer, weak passwords, audit address",
    "input": "NaN / Infinity / 1e999999999 / 1e400000 filters: a 400, no freeze",
    "audit": "unauthenticated posts do not write unthrottled audit rows",
}
# (account name, password): common, keyboard, repeats, and the breached patterns name/word + year.
WEAK = [("boss1", "aaaaaaaaaaaa"), ("boss2", "password1234"), ("boss3", "qwertyuiop12"), ("boss4", "Password123!"),
        ("carla", "carla2026carla"), ("boss5", "Summer2026Summer"), ("boss6", "Welcome2026!!"),
        ("boss7", "111111111111"), ("boss8", "letmeinletmein"), ("boss9", "correcthorse")]
BAD_NUMBERS = ["NaN", "Infinity", "-Infinity", "1e999999999", "1e400000", "0x10", "-5"]


def payloads(history: str) -> list[Any]:
    """Every JSON payload in a `temporal workflow show -o json` history, decoded."""
    out: list[Any] = []

    def walk(v: Any) -> None:
        if isinstance(v, dict):
            if isinstance(v.get("data"), str):
                try:
                    out.append(json.loads(base64.b64decode(v["data"])))
                except ValueError:
                    pass
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    walk(json.loads(history))
    return out


def uid(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


class Tools:
    """What the insider (and the line) can do."""

    def __init__(self, settings: Any, store: Any, client: Any, work: Any, url: str, log: Callable[[str], None]) -> None:
        self.settings, self.store, self.client, self.work, self.url, self.log = settings, store, client, work, url, log
        self.key = signing_keys(settings.data_dir, settings.console_secret)[0]
        self.rows: list[dict[str, Any]] = []
        self.sessions: dict[str, httpx.AsyncClient] = {}

    def held(self, bullet: str, probe: str, ok: bool, detail: str) -> None:
        self.rows.append({"bullet": bullet, "probe": probe, "held": bool(ok), "detail": " ".join(detail.replace("|", "/").split())[:160]})
        self.log(f"{'held' if ok else 'FAILED'}  {bullet:<7} {probe}: {self.rows[-1]['detail']}")

    async def temporal(self, *args: str) -> subprocess.CompletedProcess[str]:
        return await asyncio.to_thread(subprocess.run, [temporal_binary(), *args, "--address", self.settings.temporal_address],
                                       capture_output=True, text=True, timeout=120)

    async def cc(self, *args: str, token: str | None = None, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        env = cli_env(self.settings.data_dir, CALLCENTER_TEMPORAL_ADDRESS=self.settings.temporal_address,
                      CALLCENTER_TEMPORAL_TASK_QUEUE=self.settings.temporal_task_queue)
        if token is not None:
            env["CALLCENTER_OPERATOR_TOKEN"] = token
        return await asyncio.to_thread(subprocess.run, [CALLCENTER, *args], env=env, input=stdin,
                                       capture_output=True, text=True, timeout=120)

    async def update(self, wid: str, name: str, payload: dict[str, Any]) -> subprocess.CompletedProcess[str]:
        return await self.temporal("workflow", "update", "execute", "--workflow-id", wid, "--name", name,
                                   "--input", json.dumps(payload))

    async def admitted(self, wid: str, timeout: float = 20) -> bool:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            desc = await self.client.get_workflow_handle(wid).describe()
            if (await desc.memo()).get("admitted"):
                return True
            await asyncio.sleep(0.1)
        return False

    async def file(self, kind: str = "refund", amount: int | None = 3000, customer: str = "C1002",
                   charge: str = "CH-1002-D") -> ApprovalRequest:
        """A request as the line files it (work_requests row + workflow start), once admitted."""
        req = (refund_request(uid(f"refund-{charge}"), amount_cents=amount or 0, charge=charge, customer=customer)
               if kind == "refund" else ApprovalRequest(kind, customer, None, "new phone", "verified", f"account/{kind}", uid(kind)))
        await self.work.submit_approval(req)
        await self.admitted(req.request_id)
        return req

    async def state(self, rid: str) -> str:
        desc = await self.client.get_workflow_handle(rid).describe()
        return str(desc.typed_search_attributes.get(SA_STATE) or desc.status.name.lower())

    async def grant(self, name: str, wid: str, verb: str = "approve", ttl_s: int = 60) -> dict[str, Any]:
        op = ops.get_operator(self.store, name)
        desc = await self.client.get_workflow_handle(wid).describe()
        target = (ticket_target(desc, wid.removeprefix("ticket-")) if verb == "resolve"
                  else approval_target(desc, dict(await desc.memo())))
        grant, _ = grant_for(op, target, verb, self.key, ttl_s)
        if verb == "resolve":
            return {"engineer": op.name, "resolution": "fixed", "role": op.role, "grant": grant}
        return {"operator": op.name, "reason": "ok", "role": op.role, "grant": grant}

    async def history_grants(self, wid: str) -> list[dict[str, Any]]:
        shown = await self.temporal("workflow", "show", "--workflow-id", wid, "--output", "json")
        return [p for p in payloads(shown.stdout) if isinstance(p, dict) and "grant" in p]

    async def session(self, name: str) -> httpx.AsyncClient:
        if name not in self.sessions:
            c, r = await sign_in(self.url, name)
            assert r.status_code == 303, (name, r.status_code, r.text[:200])
            self.sessions[name] = c
        return self.sessions[name]

    async def decide(self, name: str, rid: str, verdict: str = "approve", reason: str = "checked") -> httpx.Response:
        c = await self.session(name)
        page = await c.get(f"/requests/{rid}")
        if page.status_code != 200 or "csrf" not in page.text:
            return page  # signed out (a disabled account): the console sends it to sign in
        return await c.post(f"/api/requests/{rid}/decide", json={"verdict": verdict, "reason": reason},
                            headers={"x-csrf-token": csrf_in(page.text)})

    async def start_by_hand(self, wid: str, request: dict[str, Any], *, reuse: bool = False,
                            workflow: str = "ApprovalWorkflow") -> subprocess.CompletedProcess[str]:
        """`temporal workflow start` with a made-up input: no four-eyes, every limit high."""
        if workflow == "ApprovalWorkflow":
            inp = {"request": request, "submitted_at": "2026-01-01T00:00:00+00:00",
                   "policy": {"timeout_s": 3600, "escalations": 1, "four_eyes_cents": None,
                              "role_limits_cents": {"agent": 10**9, "supervisor": 10**9, "manager": 10**9}}}
        else:
            inp = {"request": request, "sla_s": 86400, "opened_at": "2026-01-01T00:00:00+00:00"}
        # Search attributes and memo as the line sets them, so the console shows and decides it
        # like any other request (the workflow, not the console, has to refuse it).
        sa = {"RequestState": "pending", "RequestKind": request.get("kind", "engineering"),
              "CustomerId": request.get("customer_id")}
        if request.get("amount_cents") is not None:
            sa["AmountCents"] = request["amount_cents"]
        memo = {k: request.get(k) for k in ("caller_reason", "policy_finding", "requested_by", "record_id", "summary")
                if request.get(k) is not None}
        flags = [x for k, v in sa.items() if v is not None for x in ("--search-attribute", f"{k}={json.dumps(v)}")]
        flags += [x for k, v in memo.items() for x in ("--memo", f"{k}={json.dumps(v)}")]
        return await self.temporal("workflow", "start", "--type", workflow, "--task-queue", self.settings.temporal_task_queue,
                                   "--workflow-id", wid, "--input", json.dumps(inp), *flags,
                                   *(["--id-reuse-policy", "AllowDuplicate"] if reuse else []))

    async def result(self, wid: str) -> str:
        r = await self.temporal("workflow", "result", "--workflow-id", wid, "--output", "json")
        return r.stdout + r.stderr

    async def audited(self, subject: str, action: str, timeout: float = 20) -> list[Any]:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            rows = [e for e in self.store.audit_for(subject) if e.action == action]
            if rows:
                return rows
            await asyncio.sleep(0.2)
        return []

    def refunds(self, customer: str) -> list[Any]:
        return Ledger(self.store).list_refunds(customer)


def refused(p: subprocess.CompletedProcess[str]) -> tuple[bool, str]:
    said = (p.stdout + p.stderr).strip().splitlines()
    line = next((x for x in said if re.search(r"refus|credential|expired|used already|may not|needs|required|"
                                                  r"not |bound|unknown|invalid|error", x, re.I)), said[-1] if said else "")
    return p.returncode != 0, f"exit {p.returncode}: {line.strip()[:120]}"


Probe = Callable[[], Awaitable[None]]
__all__ = ["BULLETS", "PASSWORD", "EscalationRequest", "Tools", "new_ticket_id", "operator", "refused"]
