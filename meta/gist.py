"""A turn in another language, understood well enough to answer a read-only question.

The line speaks English (callcenter/llm/language.py says so in the caller's language). A
caller who asks "¿cuánto debo?" or "est-ce que l'api est en panne" still has a question a
read-only lookup answers; each department hands down its words in the other languages
callers use (`DomainSpec.glossary`), the turn is glossed word by word into the English the
router reads, and only a confident need whose specialist looks something up is answered (in
English, after the reply in the caller's language); a need no lookup answers whose task changes
nothing by itself (a sign-in problem, a ticket's status) is handed to that task, which goes on
in English. Nothing that acts is ever started on a gloss: a refund or a closure is asked for
again in English, with its read-back.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from callcenter.llm.language import detect_language, english_words
from domains.base import DomainSpec

IN_ENGLISH = "Here is what I found, in English:"
IN_ENGLISH_TASK = "I'll go on in English:"
VERIFY_FIRST = "To look that up, I first need your customer number and the ZIP code on the account."


def gloss(text: str, glossaries: Iterable[dict[str, str]], *, english: bool = True) -> str:
    """The English words of the glossaries found in ``text``, in the order said (longest
    phrases first, each word used once); words no glossary knows are left out. ``english``:
    a sentence of the turn said in English ("welchen tarif habe ich? what plan am i on") is
    kept as said, so the router reads the caller's own words beside the gloss."""
    sentences = [p for p in _SENTENCE.split(text) if p.strip()]
    kept = [p.strip() for p in sentences if english and _english(p)]
    foreign = " ".join(p for p in sentences if p.strip() not in kept)
    glossed = _gloss_words(foreign, glossaries) if foreign else ""
    return " ".join(x for x in (glossed, *kept) if x)


_SENTENCE = re.compile(r"[.?!¿¡;]+")
_ENGLISH_WORDS = 2  # a stretch with this many of English's commonest words, and none of another language's


def _english(sentence: str) -> bool:
    return english_words(sentence) >= _ENGLISH_WORDS and detect_language(sentence, weak=True) is None


def _gloss_words(text: str, glossaries: Iterable[dict[str, str]]) -> str:
    low = f" {text.lower()} "
    words = {k: v for g in glossaries for k, v in g.items()}
    found: list[tuple[int, str]] = []
    for foreign in sorted(words, key=len, reverse=True):
        for m in re.finditer(rf"(?<![\w-]){re.escape(foreign)}(?![\w-])", low):
            found.append((m.start(), words[foreign]))
            low = low[: m.start()] + " " * len(m.group(0)) + low[m.end():]
    return " ".join(english for _, english in sorted(found))


def glossaries(domains: Iterable[DomainSpec]) -> list[dict[str, str]]:
    return [d.glossary for d in domains if d.glossary]
