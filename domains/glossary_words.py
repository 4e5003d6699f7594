"""The departments' glossaries (foreign words -> English): how callers type their words, and
the gloss of a turn in another language that the router reads (meta/gist.py, and a pending
question's digressions in domains/pending.py)."""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Iterable
from typing import TYPE_CHECKING

from callcenter import foreign_numbers
from callcenter.llm.language import (
    FOLLOW_UP_GLOSS,
    detect_language,
    english_stretches,
    english_words,
)

if TYPE_CHECKING:
    from domains.base import DomainSpec


IN_ENGLISH = "Here is what I found, in English:"


def typed_plainly(words: dict[str, str], not_plain: frozenset[str] = frozenset()) -> dict[str, str]:
    """``words``, and each key as callers type it: without accents, German's umlauts also as
    ae/oe/ue. ``not_plain``: variants that would be other words ("changé" typed plainly is the
    English "change"), known only as written."""
    out = dict(words)
    for key, english in words.items():
        digraphs = key.replace("ä", "ae").replace("ö", "oe").replace("ü", "ue").replace("ß", "ss")
        bare = "".join(c for c in unicodedata.normalize("NFD", key) if not unicodedata.combining(c))
        for variant in (digraphs, bare):
            if variant not in not_plain:
                out.setdefault(variant, english)
    return out


def gloss(text: str, glossaries: Iterable[dict[str, str]], *, english: bool = True, apart: bool = False,
          by_sentence: bool = False) -> str:
    """The English words of the glossaries found in ``text``, in the order said (longest
    phrases first, each word used once); words no glossary knows are left out. ``english``:
    a sentence of the turn said in English ("welchen tarif habe ich? what plan am i on") is
    kept as said, so the router reads the caller's own words beside the gloss. ``apart``: each
    clause glossed on its own and the clauses kept apart by commas, so two needs read as two
    ("nos appels ont échoué pendant la panne, je voudrais un remboursement"); by default one
    gloss, where a need said over two clauses reads whole ("mein konto ist gesperrt, was soll ich
    jetzt machen"). ``by_sentence``: apart only where a sentence ends ("¿hay algún incidente? tenemos
    errores quinientos": two questions, the board and the errors)."""
    glossaries = list(glossaries)
    # clause by clause: "my calls keep failing, por qué?" is English, then Spanish
    sentences = [p for p in _SENTENCE.split(text) if p.strip()]
    whole = [p for p in _WHOLE_SENTENCE.split(text) if p.strip()]
    kept = [p.strip() for p in sentences if english and _english(p, clause=p not in whole) and not _foreign(p, glossaries)]
    foreign = [p for p in sentences if p.strip() not in kept]
    if by_sentence:
        said = [" ".join(c for c in _SENTENCE.split(w) if c.strip() and c.strip() not in kept) for w in whole]
        glossed = ", ".join(g for g in (_gloss_words(p, glossaries) for p in said) if g)
    elif apart:
        glossed = ", ".join(g for g in (_gloss_words(p, glossaries) for p in foreign) if g)
    else:
        glossed = _gloss_words(" ".join(foreign), glossaries) if foreign else ""
    return " ".join(x for x in (glossed, *kept) if x)


# (and before English's "and": "necesito saber el balance de mi cuenta and if the api is down"
# turns to English there; no other language's words say "and")
_SENTENCE = re.compile(r"[.?!¿¡;,]+|\s+(?=and\s)")
_WHOLE_SENTENCE = re.compile(r"[.?!¿¡;]+")
_FOREIGN_WORDS = 2  # "i webhook erano in ritardo la settimana scorsa": two glossary phrases, not English


def _foreign(clause: str, glossaries: list[dict[str, str]]) -> bool:
    """The clause holds words of another language the glossaries know (a phrase whose English differs)."""
    low = f" {clause.lower()} "
    found = 0
    for g in glossaries:
        for foreign, english in g.items():
            if foreign != english.lower() and f" {foreign} " in low:
                found += 1
                if found >= _FOREIGN_WORDS:
                    return True
    return False
_ENGLISH_WORDS = 2  # a stretch with this many of English's commonest words, and none of another language's


def _english(sentence: str, clause: bool = False) -> bool:
    # a clause cut at a comma is short: one of English's commonest words tells it ("my calls keep failing")
    return english_words(sentence) >= (1 if clause else _ENGLISH_WORDS) and detect_language(sentence, weak=True) is None


# Ids said as written ("INC-41", "CH-1001-D", "T-9F2A") and error codes ("429"): the same in every language.
_AS_WRITTEN = re.compile(r"(?<![\w-])(?:[a-z]{1,4}-[0-9][\w-]*|[0-9]{3})(?![\w-])")


_COMPOUND = re.compile(r"(?<=[^\W\d_])-(?=[^\W\d_])")


def _gloss_words(text: str, glossaries: Iterable[dict[str, str]]) -> str:
    # "Enterprise-Plan": a compound of two words the glossaries know one by one
    said = text.lower()
    # "seiscentas requisições por minuto": a figure in words is the figure
    figures = foreign_numbers.digits(said)
    named = set(re.findall(r"\d+", figures)) - set(re.findall(r"\d+", said))
    low = f" {_COMPOUND.sub(' ', figures)} "
    words, stems = _merged(tuple(glossaries))
    found: list[tuple[int, str]] = [(m.start(), m.group(0)) for m in _AS_WRITTEN.finditer(low)]
    found += [(m.start(), m.group(0)) for m in re.finditer(r"(?<![\w-])\d+(?![\w-])", low) if m.group(0) in named and not _AS_WRITTEN.fullmatch(m.group(0))]
    low = re.sub(r"(?<![\w-])\d+(?![\w-])", lambda m: " " * len(m.group(0)) if m.group(0) in named else m.group(0), low)
    low = _AS_WRITTEN.sub(lambda m: " " * len(m.group(0)), low)
    # "hi zwei sachen is there an outage right now und bitte ...": English said inside the
    # sentence is kept as said, where it was said, not only the glossary's words in it
    for start, end in english_stretches(low, lambda w: w in words and words[w] != w):
        found.append((start, " ".join(low[start:end].split())))
        low = low[:start] + " " * (end - start) + low[end:]
    for foreign in sorted(words, key=len, reverse=True):
        for m in re.finditer(rf"(?<![\w-]){re.escape(foreign)}(?![\w-])", low):
            found.append((m.start(), words[foreign]))
            low = low[: m.start()] + " " * len(m.group(0)) + low[m.end():]
    for m in re.finditer(r"[^\W\d_]{6,}", low):
        if (english := _inflected(m.group(0), words, stems) or _compound(m.group(0), words)) is not None:
            found.append((m.start(), english))
    return " ".join(english for _, english in sorted(found))


# A word no glossary lists may be another form of one it does ("bloqueen" of "bloquear",
# "rembourse" of "rembourser", "bloccate" of "bloccare"): the Romance languages inflect at the
# word's end, so a word and a listed one that share their stem once an ending is cut say the
# same thing. The stem must keep five letters, so short words are never guessed.
_ENDINGS = tuple(sorted({
    "aremos", "eremos", "iremos", "abamos", "ábamos", "ieron", "aron", "ando", "endo", "iendo", "amos", "emos", "imos",
    "iamo", "ados", "adas", "idos", "idas", "ado", "ada", "ido", "ida", "ato", "ata", "ate", "ito", "ita", "are", "ere",
    "ire", "iem", "ie", "ar", "er", "ir", "an", "en", "am", "em", "as", "es", "os", "ez", "ons", "ent", "ée", "és", "ées",
    "é", "a", "e", "o", "i", "s",
}, key=len, reverse=True))
_STEM_LETTERS = 5
# The departments' glossaries live as long as the process: merged and indexed once per set
# (the set is kept with its table, so its ids cannot be taken by other dicts meanwhile).
_MERGED: dict[tuple[int, ...], tuple[tuple[dict[str, str], ...], dict[str, str], dict[str, list[str]]]] = {}


def _stem(word: str) -> str:
    for ending in _ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= _STEM_LETTERS:
            return word[: -len(ending)]
    return word


def _merged(glossaries: tuple[dict[str, str], ...]) -> tuple[dict[str, str], dict[str, list[str]]]:
    """The glossaries (and the follow-up words) as one table, and its one-word entries by stem."""
    key = tuple(map(id, glossaries))
    if key not in _MERGED:
        words = {k: v for g in (*glossaries, FOLLOW_UP_GLOSS) for k, v in g.items()}
        stems: dict[str, list[str]] = {}
        for foreign in words:
            if foreign.isalpha() and len(foreign) >= _STEM_LETTERS + 1:
                stems.setdefault(_stem(foreign), []).append(foreign)
        _MERGED[key] = (glossaries, words, stems)
    return _MERGED[key][1:]


def _compound(word: str, words: dict[str, str]) -> str | None:
    """A German compound whose last part the glossaries list ("serverfehler": "server" and
    "fehler", errors): the first part as said (often an English loanword), then the gloss."""
    for cut in range(3, len(word) - 3):
        head, tail = word[:cut], word[cut:]
        if tail in words and words[tail] != tail and head.isascii():
            return f"{head} {words[tail]}"
    return None


def _inflected(word: str, words: dict[str, str], stems: dict[str, list[str]]) -> str | None:
    """The English of the listed word ``word`` is a form of, when its stem names one meaning:
    of the listed forms with its stem, those sharing the longest start with it ("bloqueen":
    "bloquee", lock, not "bloqueada", locked) must agree."""
    forms = stems.get(_stem(word))
    if not forms:
        return None
    shared = {form: len(os.path.commonprefix([form, word])) for form in forms}
    best = max(shared.values())
    meanings = {words[form] for form, n in shared.items() if n == best}
    return meanings.pop() if len(meanings) == 1 else None


def glossaries(domains: Iterable[DomainSpec]) -> list[dict[str, str]]:
    return [d.glossary for d in domains if d.glossary]
