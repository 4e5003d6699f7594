"""The answer to the line's own either/or question.

After "Just so I get this right: is it about closing your account, or about changing your
plan?" a caller answers with a piece of one option ("the account", "no just the plan", "the
second one"). Read on its own, such a piece is a new vague turn: "the account" became another
question (closure or security), and the "yes" that followed sent a sign-in reset. The answer
is read against the two options the line offered: the one whose words the caller said (and
the other's not), or the one they pointed at by position. The chosen need is then routed
with the option's own words plus the caller's, so the department reads the need it was
asked about and the specialist its slots ("put me on starter").
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from livekit.agents import llm

from callcenter.llm import templates as t
from domains.intent import yes_or_no

if TYPE_CHECKING:
    from callcenter.routing import IntentRouter

# Said alone, or at the end of an answer to another part of the turn ("First, your invoices.
# ... Then, a technical problem. Just so I get this right: ...").
_QUESTION = re.compile(
    re.escape(t.CLARIFY_TWO).replace(r"\{a\}", "(?P<a>.+?)").replace(r"\{b\}", "(?P<b>.+?)") + "$"
)
# Asked at the end of an answer about a part of the turn left unclear (meta/unclear.py).
_QUESTION_ALSO = re.compile(
    re.escape(t.CLARIFY_ALSO).replace(r"\{a\}", "(?P<a>.+?)").replace(r"\{b\}", "(?P<b>.+?)") + "$"
)
# One option, asked about when the turn's only other readings were not the department's:
# a yes takes it ("Just so I get this right: is it about changing your plan?" "yes").
_QUESTION_ONE = re.compile(re.escape(t.CLARIFY_ONE).replace(r"\{a\}", "(?P<a>.+?)") + "$")
# Words every topic phrase shares or that say nothing about which option ("your", "the").
_NOT_NAMES = frozenset("a an the your my our or of about it is its just only oh no yes yeah um uh please i "
                       "want to that one thing".split())
_FIRST = re.compile(r"\b(?:first|former|number\s+one|the\s+one\s+before)\b", re.I)
_SECOND = re.compile(r"\b(?:second|latter|last\s+one|number\s+two|other\s+one)\b", re.I)
_WORD = re.compile(r"[a-z]+")
MAX_WORDS = 12  # a longer turn says more than a choice: routed as a turn of its own


def _stem(word: str) -> str:
    for end in ("ing", "es", "s", "e"):
        if word.endswith(end) and len(word) - len(end) >= 3:
            return word[: -len(end)]
    return word


def _names(phrase: str) -> set[str]:
    return {_stem(w) for w in _WORD.findall(phrase.lower()) if w not in _NOT_NAMES}


def last_question(chat_ctx: llm.ChatContext) -> str:
    """What the line said last (where its either/or question would be), or ""."""
    return next((i.text_content or "" for i in reversed(chat_ctx.items) if i.type == "message" and i.role == "assistant"), "")


def options(question: str) -> tuple[str, str] | None:
    """The two options of the line's either/or question, as it said them; None for any other reply."""
    m = _QUESTION.search(question.strip()) or _QUESTION_ALSO.search(question.strip())
    return (m["a"], m["b"]) if m else None


def chosen(question: str, answer: str, topics: dict[str, str]) -> tuple[str, str] | None:
    """(label, option phrase) the answer chose among the question's two options, or None."""
    pick = picked(question, answer)
    if pick is None:
        return None
    label = next((lab for lab, phrase in topics.items() if phrase == pick and "/" in lab), None)
    if label is None:
        label = next((lab for lab, phrase in topics.items() if phrase == pick), None)
    return (label, pick) if label is not None else None


def picked(question: str, answer: str) -> str | None:
    """The option phrase the answer chose among the question's two options, or None."""
    pair = options(question)
    words = _WORD.findall(answer.lower())
    if not words or len(words) > MAX_WORDS:
        return None
    one = _QUESTION_ONE.search(question.strip()) if pair is None else None
    if one is not None:
        return one["a"] if yes_or_no(answer) is True else None
    if pair is None:
        return None
    said = {_stem(w) for w in words}
    a, b = (_names(p) for p in pair)
    pick: str | None = None
    if said & (a - b) and not said & (b - a):
        pick = pair[0]
    elif said & (b - a) and not said & (a - b):
        pick = pair[1]
    elif _FIRST.search(answer) and not _SECOND.search(answer):
        pick = pair[0]
    elif _SECOND.search(answer) and not _FIRST.search(answer):
        pick = pair[1]
    return pick


def asked_again(question: str, answer: str) -> str | None:
    """"yes" to "is it about a refund, or about your invoices?": neither was chosen, so the
    same question again (never another one, nor "how can I help?"), or None."""
    pair = options(question)
    if pair is None or yes_or_no(answer) is not True:
        return None
    return f"{t.WHICH_OF_TWO} {t.CLARIFY_TWO.format(a=pair[0], b=pair[1])}"


def names_several(answer: str, router: IntentRouter) -> bool:
    """An answer to "is it X or Y?" that names two needs or more ("the one that went through twice.
    refund that, and bump me up to pro"): needs to take each, not a pick."""
    return len({i.label for i in router.detect(answer) if i.in_scope and not i.label.startswith("meta/")}) > 1


def read_as_option(question: str, answer: str, router: IntentRouter, topics: dict[str, str]) -> tuple[str, str] | None:
    """(label, option phrase) for an answer that names neither option ("um starter would be ok
    i guess, do that" to "is it about closing your account, or about changing your plan?"):
    of the two options the line offered, the one the router ranks higher for the answer. Only
    a short answer with words of its own (a bare yes or a no picks nothing), and never one the
    router is sure is another need ("neither, what's my balance": routed as that need)."""
    pair = options(question)
    if pair is None or len(answer.split()) > MAX_WORDS or yes_or_no(answer) is not None:
        return None
    intent = router.classify(answer)
    if topics.get(intent.label) not in pair and intent.confidence >= router.threshold:
        return None
    return next(((label, topics[label]) for label in (intent.label, *(lab for lab, _ in intent.alternatives))
                 if topics.get(label) in pair), None)
