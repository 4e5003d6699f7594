"""The plan a caller asks for: a plan by name, or one relative to the plan they are on.

Callers on a plan that costs too much rarely name the plan below it: they ask to "go cheaper",
for "something less pricey", to "scale back". That is a request for a direction, not a name,
so the ``plan`` slot holds either a plan id, one of ``DOWN`` / ``UP`` / ``CHEAPEST`` / ``HIGHEST`` / ``MIDDLE``, or a figure
("the six hundred a minute one": plan_figures.py), and the plan-change specialist resolves a
direction or a figure against the caller's current plan and the price list.

Which mention is the wanted one: the last. A plan named before a direction is the plan they
are leaving ("the enterprise tier is more than we need, something cheaper"); a plan named after
one is the choice ("cheaper, maybe pro"); a plan after "than" is a comparison, never the choice,
and neither is a plan named as what the caller drops or describes ("downgrade us to pro, we
don't need all the enterprise stuff", "off enterprise"), wherever it stands.
A plan the caller says they are on ("i'm on pro") is skipped by the slot reader itself.
"""

from __future__ import annotations

import re

from callcenter.routing.slots import said_as_current
from domains.billing.plan_figures import FIGURE, figure_value, moves_to_a_figure

DOWN, UP, CHEAPEST, HIGHEST, MIDDLE = "down", "up", "cheapest", "highest", "middle"

_NAMES = r"starter|pro|enterprise"
# "the cheap one": of three plans, the cheap one is the cheapest
_LOWEST = r"cheapest|lowest|most\s+basic|least\s+expensive|cheap\s+(?:one|plan|tier|option|package)"
# A place in the list named, not a plan: "the top plan", "the most expensive one", "the middle
# one". Read with the lowest (one group: the list's ends and middle), told apart by ``_PLACE``.
_TOP = (r"(?:top|highest|most\s+expensive|biggest|largest|priciest|premium|max(?:imum)?)\s+(?:plan|tier|package|one|option|level)"
        r"|top\s+of\s+the\s+(?:range|line)")
_MID = r"(?:middle|mid|medium|mid-?tier|in-?between)\s+(?:plan|tier|package|one|option|level)"
_PLACE = re.compile(rf"^(?:({_TOP})|({_MID}))$", re.I)
# Paying less from now on: "pay less", "spending less", "charge me less" (a direction and a request)
# ("paying a bit less every month", "spend a little less")
_LESS_EACH_MONTH = (r"pay(?:ing)?\s+(?:a\s+(?:bit|little|lot)\s+|somewhat\s+)?less|spend(?:ing)?\s+(?:a\s+(?:bit|little|lot)\s+)?less"
                    r"|(?:charge|bill)\s+(?:me|us)\s+less")
_DOWN_WORDS = (
    r"cheaper|more\s+cheap|less\s+(?:expensive|pricey|costly)|(?:more\s+)?affordable|inexpensive|(?:that\s+)?costs?\s+less"
    r"|(?:lower|smaller)\s+(?:plan|tier|package|price)|downgrade|down\s?size"
    r"|scale\s+(?:it\s+|things\s+)?(?:back|down)|step\s+down|next\s+(?:plan|tier|one)\s+down|(?:one\s+)?(?:step|level|tier|notch)\s+(?:below|lower)|(?:go\s+|me\s+|us\s+)?down\s+(?:a|one)\s+(?:plan|tier|level|notch|package)"
    # "drop me a tier would you", "knock us down a level"
    r"|(?:drop|knock|bump|move|take)\s+(?:me|us|it)\s+(?:down\s+)?(?:a|one)\s+(?:plan|tier|level|notch|package)"
    rf"|{_LESS_EACH_MONTH}|cut\s+(?:our\s+|my\s+|the\s+)?costs?|save\s+(?:some\s+)?money"
    r"|(?:lower|reduce|bring\s+down)\s+(?:our\s+|my\s+|the\s+)?(?:monthly\s+)?(?:bill|costs?|price|payments?)|(?:bill|costs?|price)\s+down"
    r"|(?:lower|reduce|cut|bring\s+down)\s+(?:what|how\s+much)\s+(?:we|i)\s+(?:pay|spend)"
    # "..., $249 a month, i need to bring that figure down": the price just said
    r"|(?:knock|bring|get)\s+(?:that|this|the|our|my)\s+(?:number|figure|amount|total)\s+down"
    r"|too\s+(?:expensive|pricey|much\s+money)|costs?\s+too\s+much|overkill|overpriced"
    r"|(?:paying|spending)\s+(?:way\s+|far\s+|much\s+)?too\s+much"
    # "we need the monthly spend to come down", "the cfo wants our bill with you to go down",
    # "reckons we're overpaying every month": what is paid, wanted lower
    r"|(?:spend|spending|bill|costs?|payments?|outgoings)\s+(?:with\s+(?:you|y'?all)\s+)?(?:(?:has|have|needs?|got)\s+)?(?:to\s+)?(?:go|come|coming|going|get|be)\s+down"
    r"|over-?pay(?:ing)?"
)
_UP_WORDS = (
    r"upgrade|(?:bigger|larger|higher)\s+(?:plan|tier|package)|step\s+up|(?:go\s+|me\s+|us\s+)?up\s+(?:a|one)\s+(?:plan|tier|level|notch|package)"
    r"|next\s+(?:plan|tier|one)\s+up|(?:move|bump|take|kick)\s+(?:me|us)\s+up\b|(?:one\s+)?(?:step|level|tier|notch)\s+(?:above|higher)"
    # "get me off starter, i need more requests": a plan that allows more
    r"|(?:need|want|get|more)\s+(?:a\s+)?(?:(?:way|a\s+lot|lots|much|many|far)\s+)?(?:more|higher|bigger)\s+(?:api\s+)?(?:requests|calls|capacity|throughput|headroom|rate\s+limit|limit)"
)
_MENTION = re.compile(rf"\b(?:({_NAMES})|({_LOWEST}|{_TOP}|{_MID})|({_DOWN_WORDS})|({_UP_WORDS}))\b|(?<![\w$])({FIGURE})\b", re.I)
_THAN = re.compile(r"\bthan(?:\s+the)?\s*$", re.I)

# Every mention, in one linear pass; which one is wanted is decided in ``plan_value``.
PLAN = _MENTION


def named_plans(text: str) -> set[str]:
    """The plans named in ``text`` by name ("enterprise is a lot" -> {"enterprise"})."""
    return {m.lower() for m in re.findall(rf"\b(?:{_NAMES})\b", text, re.I)}


def names_plan_or_way(text: str) -> bool:
    """A plan named, or a way up or down the list: a mention other than a bare figure ("is it
    still $49 a month" names no plan)."""
    return any(m.group(5) is None for m in _MENTION.finditer(text))


# A plan the caller complains about is the one they leave: "enterprise is overkill for us",
# "pro has way too much for us".
_COMPLAINED = re.compile(
    r"^\s*(?:plan|tier)?\s*(?:is|'s|was|has\s+been|has|had|gives\s+us|comes\s+with)\s+"
    r"(?:(?:just|really|honestly|got|way|kinda|kind\s+of|a\s+bit|a\s+little|pretty|totally|total|complete|such|so|an?|bit\s+of\s+an?)\s+){0,2}"
    r"(?:overkill|too\b|way\s+too|more\s+than|a\s+lot|not\s+worth|expensive|pricey|costly|overpriced"
    # "enterprise is a rip off", "pro is daylight robbery"
    r"|rip[\s-]?off|scam|joke|daylight\s+robbery|robbery|extortion\w*|waste\s+of\s+money)"
    # "the pro plan isn't worth it for what you're delivering"
    r"|^\s*(?:plan|tier)?\s*(?:isn'?t|is\s+not|wasn'?t|ain'?t)\s+(?:really\s+|even\s+|just\s+)?worth", re.I)
# ... complained about as too small: the way is up ("starter is too limited for us now").
_TOO_SMALL = re.compile(r"^\s*(?:plan|tier)?\s*(?:is|'s|was|has\s+been|feels)\s+(?:\w+\s+)?too\s+(?:small|limited|little|slow|tight|basic)", re.I)
# A plan named as what the caller drops or no longer needs: "off enterprise", "drop pro",
# "we don't need all the enterprise stuff". The words before the name say it is left.
_LEFT_BEFORE = re.compile(
    r"(?:\boff(?:\s+of)?|\b(?:drop|ditch|cancel|quit|lose|end)(?:p?ing|l?ing|ed)?|\bwithout|\bdone\s+with|\bpaying\s+for"
    r"|\b(?:don'?t|do\s+not|doesn'?t|does\s+not|no\s+longer|never|hardly|barely)\s+(?:really\s+|even\s+)?(?:need|use|want|touch)"
    r"|\b(?:need|use|want)\s+(?:all|half|most|any)\s+(?:of\s+)?"
    # "we're outgrowing pro", "not enough calls to justify pro", "away from enterprise", "sick of starter"
    r"|\boutgr[eo]w\w*|\bjustify(?:ing)?|\b(?:away\s+)?from|\binstead\s+of|\bleav(?:e|ing)|\bstuck\s+(?:on|with)"
    r"|\b(?:tired|sick)\s+of)"
    r"(?:\s+(?:all|any|half|most)(?:\s+of)?)?(?:\s+(?:the|my|our|this|that|those|these))?\s*$",
    re.I,
)
# A plan named as a bundle of features ("the enterprise stuff", "all the pro extras") is
# what the caller has and describes, not a plan they ask to be put on.
_AS_FEATURES = re.compile(
    r"^\s*(?:plan\s+|tier\s+|level\s+)?(?:stuff|features?|extras|add-?ons|bells|perks|tools|things|bits|goodies|capacity|seats|limits)\b", re.I)


# What the caller pays on a plan is for the plan they have: "we're paying way too much on the top
# plan", "spending a fortune for pro" ("put us on the top plan", "what would i pay on the top
# plan" pay nothing yet: a bare "i pay" / "we pay" is read with its "we're" or "would" unknown,
# so only "paying", "paid", "pays" and "spending" tell).
_PAYING_ON = re.compile(r"(?<!\bwould\s)(?<!\bcould\s)(?<!\bwill\s)(?<!'d\s)(?<!\bto\s)(?<!\bi\s)(?<!\bwe\s)\b(?:pay(?:s|ing)?|paid|spend(?:s|ing)?|spent)\b[^.,;?!]{0,30}?\b(?:on|for)\s+(?:the|our|my|this)?\s*$", re.I)
_IF_NOT = re.compile(r"\b(?:if|as\s+long\s+as|provided|unless|doesn'?t|does\s+not|don'?t|won'?t|isn'?t|not)\b", re.I)
_PAID_NOW = re.compile(r"\b(?:pay(?:ing)?|spend(?:ing)?|paid|charged|costs?\s+(?:us|me))\s+(?:about|around|like|roughly|almost|over)?\s*$", re.I)


def _held(text: str, start: int) -> bool:
    """The plan at ``start`` is the one the caller has: said as theirs ("i'm on pro") or what
    they pay on ("paying way too much on the top plan")."""
    return said_as_current(text, start) or bool(_PAYING_ON.search(text[max(0, start - 50) : start]))


def _skipped(m: re.Match[str]) -> bool:
    """A plan compared against ("cheaper than pro"), said as the one they have, complained
    about ("enterprise is overkill"), dropped ("off enterprise", "we don't need all the
    enterprise stuff") or named as its features is no choice."""
    start, text = m.start(), m.string
    after = text[m.end() : m.end() + 40]
    if m.group(5) is not None and _PAID_NOW.search(text[max(0, start - 30) : start]):
        return True  # "we pay $249 a month on pro": what they pay now
    if m.group(5) is not None and _IF_NOT.search(text[max(0, start - 30) : start]):
        return True  # "yes if it doesn't cost more than $1000 a month": a condition, no plan asked for
    if m.group(2) is not None and _held(text, start):
        return True  # "we're paying way too much on the top plan": the place in the list they are at
    return (m.group(1) or m.group(5)) is not None and (
        bool(_THAN.search(text[max(0, start - 12) : start])) or _held(text, start)
        or bool(_LEFT_BEFORE.search(text[max(0, start - 40) : start]))
        or bool(_COMPLAINED.search(after)) or bool(_AS_FEATURES.search(after))
    )


def plan_value(m: re.Match[str]) -> str:
    """The wanted plan: the last mention from the slot reader's first one on (see the module
    docstring), as a plan id or the direction the caller asked for."""
    later = list(_MENTION.finditer(m.string, m.end()))
    chosen = next((x for x in reversed([m, *later]) if not _skipped(x)), None)
    if chosen is None:
        # every plan named is one complained about or left ("pro is more than we want to spend,
        # what are our options"): the way away from it, never the plan itself
        if any(_COMPLAINED.search(x.string[x.end() : x.end() + 40]) for x in [m, *later] if x.group(1) or x.group(5)):
            return UP if any(_TOO_SMALL.search(x.string[x.end() : x.end() + 40]) for x in [m, *later]) else DOWN
        if m.group(5):
            return ""  # only figures said as a condition or as what is paid now: no plan named
        chosen = m
    name, lowest, down, _up, figure_said = chosen.groups()
    if name:
        return name.lower()
    if figure_said:
        return figure_value(chosen.string[chosen.start(5) :])  # with what follows: "6000 requests one"
    if lowest:
        place = _PLACE.match(lowest)
        return CHEAPEST if place is None else HIGHEST if place.group(1) else MIDDLE
    return DOWN if down else UP


def direction(plan: str) -> str | None:
    """The direction in a ``plan`` argument (also as a model might write it), else None."""
    word = plan.strip().lower()
    if word in (CHEAPEST, "lowest", "least expensive"):
        return CHEAPEST
    if word in (HIGHEST, "top", "most expensive", "biggest"):
        return HIGHEST
    if word in (MIDDLE, "mid", "medium"):
        return MIDDLE
    if word in (DOWN, "cheaper", "lower", "downgrade", "less expensive"):
        return DOWN
    if word in (UP, "higher", "upgrade", "bigger"):
        return UP
    return None


# --- "cancel" with somewhere to go: a plan change, not a closure (callcenter/routing/rereading.py)
# Where a caller wants to go, as a construction rather than a phrase: a plan name after a
# word of moving or keeping ("put me on starter", "go back to pro", "stick with starter",
# "just starter"), a plan name before a word of sufficing ("pro would do", "starter is plenty",
# "starter instead"), or a direction ("something cheaper", "a smaller tier", "downgrade").
_TO_NAME = re.compile(
    rf"\b(?:to|onto|into|on|just|only|keep|take|try|stick\s+with|stay\s+(?:on|with)|go\s+with|up\s+for|switch|move|"
    rf"drop\s+(?:me|us)|put\s+(?:me|us)|be)\s+(?:back\s+)?(?:to\s+|on\s+|onto\s+)?(?:the\s+|a\s+|me\s+|us\s+)?"
    rf"(?:basic\s+|cheap(?:er)?\s+|plain\s+|regular\s+)?({_NAMES})\b",
    re.I,
)
_NAME_SUFFICES = re.compile(
    rf"\b({_NAMES})(?:\s+(?:plan|tier|package|one|level|subscription))?\s+(?:instead|would\s+do|will\s+do|'?ll\s+do|"
    rf"(?:is|'s|would\s+be|will\s+be)\s+(?:enough|fine|plenty|all\s+(?:we|i)\s+need|good\s+enough|ok(?:ay)?)|works|from\s+now\s+on)\b",
    re.I,
)
_TO_DIRECTION = re.compile(
    rf"\b(?:{_LOWEST}|cheaper|less\s+(?:expensive|pricey|costly)|(?:lower|smaller|basic|smallest|cheapest|budget|entry[- ]level)\s+(?:plan|tier|package|one|option|level)"
    rf"|downgrade|down\s?grade|step\s+down|next\s+(?:plan|tier|one)\s+down|(?:one\s+)?(?:step|level|tier|notch)\s+(?:below|lower)|scale\s+(?:it\s+|things\s+|us\s+|me\s+)?(?:back|down)"
    rf"|down\s+(?:a|one)\s+(?:plan|tier|level|notch|package)|(?:drop|knock|bump|move|take)\s+(?:me|us|it)\s+(?:down\s+)?(?:a|one)\s+(?:plan|tier|level|notch|package)"
    rf"|{_UP_WORDS})\b",
    re.I,
)
# Words that end the whole relationship, whatever else is said: the closure stands.
_ENDS_ALL = re.compile(
    r"\b(?:(?:cancel|close|delete|shut|terminate|end|kill|remove|deactivate|stop|quit|discontinue)\w*\s+(?:down\s+|out\s+)?(?:my\s+|me\s+|the\s+|our\s+|this\s+)?"
    r"(?:whole\s+|entire\s+|(?:company|business|work)\s+)?(?:account|acct|service\s+with\s+you)|(?<!\bis\s)(?<!\bif\s)everything(?!\s+(?:to|from|is|was|running|working|ok|okay|fine|alright|good|up|down)\b)|altogether|entirely|for\s+good|all\s+of\s+it"
    # ("stop sending everything to my old email": what is sent, not what ends)
    # "shut the whole thing down"; "is the whole thing down at your end?" asks if the service is up
    r"|(?<!\bis\s)(?<!\bwas\s)(?<!\bif\s)the\s+whole\s+thing"
    r"|(?:don'?t|do\s+not)\s+(?:need|want|use)\s+(?:it|this|the\s+account|the\s+service|your\s+service|you)(?:\s+guys)?\s+any\s*more"
    r"|no\s+longer\s+(?:need|want|use)\s+(?:it|this|the\s+account|the\s+service|your\s+service|you)"
    r"|(?:i'?m|i\s+am|we'?re|we\s+are)\s+done\b(?!\s+with\s+(?:the\s+|my\s+|our\s+)?(?:plan|pro|starter|enterprise))"
    r"|leave|leaving|moving\s+on|going\s+elsewhere|provider|company|competitor|vendor|elsewhere|somewhere\s+else|someone\s+else|another\s+(?:service|tool|platform)"
    r"|delete|done\s+with\s+(?:you|this|the\s+service|your)"
    # "i want out of my contract, just end it": the whole agreement, not one plan of it
    r"|out\s+of\s+(?:my|our|the|this)\s+(?:contract|agreement)"
    # "i wanna cancel, like the whole account": the account itself, said apart from the verb
    # ("shut it down" is not: "it" may be the plan)
    r"|(?:the|my|our)\s+(?:whole|entire)\s+account"
    # "i'm cancelling. the account. close it": the account named in a fragment of its own
    r"|(?:(?<=^)|(?<=[.;!?]\s))(?:the|my|our)\s+account(?=\s*[.;!?]))\b",
    re.I,
)
# Ending something without saying what comes next: the account or only the plan? Either.
# ("is it down at your end": a side, not an ending)
_ENDS = re.compile(r"\b(?:cancel\w*|(?<!\byour\s)(?<!\bour\s)(?<!\bmy\s)(?<!\btheir\s)(?<!\bthe\s)end|stop|terminate|quit|drop|discontinue|get\s+rid\s+of|unsubscribe|close|shut|delete|deactivate)\b", re.I)


_OF_ACCOUNT = re.compile(r"\s+(?:plan\s+)?(?:account|acct)\b", re.I)


# "get rid of the pro thing, it's way too expensive": a plan named and said to cost too much is
# left for a cheaper one (the account is not what the caller complains about).
_TOO_DEAR = re.compile(r"\b(?:too\s+(?:expensive|pricey|costly|much(?:\s+money)?)|costs?\s+too\s+much|overkill|overpriced"
                       r"|more\s+than\s+(?:we|i)\s+(?:need|use))\b", re.I)
_PLAN_NAMED = re.compile(rf"\b(?:{_NAMES})\b(?!\s+(?:plan\s+)?(?:account|acct)\b)", re.I)


def names_plan_to_move_to(text: str) -> bool:
    """The words name a plan to move to (a name or a direction), not one left or compared."""
    if _TO_DIRECTION.search(text) or (_PLAN_NAMED.search(text) and _TOO_DEAR.search(text)):
        return True
    for pattern in (_TO_NAME, _NAME_SUFFICES):
        for m in pattern.finditer(text):
            start = m.start(1)
            if _OF_ACCOUNT.match(text, m.end(1)):
                continue  # "the enterprise account": the account the plan is on, no plan to go to
            if not said_as_current(text, start) and not _THAN.search(text[max(0, start - 12) : start]):
                return True
    return False


# "close the enterprise account": the account named by its plan (with a plan to move to said too,
# "cancel my pro account and move me to starter", the plan is what is left).
_ENDS_PLANS_ACCOUNT = re.compile(
    rf"\b(?:cancel|close|delete|shut|terminate|end|deactivate)\w*\s+(?:down\s+)?(?:my|me|the|our|this)\s+(?:{_NAMES})\s+(?:account|acct)\b", re.I)


def ends_everything(text: str) -> bool:
    """The words end the account or the relationship itself ("cancel my account", "we're switching providers")."""
    return bool(_ENDS_ALL.search(text))


def ends_something(text: str) -> bool:
    """The words end something ("cancel my subscription") without saying what comes next; not
    "close the enterprise account", which names the account (by its plan)."""
    return bool(_ENDS.search(text)) and not _ENDS_PLANS_ACCOUNT.search(text)


# Paying less is moving down a plan here (no discounts exist): "i want to pay less each month",
# "is there something cheaper than what i'm on". Its words overlap a balance question's.
_PAY_LESS = re.compile(
    rf"\b(?:{_LESS_EACH_MONTH}|(?:lower|reduce|cut|bring\s+down)\s+(?:my\s+|our\s+|the\s+)?(?:monthly\s+)?(?:bill|costs?|price|payments?)"
    r"|(?:bill|costs?|price)\s+down|(?:lower|reduce|cut|bring\s+down)\s+(?:what|how\s+much)\s+(?:we|i)\s+(?:pay|spend)"
    # "our monthly bill is way too high": too much each month (a plan's price), not one charge
    r"|\bmonthly\s+(?:bill|price|cost|costs|fee|subscription)\s+(?:is|are|'s)\s+(?:way\s+|far\s+|much\s+|a\s+bit\s+|just\s+|really\s+|getting\s+)?"
    r"(?:too\s+(?:high|much|steep|expensive|big)|crazy|insane|ridiculous)"
    # "we're paying way too much, can you knock it down a bit": too much each month, not one charge
    r"|(?:we'?re|i'?m|we\s+are|i\s+am)\s+(?:paying|spending)\s+(?:way\s+|far\s+|much\s+|a\s+bit\s+|kind\s+of\s+)?(?:too\s+much|a\s+lot|more\s+than)"
    # "we're paying nine ninety nine and it's too much, what else is there": the figure, then the complaint
    r"|(?:we'?re|i'?m|we\s+are|i\s+am)\s+(?:paying|spending)\s+\$?\d[\d,.]*\b[^.?!]{0,25}\b(?:too\s+(?:much|high|expensive)|a\s+lot)\b"
    r"|(?:knock|bring|get)\s+(?:it|that|the\s+(?:price|bill|cost))\s+down"
    # "..., $999 a month, and i have to get that number down": the figure just said
    r"|(?:knock|bring|get)\s+(?:that|this|the|our|my)\s+(?:number|figure|amount|total)\s+down"
    # "we're on the top plan and it's too much money, what can we drop to"
    r"|what\s+(?:can|could|should)\s+(?:we|i)\s+(?:drop|move|go|switch|downgrade|step)\s+(?:down\s+)?to)\b",
    re.I,
)


# The price complained of, no charge named: "the price is too much for us", "it's way too expensive"
# (said beside a way down the list, it is why; "you charged me too much" names a charge)
_PRICE_COMPLAINED = re.compile(
    r"\b(?:price|prices|cost|costs|it|that|this|the\s+plan|our\s+plan|my\s+plan|subscription)\s*(?:is|'s|are)\s+"
    r"(?:just\s+|way\s+|far\s+|much\s+|a\s+bit\s+|really\s+|getting\s+|kind\s+of\s+)?"
    r"(?:too\s+(?:much|high|expensive|steep|pricey)|(?:very\s+|so\s+)?(?:expensive|pricey|a\s+lot))\b"
    r"|\btoo\s+(?:expensive|pricey|costly)\b", re.I)


def complains_of_price(text: str) -> bool:
    """The price complained of, with no charge named ("the price is too much for us")."""
    return bool(_PRICE_COMPLAINED.search(text)) and not wants_money_back(text)


def asks_to_pay_less(text: str) -> bool:
    """The caller wants to pay less from now on: a direction down the price list."""
    return bool(_PAY_LESS.search(text) or _TO_DIRECTION.search(text))



# --- a payment that failed is no charge to refund ---------------------------------------
# "my card got declined": nothing was taken, so there is nothing to give back; what the caller
# needs is whether the bill is paid (the payment history). Said with a charge complaint ("...
# and i got charged twice") the refund stands.
_PAYMENT_FAILED = re.compile(
    r"\b(?:declined|(?:was|got|been|being|keeps?\s+getting)\s+(?:rejected|refused|denied|bounced)|bounced"
    r"|(?:payment|card|charge)\s+(?:didn'?t|did\s+not|won'?t|wouldn'?t|doesn'?t|isn'?t)\s+(?:go(?:ing)?\s+through|work(?:ing)?)"
    r"|(?:payment|card)\s+failed|failed\s+(?:payment|to\s+pay))\b",
    re.I,
)
_MONEY_BACK = re.compile(
    r"\b(?:twice|double|duplicate|two\s+times|refund\w*|money\s+back|overcharg\w*|charged\s+(?:me\s+)?(?:too\s+much|wrong|again))\b",
    re.I,
)


def payment_failed(text: str) -> bool:
    """A payment that did not go through ("my card got declined")."""
    return bool(_PAYMENT_FAILED.search(text))


def wants_money_back(text: str) -> bool:
    """A complaint about money taken ("charged twice", "i want a refund")."""
    return bool(_MONEY_BACK.search(text))


# "how much is the enterprise plan", "quel est le prix du plan" (glossed "price plan"): what
# the plans cost, asked with no move; the price list answers it (a read-only lookup). So does
# "what plan am i on": the list says which one is the caller's.
# What a plan allows: "how many requests a minute do i get on my plan", "and how many requests a
# minute is that" (the price list names each plan's limit).
_LIMITS = (r"how\s+many\s+(?:api\s+)?(?:requests|calls|hits)|(?:requests|calls)\s+(?:a|per|each)\s+(?:minute|min|second|sec)"
           r"|rate\s+limits?\s+(?:on|of|for|with)\s+(?:my|our|the|each|every|starter|pro|enterprise)|(?:plan|plans)'?s?\s+(?:rate\s+)?limits?"
           # "what's the limit on the starter plan exactly", "and what's the rate limit on it" (the
           # plan just named): the limit asked for, not reached
           r"|what(?:'?s|\s+is|\s+are)\s+(?:the\s+)?(?:rate\s+)?limits?\s+(?:on|of|for|with)\s+(?:it|that|this|my|our|the|each|every|starter|pro|enterprise)"
           r"|what(?:'?s|\s+is|\s+are)\s+(?:my|our)\s+(?:current\s+)?(?:api\s+)?(?:rate\s+)?limits?\b"
           # "our limit is six hundred a minute, can we get more than that": a bigger allowance asked for
           r"|(?:get|have|buy|need)\s+(?:a\s+)?(?:more|higher|bigger|larger)\s+(?:than\s+(?:that|this)|requests|calls|limit|capacity|throughput|allowance)")
# A limit the caller runs into is a diagnosis (429s), not the price list: "why am i over my rate
# limit", "we keep hitting the limit on our plan".
_OWN_ERROR = re.compile(r"\b(?:[45]\d\d'?s?|[45]xx|errors?|fail\w*|throttl\w*|blocked|rejected|denied|too\s+many\s+requests"
                        r"|hit(?:s|ting)?|exceed\w*|going\s+over|went\s+over|over\s+(?:my|our|the))\b", re.I)
_PRICE = re.compile(
    rf"\b(?:{_LIMITS}|how\s+much|price[sd]?|pricing|costs?|what\s+(?:do|does)\b.{{0,30}}\bcost"
    # "is pro a lot dearer than what we have": what it costs, against theirs
    r"|dearer|pricier|costlier|more\s+expensive"
    # "what would the middle one set me back": what it costs, said as what it takes from them
    r"|set\s+(?:me|us|you)\s+back|run\s+(?:me|us)|come\s+to"
    # "and what do they run", "what does each one go for": the price of the plans just named
    r"|what\s+(?:do|does|would|will)\s+(?:they|it|each(?:\s+one)?|those|these)\s+(?:run|go\s+for)\b"
    # "what would starter be then": the price of the plan named
    r"|what\s+(?:would|will|'d)\s+(?:the\s+)?(?:starter|pro|enterprise)(?:\s+(?:plan|tier|one))?\s+(?:be|cost|come\s+to|run)"
    # "what is the starter plan a month": its monthly price
    r"|what(?:'s|s|\s+is|\s+are)\s+(?:the\s+|your\s+)?(?:starter|pro|enterprise)(?:\s+(?:plan|tier|one))?\s+(?:a|per|each)\s+month"
    r"|(?:what|which)\s+(?:plan|tier)\s+(?:am\s+i|are\s+we|do\s+(?:i|we)\s+have|i'?m|we'?re)(?:\s+on)?\b"
    r"|(?:my|our)\s+(?:current\s+)?(?:plan|tier)\s+(?:is|again)\b"
    # "what plans have you got", "which tiers do you offer": the list itself
    r"|(?:what|which)\s+(?:other\s+)?(?:(?:kinds?|sorts?|types?)\s+of\s+)?(?:plans|tiers|packages)\s+(?:(?:have|do)\s+(?:you|y'?all)(?:\s+(?:got|have|offer|do))?|you\s+got|are\s+there|(?:is|are)\s+(?:there|available)|can\s+(?:i|we)\s+(?:get|pick|choose)))", re.I)
_MOVE = re.compile(
    r"\b(?:switch|move|change|put|upgrade|downgrade|bump|go\s+(?:to|down|up)|sign\s+(?:me|us)\s+up|cancel|drop|cheaper|less|more"
    r"|worth|than|difference|save|instead|should)\b", re.I)


def asks_a_plans_price(text: str) -> bool:
    """"so how much is starter": what a plan named costs, which the price list answers."""
    return bool(_PRICE.search(text) and PLAN.search(text))


def asks_no_price(text: str) -> bool:
    """The words ask for more than the price list: a move, or a comparison (the specialist's
    own conversation answers those, with the caller's plan beside the one asked about)."""
    if moves_to_a_figure(text):
        return True  # "i want the plan with 6000 requests a minute": a move, its figure no question
    if compares_plans(text) and len(set(m.group(1).lower() for m in _MENTION.finditer(text) if m.group(1))) != 1:
        return False  # "the difference between the plans": the whole list, side by side
    # "we need to trim costs so knock us down one tier": a way down the list is a move too
    return not (_PRICE.search(text) and not _MOVE.search(text) and not _TO_DIRECTION.search(text))



_LIMIT_ASKED = re.compile(rf"\b(?:{_LIMITS})\b", re.I)


def asks_plan_limits(text: str) -> bool:
    """"how many requests a minute do i get on my plan": what the plans allow, the price list's,
    not a diagnosis, unless the caller names errors they get ("why am i over my rate limit")."""
    return bool(_LIMIT_ASKED.search(text)) and not _OWN_ERROR.search(text)


# "what's actually the difference between starter and pro": two plans (or "the plans") laid side
# by side, which the plan-change specialist answers with each price and limit and changes nothing.
_COMPARED = re.compile(r"\b(?:difference|differences|differ|different|compare[sd]?|comparison|versus|vs)\b", re.I)
_PLANS = re.compile(rf"\b(?:{_NAMES})\b.*\b(?:{_NAMES})\b|\b(?:plans|tiers)\b", re.I)


def compares_plans(text: str) -> bool:
    """"how's pro different from enterprise", "what's the difference between the plans"."""
    return bool(_COMPARED.search(text) and _PLANS.search(text))


# "so we're a small logistics outfit on your enterprise plan and ... five hundred errors": the plan
# the caller is on, said as who they are; beside another need it asks for no change.
_ON_A_PLAN = re.compile(
    rf"\b(?:on|with|using)\s+your\s+(?:{_NAMES})\b"
    rf"|\b(?:i'?m|we'?re|i\s+am|we\s+are)\s+(?:just\s+)?(?:a|an)\s+[\w\s-]{{1,40}}?\b(?:on|with|using)\s+(?:the\s+|our\s+|my\s+)?(?:{_NAMES})\b"
    # "we're enterprise by the way", "i'm a pro customer": the plan as who they are
    rf"|\b(?:i'?m|we'?re|i\s+am|we\s+are)\s+(?:an?\s+)?(?:{_NAMES})(?:\s+(?:customers?|users?|plan|tier|account))?\s*(?:by\s+the\s+way|btw|fyi|too|as\s+well)?\W*$"
    # "oh and we are on pro", "we're on the pro plan btw": said in passing, after an "and" or with
    # an aside ("i'm on starter. what would it cost me to ..." states the plan a question is about)
    rf"|\b(?:and|also|oh)\s+(?:i'?m|we'?re|i\s+am|we\s+are)\s+on\s+(?:the\s+|our\s+|my\s+)?(?:{_NAMES})(?:\s+(?:plan|tier))?\W*$"
    rf"|\b(?:i'?m|we'?re|i\s+am|we\s+are)\s+on\s+(?:the\s+|our\s+|my\s+)?(?:{_NAMES})(?:\s+(?:plan|tier))?\s+(?:by\s+the\s+way|btw|fyi)\W*$",
    re.I)
_WANTS_A_CHANGE = re.compile(
    r"\?|\b(?:switch\w*|mov\w*|chang\w*|upgrad\w*|downgrad\w*|cancel\w*|drop\w*|want\w*|wanna|like\s+to|need\w*|price\w*"
    r"|cost\w*|how\s+much|cheap\w*|less|more|limit\w*|go\s+(?:to|up|down)|put\s+(?:me|us)|sign\s+(?:me|us)|bump\w*|instead"
    r"|rather|should|could|can|would|pay\w*|bill\w*|charg\w*|worth|enough|overkill|too|than)\b", re.I)


# "i'm on the cheapest one right?": the plan they are on, checked in passing before the question
# that matters ("so what would the middle one set me back")
_ON_A_PLAN_CHECKED = re.compile(
    rf"^\W*(?:(?:so|ok(?:ay)?|um+|uh+|right|and)\W+)*(?:i'?m|we'?re|i\s+am|we\s+are)\s+(?:still\s+)?on\s+(?:the\s+)?"
    rf"(?:(?:{_NAMES})|{_LOWEST}|{_TOP}|{_MID}|(?:{_NAMES})\s+(?:one|plan|tier))(?:\s+(?:one|plan|tier))?\W+"
    r"(?:right|yeah|yes|correct|isn'?t\s+(?:it|that\s+right)|aren'?t\s+(?:i|we)|no)\W*$", re.I)


# The whole clause says which plan or rate the caller pays: "we pay you the premium rate", "we
# pay for the top plan you have" (beside another need). "i'm on starter. what would it cost me
# to ..." states the plan a question is about: not this.
_ON_OR_PAYING = re.compile(
    r"^\W*(?:(?:so|and|well|look|ok|okay|um+|uh+|but|i\s+mean|like)\W+)*(?:i|we)(?:'re|'m|\s+are|\s+am)?\s+"
    r"(?:already\s+|currently\s+|still\s+)?(?:paying(?:\s+you)?(?:\s+for)?|pay(?:\s+you)?(?:\s+for)?)\s+(?:the\s+|your\s+|our\s+|my\s+)?"
    rf"(?:(?:{_NAMES})|{_TOP}|{_LOWEST}|{_MID}|(?:top|premium|highest|full|biggest)\s+(?:rate|price|dollar|whack|tier|plan))"
    r"(?:\s+(?:plan|tier|one))?(?:\s+(?:you\s+(?:have|offer|sell|do)|by\s+the\s+way|btw))?\W*$", re.I)


def only_states_plan(text: str) -> bool:
    """The words say which plan the caller is on and ask nothing of it."""
    if _ON_A_PLAN_CHECKED.match(text) or _ON_OR_PAYING.match(text):
        return True
    return bool(_ON_A_PLAN.search(text)) and not _WANTS_A_CHANGE.search(text)


# "ok the 600 one", "pro then", "the cheapest one please" right after the price list: only a pick
# among the plans just said, nothing else ("and pro?" asks what that one costs).
_PICK_OPENER = r"(?:(?:ok(?:ay)?|right|so|um|uh|er|yeah|yes|alright|hmm|well)\W+)*(?:let'?s\s+(?:do|go\s+with)\s+|i'?ll\s+(?:take|go\s+with)\s+)?"
_PICK_CLOSER = r"(?:\s+(?:one|plan|tier|package))?(?:\s+(?:then|please|i\s+guess|i\s+think))*\W*"


def picks_from_list(text: str) -> bool:
    """The words only pick a plan (by name, figure or way) from a list just said."""
    if "?" in text:
        return False
    opener = re.match(rf"\W*{_PICK_OPENER}(?:the\s+|that\s+)?", text, re.I)
    start = opener.end() if opener else 0
    said = _MENTION.match(text, start)
    return said is not None and re.fullmatch(_PICK_CLOSER, text[said.end() :], re.I) is not None
