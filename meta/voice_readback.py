"""The answer to a read-back ("... Shall I go ahead? Please say yes or no."), checked against how
likely the turn's audio makes a few set answers (callcenter/speech/forced.py).

At 8 kHz a short answer comes out as words nobody said: "yep that's right" -> "Yes, not
right.", a yes but for one word, which the read-back gate reads as no answer and asks again.
The same audio is scored under set yes-like and no-like answers; the likelier kind decides
(`choose`). Measured on the dev and devx voices' answers, noes and other turns
(benchmarks/voice/bench_readback_forced.py, benchmarks/README.md issue 26, session 20).
"""

from __future__ import annotations

from collections.abc import Callable

from callcenter.speech.slot_grammar import fit
from domains.intent import yes_or_no

# The answers that were the likeliest of their kind for some turn of the dev and devx voices
# (of 14 yes-like and 10 no-like first scored; these 12 read as many answers right at half
# the CPU: benchmarks/README.md, session 20).
YES_LIKE = ("Uh-huh.", "Yeah.", "Yes.", "Sure.", "Go ahead.", "That's right.")
NO_LIKE = ("No.", "Nope.", "No, thanks.", "No, wait.", "No, that's not right.", "No, leave it.")
# A yes the caller holds back ("yeah hold on", "yes but later"): no yes, no no, asked again.
# A yes is taken only when it is likelier than these too.
HELD_LIKE = ("Hold on.", "Wait.", "Yeah, hold on.", "Yes, wait.", "Yes, but later.", "Not right now.")
CANDIDATES = YES_LIKE + NO_LIKE + HELD_LIKE
# How much likelier (log-probability of the whole set answer, end of text included) the best
# answer of one kind must be than the best of the other.
LEAD = 1.0

Scores = Callable[[list[str]], dict[str, float]]


# Words a caller hedges a yes with ("yes, wait", "yeah, not now"): a reading that holds one is
# never a yes but for one word.
HEDGES = frozenset({"wait", "hold", "hang", "stop", "cancel", "later", "but", "no", "nope", "nah", "don't", "dont",
                    "never", "instead", "actually", "if", "maybe", "now", "yet"})


# Sounds that carry no word: a yes but for one word keeps at least two words besides them.
_SOUNDS = frozenset({"uh", "um", "oh", "ah", "er", "hmm", "mm", "well", "so", "and"})


def near_yes(text: str) -> bool:
    """A reading that opens with a yes or no word, holds no hedge, and is a clean yes of two
    words or more but for one word ("Yes, not right."; not "Yeah, poll, uh.", which was
    espeak-ng's "yeah hold on": a bare yes and noise may be a yes held back)."""
    words = text.split()
    bare = [w.strip(".,!?").lower() for w in words]
    if len(words) < 2 or fit("yesno", text) == 0 or any(w in HEDGES for w in bare):
        return False
    return any(yes_or_no(" ".join(words[:i] + words[i + 1:])) is True
               and sum(1 for w in bare[:i] + bare[i + 1:] if w and w not in _SOUNDS) >= 2 for i in range(len(words)))


def choose(heard: str, readings: list[str], scores: Scores, *, lead: float = LEAD, rescue: bool = True,
           veto: bool = True) -> str | None:
    """The set answer to take instead of `heard` (the recogniser's reading while a read-back
    waits), or None to keep it. `scores(texts)`: each text's forced log-probability for this
    turn's audio (asked only when needed). `rescue`: a yes but for one word becomes the best
    yes-like answer when that is likelier by `lead` than every no-like and held-back answer
    (the best no-like one when that leads so); `veto`: a clean yes stands unless a no-like or
    held-back answer is likelier by `lead` (then that answer is taken: a no, or asked again)."""
    said = yes_or_no(heard)
    if said is False or not heard:
        return None
    if said is None and not (rescue and "?" not in heard and near_yes(heard)):
        return None
    if said is True and not veto:
        return None
    got = scores(list(CANDIDATES))
    yes, no, held = (max(kind, key=lambda t: got.get(t, float("-inf"))) for kind in (YES_LIKE, NO_LIKE, HELD_LIKE))
    y, n, h = (got.get(t, float("-inf")) for t in (yes, no, held))
    if said is True:  # a clean yes stands unless a no or a held yes is clearly likelier
        if max(n, h) - y > lead:
            return no if n >= h else held
        return None
    if y - max(n, h) > lead:
        return yes
    if n - max(y, h) > lead:
        return no
    return None
