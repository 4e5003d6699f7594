"""A turn that names a thing but no need about it: "the charge", "um it's about my account".

A need is something said *about* an object of the account (charged twice, locked out, close
it, switch it); a turn made only of a noun phrase (an optional opener such as "it's about" or
"i have a question about", a determiner, one noun, perhaps "on my card") names the object and
leaves the need open. The classifier still gives such a turn a confident label, because its
training utterances for that noun mostly came from one specialist ("the charge" -> refund at
1.0), so confidence cannot tell; the shape of the turn can. A specialist that would act on
it (a refund read-back, a lock read-back) is not started on it: the supervisor asks which
need it is. A read-only lookup ("my bill" -> the balance) may still answer it.

This is a closed grammatical frame (openers, determiners, prepositions), not a list of
departments' words; a bare specialist name ("refund") is the caller naming the need and is
left to ``frames.named_label``.
"""

from __future__ import annotations

import re

_FILLER = r"(?:uh+|um+|er+|erm|hmm+|so|well|ok(?:ay)?|yeah|hi|hello|hey|right|oh|and|just|also)"
_OPENER = (
    r"(?:it'?s|its|it\s+is|this\s+is|that'?s|i'?m\s+calling|i\s+am\s+calling|calling|i'?m\s+ringing|ringing"
    r"|i\s+(?:have|had|got)\s+(?:a\s+)?(?:quick\s+)?(?:question|query|problem|issue|something)"
    r"|(?:a\s+)?(?:quick\s+)?(?:question|query)|something|i\s+wanted\s+to\s+ask|i\s+want\s+to\s+ask"
    # "i kinda need some help", "could you help me", "i'd like a bit of help"
    r"|(?:i\s+(?:\w+\s+)?(?:need|want|would\s+like|'?d\s+like)|could\s+(?:you|i\s+get)|can\s+(?:you|i\s+get)|please)?"
    r"\s*(?:some\s+|a\s+(?:bit|little)\s+of\s+|a\s+hand\s+|)help(?:\s+me)?)"
)
_ABOUT = r"(?:about|regarding|re|concerning|with|on|for)"
_DET = r"(?:the|my|a|an|our|this|that|some|your|one|one\s+of\s+my|one\s+of\s+the)"
# The noun: one word, not a participle or gerund ("my card declined" says what happened).
_NOUN = r"(?!\w+(?:ed|ing)\b)[a-z]+"
_TOPIC_ONLY = re.compile(
    rf"""^\W*(?:{_FILLER}\W+)*(?:{_OPENER}\W+)?(?:{_ABOUT}\s+)?{_DET}\s+{_NOUN}
    (?:\s+(?:on|from|for|with|in|of)\s+{_DET}\s+{_NOUN})?(?:\W+(?:please|thanks))?\W*$""",
    re.IGNORECASE | re.VERBOSE,
)


def topic_only(text: str) -> bool:
    """The turn names an object of the account and no need about it (see the module docstring)."""
    return bool(_TOPIC_ONLY.match(text.strip().lower()))
