"""A caller saying back the words the line told them to say.

An answer may end by telling the caller what to say for more ("If they keep failing, say 'open a
ticket' and I'll send it to our engineers"). A short reply that takes up a word of that phrase
("ticket then", "ok the ticket", "yeah a ticket please") means the phrase itself: read on its own,
a bare "ticket" reads as a ticket's status.
"""

from __future__ import annotations

import re

from callcenter.routing.discourse import FUNCTION_WORDS

_SAY = re.compile(r"\bsay '([^']{3,40})'", re.I)
_WORD = re.compile(r"[a-z']+")
_SHORT = 5  # a longer reply says more than that it takes the phrase up
# words that take a phrase up without naming it ("ok then", "yes please")
_TAKE_UP = frozenset("ok okay yes yeah yep sure please then go ahead do it that one fine alright right".split())
_MIN_WORD = 4
_ASKS = frozenset("what what's whats how where when why which who whose status any is are".split())


def said_back(text: str, last_reply: str) -> str | None:
    """The phrase the line's last reply told the caller to say, when ``text`` takes it up; or None."""
    words = _WORD.findall(text.lower())
    if not words or len(words) > _SHORT or "?" in text or _ASKS & set(words):
        return None  # "what's my ticket": a question of its own
    named = {w for w in words if len(w) >= _MIN_WORD and w not in FUNCTION_WORDS and w not in _TAKE_UP}
    for phrase in _SAY.findall(last_reply):
        own = {w for w in _WORD.findall(phrase.lower()) if len(w) >= _MIN_WORD and w not in FUNCTION_WORDS}
        # every word named is one of the phrase's, and nothing else is said but taking it up
        if named and named <= own and all(w in own or w in _TAKE_UP or w in FUNCTION_WORDS for w in words):
            return phrase
    return None
