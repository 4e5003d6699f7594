"""Refunds for duplicate or wrong charges: verify the charge, apply the policy, act once."""

from __future__ import annotations

from dataclasses import dataclass

from livekit.agents import function_tool

from callcenter.money import dollars, to_cents
from domains.billing.policy import evaluate_refund, find_duplicates
from domains.durable import request_approval
from domains.results import SpecialistResult
from domains.specialist import SpecialistTask, guarded


@dataclass(kw_only=True)
class IssueRefundResult(SpecialistResult):
    charge_id: str | None = None
    amount_cents: int | None = None
    refund_id: int | None = None
    request_id: str | None = None
    finding: str | None = None


class IssueRefundTask(SpecialistTask[IssueRefundResult]):
    result_type = IssueRefundResult
    instructions = (
        "You handle refunds for duplicate or wrong charges. Call issue_refund with the charge id "
        "if the caller gave one (otherwise leave it empty to look for a duplicate charge) and the "
        "amount only if the caller asked for a specific amount. The refund policy is enforced by the "
        "tool; never promise a refund the tool did not confirm."
    )

    @function_tool
    @guarded
    async def issue_refund(self, charge_id: str | None = None, amount: float | None = None) -> str | None:
        """Refund a charge on the caller's account, within the refund policy.

        Args:
            charge_id: The charge id from the caller's statement, like CH-1001-2. Leave empty to find a duplicate charge.
            amount: The amount in dollars the caller wants back, only if they named one.
        """
        store, settings = self.state.store, self.state.settings
        requested = to_cents(amount)
        if charge_id:
            charge = store.get_charge(charge_id)
            if charge is None or charge.customer_id != self.customer_id:
                if not self.another_attempt():
                    return None
                return "I can't find that charge on your account. Could you read me the charge id from your statement?"
        else:
            recent = store.list_charges(self.customer_id, since_days=settings.refund_window_days)
            dupes = [c for c in find_duplicates(recent) if store.refunded_cents(c.id) < c.amount_cents]
            if len(dupes) != 1:
                if not self.another_attempt():
                    return None
                if not dupes:
                    return (
                        f"I don't see a duplicate charge in the last {settings.refund_window_days} days. "
                        "Which charge should I look at? The charge id is on your statement, like CH-1001-2."
                    )
                ids = ", ".join(c.id for c in dupes)
                return f"I see several possible duplicates: {ids}. Which one should I refund?"
            charge = dupes[0]
        already = store.refunded_cents(charge.id)
        decision = evaluate_refund(
            charge=charge,
            already_refunded_cents=already,
            requested_cents=requested,
            auto_limit=settings.auto_refund_limit,
            window_days=settings.refund_window_days,
        )
        base = {"charge_id": charge.id, "finding": decision.finding}
        if decision.outcome == "refuse":
            self.finish(IssueRefundResult(status="refused", summary=_refusal(decision.finding, charge.amount_cents - already), **base))
            return None
        if decision.outcome == "auto":
            refund, created = store.record_refund(
                charge_id=charge.id,
                amount_cents=decision.amount_cents,
                reason="duplicate charge" if not charge_id else "caller request",
                idempotency_key=f"refund-{charge.id}-{already}",
            )
            summary = (
                f"I've refunded {dollars(refund.amount_cents)} for charge {charge.id}. "
                "It will be back on your card in 3 to 5 business days."
            )
            self.finish(IssueRefundResult(status="done", summary=summary, amount_cents=refund.amount_cents, refund_id=refund.id, **base))
            return None
        outcome = await request_approval(
            self.state,
            say=self.session.say, caller_reason=self.caller_words,
            kind="refund",
            request_id=f"refund-{charge.id}",
            amount_cents=decision.amount_cents,
            charge_id=charge.id,
            policy_finding=decision.finding,
            requested_by=self.id,
            what=f"a refund of {dollars(decision.amount_cents)} for charge {charge.id}",
        )
        self.finish(
            IssueRefundResult(
                status=outcome.status, summary=outcome.summary, amount_cents=decision.amount_cents, request_id=outcome.request_id, **base
            )
        )
        return None


def _refusal(finding: str, refundable_cents: int) -> str:
    if "already fully refunded" in finding:
        return "That charge has already been refunded in full, so there's nothing more to refund."
    if "window" in finding:
        return "I'm sorry, that charge is older than our refund window, so I can't refund it by phone."
    if refundable_cents > 0:
        return (
            f"I can't do that: the most that can be refunded on that charge is {dollars(refundable_cents)}, "
            "and no money has been moved."
        )
    return "I can't refund that amount, and no money has been moved."
