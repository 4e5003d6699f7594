"""Words a recogniser split in two, joined again: "re fund", "in voice", "a p i" -> "refund",
"invoice", "api".

A recogniser on a poor line writes one word as two when its pieces are words or syllables it
knows ("super visor", "enter prize", "un lock", "pass word"), and spells out an acronym as
letters ("a p i", "d o b"). The router then reads neither piece as what the caller said, and
the slot readers, which look for "refund" or "enterprise", find nothing.

The line's own vocabulary says which joins are words: the word view of the router's TF-IDF
(features.py) holds every word and word pair of its training utterances with their document
frequencies (from the idf weights), so this module knows no department's words: a company
that trains the router on its own utterances gets its own joins. Two neighbours are joined
when
- together they are a word of the vocabulary (in at least `_MIN_DF` utterances),
- the vocabulary never has them side by side ("set up", "log in" stay as said), and
- one piece is no word of the vocabulary, or the joined word is far more common than the
  second piece ("in to" stays, "to" being everywhere).
Where one piece is no word at all, the joined letters may be one letter off a longer word
("a count" -> "account", "enter prize" -> "enterprise"): a recogniser's halves are heard, not
spelled.
A run of single letters is joined when the letters spell a vocabulary word; one letter before a
word ("e mail") when the two spell a word the line hears often. Two words of the vocabulary that
it never has side by side are joined when together they are a word it has often ("some one",
"any thing").
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping

from callcenter.routing.features import TfidfView
from callcenter.routing.segment import is_filler_word

_MIN_DF = 2  # a word of one training utterance is too rare to trust as the intended one
_COMMONER = 5  # a spelling this many times as common is the word meant
_LETTERS = 3
_NEAR_LEN = 7  # shorter words are too easily one letter from another ("to ring", "trying")
_DOMINATES = 2  # the joined word at least this many times as common as the second piece
_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)*")  # "más" and "d'ye" whole: neither is joined
# two words with only a space between (no punctuation: "in, voice" is two words on purpose)
_PAIR_GAP = re.compile(r"^ +$")


def frequencies(view: TfidfView) -> dict[str, int]:
    """Document frequencies of a fitted word view's terms, from its smoothed idf weights
    (idf = ln((1 + n) / (1 + df)) + 1; the rarest term has df = 1, which gives n)."""
    terms, idf = view.export()
    names: list[str] = terms["terms"]
    if not names:
        return {}
    top = float(max(idf))
    n = 2.0 * math.exp(top - 1.0) - 1.0
    return {term: max(1, round((1.0 + n) / math.exp(w - 1.0) - 1.0)) for term, w in zip(names, idf, strict=True)}


class Rejoiner:
    """Joins split words against one vocabulary (word -> document frequency; word pairs as
    "a b" keys, as the router's word view holds them)."""

    def __init__(self, df: Mapping[str, int]) -> None:
        self._df = df
        # one letter dropped or changed: "a count" is "acount", "enter prize" "enterprize".
        # Keyed by every one-letter deletion of the vocabulary's longer words (symmetric
        # deletion: two words one edit apart share a key).
        self._near: dict[str, str] = {}
        for word, n in sorted(df.items(), key=lambda kv: -kv[1]):
            if n >= _MIN_DF and len(word) >= _NEAR_LEN and word.isalpha():
                for key in _deletions(word):
                    self._near.setdefault(key, word)

    @classmethod
    def from_view(cls, view: TfidfView) -> Rejoiner:
        return cls(frequencies(view))

    def knows(self, word: str) -> bool:
        """The vocabulary has the word."""
        return word in self._df

    def joined(self, a: str, b: str) -> str | None:
        """The word `a` and `b` are the halves of, or None."""
        if (len(b) < 2 or (len(a) < 2 and a == "i") or f"{a} {b}" in self._df
                or not (a + b).isascii() or not (a + b).isalpha() or is_filler_word(a) or is_filler_word(b)):
            # single letters are spelled runs ("d o b"), not halves; other languages' words stay;
            # a filler is said on its own ("ah right, the subscription" is no "alright")
            return None
        fa, fb = self._df.get(a, 0), self._df.get(b, 0)
        word = a + b
        if fa == 0 or fb == 0:
            # only a piece that is no word at all may be a misheard half; and the training
            # utterances' own typos ("acount") give way to the word they misspell
            near = next((self._near[k] for k in (word, *_deletions(word)) if k in self._near), word)
            # the ends are heard right ("enter prize"; not "oh ones" for "phones", "read it" for "credit")
            if near[0] == word[0] and near[-1] == word[-1] and self._df.get(near, 0) >= _COMMONER * self._df.get(word, 0):
                word = near
        if self._df.get(word, 0) < (_MIN_DF if len(a) > 1 else _COMMONER * _MIN_DF):
            return None  # a letter before a word ("e mail") only into a word the line hears often
        # two words of the line that it never hears side by side, halves of a third it hears
        # often and not much rarer than the second piece: "some one", "any thing" (not "in to":
        # "to" is everywhere)
        compound = self._df[word] >= _COMMONER * _MIN_DF and self._df[word] * _COMMONER >= fb
        return word if fa == 0 or fb == 0 or self._df[word] >= _DOMINATES * fb or compound else None

    def __call__(self, text: str) -> str:
        words = list(_WORD.finditer(text))
        if len(words) < 2:
            return text
        # (first index, last index, joined word, rank): of two overlapping joins, the one that
        # takes in more pieces that are no word at all wins, then the more common word ("with
        # the re fund" is "refund": "fund" alone is no word of the line's, "the" and "re" are)
        found: list[tuple[int, int, str, tuple[int, int]]] = []
        for i in range(len(words)):
            run = self._letters(text, words, i)
            if run is not None:
                found.append(run)
            elif i + 1 < len(words) and _adjacent(text, words[i], words[i + 1]):
                a, b = words[i].group().lower(), words[i + 1].group().lower()
                word = self.joined(a, b)
                if word is not None:
                    found.append((i, i + 1, word, ((a not in self._df) + (b not in self._df), self._df[word])))
        taken: set[int] = set()
        chosen: list[tuple[int, int, str, tuple[int, int]]] = []
        for join in sorted(found, key=lambda f: f[3], reverse=True):
            span = set(range(join[0], join[1] + 1))
            if not span & taken:
                taken |= span
                chosen.append(join)
        out: list[str] = []
        last = 0
        for first, end, word, _ in sorted(chosen):
            out.append(text[last:words[first].start()])
            out.append(word)
            last = words[end].end()
        out.append(text[last:])
        return "".join(out)

    def _letters(self, text: str, words: list[re.Match[str]], i: int) -> tuple[int, int, str, tuple[int, int]] | None:
        """A run of single letters from `i` that spells a vocabulary word ("a p i")."""
        if len(words[i].group()) != 1 or (i > 0 and len(words[i - 1].group()) == 1 and _adjacent(text, words[i - 1], words[i])):
            return None
        j = i
        while j + 1 < len(words) and len(words[j + 1].group()) == 1 and _adjacent(text, words[j], words[j + 1]):
            j += 1
        spelled = "".join(w.group() for w in words[i:j + 1]).lower()
        n = self._df.get(spelled, 0)
        # three letters at least: "y a" is French and Spanish, "i d" too short to tell
        return (i, j, spelled, (j - i + 1, n)) if j - i + 1 >= _LETTERS and spelled.isascii() and n >= _MIN_DF else None


def _adjacent(text: str, a: re.Match[str], b: re.Match[str]) -> bool:
    return bool(_PAIR_GAP.match(text[a.end():b.start()]))


def _deletions(word: str) -> list[str]:
    return [word[:k] + word[k + 1:] for k in range(len(word))]
