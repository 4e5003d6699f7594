"""Refunds for duplicate charges and service failures: read the ledger, apply the policy, confirm, act once."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal

from livekit.agents import function_tool

from callcenter.llm.embedded import user_texts
from callcenter.money import dollars, read_amount, to_cents
from callcenter.routing.slots import SlotReader, Slots
from callcenter.spoken import normalise
from domains.billing.actions import REFUND
from domains.billing.payout import limits_of, pay_within_limits, read_ledger
from domains.billing.policy import (
    Ledger,
    RefundDecision,
    RefundLimits,
    duplicate_pairs,
    evaluate_refund,
    refund_reason,
)
from domains.billing.ports import billing_port
from domains.billing.records import Charge, Refund
from domains.billing.refund_words import (
    amount_back,
    asks_money_back,
    changed_amount,
    claimed_reason,
    corrects_itself,
)
from domains.billing.settings import BillingSettings
from domains.durable import request_approval
from domains.frame import ActionFacts
from domains.identity import account_refusal
from domains.intent import ActionGate, yes_or_no
from domains.results import SpecialistResult
from domains.specialist import SpecialistTask, guarded


@dataclass(kw_only=True)
class IssueRefundResult(SpecialistResult):
    charge_id: str | None = None
    amount_cents: int | None = None
    refund_id: int | None = None
    request_id: str | None = None
    finding: str | None = None


_FULL = re.compile(r"\b(full|whole|entire)\s+(amount|thing|charge|refund)\b|\ball of it\b|\beverything\b", re.I)
# "just twenty bucks of that double charge, not all of it", "i don't need the whole thing, just
# twenty back", "not even asking for all of it": the whole, said only to be refused (a negation up
# to three words before it)
_NOT_BEFORE = re.compile(r"\b(?:not|no|don'?t|dont|never|doesn'?t|won'?t)(?:\s+[\w']+){0,3}\s+$", re.I)


def _asks_full(text: str) -> bool:
    """The caller asks for the whole refundable amount ("the full amount", "all of it")."""
    return any(not _NOT_BEFORE.search(text[: m.start()]) for m in _FULL.finditer(text))


@dataclass(frozen=True)
class _ReadBackSlots(SlotReader):
    """The line's slots, read at a refund's read-back: a bare number said as a change of it
    ("actually make it forty") is the amount, as "forty dollars" is anywhere."""

    def read(self, text: str) -> Slots:
        slots = super().read(text)
        if slots.amount is None and (changed := changed_amount(normalise(text))) is not None:
            slots.amount = Decimal(changed)
        return slots


class IssueRefundTask(SpecialistTask[IssueRefundResult]):
    result_type = IssueRefundResult
    instructions = (
        "You handle refunds for duplicate charges and service failures. Call issue_refund with the "
        "charge id if the caller gave one (otherwise leave it empty to look for a duplicate charge) and the "
        "amount only if the caller asked for a specific amount. The refund policy and the caller's "
        "confirmation are enforced by the tool; never promise a refund the tool did not confirm."
    )

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.gate = ActionGate()

    @property
    def slot_reader(self) -> SlotReader:
        base = self.state.slots
        return _ReadBackSlots(patterns=base.patterns, request_kinds=base.request_kinds) if self.gate.pending else base

    def corrects(self, text: str) -> bool:
        """The caller changes the amount read back ("actually make it forty", "just thirty then")."""
        return changed_amount(normalise(text)) is not None

    def _requested(self, amount: float | None) -> tuple[int | None, str | None]:
        """The amount the caller asked for, read from their own words; (None, question) if unclear."""
        for text in user_texts(self.chat_ctx):
            if text.strip() in self.questions:
                continue  # "only about $200? we pay you a grand a month": asked about, not asked for
            if _asks_full(text):
                return None, None  # the answer to "how much?": the refundable balance
            words = normalise(text)
            # "give me twenty back, no, make that twenty five": the figure the caller corrected to
            changed = (changed_amount(words) if self.gate.pending or corrects_itself(words) else None) or amount_back(words)
            if changed is not None:  # "actually make it forty" to the read-back; "can i get twenty back"
                return to_cents(changed), None
            reading = read_amount(text)
            if reading.status == "unclear":
                return None, (
                    f"Sorry, I couldn't be sure of {reading.why}. How much would you like refunded, in US dollars, "
                    "as digits? Or say 'the full amount'."
                )
            if reading.status == "ok":
                if amount is not None and to_cents(amount) != reading.cents:
                    return None, "Sorry, how much would you like refunded, in US dollars?"
                return reading.cents, None
        return None, None  # the caller named no amount: the refundable balance

    @function_tool
    @guarded
    async def issue_refund(self, charge_id: str | None = None, amount: float | None = None) -> str | None:
        """Refund a duplicate charge, or credit a charge affected by a service failure, within the refund policy.

        Args:
            charge_id: The charge id from the caller's statement, like CH-1001-2. Leave empty to find a duplicate charge.
            amount: The amount in dollars the caller wants back, only if they named one.
        """
        refused = account_refusal(self)  # not the holder speaking, or a closed account: no refund starts
        if refused is not None:
            self.finish(IssueRefundResult(status="refused", summary=refused))
            return None
        store, billing = self.state.store, self.state.section(BillingSettings)
        requested, question = self._requested(amount)
        if question is not None:
            return question if self.another_attempt() else None
        ledger = read_ledger(self.state.ports, store, self.customer_id, billing.refund_window_days, billing.auto_refund_period_days)
        charge, question = self._find_charge(charge_id, ledger)
        if charge is None and charge_id is None and not self.attempts and self.state.waiting_needs and self._none_open(ledger):
            # "a refund on that forty nine dollar bill, and i need my account unlocked": nothing is
            # refundable, which answers the refund; the needs after it come now, not after a
            # charge id the caller may not have (one said later is routed to the refund again)
            self.finish(IssueRefundResult(status="refused", summary=question or ""))
            return None
        if charge is None:
            said = user_texts(self.chat_ctx)
            if charge_id is None and self.attempts and said and (yes_or_no(said[0]) is True or _TAKEN.fullmatch(said[0].lower())):
                # "ok fine" to "ordinary charges can't be refunded by phone. If a charge looks wrong,
                # read me its id": the answer taken, not a charge named; the request ends there
                self.finish(IssueRefundResult(status="refused", summary=_LEFT_THERE))
                return None
            return question if self.another_attempt() else None
        decision = evaluate_refund(charge=charge, ledger=ledger, requested_cents=requested, limits=limits_of(billing))
        base = {"charge_id": charge.id, "finding": decision.finding}
        if decision.outcome == "refuse":
            self.finish(IssueRefundResult(status="refused", summary=_refusal(decision), request_id=decision.pending_request, **base))
            return None
        if not self.gate.pending and not asks_money_back(self.request_words):
            # Sent here by words that ask for no money back: what the records allow is offered,
            # and only the caller's yes to it asks for the refund (read back then like any other).
            self.finish(IssueRefundResult(status="info", summary=_offered(charge, decision), offer=f"refund charge {charge.id}", **base))
            return None
        claimed = None if self.gate.pending else claimed_reason(self.request_words)
        if claimed is not None and claimed != decision.reason:
            # "i think i was charged twice, refund that" where only an outage credit qualifies:
            # the caller asked for another refund than the one the records allow, so it is told
            # and offered, not read back as if it were the one asked for (a yes then reads it back)
            summary = f"{_NOT_FOUND[claimed]} {_offered(charge, decision)}"
            self.finish(IssueRefundResult(status="info", summary=summary, offer=f"refund charge {charge.id}", **base))
            return None
        go = self.gate.check(self, f"refund:{charge.id}:{decision.amount_cents}:{decision.outcome}",
                             _readback(charge, decision, self.customer_id), _facts(decision, charge.id, limits_of(billing)))
        if go is not True:
            return go
        if decision.outcome == "auto":
            # Decided again and paid under the customer's lock: another call may have been paid meanwhile.
            paid = await asyncio.to_thread(
                pay_within_limits, self.state.ports, store, billing, customer_id=self.customer_id, charge_id=charge.id,
                requested_cents=requested, confirmed=decision,
            )
            if isinstance(paid, Refund):
                self._paid(paid, decision)
                return None
            if paid.outcome == "refuse":
                self.finish(IssueRefundResult(status="refused", summary=_refusal(paid), request_id=paid.pending_request,
                                              charge_id=charge.id, finding=paid.finding))
                return None
            if paid.outcome != "approval" or paid.amount_cents != decision.amount_cents:
                return self._readback_again(charge, paid)
            # The same refund, past a limit now that another was paid meanwhile: it is filed for
            # a supervisor (the caller hears it needs approval and that nothing was done yet).
            decision, base = paid, {"charge_id": charge.id, "finding": paid.finding}
        earlier = [w for w in store.list_work(customer_id=self.customer_id) if w.kind == REFUND.kind and w.id.startswith(f"{REFUND.kind}-{charge.id}")]
        request_id = f"{REFUND.kind}-{charge.id}" + (f"-{len(earlier) + 1}" if earlier else "")
        outcome = await request_approval(
            self.state,
            say=self.session.say, caller_reason=self.request_words,
            kind=REFUND.kind,
            request_id=request_id,
            amount_cents=decision.amount_cents,
            record_id=charge.id,
            policy_finding=decision.finding,
            requested_by=self.id,
            what=f"a refund of {dollars(decision.amount_cents)} for charge {charge.id}",
        )
        self.finish(
            IssueRefundResult(
                status=outcome.status, summary=outcome.summary, amount_cents=decision.amount_cents, request_id=outcome.request_id,
                follow_ups=_after_approval(outcome.follow_ups), **base
            )
        )
        return None

    def _paid(self, refund: Refund, decision: RefundDecision) -> None:
        summary = (
            f"I've refunded {dollars(refund.amount_cents)} for charge {refund.charge_id}. "
            "It will be back on your card in 3 to 5 business days."
        )
        follow_ups = {
            "how_long": "Card refunds take 3 to 5 business days to show, depending on your bank.",
            "why": "The charge was taken twice, so the second one is given back."
            if decision.reason == "duplicate"
            else "Our service failed during that billing period, so part of the charge is credited back.",
            "next_step": "Nothing more to do: it goes back to the card it was charged to.",
        }
        self.finish(IssueRefundResult(status="done", summary=summary, amount_cents=refund.amount_cents, refund_id=refund.id,
                                      follow_ups=follow_ups, charge_id=refund.charge_id, finding=decision.finding))

    def _readback_again(self, charge: Charge, decision: RefundDecision) -> str | None:
        """Another amount than the caller confirmed: a new read-back (the gate asks again)."""
        return self.gate.check(self, f"refund:{charge.id}:{decision.amount_cents}:{decision.outcome}", _readback(charge, decision, self.customer_id))

    def _recent(self, ledger: Ledger) -> list[Charge]:
        window = self.state.section(BillingSettings).refund_window_days
        return [c for c in ledger.charges if datetime.now(UTC) - datetime.fromisoformat(c.charged_at) <= timedelta(days=window)]

    @staticmethod
    def _open(recent: list[Charge], ledger: Ledger) -> list[Charge]:
        """The recent charges the policy could refund, not yet refunded in full."""
        return [c for c in recent if refund_reason(c, ledger) and ledger.refunded.get(c.id, 0) < c.amount_cents]

    def _none_open(self, ledger: Ledger) -> bool:
        return not self._open(self._recent(ledger), ledger)

    def _find_charge(self, charge_id: str | None, ledger: Ledger) -> tuple[Charge | None, str | None]:
        window = self.state.section(BillingSettings).refund_window_days
        if charge_id:
            charge = billing_port(self.state.ports).get_charge(charge_id)
            if charge is None or charge.customer_id != self.customer_id:
                return None, "I can't find that charge on your account. Could you read me the charge id from your statement?"
            twin = next((later for later, earlier in duplicate_pairs(ledger.charges).items() if earlier == charge.id), None)
            return (ledger.charge(twin) or charge) if twin else charge, None  # the original's duplicate is the one to refund
        recent = self._recent(ledger)
        open_ = self._open(recent, ledger)
        dupes = [c for c in open_ if c.id in duplicate_pairs(ledger.charges)] or open_
        if len(dupes) == 1:
            return dupes[0], None
        if not dupes:
            return None, self._already_settled(recent, ledger) or (
                f"I don't see a duplicate charge or a service problem on your bill in the last {window} days, and "
                "ordinary charges can't be refunded by phone. If a charge looks wrong, read me its id, like CH-1001-2."
            )
        return None, f"I see several charges that might qualify: {', '.join(c.id for c in dupes)}. Which one do you mean?"


    def _already_settled(self, recent: list[Charge], ledger: Ledger) -> str | None:
        """A caller asking again for a refund they already got (or asked for) hears that, with
        when and how much, not "I don't see a duplicate charge"; the task still waits, in
        case they mean another charge."""
        qualifying = [c for c in recent if refund_reason(c, ledger)]
        pending = [(c, ledger.pending[c.id]) for c in qualifying if c.id in ledger.pending]
        if pending:
            charge, (request_id, cents) = pending[0]
            return _waiting(f"A refund of {dollars(cents)} for charge {charge.id}", request_id) + " " + _ANOTHER
        done = {c.id for c in qualifying if ledger.refunded.get(c.id, 0) >= c.amount_cents}
        refunds = sorted((r for r in billing_port(self.state.ports).list_refunds(self.customer_id) if r.charge_id in done),
                         key=lambda r: r.created_at)
        if not refunds:
            return None
        last = refunds[-1]
        when = datetime.fromisoformat(last.created_at).date().isoformat()
        return (
            f"That charge has already been refunded: {dollars(last.amount_cents)} for charge {last.charge_id} went "
            f"back on {when}. Card refunds take 3 to 5 business days to show, depending on your bank. " + _ANOTHER
        )


def _readback(charge: Charge, decision: RefundDecision, customer_id: str) -> str:
    kind = "duplicate charge" if decision.reason == "duplicate" else "service-failure credit on charge"
    return (
        f"To confirm: a refund of {dollars(decision.amount_cents)} for the {kind} {charge.id} "
        f"on account {customer_id}, back to the card it was charged to"
        + (", which needs a supervisor's approval." if decision.outcome == "approval" else ".")
    )


def _offered(charge: Charge, decision: RefundDecision) -> str:
    kind = "duplicate charge" if decision.reason == "duplicate" else "service-failure credit on charge"
    return (f"I do see a {kind} {charge.id} on your account that can be refunded: {dollars(decision.amount_cents)}. "
            "Nothing has been changed. Would you like me to refund it?")


def _facts(decision: RefundDecision, charge_id: str, limits: RefundLimits) -> ActionFacts:
    """What a caller may ask about a refund before agreeing to it."""
    approval = None
    if decision.outcome == "approval":
        which = "this charge" if "per-charge" in decision.finding else "your account this period"
        approval = (
            f"refunds above {dollars(limits.per_charge_auto_cents)} for one charge, or above "
            f"{dollars(limits.per_customer_period_auto_cents)} for one customer in {limits.period_days} days, "
            f"need a supervisor's approval, and this one is over that for {which}."
        )
    return ActionFacts(
        what=f"the refund of {dollars(decision.amount_cents)} for charge {charge_id}",
        how_long=None if approval else (
            "Once you say yes it's refunded right away; card refunds then take 3 to 5 business days to show, "
            "depending on your bank."
        ),
        approval=approval,
        cost=f"It's {dollars(decision.amount_cents)} back to you for charge {charge_id}; there's no fee for a refund.",
        undo="A refund can't be taken back once it's issued, which is why I'm checking with you first.",
        amount=None if decision.reason != "service_failure" else (
            f"A service-failure credit is capped at {limits.service_credit_percent}% of the charge: that's the policy "
            "for calls that failed during an incident, and only a duplicate charge is refunded in full."),
    )


_ANOTHER = "If you mean a different charge, read me its id, like CH-1001-2."
# What the records do not show, of the reason the caller gave for a refund.
_NOT_FOUND = {
    "duplicate": "I don't see a charge taken twice on your account.",
    "service_failure": "I don't see a service problem on your bill.",
}
_LEFT_THERE = "Alright, I've left it there; nothing was refunded."
# An answer taken as it is: "ok", "i see", "fair enough", "oh well ok then".
_TAKEN = re.compile(r"\W*(?:(?:oh|ah|hmm|well|um|uh)\W+)*(?:ok(?:ay)?|alright|all right|i see|fair enough|got it|right|understood|fine"
                    r"|oh well)(?:\W+(?:then|thanks|thank you|fine|ok(?:ay)?))*\W*")


def _waiting(what: str, reference: str) -> str:
    """One sentence for a refund already before a supervisor, whether the caller asked again
    in general or named the charge."""
    return (
        f"{what} is already waiting for a supervisor's approval (reference {reference}), so I haven't asked "
        "for another. You'll hear as soon as it's decided."
    )


def _refusal(decision: RefundDecision) -> str:
    finding = decision.finding
    if decision.pending_request:
        return _waiting("A refund for that charge", decision.pending_request)
    if "overdue" in finding:
        return "That charge is on an overdue invoice, so it can't be refunded by phone. No money has been moved."
    if "ordinary charge" in finding:
        return (
            "That's a regular charge for your plan, not a duplicate or a charge affected by an outage, so I can't "
            "refund it by phone. No money has been moved."
        )
    if "as far as policy allows" in finding:
        return "That charge has already been refunded as far as our policy allows, so there's nothing more to refund."
    if "window" in finding:
        return "I'm sorry, that charge is older than our refund window, so I can't refund it by phone."
    if decision.refundable_cents > 0:
        return (
            f"I can't do that: the most that can be refunded on that charge is {dollars(decision.refundable_cents)}, "
            "and no money has been moved."
        )
    return "I can't refund that amount, and no money has been moved."


def _after_approval(follow_ups: dict) -> dict:
    """"when do i actually get it": the approval's wait, then the card's."""
    wait = follow_ups.get("how_long")
    if not wait:
        return follow_ups
    return {**follow_ups, "how_long": f"{wait} Once it's approved, card refunds take 3 to 5 business days to show."}

