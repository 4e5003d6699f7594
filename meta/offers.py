"""An offer taken up: a question answered with facts ("would enterprise be cheaper?") may end
with an offer ("Would you like to switch to Enterprise?"). A plain yes to it ("ok, let's do that")
makes the request the offer names, which the specialist then reads back like any other action;
a no changes nothing; another value of what was offered ("starter is enough honestly") is that
request instead. The offer holds for the very next turn only.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from livekit.agents import llm

from callcenter.llm import templates as t
from callcenter.llm.embedded import TRANSFER, route_call
from callcenter.llm.language import farewell_language, says_goodbye
from callcenter.llm.protocol import SETTLED_EXTRA, THEN_EXTRA
from callcenter.routing.discourse import farewell_after, is_closing, is_thanks_only
from callcenter.routing.slots import SlotReader
from domains.intent import after_surprise, restated_yes, yes_at_the_end, yes_or_no
from domains.results import DomainResult
from domains.state import CallState
from meta.moves import NO_THANKS


@dataclass(frozen=True, slots=True)
class Offer:
    domain: str
    request: str
    specialist: str | None = None  # who made the offer
    settles: str | None = None  # who takes the yes, when the request's words alone may read otherwise
    made_by: int = 0  # the result that made it (its id), to hold it once more past a question about it
    then: tuple[str, ...] = ()  # the needs asked with it, in English words, each routed after it in turn


def take_offer(results: list[DomainResult], consumed: set[int], *, since: int = 0) -> Offer | None:
    """The offer the caller's last turn was answered with, once: a later turn no longer takes it
    up. Of a turn with several answers ("I don't see any refunds ... Would you like me to refund
    it? Then, your ticket: ..."), the last one that offers (results from `since` on; the last
    result when that turn added none)."""
    turn = results[since:] or results[-1:]
    last = next((r for r in reversed(turn) if r.result is not None and r.result.offer), None)
    if last is None or id(last) in consumed or last.result is None:
        return None
    consumed.add(id(last))
    return Offer(last.domain, last.result.offer, last.specialist, made_by=id(last))


def hold(offer: Offer, consumed: set[int]) -> None:
    """The offer stands for the turn after this one: the caller asked about it ("and there's no way
    to pause it?" after what closing would do) and has not answered it yet."""
    consumed.discard(offer.made_by)


def another_value(text: str, request: str, reader: SlotReader) -> bool:
    """"starter is enough honestly" to "Would you like to switch to Pro?": the caller names
    another value of what was offered, a request of its own for that department."""
    said = reader.read(text).as_dict()
    offered = reader.read(request).as_dict()
    return any(k != "confirm" and k in offered and v != offered[k] for k, v in said.items())


# The finding taken in, then the offered thing asked for all the same: "ok but lock it just in
# case" (the "but" sets the request against the answer, not against the offer).
_OK_BUT = re.compile(r"^\W*(?:ok(?:ay)?|alright|all\s+right|fine|right|sure|well|good)\W+but\W+(.+)$", re.I)


def answer_to_offer(text: str, request: str = "") -> bool | None:
    """True: the caller takes the offer up; False: they decline it (and are not leaving); None: neither.
    A yes that names what was offered takes it up too ("ok do it, pro" to "switch to Pro?")."""
    text = after_surprise(text)  # "oh really, yes refund that"
    answer = yes_or_no(text)
    if answer is None and request and restated_yes(text, request, lambda _words: False):
        answer = True
    if answer is None and request and (m := _OK_BUT.match(text)) and restated_yes(f"yes {m.group(1)}", request, lambda _words: False):
        answer = True  # "ok but lock it just in case" to "If you'd like me to lock your account, just ask."
    if answer is None and yes_at_the_end(text):
        answer = True  # "oh i thought i'd asked already. ok yes do it": taken in, then a clean yes
    if answer is None and _THOUGHT_THEN_YES.fullmatch(text.strip()):
        # "hmm yeah maybe ok yes": thinking aloud, then a yes. Taking an offer up only makes the
        # request; its specialist reads it back before anything is done
        answer = True
    if answer is True and _THANKS_ONLY.search(text) and not _CLEAR_ASSENT.search(text):
        return None  # "ok thanks" after an answer that offers something: the answer taken, nothing asked for
    if answer is False and is_closing(text) and not is_thanks_only(text):
        return None  # "no thanks, bye": a goodbye, answered as one
    return answer


# Hedges and fillers thought aloud, ending on a plain yes.
_THOUGHT_THEN_YES = re.compile(
    r"(?:(?:hmm+|hm+|um+|uh+|er+|well|oh|ok(?:ay)?|yeah|yes|maybe|perhaps|i\s+guess|i\s+suppose|sure|alright|right|go\s+on|then)[\s,.]+)+"
    r"(?:yes|yeah|yep|sure|ok(?:ay)?\s+(?:yes|sure|then))(?:\s+please)?\W*", re.I)
_THANKS_ONLY = re.compile(r"\b(?:thanks|thank\s+you|thx|cheers|ta)\b", re.I)
_CLEAR_ASSENT = re.compile(r"\b(?:yes|yeah|yep|yup|sure|please|go\s+ahead|do\s+it|do\s+that|let'?s)\b", re.I)


def reply(text: str, offer: Offer, state: CallState, *, elsewhere: Callable[[str, Offer], bool]) -> str | llm.FunctionToolCall | None:
    """The turn read as an answer to the offer: the request it names (its specialist reads it
    back), a no (with the goodbye when the caller leaves), another value of it, or None (the turn
    is something else). `elsewhere`: the turn goes on to a need the offer is not."""
    answer = answer_to_offer(text, offer.request)
    if answer is True:  # the request the offer named; its specialist reads it back
        call = route_call(f"{TRANSFER}{offer.domain}", {"request": offer.request}, path="fast", confidence=None)
        if offer.settles:
            # "api errors and refund invoice", a gloss whose refund was offered, is no invoice
            # lookup when its words are read again
            call.extra[SETTLED_EXTRA] = offer.settles
        if offer.then:
            call.extra[THEN_EXTRA] = list(offer.then)  # "ja" to the plan change and the lock: each in turn
        return call
    if answer is False and (farewell_after(text) is not None or farewell_language(text) is not None or says_goodbye(text)):
        # "nah that's all. have a good one", "non, laissez tomber. merci, au revoir"
        state.guard.stop_delegating = True
        return f"{NO_THANKS} {t.GOODBYE}"
    if answer is False and not elsewhere(text, offer):
        return f"{NO_THANKS} {t.ANYTHING_ELSE}"
    if answer is None and another_value(text, offer.request, state.slots):
        # "starter is enough honestly" to "Would you like to switch to Pro?": that plan instead,
        # for the specialist that made the offer (its supervisor does not ask)
        call = route_call(f"{TRANSFER}{offer.domain}", {"request": text}, path="fast", confidence=None)
        if offer.specialist:
            call.extra[SETTLED_EXTRA] = offer.specialist
        return call
    return None
