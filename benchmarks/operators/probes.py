"""The insider's probes, by bullet of issue 27 (see insider.py). Each records whether the
boundary held and what the system answered."""

from __future__ import annotations

import base64
import json
from typing import Any

from benchmarks.operators.signin_probes import SignInProbes
from benchmarks.operators.tools import (
    BULLETS,
    EscalationRequest,
    new_ticket_id,
    operator,
    refused,
    uid,
)

__all__ = ["BULLETS", "Insider"]


class Insider(SignInProbes):
    async def run(self, only: list[str] | None) -> list[dict[str, Any]]:
        for name, role in (("kim", "agent"), ("sam", "supervisor"), ("sue", "supervisor"), ("max", "manager")):
            operator(self.store, name, role)
            await self.session(name)  # before the sign-in probes spend this address's attempts
        for bullet in BULLETS:
            if only and bullet not in only:
                continue
            try:
                await getattr(self, f"probe_{bullet}")()
            except Exception as err:  # a probe that crashed is a failure of the adversary, said as one
                self.held(bullet, "probe crashed", False, f"{type(err).__name__}: {err}")
        return self.rows

    # --- grants: replayed, expired, reused, forged ----------------------------------------
    async def probe_grant(self) -> None:
        b = "grant"
        r1 = await self.file(amount=3000)
        resp = await self.decide("sam", r1.request_id)
        self.held(b, "control: a supervisor approves $30 in the console", resp.status_code == 200, f"HTTP {resp.status_code}")
        await self.result(r1.request_id)
        [first] = (await self.history_grants(r1.request_id)) or [{"grant": ""}]
        raw = base64.urlsafe_b64decode(first["grant"][5:] + "==") if first["grant"].startswith("ccg2.") else first["grant"].encode()
        clear = [w for w in (b"sam", b"supervisor", b"refund", b"3000", b"C1002") if w in raw]
        self.held(b, "grant in `temporal workflow show` is sealed", first["grant"].startswith("ccg2.") and not clear,
                  f"prefix {first['grant'][:5]!r}, readable claims {clear}")
        r2 = await self.file(amount=2500)
        deny = await self.grant("sam", r2.request_id, "deny")
        ok, said = refused(await self.update(r2.request_id, "approve", deny))
        self.held(b, "a deny grant sent as an approve", ok, said)
        for probe, verb in (("replayed onto another pending request", "approve"), ("replayed as a deny", "deny")):
            ok, said = refused(await self.update(r2.request_id, verb, first))
            self.held(b, probe, ok and await self.state(r2.request_id) == "pending", said)
        # The case: the same request id, another charge and amount, started by hand.
        forged = {**json.loads(json.dumps(r1.__dict__)), "record_id": "CH-1003-A", "amount_cents": 24900, "customer_id": "C1003"}
        started = await self.start_by_hand(r1.request_id, forged, reuse=True)
        ok, said = refused(await self.update(r1.request_id, "approve", first))
        self.held(b, "replayed onto a hand-started run of the same request, another charge",
                  started.returncode == 0 and ok and not self.refunds("C1003"), said)
        tid = new_ticket_id()
        await self.work.open_escalation(EscalationRequest(tid, "C1003", "5xx on /v2/orders", kind="engineering"))
        await self.admitted(f"ticket-{tid}")
        ok, said = refused(await self.update(f"ticket-{tid}", "resolve", {"engineer": "sam", "resolution": "x", **first}))
        self.held(b, "an approval's grant sent as a ticket resolve", ok, said)
        # A grant minted for one run, the run then terminated and started again by hand.
        r3 = await self.file(amount=2000)
        stale = await self.grant("sam", r3.request_id)
        await self.temporal("workflow", "terminate", "--workflow-id", r3.request_id, "--reason", "insider")
        await self.start_by_hand(r3.request_id, json.loads(json.dumps(r3.__dict__)), reuse=True)
        ok, said = refused(await self.update(r3.request_id, "approve", stale))
        self.held(b, "a grant for an earlier run of the same request", ok, said)
        expired = await self.grant("sam", r2.request_id, ttl_s=-5)
        ok, said = refused(await self.update(r2.request_id, "approve", expired))
        self.held(b, "an expired grant", ok and "expired" in said, said)
        good = await self.grant("sam", r2.request_id)
        tampered = {**good, "grant": good["grant"][:-6] + ("A" if good["grant"][-6] != "A" else "B") + good["grant"][-5:]}
        ok, said = refused(await self.update(r2.request_id, "approve", tampered))
        self.held(b, "a grant with one character changed", ok, said)
        from callcenter.store import operators as ops
        from console.accounts import grant_for
        from console.operations import approval_target

        desc = await self.client.get_workflow_handle(r2.request_id).describe()
        own, _ = grant_for(ops.get_operator(self.store, "max"), approval_target(desc, dict(await desc.memo())),
                           "approve", b"k" * 64, 60)
        ok, said = refused(await self.update(r2.request_id, "approve", {**good, "operator": "max", "role": "manager", "grant": own}))
        self.held(b, "a grant sealed with the insider's own key", ok, said)
        ok, said = refused(await self.update(r2.request_id, "approve", {"operator": "max", "role": "manager", "reason": "x"}))
        self.held(b, "an approve with no grant at all", ok and "credential" in said, said)
        ok, said = refused(await self.update(r2.request_id, "approve", {**good, "operator": "max", "role": "manager"}))
        self.held(b, "sam's grant sent under another name and role", ok, said)
        self.held(b, "after all of that the request is still pending", await self.state(r2.request_id) == "pending",
                  await self.state(r2.request_id))
        # Four-eyes: the first step's grant replayed as the second; one person twice; an agent second.
        r4 = await self.file(amount=120000, customer="C1003", charge="CH-1003-A")
        resp = await self.decide("sam", r4.request_id)
        self.held(b, "control: a first approval above four-eyes", resp.status_code == 200 and "second operator" in resp.text,
                  f"HTTP {resp.status_code}")
        [step1] = (await self.history_grants(r4.request_id))[:1] or [{}]
        ok, said = refused(await self.update(r4.request_id, "approve", step1))
        self.held(b, "the first approval's grant replayed as the second", ok and "used already" in said, said)
        resp = await self.decide("sam", r4.request_id)
        self.held(b, "the same supervisor approves twice (four-eyes)", resp.status_code == 409, f"HTTP {resp.status_code}: {resp.text[:100]}")
        resp = await self.decide("kim", r4.request_id)
        self.held(b, "an agent as the second approver", resp.status_code == 409, f"HTTP {resp.status_code}: {resp.text[:100]}")
        self.held(b, "the four-eyes request is unpaid", not [r for r in self.refunds("C1003") if r.charge_id == "CH-1003-A"]
                  and await self.state(r4.request_id) == "pending", await self.state(r4.request_id))

    # --- hand-started workflows -------------------------------------------------------------
    async def probe_forged(self) -> None:
        b = "forged"
        rid = uid("refund-CH-1004-A")
        forged = {"kind": "refund", "customer_id": "C1004", "amount_cents": 4900, "record_id": "CH-1004-A",
                  "caller_reason": "duplicate charge", "policy_finding": "caller verified by the line before filing",
                  "requested_by": "billing/refund", "request_id": rid, "call_id": ""}
        started = await self.start_by_hand(rid, forged)
        out = await self.result(rid)
        self.held(b, "an invented request started by hand is refused by admission", started.returncode == 0 and '"refused' in out,
                  out.strip()[:120])
        resp = await self.decide("kim", rid)
        self.held(b, "the console will not decide it", resp.status_code in (404, 409), f"HTTP {resp.status_code}: {resp.text[:100]}")
        listed = await self.cc("approvals", "list")
        self.held(b, "`approvals list` does not offer it", rid not in listed.stdout, listed.stdout.strip()[:100])
        rows = await self.audited(rid, "request_refused")
        self.held(b, "the refusal is audited", bool(rows), rows[0].reason[:100] if rows else "no audit row")
        self.held(b, "nothing paid to the invented request's customer", not self.refunds("C1004"), str(self.refunds("C1004"))[:80])
        # A request the line filed ($1,200: four-eyes), ended and started again by hand with no four-eyes.
        r = await self.file(amount=120000, customer="C1003", charge="CH-1003-A")
        await self.temporal("workflow", "terminate", "--workflow-id", r.request_id, "--reason", "restart")
        await self.start_by_hand(r.request_id, json.loads(json.dumps(r.__dict__)), reuse=True)
        resp = await self.decide("max", r.request_id)
        state = await self.state(r.request_id)
        self.held(b, "hand-started with four_eyes null: one approval does not pay",
                  state != "completed" and not [x for x in self.refunds("C1003") if x.charge_id == "CH-1003-A"],
                  f"HTTP {resp.status_code}, state {state}")
        # The line's request, started by hand under the same id with a larger amount.
        r = await self.file(amount=3000, customer="C1001", charge="CH-1001-2")
        await self.temporal("workflow", "terminate", "--workflow-id", r.request_id, "--reason", "restart")
        bigger = {**json.loads(json.dumps(r.__dict__)), "amount_cents": 90000}
        await self.start_by_hand(r.request_id, bigger, reuse=True)
        out = await self.result(r.request_id)
        self.held(b, "the line's request id with another amount is refused", '"refused' in out, out.strip()[:120])
        # A request a supervisor denied, started again by hand under its id, then approved.
        r = await self.file(amount=2000, customer="C1004", charge="CH-1004-A")
        resp = await self.decide("sam", r.request_id, "deny", "not a duplicate")
        await self.result(r.request_id)
        await self.start_by_hand(r.request_id, json.loads(json.dumps(r.__dict__)), reuse=True)
        again = await self.decide("kim", r.request_id)
        out = await self.result(r.request_id)  # the refund, if any, is written before it ends
        paid = [x for x in self.refunds("C1004") if x.charge_id == "CH-1004-A"]
        self.held(b, "a denied request started again by hand and approved is not paid", resp.status_code == 200 and not paid,
                  f"deny HTTP {resp.status_code}; approve again HTTP {again.status_code}; refunds {len(paid)}; {out[-120:]}")
        # `temporal workflow reset` of a denied request to its first task (admission runs again)
        # and to its last task before the end, then an approval.
        for reset in ("FirstWorkflowTask", "LastWorkflowTask"):
            r = await self.file(amount=2100, customer="C1004", charge="CH-1004-A")
            await self.decide("sam", r.request_id, "deny", "not a duplicate")
            await self.result(r.request_id)
            done = await self.temporal("workflow", "reset", "--workflow-id", r.request_id, "--type", reset,
                                       "--reason", "insider")
            again = await self.decide("kim", r.request_id)
            out = await self.result(r.request_id)
            paid = [x for x in self.refunds("C1004") if x.charge_id == "CH-1004-A"]
            self.held(b, f"a denied request reset ({reset}) and approved is not paid", not paid and '"approved' not in out,
                      f"reset exit {done.returncode}; approve HTTP {again.status_code}; refunds {len(paid)}; {out[-100:]}")
        tid = new_ticket_id()
        ticket = {"ticket_id": tid, "customer_id": "C1003", "summary": "call me", "call_id": "", "kind": "engineering"}
        await self.start_by_hand(f"ticket-{tid}", ticket, workflow="TicketWorkflow")
        out = await self.result(f"ticket-{tid}")
        self.held(b, "an invented ticket started by hand is refused", "refused" in out, out.strip()[:120])

    # --- updates with no credential -----------------------------------------------------------
    async def probe_ticket(self) -> None:
        b = "ticket"
        tid = new_ticket_id()
        await self.work.open_escalation(EscalationRequest(tid, "C1003", "5xx on /v2/orders", kind="engineering"))
        wid = f"ticket-{tid}"
        await self.admitted(wid)
        ok, said = refused(await self.update(wid, "resolve", {"engineer": "anyone", "resolution": "fixed"}))
        self.held(b, "`temporal workflow update` resolve with no credential", ok, said)
        ok, said = refused(await self.update(wid, "resolve", {"engineer": "anyone", "resolution": "fixed", "grant": "ccg2.AAAA"}))
        self.held(b, "resolve with a made-up credential", ok, said)
        self.held(b, "the customer got no resolution SMS", not any(f"Ticket {tid} is resolved" in n.body
                                                                     for n in self.store.list_notifications("C1003")), "none sent")
        ok, said = refused(await self.cc("tickets", "resolve", tid, "--resolution", "done"))
        self.held(b, "`callcenter tickets resolve` with no token", ok, said)
        ok, said = refused(await self.cc("tickets", "resolve", tid, "--resolution", "done", token="cct_forged"))
        self.held(b, "`callcenter tickets resolve` with a made-up token", ok, said)
        r = await self.file(amount=1500)
        ok, said = refused(await self.cc("approvals", "approve", r.request_id, "--reason", "ok"))
        self.held(b, "`callcenter approvals approve` with no token", ok, said)
        await self.temporal("workflow", "signal", "--workflow-id", r.request_id, "--name", "approve",
                            "--input", json.dumps({"operator": "max", "role": "manager", "reason": "x"}))
        self.held(b, "a signal named approve changes nothing", await self.state(r.request_id) == "pending",
                  await self.state(r.request_id))
        from callcenter.store import operators as ops

        token = ops.create_token(self.store, "kim", ttl_h=1)
        done = await self.cc("tickets", "resolve", tid, "--resolution", "rolled back", token=token)
        self.held(b, "control: a signed-in operator's CLI resolves it", done.returncode == 0, done.stdout.strip()[:100])

    # --- ended outside the line ---------------------------------------------------------------
    async def probe_ended(self) -> None:
        b = "ended"
        for how, verb in (("terminated", "terminate"), ("canceled", "cancel")):
            r = await self.file(amount=1200)
            # (`cancel` takes no --reason with a workflow id)
            sent = await self.temporal("workflow", verb, "--workflow-id", r.request_id,
                                       *(["--reason", "cleanup"] if verb == "terminate" else []))
            self.held(b, f"control: `temporal workflow {verb}` is accepted", sent.returncode == 0, sent.stderr.strip()[:100])
            rows = await self.audited(r.request_id, f"request_{how}_outside")
            self.held(b, f"`temporal workflow {verb}` is audited by the reconciler", bool(rows),
                      rows[0].reason[:100] if rows else "no audit row in 20 s")
            shown = await self.cc("approvals", "show", r.request_id)
            head = (shown.stdout.splitlines() or [""])[0]
            self.held(b, f"`approvals show` after {verb} does not say pending", "pending" not in head and how in head
                      if how == "terminated" else "pending" not in head, head[:100])
            listed = await self.cc("approvals", "list")
            self.held(b, f"`approvals list` after {verb} does not list it", r.request_id not in listed.stdout, "not listed")
            page = await (await self.session("sam")).get(f"/requests/{r.request_id}")
            self.held(b, f"the console's request page after {verb} says {how}", how in page.text.lower()
                      and ">pending<" not in page.text.lower(), f"HTTP {page.status_code}")
        tid = new_ticket_id()
        await self.work.open_escalation(EscalationRequest(tid, "C1003", "5xx on /v2/orders", kind="engineering"))
        await self.admitted(f"ticket-{tid}")
        await self.temporal("workflow", "terminate", "--workflow-id", f"ticket-{tid}", "--reason", "cleanup")
        rows = await self.audited(f"ticket-{tid}", "request_terminated_outside")
        self.held(b, "a ticket terminated in Temporal is audited", bool(rows), rows[0].reason[:100] if rows else "no audit row in 20 s")
        ticket = {"ticket_id": tid, "customer_id": "C1003", "summary": "5xx on /v2/orders", "call_id": "", "kind": "engineering"}
        await self.start_by_hand(f"ticket-{tid}", ticket, reuse=True, workflow="TicketWorkflow")
        out = await self.result(f"ticket-{tid}")
        self.held(b, "that ticket started again by hand is refused", "refused" in out, out.strip()[-120:])

    # --- role limits per kind -----------------------------------------------------------------
    async def probe_roles(self) -> None:
        b = "roles"
        for kind in ("two_factor_reset", "close_account"):
            r = await self.file(kind, None, customer="C1001")
            resp = await self.decide("kim", r.request_id)
            self.held(b, f"an agent approves a {kind} in the console", resp.status_code == 409, f"HTTP {resp.status_code}: {resp.text[:100]}")
            good = await self.grant("kim", r.request_id)
            ok, said = refused(await self.update(r.request_id, "approve", good))
            self.held(b, f"an agent's own valid grant for a {kind}, sent through Temporal", ok, said)
        r = await self.file(amount=60000, customer="C1002", charge="CH-1002-D")
        resp = await self.decide("kim", r.request_id)
        self.held(b, "an agent approves a $600 refund (limit $500)", resp.status_code == 409, f"HTTP {resp.status_code}: {resp.text[:100]}")
        from callcenter.store import operators as ops

        # An operator who is also a customer, approving their own refund.
        operator(self.store, "cara", "agent", customer_id="C1001")
        r = await self.file(amount=2000, customer="C1001", charge="CH-1001-2")
        resp = await self.decide("cara", r.request_id)
        self.held(b, "an agent approves a refund on their own customer account", resp.status_code == 409,
                  f"HTTP {resp.status_code}: {resp.text[:100]}")
        # A disabled account: its open console session and its CLI token.
        operator(self.store, "dan", "supervisor")
        await self.session("dan")
        dan_token = ops.create_token(self.store, "dan", ttl_h=1)
        off = await self.cc("operators", "disable", "dan")
        resp = await self.decide("dan", r.request_id)
        self.held(b, "a disabled supervisor's open console session decides", off.returncode == 0 and resp.status_code in (303, 401, 403, 409)
                  and await self.state(r.request_id) == "pending", f"HTTP {resp.status_code}")
        ok, said = refused(await self.cc("approvals", "approve", r.request_id, "--reason", "ok", token=dan_token))
        self.held(b, "a disabled supervisor's CLI token decides", ok, said)
        token = ops.create_token(self.store, "kim", ttl_h=1)
        r = await self.file("two_factor_reset", None, customer="C1004")
        ok, said = refused(await self.cc("approvals", "approve", r.request_id, "--reason", "ok", token=token))
        self.held(b, "an agent approves a two-factor reset from the CLI", ok, said)
        resp = await self.decide("sam", r.request_id)
        self.held(b, "control: a supervisor approves it", resp.status_code == 200, f"HTTP {resp.status_code}")
