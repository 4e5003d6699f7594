"""Is a turn words at all? A character-trigram model of the line's own language.

A recogniser that mishears, or a caller who mashes keys, produces text the intent
classifier can only call out of scope; the right reply is "sorry, I didn't catch that",
not "I can't help with that". Real words, even ones the router never saw, follow the
language's spelling patterns; noise does not. The model is fitted on the shipped
utterances and its threshold sits below the least likely training turn, so no turn like
the training data is ever called noise.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable

_WORD = re.compile(r"[a-z']+")
_ALPHABET = 28  # letters, apostrophe, word end
# Spoken acknowledgements are short and oddly spelt ("mm-hm", "uh huh"); they are answers,
# not noise, so they are left out of the score.
_BACKCHANNEL = frozenset("uh um huh mm hm mhm hmm er erm ah oh ok okay yeah yep nope".split())


class NoiseModel:
    def __init__(self, trigrams: Counter[str], contexts: Counter[str], threshold: float) -> None:
        self.trigrams = trigrams
        self.contexts = contexts
        self.threshold = threshold

    @classmethod
    def fit(cls, texts: Iterable[str], margin: float = 0.5) -> NoiseModel:
        texts = list(texts)
        model = cls(Counter(), Counter(), threshold=-math.inf)
        for text in texts:
            for word in _WORD.findall(text.lower()):
                padded = f"^^{word}$"
                for i in range(2, len(padded)):
                    model.trigrams[padded[i - 2 : i + 1]] += 1
                    model.contexts[padded[i - 2 : i]] += 1
        scores = [s for s in (model.score(t) for t in texts) if s is not None]
        model.threshold = (min(scores) if scores else -3.0) - margin
        return model

    def _word(self, word: str) -> float:
        padded = f"^^{word}$"
        total = 0.0
        for i in range(2, len(padded)):
            hits = self.trigrams[padded[i - 2 : i + 1]] + 0.1
            total += math.log(hits / (self.contexts[padded[i - 2 : i]] + 0.1 * _ALPHABET))
        return total / (len(padded) - 2)

    def score(self, text: str) -> float | None:
        """Mean log-probability per character; None when there is nothing to judge."""
        words = [w for w in _WORD.findall(text.lower()[:2000]) if w not in _BACKCHANNEL]
        words = [w[:40] for w in words]  # a pathological word costs no more than a long one
        if not words:
            return None
        chars = sum(len(w) for w in words)
        return sum(self._word(w) * len(w) for w in words) / chars

    def is_noise(self, text: str) -> bool:
        score = self.score(text)
        return score is not None and score < self.threshold
