"""The approval policy in force, read from settings by the worker (never from a workflow's input).

The admission activity returns it to the workflow, so it is recorded in the history and a
replay sees the same limits. The lowest role per kind is the domain's declaration
(`DurableAction.min_role`: account's two-factor reset and closure need a supervisor), which
`CALLCENTER_APPROVAL_MIN_ROLE` may raise or lower per kind.
"""

from __future__ import annotations

from callcenter.settings import Settings
from workflows.actions import ActionTable
from workflows.models import ApprovalPolicy

ROLES = ("agent", "supervisor", "manager")


def approval_policy(settings: Settings, actions: ActionTable) -> ApprovalPolicy:
    limits = {role: int(settings.approval_limit(role) * 100) for role in ROLES}
    min_role = {kind: actions[kind].min_role for kind in actions}
    min_role.update(settings.approval_min_role)
    return ApprovalPolicy(settings.approval_timeout_s, settings.approval_escalations, limits,
                          four_eyes_cents=int(settings.four_eyes_above * 100), min_role=min_role)
