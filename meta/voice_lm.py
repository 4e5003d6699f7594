"""The line's language as a word model, to rescore the recogniser's readings of an open turn.

Whisper tiny.en on the telephone band often has the caller's request among its beam's
readings but not first ("So much, good, all right." before "How much do I owe right now?").
The shipped utterances (the router's training examples: what callers say to this line) give
a word bigram model of the line's language; a reading's mean log-probability per word under
it, weighed against the recogniser's own mean log-probability per token, chooses among the
beam's readings. Numbers are one word class (an id, an amount, a ZIP are all "a number").
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?|\d+")
_NUM = "<num>"
_START, _END = "<s>", "</s>"
# Absolute discount of the bigram counts: the mass given to the unigram (Kneser-Ney's usual 0.75).
_DISCOUNT = 0.75


def words(text: str) -> list[str]:
    return [_NUM if w[0].isdigit() else w for w in _WORD.findall(text.lower())]


class BigramLM:
    """Interpolated absolute-discount bigram over words, with add-one unigrams and an unknown
    word's share (a word the line's callers never said is possible, only less likely)."""

    def __init__(self, texts: Iterable[str]) -> None:
        self.unigrams: Counter[str] = Counter()
        self.bigrams: Counter[tuple[str, str]] = Counter()
        self.followers: Counter[str] = Counter()  # distinct words seen after each word
        self.contexts: Counter[str] = Counter()
        for text in texts:
            seq = [_START, *words(text), _END]
            self.unigrams.update(seq[1:])
            for a, b in zip(seq, seq[1:], strict=False):
                if (a, b) not in self.bigrams:
                    self.followers[a] += 1
                self.bigrams[(a, b)] += 1
                self.contexts[a] += 1
        self.total = sum(self.unigrams.values())
        self.vocab = len(self.unigrams) + 1  # + the unknown word

    def unigram(self, word: str) -> float:
        return (self.unigrams[word] + 1) / (self.total + self.vocab)

    def prob(self, prev: str, word: str) -> float:
        seen = self.contexts[prev]
        if not seen:
            return self.unigram(word)
        lam = _DISCOUNT * self.followers[prev] / seen
        return max(self.bigrams[(prev, word)] - _DISCOUNT, 0.0) / seen + lam * self.unigram(word)

    def score(self, text: str) -> float:
        """Mean log-probability per word (the end of the sentence counted as a word)."""
        seq = [_START, *words(text), _END]
        logs = [math.log(self.prob(a, b)) for a, b in zip(seq, seq[1:], strict=False)]
        return sum(logs) / len(logs)


@lru_cache(maxsize=1)
def line_lm() -> BigramLM:
    from meta.router import training_examples

    return BigramLM(text for text, _label in training_examples())
