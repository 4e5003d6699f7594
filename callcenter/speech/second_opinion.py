"""Open speech on the telephone band: Whisper base's reading when tiny.en is unsure of its own.

tiny.en reads what callers say freely (their requests, questions, goodbyes); on 8 kHz audio
it misreads content words ("How much do I go right now?", "I want to clone my account",
"where do I find my billing discovery"), and the router then sends the call elsewhere.
Whisper base, loaded anyway for the identity answers, reads more of those words right, but
costs about twice tiny.en's CPU and writes short backchannels worse ("yep thats right" ->
"Next, write."; "um" -> "Uh-huh."). So base is asked only when tiny.en's own reading scores
under `UNSURE_LOGPROB` per token, and its reading is taken only when base is surer of it
than tiny.en was of its own (by `MARGIN`), and it says no yes or no word that tiny.en's
reading lacked: a second opinion never makes a yes or a no (benchmarks/README.md, issue 26,
session 17).
"""

from __future__ import annotations

import re

# tiny.en's mean log-probability per token under which base is asked. Chosen on the dev calls'
# turns in the dev and devx voices at 8 kHz (322 turns, a `/tmp` probe of the router's label
# against the typed text's): -0.2 and -0.3 gain as many labels; -0.3 asks base on fewer turns
# of the clear voices (hibari, Piper joe), where tiny.en is sure of most of what it reads.
UNSURE_LOGPROB = -0.3
# How much surer (mean log-probability per token) base must be of its reading than tiny.en of
# its own. At 0, short turns went to base's guesses: espeak-ng's "hey there" at 8 kHz was
# "Hey, there." (tiny.en) and "A, error." (base), answered as API errors in a dev call; on the
# 322 probe turns a margin of 0.1 keeps 9 of the 16 labels gained and 2 of the 7 lost.
MARGIN = 0.1
# A yes or a no said anywhere in a reading (slot_grammar's words, and the spoken forms).
_YES_NO = re.compile(r"\b(?:yes|yeah|yep|yup|sure|correct|right|ok(?:ay)?|go ahead|please do|do it|"
                     r"no|nope|nah|don'?t|do not|cancel|stop|uh[- ]?huh|mm[- ]?hm+|mhm)\b", re.I)


_WORD = re.compile(r"[a-z']+")


def says_yes_or_no(text: str) -> bool:
    return bool(_YES_NO.search(text))


def _share_a_word(first: str, second: str) -> bool:
    """Whether the two readings have a word in common: base corrects some of tiny.en's words;
    a reading that shares none is a guess at audio neither model heard ("Hey, there." ->
    "A, error.", which the router answered as API errors in a dev call at margin 0.1)."""
    return bool(set(_WORD.findall(first.lower())) & set(_WORD.findall(second.lower())))


def take_second(first: str, first_logprob: float, second: str, second_logprob: float) -> bool:
    """Whether base's reading (`second`) stands for tiny.en's (`first`): base is surer of its
    reading than tiny.en was of its own by `MARGIN`, the two share a word, and it adds no yes
    or no."""
    if second_logprob < first_logprob + MARGIN or not _share_a_word(first, second):
        return False
    return not (says_yes_or_no(second) and not says_yes_or_no(first))
