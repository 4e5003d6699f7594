"""Paid before, or paid every month: the payment history or the plan's price.

"what we paid the last three months" names money and months, so the router reads a balance
(what is owed now); the caller asks what was taken already, which the invoices say. "what i pay
every month" names paying and a month, so the router leans to invoices or a refund; the
caller asks the plan's price, which the balance answers with the next bill (the price of
another plan, "what would i pay a month on pro", stays the plan-change specialist's). What tells them
apart is the tense and the span: paid over past months is history, paying each month is the
price. A month named on its own ("the february bill") is months.py's, money asked back is a
refund's (plan_words.py).
"""

from __future__ import annotations

import re

from domains.billing.months import NAMED_MONTH
from domains.billing.plan_words import names_plan_or_way

_WE = r"(?:i|we|my\s+company|the\s+company|our\s+company|my\s+business|our\s+business)"
_SPAN = (
    r"(?:(?:the\s+)?(?:last|past|previous)\s+(?:few|couple(?:\s+of)?|several|\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
    r"\s+(?:months?|bills|invoices|payments|quarters?)|(?:the\s+)?(?:last|past)\s+(?:quarter|year|twelve\s+months)|this\s+year|so\s+far|to\s+date|over\s+time)"
)
# Money already taken: "what we paid", "how much have we paid", "what did i pay", "the
# payments we made", "what you've charged us the last three months".
_PAID = re.compile(
    rf"\b(?:what|how\s+much)\s+(?:have\s+|did\s+|had\s+)?{_WE}\s+(?:(?:have|had|'ve)\s+)?(?:paid|pay(?!\s+(?:every|each|a|per)\b)|spent|been\s+(?:paying|charged|billed))\b"
    rf"|\b(?:what|how\s+much)\s+(?:have\s+|did\s+)?(?:you|y'?all|you\s+guys)\s+(?:'ve\s+)?(?:charged?|billed|bill|taken|take|took)\b"
    rf"|\b(?:payments?|charges|bills|invoices|amounts?)\s+(?:{_WE}\s+)?(?:made|paid|for|over|from|in|during)\s+{_SPAN}"
    rf"|\b(?:paid|payments?|spent|charged?|charges|billed)\b.{{0,30}}\b{_SPAN}",
    re.I,
)
# The price paid from month to month: "what i pay every month", "how much is my plan a month".
_MONTHLY = re.compile(
    rf"\b(?:what|how\s+much)\s+(?:do|does|am|are|will|is|'s)?\s*(?:{_WE}\s+)?(?:pay|paying|charged|billed|owe|cost|costs|costing)"
    rf"\s+(?:you\s+|for\s+(?:it|the\s+plan|my\s+plan|our\s+plan)\s+)?(?:every|each|a|per|monthly|a\s+month|per\s+month)\b"
    r"|\b(?:what|how\s+much)\s+(?:is|'s|does)\s+(?:my|our|the)\s+(?:plan|subscription)\s+(?:cost\s+)?(?:me\s+|us\s+)?(?:every|each|a|per)\s+month\b"
    # "whats my plan cost": the caller's own plan's price, which the next bill states
    r"|\b(?:what'?s|whats|what\s+(?:is|does)|how\s+much\s+(?:is|does))\s+(?:my|our)\s+(?:current\s+)?(?:plan|subscription)\s+(?:cost|costs|price)\b"
    # the plan the caller is on and its price: "remind me what plan i'm on and what it costs"
    r"|\bwhat\s+(?:plan|tier|package)\s+(?:i'?m|i\s+am|am\s+i|we'?re|we\s+are|are\s+we)\s+(?:even\s+|actually\s+|currently\s+|exactly\s+)?(?:on|in)\b"
    r".{0,25}\b(?:costs?|price|pay(?:ing)?)\b"
    r"|\b(?:my|our|the)\s+monthly\s+(?:price|cost|fee|charge|payment|rate|amount|bill)\b"
    # "what my plan costs now", "how much does our plan cost": the caller's own plan's price
    r"|\b(?:what|how\s+much)(?:\s+|(?='s))(?:(?:is|'s|does|do|will)\s+)?(?:my|our)\s+(?:current\s+)?(?:plan|subscription|tier)\s+(?:costs?|run|price)\b"
    r"|\bhow\s+much\s+(?:is|'s)\s+(?:my|our)\s+(?:current\s+)?(?:plan|subscription)\W*$"
    r"|\bwhat\s+(?:i|we)\s+pay\s+(?:you\s+)?(?:every|each|a|per)\s+month\b",
    re.I,
)
_LESS = re.compile(r"\b(?:less|lower|cheaper|reduce|cut|down)\b", re.I)
# A price asked of another plan or a change ("what would i pay a month on pro") is a plan
# question: the plan-change specialist compares prices.
_WHAT_IF = re.compile(r"\b(?:would|could|if|instead|switch\w*|upgrad\w*|downgrad\w*|move|moving)\b", re.I)


def asks_what_was_paid(text: str) -> bool:
    """The caller asks what has been paid already ("what we paid the last three months")."""
    return bool(_PAID.search(text))


def asks_the_monthly_price(text: str) -> bool:
    """The caller asks what they pay each month ("what i pay every month"), not to pay less."""
    return bool(_MONTHLY.search(text) and not _LESS.search(text) and not _WHAT_IF.search(text)
                and not names_plan_or_way(text) and not asks_what_was_paid(text))


# "there's a charge of $49 on my card, what was that one for": what a charge was, which the
# invoices say; the amount and the card read as a refund (its read-back was offered unasked).
_CHARGE_FOR = re.compile(
    # "what was the, um, nine hundred ninety nine dollar charge at the start of the month for"
    r"\bwhat\s+(?:was|is|were)\s+(?:that|this|the)\b[^?.]{0,60}?\b(?:charge|payment|transaction|debit)\b[^?.]{0,40}?\bfor\b"
    r"|\bwhat(?:\s+(?:was|is|were|are)|'s|s)\s+(?:that|this|it|the|these|those)(?:\s+(?:\$?[\d.,]+|charge|charges|payment|one|amount|dollars?))*"
    r"\s+for\b"
    r"|\bwhat(?:'s|s|\s+is|\s+was)\s+(?:this|that)\s+(?:[\w$.]+\s+){0,3}?(?:charge|payment|transaction|debit)\b(?!\s+(?:twice|again|double))"
    # "what's that forty nine dollar thing on my bank statement, i don't recognise the merchant name"
    r"|\bwhat(?:'s|s|\s+is|\s+was)\s+(?:that|this|the)\b.{0,30}\b(?:on|in)\s+(?:my|our|the)\s+(?:bank\s+|card\s+|credit\s+card\s+)?statement"
    # "whats this forty nine on my card": an amount taken from the card, asked what it was
    r"|\bwhat(?:'s|s|\s+is|\s+was)\s+(?:that|this|the)\s+\$?\d[\d.,]*(?:\s+(?:dollars?|bucks|thing|one))*"
    r"\s+(?:on|from)\s+(?:my|our|the)\s+(?:card|credit\s+card|bank|account)\b"
    r"|\b(?:don'?t|do\s+not|didn'?t)\s+recogni[sz]e\s+(?:the|this|that|a|an)\s+(?:merchant|charge|payment|name|transaction|debit)"
    # "i'm trying to work out what you took off me": what was taken, which the invoices list
    r"|\b(?:work\s+out|figure\s+out|know|see|check|understand)\s+what\s+(?:you|y'?all|they)\s+(?:guys\s+)?(?:took|taken|charged|billed)"
    r"(?:\s+(?:off|from))?\s+(?:me|us)\b"
    # "there's a charge on my statement and i can't remember what it's for, could you tell me what that was"
    r"|\b(?:charge|payment|transaction|debit)\b.{0,80}\b(?:remember|know|tell\s+me|idea|sure)\s+what\s+(?:it|that|this)(?:'s|\s+is|\s+was)"
    r"(?:\s+for)?\b",
    re.I,
)


def asks_what_a_charge_was(text: str) -> bool:
    """The caller asks what a charge was for ("what was that one for")."""
    return bool(_CHARGE_FOR.search(text))


# "how much do i owe you, i think i maybe missed a payment last month": what is owed now, which
# the balance says (with any overdue invoice), not the payment history; a month asked for ("what
# did i owe in march") stays that month's invoice.
_OWED_NOW = re.compile(
    r"\b(?:how\s+much|what)\s+(?:do|does)\s+(?:i|we)\s+owe\b|\bwhat'?s\s+owed\b|\bdo\s+(?:i|we)\s+owe\b"
    # "next bill?": the one to come, which the balance gives; "a late notice email", "why's there a
    # late thing on my bill": an invoice overdue now, which the balance names
    r"|^\W*(?:(?:and|so|um|uh|hey|ok)\W+)*(?:my\s+|the\s+|our\s+)?next\s+(?:bill|invoice|payment)\W*$"
    r"|\b(?:when|what|how\s+much)\b.{0,25}\bnext\s+(?:bill|invoice|payment)\b"
    # "when does my plan renew", "what will the renewal come to": the next bill by another name
    r"|\b(?:when|what\s+(?:day|date)|how\s+much|how\s+soon)\b.{0,30}\b(?:renew(?:s|al|ing)?|auto[\s-]?renew\w*)\b"
    r"|\b(?:late|overdue|past[\s-]+due)\s+(?:notice|reminder|email|e-mail|letter|warning|thing|fee|charge|mark)s?\b"
    # "how much am i behind", "are we behind on payments": what is owed, said as arrears
    r"|\bhow\s+(?:much|far)\s+(?:am\s+i|are\s+we|is\s+my\s+account|is\s+our\s+account)\s+behind\b"
    r"|\b(?:am\s+i|are\s+we)\s+behind\s+(?:on|with)\s+(?:my|our|the)?\s*(?:payments?|bills?|account)\b"
    # "why does it say i'm behind", "it's showing we're overdue"
    r"|\b(?:say|says|saying|show|shows|showing)\s+(?:that\s+)?(?:i'?m|i\s+am|we'?re|we\s+are)\s+(?:behind|overdue|in\s+arrears)\b"
    # "why does it say my payment is late", "our invoice is showing as overdue": the same, said of the bill
    r"|\b(?:my|our|the)\s+(?:payment|bill|invoice|account)\s+(?:is|'s|was|shows\s+as|showing\s+as|is\s+showing(?:\s+as)?)\s+"
    r"(?:\w+\s+)?(?:late|overdue|past[\s-]+due|behind|in\s+arrears)\b"
    # "so whats the damage": the sum to pay, said as everyone says it
    r"|\bwhat'?s\s+the\s+damage\b|\bwhat\s+is\s+the\s+damage\b"
    # "where do i stand with payments": the account's standing (not a refund's or a ticket's)
    r"|\bwhere\s+(?:do|does)\s+(?:i|we|my\s+account|our\s+account)\s+stand\b(?!.{0,30}\b(?:refund|ticket|request|claim|plan|case)s?\b)"
    # "what am i on the hook for right now": what the caller is liable to pay
    r"|\b(?:what|how\s+much)\s+(?:am\s+i|are\s+we|is\s+my\s+company|'?m\s+i)\s+on\s+the\s+hook\s+for\b", re.I)


def asks_what_is_owed(text: str) -> bool:
    """The caller asks what they owe now."""
    return bool(_OWED_NOW.search(text)) and not NAMED_MONTH.search(text)
