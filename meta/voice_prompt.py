"""The recogniser's domain prompt, built from the utterances the domains ship.

Whisper reads a short `initial_prompt` as preceding text: seeing the line's vocabulary
("refund", "invoice", "two-factor") and the written form of ids ("C1001") makes it write
what the slots expect instead of "See 1001".
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from meta.router import training_examples

_STOP = frozenset(
    "the a an and or to of for in on my me i is it you your can with be was this that have has but not "
    "are at so do please just what how why when from about get there it's i'm i've don't can't need want "
    "like um uh yeah hi hello hey thanks thank ok okay help know would could should will now asap good right "
    "morning afternoon problem question excuse quick all any been much case show still what's new back some "
    "today again really sure also".split())
_IDS = "Customer C1001, ZIP 94107. Charge of $49. Errors 429 and 503. Email john@example.com."


# The same written forms, as a caller's preceding sentences (Whisper reads the prompt as the
# transcript so far, so sentences show it how a caller's ids, amounts and emails are written).
_SAID = ("My customer number is C1001 and my ZIP code is 94107. I was charged $49 twice. "
         "The API returns 429 and 503 errors. My email is pat.kim@example.com. Uh-huh, yes.")


@lru_cache(maxsize=4)
def recogniser_prompt(words: int = 40, style: str = "sentences") -> str:
    """The most frequent content words of the shipped utterances, then caller sentences with
    ids, amounts and an email in their written forms ("sentences"); before issue 11's fourth
    session, a terse ids line before the words ("topics"); or the sentences alone ("said").
    Chosen on the spoken dev set (benchmarks/voice, mean WER over 3 dither draws, Piper and
    hibari at 16 and 8 kHz): 3.05% "sentences", 3.13% "topics" (Piper 16 kHz: 3.7 against
    4.5%, the same on every draw), 4.0% "said". Both pad the window with silence. The example
    values are not the held-out set's (a name in the prompt pulls the recogniser to it:
    "john at example dot com" was heard "janet..." with "jane.doe" here)."""
    counts: Counter[str] = Counter()
    for text, _label in training_examples():
        counts.update(w for w in re.findall(r"[a-z][a-z'-]{2,}", text.lower()) if w not in _STOP)
    vocab = ", ".join(w for w, _ in counts.most_common(words))
    if style == "said":
        return _SAID
    if style == "sentences":
        return f"Topics: {vocab}. {_SAID}"
    return f"{_IDS} Topics: {vocab}."


# While a slot is pending (meta/voice_slots.py) the recogniser reads a prompt of its own.
# Whisper continues the prompt's style: with ids and ZIP codes written as words it writes the
# caller's digits as words too, which `spoken.normalise` reads exactly, instead of numerals,
# where tiny.en drops zeros ("one zero zero zero one" -> "1001"). On the dev identity turns
# (benchmarks/voice/bench_identity.py, 3 voices, 2 customers x 4 scripts) the caller was read
# right first time in 19/24 at 16 kHz and 17/24 at 8 kHz with this prompt and the slot
# grammar, against 16/24 and 15/24 with the line's prompt and the grammar (11 and 9 with
# neither). Example values are no customer's (a value in the prompt pulls the recogniser to it).
YESNO_PROMPT = "Yes, please. No, thanks. Mm-hm, go ahead. Nope, leave it. Yeah, do it. No, wait. Sure, that's right. Hold on a second."
SLOT_PROMPTS = {
    "identity": ("My customer number is C two zero zero seven and my ZIP code is four six two oh eight. "
                 "It's C three oh oh five, zip code eight one two zero nine."),
    "zip": "My ZIP code is four six two oh eight. The zip is eight one two zero nine.",
    # The one-value answers that follow a first answer that did not verify (domains/identity.py).
    "id": "My customer number is C two zero zero seven. It's C three oh oh five.",
    "fix": ("No, it's C two zero zero seven. No, the zip is four six two oh eight. "
            "It's three oh oh five, zip code eight one two zero nine."),
    # The answer to a read-back ("... Please say yes or no."): yes, no and held-back answers
    # as callers say them, so tiny.en writes a short answer as one ("mm-hm do it" at 8 kHz was
    # "My email can do it.", "perfect go ahead" "For instance, go ahead.": asked again). With
    # the line's topic prompt, 60 of 80 devx answers were read right at 8 kHz; with this one
    # 72 (noes read as a yes 0 both; benchmarks/README.md, session 23).
    "yesno": YESNO_PROMPT,
}


# The openers and closers the shipped utterances are varied with ("quick question, ...",
# "... thank you"): a request is what is left.
_OPENERS = re.compile(r"^(?:(?:quick question|i have a problem|good (?:morning|afternoon|evening)|yeah so|ok so|okay so|"
                      r"so|hi|hey|hello|excuse me|ecxuse me|um|uh|yeah|please)[,!.]?\s+)+", re.I)
_CLOSERS = re.compile(r"(?:[,]?\s+(?:thanks|thank you|asap|right now|please|now))+[.!?]?$", re.I)


@lru_cache(maxsize=4)
def request_prompt(per_label: int = 1) -> str:
    """Caller sentences, one per need the line handles (the shipped utterances' most typical of
    each label under the line's word model, meta/voice_lm.py, stripped of the openers and
    closers they are varied with): Whisper reads the prompt as the call so far, so whole
    requests show it the line's words in the order callers say them."""
    from meta.voice_lm import line_lm, words

    lm = line_lm()
    by_label: dict[str, list[tuple[float, str]]] = {}
    for text, label in training_examples():
        core = _CLOSERS.sub("", _OPENERS.sub("", text.strip())).strip(" ,.!?")
        if label == "oos" or not 3 <= len(words(core)) <= 8 or any(c.isdigit() for c in core):
            continue
        by_label.setdefault(label, []).append((lm.score(core), core))
    chosen: list[str] = []
    for label in sorted(by_label):
        seen: set[str] = set()
        for _score, core in sorted(by_label[label], reverse=True):
            if core.lower() not in seen and len(seen) < per_label:
                seen.add(core.lower())
                chosen.append(re.sub(r"\bi\b", "I", core[0].upper() + core[1:]) + ".")
    return " ".join(chosen)


@lru_cache(maxsize=1)
def telephone_prompt() -> str:
    """The prompt for open turns on the telephone band: a caller request per need the line
    handles (`request_prompt`), then the caller sentences with ids, amounts and an email
    (`_SAID`). Instead of the topic words: at 8 kHz tiny.en keeps less of a word list than of
    whole sentences (benchmarks/README.md, session 21)."""
    return f"{request_prompt()} {_SAID}"
