"""A plan named by a figure of it: "the six hundred a minute plan", "the forty nine dollar one",
"whatever gives us more than sixty a minute", "the plan with six thousand requests".

Spoken numbers arrive as digits (callcenter/spoken.py). The ``plan`` slot keeps the figure, as
``rate=600``, ``price=49``, ``rate>60``, ``count=6000`` or ``figure=249`` (a number that may be
either), and the plan-change specialist finds the plan in its price list (``plan_by_figure``):
no plan's numbers are written here, so a company's own price list works the same.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from domains.billing.records import Plan

_MORE = r"more\s+than|over|above|at\s+least|beyond|(?:bigger|higher|larger)\s+than"
_LESS = r"less\s+than|under|below|(?:cheaper|lower|smaller)\s+than"
_RATE_UNIT = r"(?:api\s+)?(?:requests?|calls?|reqs?|hits)?\s*(?:a|an|per|/|every|each)\s*(?:minute|min)"
_COUNT_UNIT = r"(?:api\s+)?(?:requests|calls)(?=\s+(?:one|plan|tier|package|a\s+month|per\s+month|monthly)\b|\W*$)"
_PRICE_UNIT = (r"(?:dollars?|bucks)?\s*(?:(?:a|per|/|every|each)\s*month|monthly|plan|tier|package|subscription)"
               r"|(?:dollars?|bucks)\s+one")
_FIGURE = rf"(?:(?:{_MORE}|{_LESS})\s+)?\$?\d[\d,]*\s*(?:{_RATE_UNIT}|{_COUNT_UNIT}|{_PRICE_UNIT})"
# "move me to the $49 one" ("forty nine dollar" arrives as "$49"): a price and "one", after a move
_MOVED_TO_PRICE = (r"(?:(?<=\bto\sthe\s)|(?<=\bon\sthe\s)|(?<=\bonto\sthe\s))\$\d[\d,]*(?=\s+one\b)"
                   # "ok the 600 one" (after the price list): a figure and "one", said as a pick
                   r"|(?<=\bthe\s)\d{2,}(?=\s+one(?:\s+(?:then|please|i\s+guess|i\s+think))?\W*$)")
# A figure mention, as the plan slot's reader finds it among names and directions (plan_words.py).
FIGURE = rf"{_FIGURE}|{_MOVED_TO_PRICE}"
_SAID = re.compile(rf"(?<![\w$])(?:{FIGURE})\b", re.I)


# "move me to the $49 one", "i want the plan that does 600 a minute": a plan asked for by its
# figure. A money figure alone ("the $49 one") may be a charge: the move word says it is a plan.
_TO_FIGURE = re.compile(
    rf"\b(?:to|onto|on|want|need|take|get|give\s+(?:me|us))\s+(?:the|a)\s+(?:(?:plan|one|tier|package)\s+(?:with|that\s+\w+|for)\s+)?(?:{FIGURE})",
    re.I)


def moves_to_a_figure(text: str) -> bool:
    """The words ask for a plan named by a figure of it."""
    return bool(_TO_FIGURE.search(text))


_FIGURE_PARTS = re.compile(rf"^(?:({_MORE})|({_LESS}))?\s*(\$)?(\d[\d,]*)\s*(?:({_RATE_UNIT})|({_COUNT_UNIT})|({_PRICE_UNIT}))?", re.I)
_MONEY_WORD = re.compile(r"\b(?:dollars?|bucks|month|monthly)\b", re.I)
_ENCODED = re.compile(r"^(rate|price|count|figure)([=<>])(\d+)$")


def figure_value(said: str) -> str:
    """"more than 60 a minute" -> "rate>60", "the $49 plan" -> "price=49", "6000 requests one" -> "count=6000"."""
    m = _FIGURE_PARTS.match(said.strip())
    if m is None:
        return said
    more, less, dollar, digits, rate, count, price = m.groups()
    op = ">" if more else "<" if less else "="
    if rate:
        kind = "rate"
    elif count:
        kind = "count"
    elif dollar or (price and _MONEY_WORD.search(price)):
        kind = "price"
    else:
        kind = "figure"  # "the 249 plan": a price or a limit, whichever a plan has
    return f"{kind}{op}{int(digits.replace(',', ''))}"


def figure(plan: str) -> tuple[str, str, int] | None:
    """The figure a ``plan`` argument names a plan by: (kind, op, number), from the slot's
    encoding or from words a model passed ("the 600 requests a minute plan"); else None."""
    encoded = _ENCODED.match(plan.strip().lower())
    if encoded:
        return encoded.group(1), encoded.group(2), int(encoded.group(3))
    said = _SAID.search(plan)
    encoded = _ENCODED.match(figure_value(plan[said.start() :])) if said else None
    return (encoded.group(1), encoded.group(2), int(encoded.group(3))) if encoded else None


_FIGURES: dict[str, Callable[[Plan], float]] = {
    "rate": lambda p: p.api_rate_limit_per_min,
    "price": lambda p: p.monthly_price_cents / 100,
    "quota": lambda p: p.api_monthly_quota,
}
# Which of a plan's figures a number said with each kind of word may be.
_KINDS = {"rate": ("rate",), "price": ("price",), "count": ("rate", "quota"), "figure": ("rate", "price", "quota")}


def plan_by_figure(plans: list[Plan], kind: str, op: str, n: int) -> Plan | None:
    """The plan named by a figure of it ("the 600 a minute plan", "the $49 one"), or the first
    past a bound ("more than 60 a minute": the cheapest above; "under $300": the dearest
    below). A rate no plan has exactly ("the plan for 300 a minute") is the cheapest that
    allows it. None when no plan fits."""
    for name in _KINDS.get(kind, ()):
        value = _FIGURES[name]
        ordered = sorted(plans, key=value)
        if op == ">":
            above = [p for p in ordered if value(p) > n]
            if above:
                return above[0]
        elif op == "<":
            below = [p for p in ordered if value(p) < n]
            if below:
                return below[-1]
        else:
            exact = [p for p in ordered if value(p) == n]
            if exact:
                return exact[0]
    if kind == "rate" and op == "=":
        return next((p for p in sorted(plans, key=_FIGURES["rate"]) if p.api_rate_limit_per_min >= n), None)
    return None
