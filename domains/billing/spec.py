"""Billing: refunds, refund status, invoices, plan changes and balance."""

from __future__ import annotations

import re
from pathlib import Path

from callcenter.routing.calibration import OOS
from callcenter.routing.rereading import Rereading, never
from callcenter.routing.slots import SlotPattern
from domains.base import DomainSpec, SpecialistSpec, Wording
from domains.billing.actions import ACTIONS
from domains.billing.balance import GetBalanceTask, lookup_balance
from domains.billing.glossary import GLOSSARY
from domains.billing.invoices import GetInvoicesTask, asks_the_task, lookup_invoices, the_one_before
from domains.billing.months import MONTH, asks_a_months_bill, month_value
from domains.billing.payment_words import (
    asks_the_monthly_price,
    asks_what_a_charge_was,
    asks_what_is_owed,
    asks_what_was_paid,
)
from domains.billing.plan_change import ChangePlanTask, lookup_prices, picked_from_prices
from domains.billing.plan_figures import moves_to_a_figure
from domains.billing.plan_words import (
    PLAN,
    asks_a_plans_price,
    asks_no_price,
    asks_plan_limits,
    asks_to_pay_less,
    compares_plans,
    complains_of_price,
    ends_everything,
    ends_something,
    names_plan_or_way,
    names_plan_to_move_to,
    only_states_plan,
    payment_failed,
    plan_value,
    wants_money_back,
)
from domains.billing.ports import PORTS
from domains.billing.refund import IssueRefundTask
from domains.billing.refund_status import CheckRefundStatusTask
from domains.billing.refund_words import (
    asked_before,
    asks_another,
    asks_credit_for_trouble,
    asks_now,
    names_no_money,
    names_refund,
    tells_taken_twice,
    ticket_for_money,
)
from domains.billing.supervisor import BillingSupervisorTask


def _charge_id(m: re.Match[str]) -> str:
    return re.sub(r"^CH[-\s]?", "CH-", m.group(1).upper())  # "ch 1002-d" -> "CH-1002-D"


def _invoice_id(m: re.Match[str]) -> str:
    return re.sub(r"^INV[-\s]?", "INV-", m.group(1).upper())


# The ids on a customer's statement and the plan names, as callers say them; each fills the
# tool parameter of the same name (IssueRefundTask's charge_id, ChangePlanTask's plan).
SLOTS = (
    SlotPattern("charge_id", re.compile(r"\b(ch[-\s]?\d{3,6}(?:-[a-z0-9]{1,4})?)\b", re.I), _charge_id),
    SlotPattern("invoice_id", re.compile(r"\b(inv[-\s]?\d{3,6}(?:-\d{1,3})?)\b", re.I), _invoice_id),
    SlotPattern("plan", PLAN, plan_value),  # a name, or "cheaper" / "upgrade" (plan_words.py)
    SlotPattern("month", MONTH, month_value, skips_current=False),  # "the february bill", "last month's" (months.py)
)

# "cancel" said with a plan to move to ("cancel pro, starter is plenty") leaves a plan, not the
# account; said with nothing to move to and nothing that ends the account ("cancel my
# subscription") it could be either, so the line asks (callcenter/routing/rereading.py).
CANCEL_TO_A_PLAN = Rereading(
    over=frozenset({"account/close_account"}),
    label="billing/plan_change",
    target=names_plan_to_move_to,
    whole=ends_everything,
    unsure=ends_something,
    joins_reasons=True,  # "downgrade us to starter, we don't use it enough": no closure beside it
)

# "move me to the $49 one": a plan named by its price (or limit) may read as the $49 charge.
PLAN_BY_FIGURE = Rereading(
    over=frozenset({"billing/refund", "billing/refund_status", "billing/balance", OOS}),
    label="billing/plan_change",
    target=moves_to_a_figure,
    whole=wants_money_back,  # "... i want the $49 one back": the charge
    unsure=never,
)

# "i want to pay less each month": a way down the price list, not a question about the balance.
PAY_LESS = Rereading(
    # "we're paying way too much, knock it down a bit" may read as a refund: nothing was charged twice
    # OOS: "our finance team says we're spending too much on you guys, what are our options?"
    # closure: "... it's too much money, what can we drop to" is a smaller plan, unless the
    # words end the account itself
    # profile update: "..., $999 a month, and i have to get that number down" (a figure, not a phone number)
    over=frozenset({"billing/balance", "billing/refund", OOS, "meta/goodbye", "account/close_account",
                    "account/profile_update"}),
    label="billing/plan_change",
    target=asks_to_pay_less,
    whole=ends_everything,
    unsure=never,
    settles_own=True,  # "it would be nice to be paying a bit less every month" at 0.72: the way down is sure, its read-back asks
)

# "the price is too much for us, we want pay less every month": beside a way down the list, the
# price complained of is why (no charge is named), not a refund of its own.
PRICE_COMPLAINED = Rereading(
    over=frozenset({"billing/refund", "billing/balance"}),
    label="billing/plan_change",
    target=complains_of_price,
    whole=wants_money_back,
    unsure=never,
    beside_only=True,
)

# "my card got declined": nothing was taken, so no refund; the payment history says what was paid.
PAYMENT_FAILED = Rereading(
    over=frozenset({"billing/refund", "billing/refund_status"}),
    label="billing/invoices",
    target=payment_failed,
    whole=wants_money_back,
    unsure=never,
)

# "i asked for a refund yesterday, what's going on with it": the refund's status, not a new one.
ASKED_BEFORE = Rereading(
    over=frozenset({"billing/refund"}),
    label="billing/refund_status",
    target=asked_before,
    whole=asks_another,
    unsure=never,
    settles_own=True,  # where a refund asked for before stands changes nothing
)

# "whats the status of my ticket about getting my money back": the refund's status, not an
# engineering ticket's
TICKET_FOR_MONEY = Rereading(
    over=frozenset({"technical/ticket_status"}),
    label="billing/refund_status",
    target=ticket_for_money,
    whole=never,
    unsure=never,
)

# "refund me the duplicate forty nine", a bare "refund": a refund asked for now, not its status.
ASKED_NOW = Rereading(
    # "can i get the forty nine back from my last invoice": money asked back, whatever invoice it was on
    over=frozenset({"billing/refund_status", "billing/invoices"}),
    label="billing/refund",
    target=asks_now,
    whole=asked_before,
    unsure=never,
    settles_own=True,  # "i'd like the $49 back from the last invoice", unsure of the refund: its read-back comes first
)

# "what was the february bill", "my bill from two months back": that month's invoice, not the balance.
MONTHS_BILL = Rereading(
    # OOS: "what happened to the earlier invoice, the one from two months back" read as nothing
    over=frozenset({"billing/balance", "billing/refund", "billing/refund_status", OOS}),
    label="billing/invoices",
    target=asks_a_months_bill,
    whole=never,
    unsure=never,
    settles_own=True,  # "what happened to the earlier invoice, the one from two months back": read-only
)

# "what we paid the last three months": money already taken, the payment history (invoices),
# not what is owed now; money asked back ("we paid twice") stays a refund.
PAID_BEFORE = Rereading(
    over=frozenset({"billing/balance"}),
    label="billing/invoices",
    target=asks_what_was_paid,
    whole=wants_money_back,
    unsure=never,
)

# "ok so, i run a little pottery studio and ... you took the forty nine twice": the duplicate's
# refund, which its read-back states and nothing pays without a yes; the story read as nothing.
TAKEN_TWICE = Rereading(
    # "cancel the duplicate" reads as a closure, "billed twice for the pro plan" as a plan change
    over=frozenset({OOS, "billing/balance", "technical/integration_help", "billing/plan_change", "account/close_account"}),
    label="billing/refund",
    target=tells_taken_twice,
    whole=never,
    unsure=never,
    settles_own=True,  # read as the refund but unsure of it (0.68): the construction is sure, the read-back comes first
)

# "you've taken the money a second time haven't you": a charge taken twice told, not asked after
# (a refund named beside it, "where's my refund for the double charge", keeps its status).
TAKEN_TWICE_TOLD = Rereading(
    over=frozenset({"billing/refund_status"}),
    label="billing/refund",
    target=lambda text: tells_taken_twice(text) and not names_refund(text),
    whole=never,
    unsure=never,
    settles_own=True,
)

# "there's a charge of forty nine dollars on my card, what was that one for": the invoices say
# what it was; money asked back in the same words ("... i want it back") stays a refund.
CHARGE_ASKED = Rereading(
    # OOS: "i'm trying to work out what you took off me" may read as nothing the line does
    over=frozenset({"billing/refund", "billing/refund_status", "billing/balance", OOS}),
    label="billing/invoices",
    target=asks_what_a_charge_was,
    whole=wants_money_back,
    unsure=never,
)

# "so how much is starter": a plan's price is the price list's, not the caller's balance, unless
# they ask what they pay themselves ("how much do i pay for pro each month").
PLAN_PRICE = Rereading(
    # also when the words alone read as nothing the line does ("what would starter be then")
    over=frozenset({"billing/balance", OOS}),
    label="billing/plan_change",
    target=asks_a_plans_price,
    whole=asks_the_monthly_price,
    unsure=never,
)

# "what would the middle one set me back": a plan's price, its "back" no money back; only for a
# plan named (or its place in the list), not a figure beside a charge ("they take $12 a month
# more than the price and i got charged twice" asks money back).
PLAN_PRICE_NOT_REFUND = Rereading(
    over=frozenset({"billing/refund"}),
    label="billing/plan_change",
    target=lambda text: asks_a_plans_price(text) and names_plan_or_way(text) and not names_refund(text)
    and not tells_taken_twice(text),
    whole=asks_the_monthly_price,
    unsure=never,
)

# "how many requests a minute do i get on my plan", "and how many requests a minute is that": the
# plans' limits, which the price list gives beside each price, not the API errors' diagnosis.
LIMITS_ASKED = Rereading(
    over=frozenset({"technical/api_errors", "technical/integration_help", "billing/balance", "billing/invoices", OOS}),
    label="billing/plan_change",
    target=asks_plan_limits,
    whole=never,
    unsure=never,
    settles_own=True,  # a price list changes nothing
)

# "what's actually the difference between starter and pro, not changing anything yet": the plans
# side by side, not a refund's status (the words alone read as nothing sure).
PLANS_COMPARED = Rereading(
    over=frozenset({"billing/refund_status", "billing/refund", "billing/balance", "billing/invoices",
                    "technical/api_errors", "technical/integration_help", OOS}),
    label="billing/plan_change",
    target=compares_plans,
    whole=never,
    unsure=never,
    settles_own=True,  # nothing changes but after the specialist's read-back and a yes
)

# "we're on pro and our webhooks stopped": the plan said as who the caller is, beside the need
# they called about, is no plan change of its own (said alone, it keeps its reading).
PLAN_STATED = Rereading(
    # "we pay you the top rate and ...": read as the invoices or the balance as often as a change
    over=frozenset({"billing/plan_change", "billing/invoices", "billing/balance"}),
    label=OOS,
    target=only_states_plan,
    whole=never,
    unsure=never,
    beside_only=True,
)

# "open a ticket with your engineers, the pagination keeps returning the same page twice": beside
# another need, a clause read as a refund that names no money is no request for any back
NO_MONEY_NAMED = Rereading(
    over=frozenset({"billing/refund"}),
    label=OOS,
    target=names_no_money,
    whole=never,
    unsure=never,
    beside_only=True,
)

# "how much do i owe you, i think i maybe missed a payment last month": what is owed now is the
# balance (it names an overdue invoice), not the payment history.
OWED_NOW = Rereading(
    # OOS and a goodbye: "i got some late notice email from you, what's that about" read as nothing
    # plan change: "when does my plan renew" (the next bill, no change asked)
    over=frozenset({"billing/invoices", "billing/refund_status", OOS, "meta/goodbye", "technical/api_errors",
                    "billing/plan_change"}),
    label="billing/balance",
    target=asks_what_is_owed,
    whole=wants_money_back,
    unsure=never,
    settles_own=True,  # the balance changes nothing
)

# "what i pay every month": the plan's price, which the balance gives as the next bill, not a
# question between a refund and the invoices, nor a plan change (payment_words.py).
MONTHLY_PRICE = Rereading(
    over=frozenset({"billing/invoices", "billing/refund", "billing/refund_status", "billing/plan_change"}),
    label="billing/balance",
    target=asks_the_monthly_price,
    whole=wants_money_back,
    unsure=never,
)

# "can i get a credit for the failed calls today": the service-failure credit (a refund), which
# its read-back states and nothing pays without a yes; the trouble's words read as a diagnosis.
CREDIT_FOR_TROUBLE = Rereading(
    # OOS: "we want the service credit for today's 500s" may read as nothing the line does
    over=frozenset({"technical/api_errors", "technical/service_status", "billing/invoices", "billing/balance",
                    "billing/refund_status", "account/close_account", OOS}),
    label="billing/refund",
    target=asks_credit_for_trouble,
    whole=never,
    unsure=never,
    # "give us a credit for the outage today please" read as the refund, unsure of it (0.49): the
    # construction is sure, and nothing is paid but after its read-back and a yes
    settles_own=True,
)

DOMAIN = DomainSpec(
    name="billing",
    description=(
        "Transfer the caller to billing: charges, duplicate charges and refunds, refund status, "
        "invoices and payment history, plan changes, balance.\n\nArgs:\n    request: The part of "
        "the caller's words that is about billing."
    ),
    topic="billing",
    wording=Wording(offer="billing", ask="billing", prompt="billing"),
    actions=ACTIONS,
    ports=PORTS,
    slots=SLOTS,
    # a charge taken twice first: "cancel the duplicate" is no cancel of anything else
    rereadings=(TAKEN_TWICE, TAKEN_TWICE_TOLD, TICKET_FOR_MONEY, PAY_LESS, PRICE_COMPLAINED, PLAN_BY_FIGURE, CANCEL_TO_A_PLAN, PLAN_PRICE, PLAN_PRICE_NOT_REFUND, PAYMENT_FAILED, ASKED_BEFORE, ASKED_NOW, OWED_NOW, MONTHS_BILL, PAID_BEFORE,
                MONTHLY_PRICE, CREDIT_FOR_TROUBLE, CHARGE_ASKED, LIMITS_ASKED, PLANS_COMPARED, PLAN_STATED,
                NO_MONEY_NAMED),
    spoken_ids=(("CH", "charge"), ("INV", "invoice")),
    supervisor=BillingSupervisorTask,
    specialists=(
        SpecialistSpec("refund", IssueRefundTask, "Route to the refunds specialist: duplicate or wrong charges, money back.", "a refund or a double charge", called="the refund", changes=True),
        SpecialistSpec("refund_status", CheckRefundStatusTask, "Route to refund status: what happened to a refund already asked for.", "the status of a refund", called="the status of your refund"),
        SpecialistSpec("invoices", GetInvoicesTask, "Route to invoices: copies of invoices, receipts, payment history.", "your invoices or payments", called="your invoices",
                       narrows=("month", "invoice_id"), lookup=lookup_invoices, acts_on=asks_the_task,
                       again=the_one_before),
        SpecialistSpec("plan_change", ChangePlanTask, "Route to plan changes: upgrade, downgrade or switch plan.", "changing your plan", called="the plan change", changes=True,
                       lookup=lookup_prices, acts_on=asks_no_price, lookup_needs_identity=False,
                       narrows=("plan",), again=picked_from_prices),
        SpecialistSpec("balance", GetBalanceTask, "Route to balance: what the caller owes and the next bill.", "your balance", lookup=lookup_balance, called="your balance"),
    ),
    utterances=Path(__file__).parent / "utterances",
    glossary=GLOSSARY,
)
BillingSupervisorTask.spec = DOMAIN
