"""'What happened to my refund?': refunds on record and approvals still in flight."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from livekit.agents import function_tool

from callcenter.money import dollars
from domains.billing.payout import limits_of, read_ledger
from domains.billing.policy import Ledger, duplicate_pairs, evaluate_refund, refund_reason
from domains.billing.ports import billing_port
from domains.billing.records import Charge
from domains.billing.settings import BillingSettings
from domains.results import SpecialistResult
from domains.specialist import SpecialistTask, guarded


@dataclass(kw_only=True)
class CheckRefundStatusResult(SpecialistResult):
    refunds: list[dict[str, object]] = field(default_factory=list)
    requests: list[dict[str, object]] = field(default_factory=list)


class CheckRefundStatusTask(SpecialistTask[CheckRefundStatusResult]):
    result_type = CheckRefundStatusResult
    idempotent = True  # read-only: safe to retry once
    instructions = "You tell callers the status of their refunds. Call check_refund_status."

    @function_tool
    @guarded
    async def check_refund_status(self, request_id: str | None = None) -> None:
        """Look up the caller's refunds and any refund waiting for approval.

        Args:
            request_id: A refund reference the caller read out, like refund-CH-1002-D, if any.
        """
        store = self.state.store
        refunds = billing_port(self.state.ports).list_refunds(self.customer_id)[-3:]
        parts = [f"{dollars(r.amount_cents)} for charge {r.charge_id} was refunded on {r.created_at[:10]}" for r in refunds]
        requests: list[dict[str, object]] = []
        if self.state.durable is not None:
            statuses = await self.state.durable.find_for_customer(self.customer_id, "refund")
            for st in statuses:
                if request_id and st.request_id != request_id:
                    continue
                requests.append({"request_id": st.request_id, "state": st.state})
                parts.append(f"your request {st.request_id} is {_STATE_WORDS.get(st.state, st.state)}")
        else:
            for w in store.list_work(customer_id=self.customer_id):
                if w.kind == "refund" and (not request_id or w.id == request_id):
                    requests.append({"request_id": w.id, "state": "pending"})
                    parts.append(f"your request {w.id} is waiting for a supervisor's approval")
        offer = None
        if not parts:
            summary = "I don't see any refunds or refund requests on your account."
            found = self._refundable()
            if found is not None:
                # "did my refund for the double charge go through?" when none was ever asked for:
                # the charge it would be is offered, and a yes makes the request (read back first);
                # the policy says how much (a service-failure credit is a share of the charge)
                charge, ledger = found
                decision = evaluate_refund(charge=charge, ledger=ledger, requested_cents=None,
                                           limits=limits_of(self.state.section(BillingSettings)))
                if decision.outcome != "refuse":  # a charge on an overdue invoice is offered nothing
                    what = (f"a charge that qualifies for a refund: {dollars(decision.refundable_cents)} on {charge.charged_at[:10]}, {charge.id}"
                            if decision.reason == "duplicate" else
                            f"a service-failure credit you qualify for: {dollars(decision.refundable_cents)} on charge {charge.id} of "
                            f"{charge.charged_at[:10]}")
                    summary += f" I do see {what}. Would you like me to refund it?"
                    offer = f"refund charge {charge.id}"
        else:
            summary = "Here's what I see: " + "; ".join(parts) + "."
        self.finish(
            CheckRefundStatusResult(
                status="info",
                summary=summary,
                offer=offer,
                refunds=[{"charge_id": r.charge_id, "amount_cents": r.amount_cents, "at": r.created_at} for r in refunds],
                requests=requests,
            )
        )


    def _refundable(self) -> tuple[Charge, Ledger] | None:
        """The one charge a refund asked for now would take (the refund policy's reasons, within its
        window, not refunded or waiting for approval already), with the ledger read for it, or None."""
        billing = self.state.section(BillingSettings)
        ledger = read_ledger(self.state.ports, self.state.store, self.customer_id, billing.refund_window_days,
                             billing.auto_refund_period_days)
        since = datetime.now(UTC) - timedelta(days=billing.refund_window_days)
        open_ = [c for c in ledger.charges if datetime.fromisoformat(c.charged_at) >= since and refund_reason(c, ledger)
                 and ledger.refunded.get(c.id, 0) < c.amount_cents and c.id not in ledger.pending]
        dupes = [c for c in open_ if c.id in duplicate_pairs(ledger.charges)] or open_
        return (dupes[0], ledger) if len(dupes) == 1 else None


_STATE_WORDS = {
    "pending": "waiting for a supervisor's approval",
    "escalated": "with a senior supervisor for approval",
    "approved": "approved and being paid out",
    "completed": "approved and paid",
    "denied": "declined",
    "failed": "approved but could not be paid out; a colleague will follow up",
    "queued": "recorded and waiting to be reviewed",
}
