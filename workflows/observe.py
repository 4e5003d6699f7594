"""Approval metrics, recorded from activities and the worker (never from workflow code,
which replays and would count twice). Delegates to callcenter.metrics, whose label
vocabularies keep cardinality bounded; a metrics failure never fails durable work."""

from __future__ import annotations

import logging

from callcenter import metrics

log = logging.getLogger(__name__)


def approval_decided(kind: str, decision: str, seconds: float) -> None:
    try:
        metrics.approval_decision(kind=kind, decision=decision, seconds=seconds)
    except Exception:  # metrics are best effort
        log.debug("approval metric failed", exc_info=True)


def workflow_outcome(workflow: str, outcome: str) -> None:
    try:
        metrics.workflow_outcome(workflow=workflow, outcome=outcome)
    except Exception:
        log.debug("workflow metric failed", exc_info=True)


def approvals_pending(kind: str, n: int) -> None:
    try:
        metrics.set_approvals_pending(kind, n)
    except Exception:
        log.debug("pending metric failed", exc_info=True)


def ended_outside(kind: str, how: str) -> None:
    """A request ended, or was refused, outside the line and the console: terminated or
    cancelled in Temporal, or a workflow the line never filed (how: terminated, canceled, not_filed)."""
    try:
        metrics.request_ended_outside(kind=kind, how=how)
    except Exception:
        log.debug("ended-outside metric failed", exc_info=True)
