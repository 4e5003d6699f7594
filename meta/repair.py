"""Conversation repair at the front desk: turns that are not a new need.

Real callers say things the intent classifier was never meant to route: a follow-up
about the answer they just heard ("how come?"), thanks-and-goodbye in many forms, noise
from a recogniser that misheard, a filler or a vague opener, another language. Each gets
its own short, useful reply here, before any routing or LLM call, on the embedded and the
hosted path alike.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from callcenter.llm import templates as t
from callcenter.llm.language import (
    GOODBYE_REPLY,
    SUPPORTED_REPLY,
    detect_language,
    farewell_language,
)
from callcenter.routing.discourse import (
    FollowUp,
    farewell_after,
    follow_up_kind,
    is_closing,
    is_thanks_only,
    is_vague,
    is_word_salad,
)
from callcenter.routing.frames import asks_for_person
from callcenter.routing.noise import NoiseModel
from domains.results import DomainResult


@dataclass(frozen=True, slots=True)
class Repair:
    reason: str  # language | noise | follow_up | goodbye | thanks | vague
    reply: str


def answer_follow_up(kind: FollowUp, last: DomainResult) -> str:
    found = last.result.follow_ups.get(kind) if last.result is not None else None
    if found:
        return found
    if kind == "repeat":  # the caller did not catch a figure: say the last answer again
        return f"Sure: {last.summary}"
    if kind == "how_long":
        return "I don't have a firm time for that. If it's taking too long, I can have a colleague call you back; just say 'a person'."
    if kind == "done":  # "has that gone through?": what the last answer did, said plainly
        if last.status == "done":
            return f"Yes, it's done: {last.summary}"
        if last.status in ("needs_approval", "queued"):
            return f"Not yet: {last.summary}"
        return f"Nothing has been changed. {last.summary}"
    if kind == "do_it":
        return "That's as far as I can take it on this call. I can have a colleague call you back about it; just say 'a person'."
    return f"What I can tell you is this: {last.summary} If you'd like someone to go into it with you, just say 'a person'."


def before_routing(text: str, noise: NoiseModel | None, *, served: bool = True, how_can_i_help: str = "",
                   names_need: Callable[[str], bool] | None = None,
                   asks_need: Callable[[str], bool] | None = None) -> Repair | None:
    """Replies that must win even over a confident route: another language, noise, a closing.

    `served`: the call has had an answer already. Thanks before that ("thanks a lot" as
    the first thing said) is politeness, not a goodbye: the caller still has their reason
    for calling. `names_need`: whether words in another language name a need (meta/gist.py);
    `asks_need`: whether English words name one (the router)."""
    farewell = farewell_language(text, names_need=names_need)
    if farewell is not None:  # "merci au revoir": a goodbye, in the caller's language
        return Repair("goodbye", f"{GOODBYE_REPLY[farewell]} {t.GOODBYE}")
    if is_closing(text):  # only (English) thanks and farewells: no need in it to route
        # before the language check: two short words ("grand, ta") are too few to tell a language by
        if not served and is_thanks_only(text):
            return Repair("thanks", f"{t.WELCOME} {how_can_i_help}".strip())
        return Repair("goodbye", t.GOODBYE)
    language = detect_language(text)
    if language is not None:
        return _language(language)
    if noise is not None and noise.is_noise(text):
        # English letter patterns fit other languages badly too: real speech in another
        # language is answered in it, not taken for a recogniser's noise
        weak = detect_language(text, weak=True)
        return _language(weak) if weak else Repair("noise", t.EMPTY_TURN)
    before = farewell_after(text)
    if before is not None and asks_need is not None and not (before and (asks_need(before) or _asks_for_person(before))):
        # "ok thanks for the heads up, gotta run", "oh sorry, wrong number. bye": words no
        # closed list holds, then a farewell, and nothing asked for: the call ends
        return Repair("goodbye", t.GOODBYE)
    return None


def _asks_for_person(words: str) -> bool:
    """A person asked for in any clause ("get someone to call me back, that's all"): booked before the goodbye."""
    return any(asks_for_person(part) for part in re.split(r"[,.;!?]+", words) if part.strip())


def _language(code: str) -> Repair:
    native = SUPPORTED_REPLY.get(code)
    return Repair("language", f"{native} {t.ENGLISH_ONLY}" if native else t.ENGLISH_ONLY)


def follow_up(text: str, results: list[DomainResult]) -> Repair | None:
    kind = follow_up_kind(text)
    if kind is None or not results:
        return None
    return Repair("follow_up", answer_follow_up(kind, results[-1]))


def unroutable(text: str, how_can_i_help: str) -> Repair | None:
    """For a turn with no confident need that names no topic: a useful open question
    (a guess about a turn with no topic is not worth offering as options); for words
    that make no sentence, a request to say it again."""
    language = detect_language(text, weak=True)
    if language is not None:
        return _language(language)
    if is_vague(text):
        return Repair("vague", how_can_i_help)
    if is_word_salad(text):  # words, but no sentence: misheard, or not said to us
        return Repair("noise", t.EMPTY_TURN)
    return None
