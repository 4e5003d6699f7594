"""The answer to a read-back ("... Shall I go ahead? Please say yes or no."), checked against how
likely the turn's audio makes a few set answers (callcenter/speech/forced.py).

At 8 kHz a short answer comes out as words nobody said: "yep that's right" -> "Yes, not
right.", a yes but for one word, which the read-back gate reads as no answer and asks again.
The same audio is scored under set yes-like and no-like answers; the likelier kind decides
(`choose`). Measured on the dev and devx voices' answers, noes and other turns
(benchmarks/voice/bench_readback_forced.py, benchmarks/README.md issue 26, session 20).

On the telephone band the answer is read with a prompt of answers (voice_prompt.YESNO_PROMPT,
session 23), whose words can be written over a held-back yes ("yes but later" -> "Yes,
please."): a yes read with it stands only when the same audio read with the line's own prompt
agrees and holds no no and no hedge (`veto_held`, session 24).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from callcenter.speech.slot_grammar import fit, pick
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



# Words that hold a yes back ("yes but later", "yeah hold on", "yes no wait"), and "not now":
# the line reads a turn that holds one as no yes. Not "not" alone ("sure why not" is a yes)
# nor "now" alone ("yes, right now" is).
HELD_BACK = frozenset({"wait", "hold", "hang", "stop", "cancel", "later", "but", "no", "nope", "nah", "don't", "dont",
                       "never", "instead", "actually", "if", "maybe", "yet", "until", "tomorrow"})
_NOT_NOW = re.compile(r"\bnot\s+(?:right\s+)?(?:now|yet|today)\b", re.I)
# An assent anywhere in a reading: what a yes read with the answers' prompt must also be
# heard as without it ("My email can do it." for "mm-hm do it", "For instance, go ahead.").
_ASSENT = re.compile(r"\b(?:yes|yeah|yep|yup|ya|yay|sure|okay|ok|uh-huh|mm-hmm?|go ahead|do it|right|correct|perfect"
                     r"|fine|works?)\b", re.I)
# How many of the likeliest plain readings may not hold a yes back.
PLAIN_READINGS = 3


def holds_back(text: str) -> bool:
    """Whether a reading says a no or holds a yes back: a no by the read-back gate's own
    reading, "not now", or a hedge word anywhere in it."""
    if yes_or_no(text) is False or _NOT_NOW.search(text):
        return True
    return any(w.strip(".,!?-").lower() in HELD_BACK for w in text.split())


Plain = Callable[[], list[str]]


def veto_held(taken: str, plain: Plain) -> str | None:
    """The answer to take instead of `taken` (a reading made with the answers' prompt,
    voice_prompt.YESNO_PROMPT) or None to keep it. The prompt's words are written over held-back
    answers ("yes but later" -> "Yes, please.", session 23), so a yes read with it stands only
    when the same audio read with the line's own prompt (`plain()`: its readings, likeliest
    first, decoded only for a yes) agrees: its reading as the line took it before the prompt
    (`pick`) is a yes, or its likeliest reading holds an assent ("For instance, go ahead."); and
    none of its `PLAIN_READINGS` likeliest readings holds a no or a hedge. Otherwise the plain
    reading that holds back is taken (a no is a no; a hedge is asked again), or "Hold on." when
    the one it would take reads as a yes: never a yes. Session 24, benchmarks/README.md."""
    if yes_or_no(taken) is not True:
        return None
    readings = plain()
    if not readings:
        return None  # no plain reading (the audio needs the whole window): nothing read with the prompt either
    first = readings[:PLAIN_READINGS]
    agrees = yes_or_no(pick("yesno", readings)) is True or bool(_ASSENT.search(readings[0]))
    if agrees and not any(holds_back(r) for r in first):
        return None
    instead = next((r for r in first if holds_back(r)), readings[0])
    return instead if yes_or_no(instead) is not True else "Hold on."
