"""A part of a turn the line could not place is asked about after the rest, never dropped.

"i forgot my password and also i think i want to cancel": the password is clear, the cancel
is not (the account or only the plan?). The clear need is handled; before, the other part was
silently lost. Now, once the clear needs are answered, the line asks the question it would
have asked had the part been said alone, in the words of its clarifying question, so the
caller's answer ("the account") is read against its two options as ever (domains/choice.py).
"""

from __future__ import annotations

import json

from callcenter.llm import templates as t
from callcenter.llm.embedded import TRANSFER, domain_confidence
from callcenter.routing import Intent


def left_unclear(intents: list[Intent], calls: list, threshold: float, topics: dict[str, str]) -> str | None:
    """The clarifying question for a department need read below the threshold that none of the
    turn's transfers carries (its words are in no transfer's request), else None."""
    requests = []
    for call in calls:
        if not call.name.startswith(TRANSFER):
            return None  # a person, a goodbye: nothing else is asked
        try:
            requests.append(str(json.loads(call.arguments or "{}").get("request") or ""))
        except ValueError:
            requests.append("")
    for intent in intents:
        if not intent.in_scope or intent.label.startswith("meta/") or domain_confidence(intent) >= threshold:
            continue
        if any(intent.text and (intent.text in r or r in intent.text) for r in requests if r):
            continue
        named: list[str] = []
        for label in (intent.label, *(lab for lab, _ in intent.alternatives)):
            phrase = topics.get(label) if "/" in label and not label.startswith("meta/") else None
            if phrase and phrase not in named:
                named.append(phrase)
        if len(named) >= 2:
            return t.CLARIFY_ALSO.format(a=named[0], b=named[1])
    return None


def ask_instead(text: str, question: str) -> str | None:
    """The answer with the question in place of its closing "anything else?", or None when it
    does not end there (a read-back waits for its yes: the question waits too)."""
    if not text.rstrip().endswith(t.ANYTHING_ELSE):
        return None
    return f"{text.rstrip()[: -len(t.ANYTHING_ELSE)].rstrip()} {question}".strip()
