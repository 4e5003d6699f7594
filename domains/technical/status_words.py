"""Whether the service is up, asked as such: a status question, not an error diagnosis.

"is the api ok", "is your platform working right now": the caller names no error of their
own, only asks about the service's state, which the status board answers. Said with an
error the caller sees ("i get 500s, is the api down?") the diagnosis stands: it reads their
own usage and says whether the errors are theirs or ours.
"""

from __future__ import annotations

import re

_THING = r"(?:the\s+|your\s+|ur\s+)?(?:api|service|services|site|website|platform|system|systems|dashboard|servers?|app|endpoints?|stuff|things|everything)"
_STATE = r"(?:ok(?:ay)?|up|down|working|running|alive|online|offline|fine|broken|healthy|live|back(?:\s+up)?|having\s+(?:issues|problems|trouble)|acting\s+up)"
_UP_QUESTION = re.compile(
    rf"\b(?:is|are|r)\s+{_THING}(?:\s+(?:all|still|currently|even))?\s+{_STATE}\b"
    rf"|\b(?:are|r)\s+(?:you|u|y'?all)(?:\s+guys)?(?:\s+(?:all|still|currently))?\s+(?:down|up|ok(?:ay)?|having\s+(?:an?\s+)?(?:outage|issues|problems))\b",
    re.I,
)
_OWN_ERROR = re.compile(r"\b(?:[45]\d\d|[45]xx|errors?|timeouts?|timing\s+out|rate\s+limit\w*|throttl\w*|failing|fails?|unauthori[sz]ed|forbidden)\b", re.I)


def asks_if_up(text: str) -> bool:
    """The caller asks whether the service is up ("is the api ok")."""
    return bool(_UP_QUESTION.search(text))


def names_own_error(text: str) -> bool:
    """The caller names an error they get ("500s", "timeouts"): a diagnosis reads their usage."""
    return bool(_OWN_ERROR.search(text))



# "the key is dead", "our api key got revoked", "keys stopped working": the API errors' diagnosis
# (it names the key on file and what to do), not a ticket for engineering.
_KEY_FAILS = re.compile(
    r"\b(?:api\s+)?keys?\b.{0,25}\b(?:dead|revoked|invalid|expired|broken|not\s+working|stopped\s+working|doesn'?t\s+work"
    r"|don'?t\s+work|rejected|disabled|no\s+good|won'?t\s+work)\b",
    re.I,
)


def key_fails(text: str) -> bool:
    """The caller says their API key no longer works."""
    return bool(_KEY_FAILS.search(text))


# "did you have a webhook delay last week", "is that the one from last week with the webhooks":
# deliveries that came late, or a trouble in the past, are the status board's incidents (it
# lists the recent resolved ones), not set-up help and not a ticket of the caller's own.
_DELIVERED = r"(?:webhooks?|deliver(?:y|ies)|events?|notifications?|callbacks?)"
_LATE = r"(?:delay(?:s|ed)?|late|lagg?(?:ing|ed)?|behind|slow(?:\s+down)?)"
_PAST = (
    r"(?:last\s+(?:week|night|weekend|month|monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
    r"|yesterday|the\s+other\s+day|(?:a\s+)?(?:few|couple(?:\s+of)?)\s+days\s+ago|over\s+the\s+weekend)"
)
_TROUBLE = r"(?:the\s+one|incident|outage|down|problem|issue|trouble|glitch|hiccup|delay\w*|webhooks?)"
_PAST_TROUBLE = re.compile(
    rf"\b{_DELIVERED}\b.{{0,40}}\b{_LATE}\b|\b{_LATE}\b.{{0,25}}\b{_DELIVERED}\b"
    rf"|\b{_TROUBLE}\b.{{0,40}}\b{_PAST}\b|\b{_PAST}\b.{{0,40}}\b{_TROUBLE}\b",
    re.I,
)
_OWN_TICKET = re.compile(r"\b(?:tickets?|escalation|case)\b", re.I)


def past_trouble(text: str) -> bool:
    """Deliveries came late, or something went wrong in the past: an incident to look up."""
    return bool(_PAST_TROUBLE.search(text))


def names_ticket(text: str) -> bool:
    """The caller names a ticket of their own ("my ticket from last week"): its status stands."""
    return bool(_OWN_TICKET.search(text))
