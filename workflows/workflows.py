"""Durable workflows: human approval of escalated actions, and tickets tracked under an SLA.

Workflow code is deterministic: no clock but workflow.now(), no settings, no store. A request
enters only through the line: the first activity (`admit_request`, `admit_ticket`) checks the
store's `work_requests` row the line wrote before starting the workflow, and returns the
policy in force (limits per role and kind, four-eyes amount, timeouts) from the worker's
settings, never from the workflow's input; a request the line did not file ends "refused".
Every update needs a sealed credential for this run and step (workflows/authz.py).
"""

from __future__ import annotations

from datetime import timedelta

from temporalio import workflow
from temporalio.common import RetryPolicy
from temporalio.exceptions import ActivityError

with workflow.unsafe.imports_passed_through():
    from callcenter.money import dollars
    from workflows import authz
    from workflows.activities import CallcenterActivities
    from workflows.models import (
        ESCALATION_KIND,
        SA_STATE,
        Admission,
        AdmitInput,
        ApprovalInput,
        ApprovalPolicy,
        ApprovalResult,
        ApprovalView,
        Decision,
        DecisionResult,
        EscalateInput,
        FinishInput,
        FinishResult,
        Resolution,
        TicketInput,
        TicketResult,
        TicketStep,
        TicketView,
        ViewInput,
    )

# Activities write to SQLite and finish in milliseconds. A short heartbeat timeout means a
# worker killed mid-activity is noticed within seconds and the activity retried elsewhere;
# the idempotency key makes the retry a no-op if the first attempt had already written.
ACTIVITY_OPTS: dict = {
    "start_to_close_timeout": timedelta(seconds=30),
    "heartbeat_timeout": timedelta(seconds=4),
    "retry_policy": RetryPolicy(
        initial_interval=timedelta(milliseconds=200),
        maximum_interval=timedelta(seconds=10),
        non_retryable_error_types=["ValueError"],
    ),
}


# workflow.patched id of two-operator approval above policy.four_eyes_cents.
FOUR_EYES = "four-eyes-v1"
# workflow.patched id of admission: the first activity checks the line filed the request and
# reads the policy from settings. Workflows started before it keep their input's policy.
ADMISSION = "admission-v1"
CHECKING = "the request is still being checked against what the line filed; try again in a moment"


def _admit_input(request: object) -> AdmitInput:
    info = workflow.info()
    if isinstance(request, TicketInput):
        return AdmitInput(info.workflow_id, info.run_id, ticket=request.request)
    assert isinstance(request, ApprovalInput)
    return AdmitInput(info.workflow_id, info.run_id, approval=request.request)


def check_grant(d_grant: str, *, action: str, step: str, spent: set[str], kind: str, request_id: str,
                record_id: str | None, amount_cents: int | None, customer_id: str | None) -> authz.Grant:
    """The credential, opened and held against this run and request (ValueError otherwise)."""
    g = authz.open_grant(d_grant, workflow.now())
    info = workflow.info()
    if authz.digest(d_grant) in spent or g.grant_id in spent:
        raise ValueError("this operator credential was used already; decide again")
    if g.workflow_id != info.workflow_id or g.run_id != info.run_id or g.request_id != request_id:
        raise ValueError("the operator credential was issued for another request")
    if (g.kind, g.record_id, g.amount_cents, g.request_customer) != (
            kind, record_id or "", amount_cents, customer_id or ""):
        raise ValueError("the operator credential was issued for another request (kind, record, amount or customer differ)")
    if g.action != action:
        raise ValueError(f"the operator credential was issued to {g.action}, not to {action}")
    if g.step != step:
        raise ValueError(f"the operator credential was issued for the {g.step or 'ticket'} step, not the {step or 'ticket'} step")
    return g


def _a(role: str) -> str:
    return ("an " if role[:1] in "aeiou" else "a ") + role


def spend(spent: set[str], token: str) -> None:
    """Remember an accepted credential (its digest, and its id when this worker can open it)."""
    spent.add(authz.digest(token))
    try:
        spent.add(authz.open_grant(token, None).grant_id)
    except ValueError:
        pass  # a credential from before the sealed format, or another key: the digest is enough


@workflow.defn
class ApprovalWorkflow:
    """Wait for an operator's decision (update), escalate on timeout, act once, notify."""

    @workflow.init
    def __init__(self, inp: ApprovalInput) -> None:
        self._inp = inp
        self._state = "pending"
        self._decision: Decision | None = None
        self._verdict: str | None = None
        self._escalations = 0
        self._updated_at = inp.submitted_at
        self._detail: str | None = None
        self._first: Decision | None = None  # four-eyes: the first approval, awaiting a second
        self._policy: ApprovalPolicy = inp.policy  # replaced by the admission's, from settings
        self._admitted = False
        self._spent: set[str] = set()  # credentials accepted (digests and ids): each is used once

    @workflow.run
    async def run(self, inp: ApprovalInput) -> ApprovalResult:
        if workflow.patched(ADMISSION):
            adm: Admission = await workflow.execute_activity_method(
                CallcenterActivities.admit_request, _admit_input(inp), **ACTIVITY_OPTS)
            if not adm.admitted or adm.policy is None:
                # Not what the line filed: nothing is decided or done; the activity audited it.
                self._detail = adm.reason
                self._set_state("refused")
                await workflow.wait_condition(workflow.all_handlers_finished)
                return ApprovalResult(inp.request.request_id, "refused", None, adm.reason, adm.reason)
            self._policy = adm.policy
            workflow.upsert_memo({"admitted": True})  # the console shows it; tests wait on it
        self._admitted = True
        policy = self._policy
        started = workflow.now()
        for level in range(policy.escalations + 1):
            try:
                await workflow.wait_condition(
                    lambda: self._decision is not None, timeout=timedelta(seconds=policy.timeout_s)
                )
                break
            except TimeoutError:
                if level == policy.escalations:
                    break
                self._escalations += 1
                self._set_state("escalated")
                await workflow.execute_activity_method(
                    CallcenterActivities.record_escalation,
                    EscalateInput(inp.request, self._escalations, self._waited(started)),
                    **ACTIVITY_OPTS,
                )
        if self._decision is None:
            # Nobody decided in time: deny rather than act without a human.
            waited = int(self._waited(started))
            self._decision = Decision(operator="auto", reason=f"no decision within {waited} s", role="system")
            self._verdict = "auto_denied"
            self._set_state("denied")
        assert self._verdict is not None
        try:
            done: FinishResult = await workflow.execute_activity_method(
                CallcenterActivities.finish_approval,
                FinishInput(
                    inp.request, self._verdict, self._decision.operator, self._decision.reason,
                    self._waited(started), self._decision.role,
                ),
                **ACTIVITY_OPTS,
            )
            self._detail = done.detail
            self._set_state(done.state)
        except ActivityError as err:
            # Non-retryable: the action itself is impossible (e.g. already fully refunded).
            self._detail = str(err.cause or err)
            self._set_state("failed")
        await workflow.wait_condition(workflow.all_handlers_finished)
        approvers = [*([self._first.operator] if self._first else []), self._decided_by_person()]
        return ApprovalResult(
            inp.request.request_id, self._state, self._decision.operator, self._decision.reason, self._detail,
            approvers=approvers if self._verdict == "approved" else [],
        )

    # --- operator decisions ----------------------------------------------------------------
    @workflow.update
    def approve(self, d: Decision) -> DecisionResult:
        return self._decide("approved", d)

    @approve.validator
    def _check_approve(self, d: Decision) -> None:
        self._check(d, approving=True)

    @workflow.update
    def deny(self, d: Decision) -> DecisionResult:
        return self._decide("denied", d)

    @deny.validator
    def _check_deny(self, d: Decision) -> None:
        self._check(d, approving=False)

    @workflow.query
    def state(self, _: ViewInput | None = None) -> ApprovalView:
        return ApprovalView(
            request=self._inp.request,
            state=self._state,
            submitted_at=self._inp.submitted_at,
            updated_at=self._updated_at,
            escalations=self._escalations,
            decided_by=self._decision.operator if self._decision else None,
            decision_reason=self._decision.reason if self._decision else None,
            detail=self._detail,
            first_approval=self._first.operator if self._first else None,
        )

    # --- helpers -----------------------------------------------------------------------------
    def _check(self, d: Decision, *, approving: bool) -> None:
        # Validators reject before anything reaches history, so a refused decision leaves no
        # trace in the workflow: it goes to the worker's audit sink instead, whichever path
        # (console, CLI, `temporal` CLI) it came by. Validators never run on replay.
        try:
            self._check_decision(d, approving=approving)
        except ValueError as err:
            # "Still being checked" is not a refusal of the person: the console retries it.
            if not workflow.unsafe.is_replaying() and str(err) != CHECKING:
                self._report_refusal(d, approving, str(err))
            raise

    def _check_decision(self, d: Decision, *, approving: bool) -> None:
        req = self._inp.request
        verb = "approve" if approving else "deny"
        if not isinstance(d.reason, str) or not d.reason.strip():
            raise ValueError("a reason is required")
        if self._decision is not None:
            raise ValueError(f"already decided: {self._state} by {self._decision.operator}")
        if not self._admitted:
            raise ValueError(CHECKING)
        g = check_grant(d.grant, action=verb, step="second" if self._first is not None else "first",
                        spent=self._spent, kind=req.kind, request_id=req.request_id, record_id=req.record_id,
                        amount_cents=req.amount_cents, customer_id=req.customer_id)
        if g.operator != d.operator or g.role != d.role:
            raise ValueError("the operator or role does not match the signed operator credential")
        if authz.is_reserved(g.operator):
            raise ValueError(f"{g.operator!r} is a name reserved for the system")
        who = g.operator.strip().lower()
        if who in (req.requested_by.strip().lower(), req.customer_id.strip().lower()):
            raise ValueError("an operator cannot decide their own request")
        if g.customer_id and g.customer_id.strip().lower() == req.customer_id.strip().lower():
            raise ValueError("an operator cannot decide a request about their own customer account")
        limits = self._policy.role_limits_cents
        if g.role not in limits:
            raise ValueError(f"unknown role {g.role!r} (one of: {', '.join(sorted(limits))})")
        if not approving:
            return  # denying changes nothing: any operator may
        needed = self._policy.min_role.get(req.kind, "agent")
        if authz.rank(g.role) < authz.rank(needed):
            raise ValueError(f"approving a {req.kind.replace('_', ' ')} needs a {needed} or manager;"
                             f" {g.operator} is {_a(g.role)}")
        if req.amount_cents is None:
            return
        limit = min(g.limit_cents, limits[g.role])
        if req.amount_cents > limit:
            raise ValueError(
                f"{g.operator} ({g.role}) may approve up to {dollars(limit)};"
                f" this request is {dollars(req.amount_cents)}"
            )
        if self._first is not None:
            if self._first.operator.strip().lower() == who:
                raise ValueError(
                    "you already approved this request; a second, different operator must approve it"
                )
            if authz.rank(g.role) < authz.ROLE_RANK["supervisor"]:
                raise ValueError("the second approval of a large request needs a supervisor or manager")

    def _report_refusal(self, d: Decision, approving: bool, why: str) -> None:
        req = self._inp.request
        try:
            g = authz.open_grant(d.grant, workflow.now())
            actor, role = g.operator, g.role
        except ValueError:
            # Whatever the payload claims is not proven: say so in the record.
            actor, role = f"unverified:{authz.clean(d.operator, 64)}", authz.clean(d.role, 32)
        authz.report_refusal(workflow.info().task_queue, {
            "subject": req.request_id, "action": f"{'approve' if approving else 'deny'}_refused",
            "actor": actor, "role": role, "customer_id": req.customer_id,
            "reason": authz.clean(f"{why}; said: {d.reason}", 1200),
        })

    def _decide(self, verdict: str, d: Decision) -> DecisionResult:
        rid = self._inp.request.request_id
        spend(self._spent, d.grant)
        # The grant is not kept in state; the reason is neutralised whatever path it came by,
        # so the audit line and the customer's notice never carry control characters.
        mine = Decision(d.operator.strip(), authz.clean(d.reason, 1000).strip(), d.role)
        if verdict == "approved" and self._needs_second() and workflow.patched(FOUR_EYES):
            self._first = mine
            self._updated_at = workflow.now().replace(microsecond=0).isoformat()
            workflow.upsert_memo({"first_approval": mine.operator, "updated_at": self._updated_at})
            return DecisionResult(rid, "awaiting_second_approval", mine.operator)
        if verdict == "approved" and self._first is not None:
            # Both names are recorded: on the refund row, the outcome, the memo and the result.
            mine = Decision(f"{self._first.operator}+{mine.operator}", f"{self._first.reason} / {mine.reason}", mine.role)
        self._decision = mine
        self._verdict = verdict
        self._set_state(verdict)
        return DecisionResult(rid, verdict, self._decision.operator)

    def _decided_by_person(self) -> str:
        """The last approver alone (the combined "first+second" name is for the record)."""
        assert self._decision is not None
        return self._decision.operator.split("+")[-1] if self._first else self._decision.operator

    def _needs_second(self) -> bool:
        fe = self._policy.four_eyes_cents
        amount = self._inp.request.amount_cents
        return fe is not None and amount is not None and amount > fe and self._first is None

    def _set_state(self, state: str) -> None:
        self._state = state
        self._updated_at = workflow.now().replace(microsecond=0).isoformat()
        workflow.upsert_search_attributes([SA_STATE.value_set(state)])
        memo: dict = {"updated_at": self._updated_at}
        if self._decision is not None:
            memo.update(decided_by=self._decision.operator, decision_reason=self._decision.reason)
        if self._detail is not None:
            memo["detail"] = self._detail
        workflow.upsert_memo(memo)

    def _waited(self, started) -> float:  # noqa: ANN001 - a workflow datetime
        return (workflow.now() - started).total_seconds()


@workflow.defn
class TicketWorkflow:
    """A ticket under an SLA (the technical domain's engineering escalation): wait for a
    resolution (update) or the SLA timer, notify."""

    @workflow.init
    def __init__(self, inp: TicketInput) -> None:
        self._inp = inp
        self._state = "pending"
        self._resolution: Resolution | None = None
        self._updated_at = inp.opened_at
        self._breached = False
        self._admitted = False
        self._min_role = "agent"
        self._spent: set[str] = set()

    @workflow.run
    async def run(self, inp: TicketInput) -> TicketResult:
        req = inp.request
        if workflow.patched(ADMISSION):
            adm: Admission = await workflow.execute_activity_method(
                CallcenterActivities.admit_ticket, _admit_input(inp), **ACTIVITY_OPTS)
            if not adm.admitted:
                self._set_state("refused")
                await workflow.wait_condition(workflow.all_handlers_finished)
                return TicketResult(req.ticket_id, "refused", None, adm.reason)
            self._min_role = adm.resolve_min_role
            workflow.upsert_memo({"admitted": True})
        self._admitted = True
        await self._step(TicketStep(req, "opened", "system", req.summary))
        try:
            await workflow.wait_condition(
                lambda: self._resolution is not None, timeout=timedelta(seconds=inp.sla_s)
            )
        except TimeoutError:
            # SLA breached: tell the customer it takes longer, flag it, keep waiting.
            self._breached = True
            self._set_state("escalated")
            await self._step(TicketStep(req, "sla_breached", "system", f"no resolution within {inp.sla_s} s"))
            await workflow.wait_condition(lambda: self._resolution is not None)
        assert self._resolution is not None
        await self._step(TicketStep(req, "resolved", self._resolution.engineer, self._resolution.resolution))
        self._set_state("completed")
        await workflow.wait_condition(workflow.all_handlers_finished)
        return TicketResult(
            req.ticket_id, self._state, self._resolution.engineer, self._resolution.resolution, self._breached
        )

    @workflow.update
    def resolve(self, r: Resolution) -> TicketView:
        spend(self._spent, r.grant)
        self._resolution = Resolution(r.engineer.strip(), r.resolution.strip(), r.role)
        self._updated_at = workflow.now().replace(microsecond=0).isoformat()
        workflow.upsert_memo(
            {"decided_by": self._resolution.engineer, "decision_reason": self._resolution.resolution}
        )
        return self.state()

    @resolve.validator
    def _check_resolve(self, r: Resolution) -> None:
        try:
            self._check_resolution(r)
        except ValueError as err:
            if not workflow.unsafe.is_replaying() and str(err) != CHECKING:
                self._report_refusal(r, str(err))
            raise

    def _check_resolution(self, r: Resolution) -> None:
        if not isinstance(r.engineer, str) or not r.engineer.strip():
            raise ValueError("an engineer id is required")
        if not isinstance(r.resolution, str) or not r.resolution.strip():
            raise ValueError("a resolution text is required")
        if self._resolution is not None:
            raise ValueError(f"already resolved by {self._resolution.engineer}")
        if not self._admitted:
            raise ValueError(CHECKING)
        req = self._inp.request
        g = check_grant(r.grant, action="resolve", step="", spent=self._spent, kind=ESCALATION_KIND,
                        request_id=req.ticket_id, record_id=None, amount_cents=None, customer_id=req.customer_id)
        if g.operator != r.engineer.strip() or g.role != r.role:
            raise ValueError("the operator or role does not match the signed operator credential")
        if authz.is_reserved(g.operator):
            raise ValueError(f"{g.operator!r} is a name reserved for the system")
        if authz.rank(g.role) < authz.rank(self._min_role):
            raise ValueError(f"resolving a ticket needs a {self._min_role} or above; {g.operator} is {_a(g.role)}")

    def _report_refusal(self, r: Resolution, why: str) -> None:
        try:
            g = authz.open_grant(r.grant, workflow.now())
            actor, role = g.operator, g.role
        except ValueError:
            actor, role = f"unverified:{authz.clean(r.engineer, 64)}", authz.clean(r.role, 32)
        authz.report_refusal(workflow.info().task_queue, {
            "subject": workflow.info().workflow_id, "action": "resolve_refused", "actor": actor, "role": role,
            "customer_id": self._inp.request.customer_id,
            "reason": authz.clean(f"{why}; said: {r.resolution}", 1200),
        })

    @workflow.query
    def state(self, _: ViewInput | None = None) -> TicketView:
        r = self._resolution
        return TicketView(
            self._inp.request, self._state, self._inp.opened_at, self._updated_at,
            r.engineer if r else None, r.resolution if r else None,
        )

    async def _step(self, step: TicketStep) -> None:
        await workflow.execute_activity_method(CallcenterActivities.ticket_step, step, **ACTIVITY_OPTS)

    def _set_state(self, state: str) -> None:
        self._state = state
        self._updated_at = workflow.now().replace(microsecond=0).isoformat()
        workflow.upsert_search_attributes([SA_STATE.value_set(state)])
        workflow.upsert_memo({"updated_at": self._updated_at})
