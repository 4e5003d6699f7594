"""A need taken back later in the same turn: "refund that double charge and open a ticket about
the 429s, oh wait, scratch the refund, my accountant is on it, just the ticket".

Callers list needs and then think again before they stop talking. The take-back names what it
drops ("scratch the refund", "forget the invoice", "don't close it") or what it keeps ("just the
ticket", "only the first two"), by the words the caller used for it a moment before. So it is
matched by those words, not by a department's vocabulary: this module knows discourse markers
only, and which clause is which need stays the classifier's question.

Only after a retraction cue ("no", "wait", "actually", "hmm", "oh", "sorry", "nah"): "forget
the password, i just want to get in" with no cue is a need of its own, not a take-back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# The words that open a retraction: one list, read at the take-back's end (`_CUE`) and searched
# back for where it begins (`_cue_start`).
_CUE_WORDS = r"(?:no|nah|wait|actually|hmm+|oh|sorry|on\s+second\s+thought|you\s+know\s+what|change\s+of\s+plan)"
_CUE = re.compile(rf"\b{_CUE_WORDS}\b(?:[\s,]+and)?[\s,.!]*$", re.I)
_CUE_BEGINS = re.compile(rf"(?:^|[,.;!?]\s*|\s)(?=(?:(?:um+|uh+|{_CUE_WORDS})\W+)*{_CUE_WORDS}\b)", re.I)
# What drops a need, the need's own words after it ("scratch the refund", "forget about the
# invoice", "don't close it", "no need for the ticket").
_DROP = re.compile(
    r"\b(?:(?:scratch|forget(?:\s+about)?|skip|drop|ignore|never\s*mind(?:\s+about)?|no\s+need\s+(?:for|to))\s+"
    r"|(?:do\s*n'?t|dont|do\s+not)\s+(?:bother\s+(?:with\s+)?|worry\s+about\s+)?(?=\w)"
    # "actually no not the account, just tell me the balance"
    r"|(?<=no\s)not\s+(?=the\b|my\b|that\b)|(?<=no,\s)not\s+(?=the\b|my\b|that\b))"
    r"(?P<what>[\w' ]{1,40}?)(?=\s*(?:[,.;!?]|$)|\s+(?:just|only|and|but|i|i'm|im|we|my\s+\w+\s+is|it's|its)\b)",
    re.I)
# What keeps needs: "just the ticket", "only the plan change", "just the first two".
_KEEP = re.compile(r"\b(?:just|only)\s+(?:do\s+|need\s+|want\s+|go\s+with\s+)?(?P<what>[\w' ]{1,40}?)\s*(?:please\s*)?(?:[,.;!?]|$)", re.I)
_STOP = frozenset(
    "the a an my our your it that this them those these one ones part bit thing things stuff please about with for "
    "of on to do it's its me us i we you thing then there here now".split())
_FIRST = {"first": 1, "first one": 1, "first two": 2, "first three": 3, "first 2": 2, "first 3": 3,
          "first two things": 2, "first two ones": 2}
_LAST = {"last": 1, "last one": 1, "last two": 2, "last 2": 2}


@dataclass(frozen=True)
class TakeBack:
    """The turn's words before the take-back, and what it drops or keeps (words, or an ordinal)."""

    before: str
    drops: tuple[str, ...]
    keeps: tuple[str, ...]
    first: int = 0  # "just the first two"
    last: int = 0  # "only the last one"


def find(text: str) -> TakeBack | None:
    """The take-back in the turn, or None. It must come after some words of need and after a cue."""
    for m in _DROP.finditer(text):
        if m.start() < 12 or not _CUE.search(text[max(0, m.start() - 40) : m.start()]):
            continue
        cut = _cue_start(text, m.start())
        before, after = text[:cut].rstrip(" ,.;"), text[m.start():]
        drops = tuple(d["what"] for d in _DROP.finditer(text) if d.start() >= m.start())  # (a look-behind needs the text before)
        keeps, first, last = _keeps(after)
        return TakeBack(before, drops, keeps, first, last)
    # "..., no wait, just the first two": a keep with no drop, after a cue
    for m in _KEEP.finditer(text):
        if m.start() < 12 or not _CUE.search(text[max(0, m.start() - 40) : m.start()]):
            continue
        cut = _cue_start(text, m.start())
        keeps, first, last = _keeps(text[m.start():])
        if keeps or first or last:
            return TakeBack(text[:cut].rstrip(" ,.;"), (), keeps, first, last)
    return None


def _cue_start(text: str, at: int) -> int:
    """Where the retraction begins: its cue words go with it, not with the need before."""
    m = _CUE_BEGINS.search(text[max(0, at - 40) : at])
    return max(0, at - 40) + m.end() if m else at


def _keeps(after: str) -> tuple[tuple[str, ...], int, int]:
    keeps: list[str] = []
    first = last = 0
    for k in _KEEP.finditer(after):
        what = re.sub(r"^(?:the|my|our)\s+", "", k["what"].strip().lower())
        if what in _FIRST:
            first = _FIRST[what]
        elif what in _LAST:
            last = _LAST[what]
        elif content(what):
            keeps.append(what)
    return tuple(keeps), first, last


def content(words: str) -> set[str]:
    """A phrase's words that can name a need, cut to a stem ("invoices" and "invoice" meet)."""
    return {w[:5] for w in re.findall(r"[a-z0-9]+", words.lower()) if w not in _STOP and len(w) > 1}


def names(phrase: str, clause: str) -> bool:
    """The clause holds a word of the phrase (by its stem)."""
    return bool(content(phrase) & content(clause))
