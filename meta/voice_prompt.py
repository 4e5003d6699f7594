"""The recogniser's domain prompt, built from the utterances the domains ship.

Whisper reads a short `initial_prompt` as preceding text: seeing the line's vocabulary
("refund", "invoice", "two-factor") and the written form of ids ("C1001") makes it write
what the slots expect instead of "See 1001".
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from meta.router import training_examples

_STOP = frozenset(
    "the a an and or to of for in on my me i is it you your can with be was this that have has but not "
    "are at so do please just what how why when from about get there it's i'm i've don't can't need want "
    "like um uh yeah hi hello hey thanks thank ok okay help know would could should will now asap good right "
    "morning afternoon problem question excuse quick all any been much case show still what's new back some "
    "today again really sure also".split())
_IDS = "Customer C1001, ZIP 94107. Charge of $49. Errors 429 and 503. Email john@example.com."


@lru_cache(maxsize=1)
def recogniser_prompt(words: int = 40) -> str:
    """The ids example plus the most frequent content words of the shipped utterances."""
    counts: Counter[str] = Counter()
    for text, _label in training_examples():
        counts.update(w for w in re.findall(r"[a-z][a-z'-]{2,}", text.lower()) if w not in _STOP)
    vocab = ", ".join(w for w, _ in counts.most_common(words))
    return f"{_IDS} Topics: {vocab}."
