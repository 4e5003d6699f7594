"""Typed inputs and outputs of every workflow, update, query and activity.

Plain dataclasses so the default data converter serialises them as JSON objects, which keeps
the workflows operable from the standard `temporal` CLI (`--input '{"operator": ...}'`).
Nothing here may read the clock, the environment or the disk: workflow code imports it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from temporalio.common import SearchAttributeKey

# The ticket workflow's own request kind; approval kinds come from the domains' actions
# (workflows/actions.py), passed in by the composition root.
ESCALATION_KIND = "escalation"
# A request's store row once the reconciler saw it ended in Temporal outside the line, and the
# outcomes after which it is decided for good: neither is admitted again (a hand-started rerun).
ENDED_OUTSIDE = "ended_outside"
FINAL_STATES = ("completed", "denied", "failed")
# Ids an operator or a caller may pass into a Temporal query or a business id.
SAFE_ID = re.compile(r"^[A-Za-z0-9_.:\-]{1,128}$")

# Custom search attributes (registered on the server before use) let operators list and filter
# the queue without a worker: `temporal workflow list --query "RequestState='pending'"`.
SA_STATE = SearchAttributeKey.for_keyword("RequestState")
SA_KIND = SearchAttributeKey.for_keyword("RequestKind")
SA_CUSTOMER = SearchAttributeKey.for_keyword("CustomerId")
SA_AMOUNT = SearchAttributeKey.for_int("AmountCents")
SEARCH_ATTRIBUTES = {"RequestState": "Keyword", "RequestKind": "Keyword", "CustomerId": "Keyword", "AmountCents": "Int"}

# States a caller-facing status can take (RequestStatus.state).
OPEN_STATES = ("pending", "escalated")


# --- approvals --------------------------------------------------------------------------
@dataclass
class ApprovalRequest:
    kind: str  # a DurableAction.kind declared by a domain
    customer_id: str
    amount_cents: int | None
    caller_reason: str
    policy_finding: str
    requested_by: str  # the specialist (e.g. "billing/refund") or an operator id
    request_id: str  # business id, deterministic: f"{kind}-{subject}"
    call_id: str = ""  # the call that asked (correlation id of its trace and logs); "" from an operator
    # The business record the action acts on, in its domain's own ids (a refund's charge).
    record_id: str | None = None
    # Requests recorded before 0.2 carried `record_id` under billing's name. The converter
    # drops unknown fields, so this one stays (read, never written) until 0.3: approvals
    # still waiting in Temporal or in the outbox then still pay the right record.
    charge_id: str | None = None

    def __post_init__(self) -> None:
        if self.record_id is None and self.charge_id is not None:
            self.record_id, self.charge_id = self.charge_id, None


@dataclass
class ApprovalPolicy:
    """Snapshotted from settings when the request is submitted, so a replay sees the same limits."""

    timeout_s: int
    escalations: int
    role_limits_cents: dict[str, int]
    # Above this amount an approval needs two different operators, the second at least a
    # supervisor. None (requests submitted before four-eyes existed) = one approval.
    four_eyes_cents: int | None = None
    # kind -> the lowest role that may decide it (a two-factor reset: supervisor): the
    # domain's declaration, overridden by CALLCENTER_APPROVAL_MIN_ROLE. Empty before 0.2.
    min_role: dict[str, str] = field(default_factory=dict)


@dataclass
class ApprovalInput:
    request: ApprovalRequest
    policy: ApprovalPolicy
    submitted_at: str


@dataclass
class AdmitInput:
    """What a workflow asks its first activity: is this the request the line filed?"""

    workflow_id: str
    run_id: str
    approval: ApprovalRequest | None = None
    ticket: EscalationRequest | None = None


@dataclass
class Admission:
    """The answer, and the policy in force, read from the worker's settings (never from the
    workflow's input): recorded in history, so a replay sees the same limits."""

    admitted: bool
    reason: str = ""
    policy: ApprovalPolicy | None = None
    resolve_min_role: str = "agent"  # tickets: the lowest role that may resolve one


@dataclass
class Decision:
    """An operator's approve or deny, sent as a workflow update.

    `grant` is the console-signed credential (workflows/authz.py); the validator refuses a
    decision whose operator or role differ from it. Old histories carry no grant."""

    operator: str
    reason: str
    role: str = "agent"
    grant: str = ""


@dataclass
class DecisionResult:
    request_id: str
    state: str  # "approved" | "denied" | "awaiting_second_approval"
    decided_by: str


@dataclass
class ApprovalView:
    """The query result: everything an operator needs to decide."""

    request: ApprovalRequest
    state: str
    submitted_at: str
    updated_at: str
    escalations: int
    decided_by: str | None = None
    decision_reason: str | None = None
    detail: str | None = None
    first_approval: str | None = None  # four-eyes: who approved first, waiting for a second


@dataclass
class ApprovalResult:
    request_id: str
    state: str  # "completed" | "denied" | "failed"
    decided_by: str | None
    reason: str | None
    detail: str | None = None
    approvers: list[str] = field(default_factory=list)


@dataclass
class ViewInput:
    """Queries take one dataclass too; empty today, room for options (e.g. redaction) later."""

    verbose: bool = False


# --- activities -------------------------------------------------------------------------
@dataclass
class FinishInput:
    request: ApprovalRequest
    verdict: str  # "approved" | "denied" | "auto_denied"
    decided_by: str
    reason: str
    waited_s: float
    role: str | None = None  # the decider's role, for the audit line


@dataclass
class FinishResult:
    state: str  # "completed" | "denied" | "failed"
    detail: str | None
    created: bool


@dataclass
class EscalateInput:
    request: ApprovalRequest
    level: int
    waited_s: float


@dataclass
class StepResult:
    created: bool
    detail: str | None = None


# --- a ticket tracked under an SLA (the technical domain's engineering escalation) -----------
@dataclass
class EscalationRequest:
    ticket_id: str
    customer_id: str | None
    summary: str
    call_id: str = ""  # the call that asked (correlation id of its trace and logs)
    # The domain's words, handed in with the request so this package names no team: the
    # ticket's kind in the store and the console ("engineering"), and who works it, for the
    # customer's notice ("our engineers"). Defaults keep requests recorded before them readable.
    kind: str = "ticket"
    team: str = ""


@dataclass
class TicketInput:
    request: EscalationRequest
    sla_s: int
    opened_at: str


@dataclass
class Resolution:
    """A person's resolution of a ticket, sent as a workflow update with the console-sealed
    credential (`grant`) for this ticket's workflow run and the verb "resolve"."""

    engineer: str
    resolution: str
    role: str = ""
    grant: str = ""


@dataclass
class TicketView:
    request: EscalationRequest
    state: str  # "pending" (open) | "escalated" (SLA breached) | "completed" (resolved)
    opened_at: str
    updated_at: str
    resolved_by: str | None = None
    resolution: str | None = None


@dataclass
class TicketStep:
    request: EscalationRequest
    step: str  # "opened" | "sla_breached" | "resolved"
    actor: str
    text: str


@dataclass
class TicketResult:
    ticket_id: str
    state: str
    resolved_by: str | None
    resolution: str | None
    sla_breached: bool = False


# --- caller-side results (the DurableWork façade) ----------------------------------------
@dataclass
class SubmitResult:
    request_id: str
    status: str  # "pending" | "queued" | "approved" | "denied" | "completed" | ...


@dataclass
class RequestStatus:
    request_id: str
    kind: str
    state: str  # "pending"|"escalated"|"approved"|"denied"|"completed"|"failed"|"queued"|"unknown"
    decided_by: str | None = None
    reason: str | None = None
    updated_at: str | None = None
    customer_id: str | None = None
    amount_cents: int | None = None
    extra: dict[str, str] = field(default_factory=dict)


def ticket_workflow_id(ticket_id: str) -> str:
    return f"ticket-{ticket_id}"
