"""What the recogniser expects while the line waits for one value (a "slot"): a customer
number and ZIP code, a ZIP code alone, a yes or no, an amount.

Whisper cannot be held to a grammar token by token here (CTranslate2 has no logits hook), but
its beam search already holds several readings of the turn: with a slot pending, the
recogniser asks for every beam (`num_hypotheses`, no extra decoding) and keeps the most
likely one whose written form fits the slot ("C10001, 94107" over "See 1001 for 107"); when
none fits, the most likely reading stands, so a caller who says something else is still
heard. Which slot is pending is the line's business (meta/voice_slots.py); this module only
knows the written forms, the ones `spoken.normalise` produces.
"""

from __future__ import annotations

import re

from callcenter.money import read_amount
from callcenter.spoken import normalise

# "id": the customer number alone; "fix": the answer to a read-back of the number and ZIP
# (either or both again, or a yes).
SLOTS = ("identity", "id", "zip", "fix", "yesno", "amount")
# A letter before 4-6 digits: the C of a customer number, or a letter a recogniser heard
# instead (the identity task reads the E-set letters as C). Not the s of "it's", "that's":
# "It's 100001." (a ZIP with a zero too many) fitted as an id, so it was never read again.
_ID = re.compile(r"(?<![\w'’-])[A-Za-z]\s?\d{4,6}(?![\w-])")
_ZIP = re.compile(r"(?<![\w$.-])\d{5}(?![\w-]|\.\d)")
# A customer number said without its C, as callers correct a read-back ("no, it's one zero zero one").
_BARE_ID = re.compile(r"(?<![\w$.-])\d{4}(?![\w-]|\.\d)")
_SAID_ZIP = re.compile(r"\b(?:zip|postal)\b", re.I)
_YES_NO_WORDS = (r"(yes|yeah|yep|yup|sure|correct|right|ok(?:ay)?|go ahead|please do|do it|"
                 r"no|nope|nah|don'?t|do not|cancel|stop|uh-huh|mm-hmm)\b")
_YES_NO = re.compile(r"^\W*(?:(?:uh|um|oh|well)\W+)*" + _YES_NO_WORDS, re.I)
# The same words anywhere in a reading: the caller said a yes or a no somewhere in it.
_SAID_YES_NO = re.compile(r"\b" + _YES_NO_WORDS, re.I)


_DIGITS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "oh",
           "Zero", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Oh")
_GLUE = ("C", "zip", "Zip", "ZIP", "code", "Code", "my", "My", "customer", "Customer", "number", "is", "it", "It",
         "it's", "It's", "and", "And", "the", "The", "no", "No", "yes", "Yes", "yeah", "Yeah", "sure", "Sure",
         "uh", "Uh", "um", "Um")
# The words a slot's answer is made of, for a second, held decode when no reading fits:
# the model can then only write an id, a ZIP and the words around them, in words.
VOCABULARY: dict[str, tuple[str, ...]] = {slot: _DIGITS + _GLUE for slot in ("identity", "id", "zip", "fix")}
FULL_FIT = {"identity": 3, "id": 1, "zip": 1, "fix": 1, "yesno": 1, "amount": 1}
# A digit, or a digit's word: what a reading of a number holds, however misheard.
_DIGIT = re.compile(r"\d|\b(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)\b", re.I)


def heard_a_number(readings: list[str] | tuple[str, ...]) -> bool:
    """Whether any of the recogniser's readings holds two digits or digit words: a number said,
    however it was written. A one-value answer (the number alone, the ZIP alone, a read-back's
    fix) is one run of digits, which a decode held to digit words writes from any turn ("great
    thanks have a good one" -> "Three, two, three, two, one."): that decode is asked only when
    the caller said something like a number ("have a good one" has one digit word)."""
    return any(len(_DIGIT.findall(r)) >= 2 for r in readings)


def fit(slot: str, text: str) -> int:
    """How well a reading fits the pending slot: 0 not at all, higher is better."""
    said = normalise(text)
    if slot == "identity":
        has_id = bool(_ID.search(said))
        has_zip = bool(_ZIP.search(_ID.sub(" ", said)))
        return 2 * has_id + has_zip
    if slot == "id":
        return int(bool(_ID.search(said)))
    if slot == "zip":
        return int(bool(_ZIP.search(said)))
    if slot == "fix":  # four digits said as the ZIP are a misheard ZIP, not a number without its C
        bare = _BARE_ID.search(said) and not _SAID_ZIP.search(said)
        return int(bool(_ID.search(said) or _ZIP.search(said) or bare))
    if slot == "yesno":
        return int(bool(_YES_NO.search(said)))
    if slot == "amount":
        return int(read_amount(said).status == "ok")
    return 0


def pick(slot: str | None, readings: list[str]) -> str:
    """The reading to use: the most likely one that fits the slot best (readings come most
    likely first); the most likely one when there is no slot or nothing fits."""
    if not readings:
        return ""
    if slot is None or len(readings) == 1:
        return readings[0]
    if slot == "yesno" and not _rereadable_answer(readings[0]):
        return readings[0]
    scores = [fit(slot, r) for r in readings]
    best = max(scores)
    return readings[scores.index(best)] if best > 0 else readings[0]


def _rereadable_answer(top: str) -> bool:
    """Whether a less likely reading may stand for the most likely one while a read-back waits
    for a yes or a no: only when the most likely one is no question and already says a yes or
    a no word ("I, I sure." -> "Uh-huh, sure."), so the beam only disagrees about the words
    around it. Otherwise a yes would be made from a turn that said none: the 4th of five
    readings of "Are you a robot?" (espeak-ng en-us+m3 at 8 kHz) is "Uh-huh.", a clean yes that
    ran the action read back (benchmarks/README.md, issue 26)."""
    said = normalise(top)
    return "?" not in said and bool(_SAID_YES_NO.search(said))
