"""A question for a detail an answer of this call already gave, said once more.

"sorry how many per page exactly" after the list endpoints' answer reads as no need at all: the
sentence of that answer it names is the reply, not "that's not something I can help with".
"""

from __future__ import annotations

import re

from domains.results import DomainResult
from meta.moves import _ANSWERED, _MIN_TOPIC_WORD, _PLACEHOLDERS, _TOPICLESS, _WORD

# The question asks for a detail: "how many ...", "what was the reference again".
_ASKS_DETAIL = re.compile(
    r"^\W*(?:(?:sorry|so|and|ok|okay|um|uh|oh|wait|hang\s+on|remind\s+me|again)\W+)*"
    r"(?:how\s+(?:many|much|long|often|big)|what(?:'s|\s+is|\s+was|\s+were|s)?|which|when)\b", re.I)
_DETAIL_WORDS = 10  # a longer question says more than which detail it wants
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def detail_again(text: str, results: list[DomainResult]) -> str | None:
    """The sentence of an answer this call gave that a question no need reads asks for again
    ("sorry how many per page exactly" after "List endpoints return up to 100 items a page. ..."):
    said once more, latest answer first, rather than "that's not something I can help with"."""
    said = _WORD.findall(text.lower())
    if not _ASKS_DETAIL.match(text) or len(said) > _DETAIL_WORDS:
        return None
    words = {w for w in said if len(w) >= _MIN_TOPIC_WORD + 1 and w not in _TOPICLESS and w not in _PLACEHOLDERS}
    for result in reversed([r for r in results if r.status in _ANSWERED and r.summary]):
        sentences = [s for s in _SENTENCE.split(result.summary) if not s.rstrip("?").endswith("help you with")]
        scored = [(len(words & set(_WORD.findall(s.lower()))), s) for s in sentences]
        best = max(scored, default=(0, ""), key=lambda pair: pair[0])
        if best[0]:
            return best[1]
    return None
