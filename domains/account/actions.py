"""Account's durable actions: closure and two-factor reset, once a supervisor approved them."""

from __future__ import annotations

from callcenter.store.adapters import Ports
from callcenter.store.durable import Effect
from callcenter.store.engine import Conn
from workflows.actions import Applied, DurableAction
from workflows.models import ApprovalRequest


# Account state lives in the line's own store: these effects run inside the outcome's SQL
# transaction, so the decision and the change commit together.
def _customer_update(customer_id: str, sql: str, done: str) -> Effect:
    def run(conn: Conn) -> str:
        cur = conn.execute(sql, (customer_id,))
        if cur.rowcount != 1:
            raise ValueError(f"unknown customer {customer_id}")  # impossible: recorded as failed, not retried
        return done

    return run


def close_account_effect(customer_id: str) -> Effect:
    return _customer_update(customer_id, "UPDATE customers SET closed = 1 WHERE id = ?", f"account {customer_id} closed")


def reset_two_factor_effect(customer_id: str) -> Effect:
    return _customer_update(customer_id, "UPDATE customers SET two_factor = 0 WHERE id = ?",
                            f"two-factor authentication reset for {customer_id}")


def _close(ports: Ports, req: ApprovalRequest, key: str, decided_by: str) -> Applied:
    return Applied(effect=close_account_effect(req.customer_id))  # runs inside the outcome's transaction


def _reset_two_factor(ports: Ports, req: ApprovalRequest, key: str, decided_by: str) -> Applied:
    return Applied(effect=reset_two_factor_effect(req.customer_id))


# The caller is told "a supervisor reviews it first": the workflow holds the line to that.
CLOSE_ACCOUNT = DurableAction(kind="close_account", what="account closure", effect=_close, domain="account",
                              min_role="supervisor")
TWO_FACTOR_RESET = DurableAction(kind="two_factor_reset", what="two-factor reset", effect=_reset_two_factor,
                                 domain="account", min_role="supervisor")
ACTIONS = (CLOSE_ACCOUNT, TWO_FACTOR_RESET)
