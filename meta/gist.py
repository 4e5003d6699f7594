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

from callcenter.routing.slots import SlotReader
from callcenter.spoken import normalise
from domains.glossary_words import IN_ENGLISH, gloss, glossaries

__all__ = ["ASK_IN_ENGLISH", "IN_ENGLISH", "IN_ENGLISH_TASK", "VERIFY_FIRST", "gloss", "glossaries", "values_of"]

IN_ENGLISH_TASK = "I'll go on in English:"
ASK_IN_ENGLISH = "It sounds like you'd like {what}. Would you like me to do that? Please tell me in English, and I'll read it back before anything is done."
VERIFY_FIRST = "To look that up, I first need your customer number and the ZIP code on the account."


# Values a caller says in English words inside another language ("cambiar mi email a grace h at
# newmail dot com"): a gloss keeps only the glossaries' words, so these are carried beside it.
_CARRIED = ("email", "phone")


def values_of(said: str, slots: SlotReader) -> str:
    """The email or phone number said in the turn, as the line writes them, for its gloss."""
    found = slots.read(normalise(said)).as_dict() if said else {}
    return " ".join(str(found[k]) for k in _CARRIED if found.get(k))
