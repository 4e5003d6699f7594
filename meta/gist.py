"""A turn in another language, understood well enough to answer a read-only question.

The line speaks English (callcenter/llm/language.py says so in the caller's language). A
caller who asks "¿cuánto debo?" or "est-ce que l'api est en panne" still has a question a
read-only lookup answers; each department hands down its words in the other languages
callers use (`DomainSpec.glossary`), the turn is glossed word by word into the English the
router reads, and only a confident need whose specialist looks something up is answered (in
English, after the reply in the caller's language). Nothing that acts is ever started on a
gloss: a refund or a closure is asked for again in English, with its read-back.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from domains.base import DomainSpec

IN_ENGLISH = "Here is what I found, in English:"


def gloss(text: str, glossaries: Iterable[dict[str, str]]) -> str:
    """The English words of the glossaries found in ``text``, in the order said (longest
    phrases first, each word used once); words no glossary knows are left out."""
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
