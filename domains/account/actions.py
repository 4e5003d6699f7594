"""Account's durable actions: closure and two-factor reset, once a supervisor approved them.

Both go through the line's ports, so a company's own customer system (CALLCENTER_ADAPTERS)
sees them: the customers port closes the account or resets two-factor, and a closure also
reaches every domain's port that keeps something for the customer (billing's ledger ends the
subscription: `Ports.close_account`). The port calls are idempotent, so writing them before
the outcome row is safe: a retried activity does them again to the same end. What the line
keeps itself for the customer goes in the outcome's own transaction: a closure cancels the
contact changes and unlocks still waiting for a call back.
"""

from __future__ import annotations

from callcenter.store.adapters import Ports
from callcenter.store.durable import Effect
from callcenter.store.engine import Conn
from callcenter.store.repository import now_iso
from workflows.actions import Applied, DurableAction
from workflows.models import ApprovalRequest


def cancel_step_ups(customer_id: str) -> Effect:
    """The closed account's changes still waiting for a call back are cancelled with the closure."""
    def run(conn: Conn) -> None:
        conn.execute("UPDATE pending_changes SET status = 'cancelled', decided_at = ? WHERE customer_id = ?"
                     " AND status = 'awaiting_callback'", (now_iso(), customer_id))

    return run


def _close(ports: Ports, req: ApprovalRequest, key: str, decided_by: str) -> Applied:
    ports.close_account(req.customer_id)  # ValueError for an unknown customer: recorded as failed
    return Applied(detail=f"account {req.customer_id} closed; subscription ended", effect=cancel_step_ups(req.customer_id))


def _reset_two_factor(ports: Ports, req: ApprovalRequest, key: str, decided_by: str) -> Applied:
    customer = ports.customers.get_customer(req.customer_id)
    if customer is None:
        raise ValueError("unknown customer")
    if customer.closed:
        raise ValueError("the account is closed")  # a closed account changes no more
    ports.customers.reset_two_factor(req.customer_id)
    return Applied(detail=f"two-factor authentication reset for {req.customer_id}")


# The caller is told "a supervisor reviews it first": the workflow holds the line to that.
CLOSE_ACCOUNT = DurableAction(kind="close_account", what="account closure", effect=_close, domain="account",
                              min_role="supervisor")
TWO_FACTOR_RESET = DurableAction(kind="two_factor_reset", what="two-factor reset", effect=_reset_two_factor,
                                 domain="account", min_role="supervisor")
ACTIONS = (CLOSE_ACCOUNT, TWO_FACTOR_RESET)
