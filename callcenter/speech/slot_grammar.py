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

SLOTS = ("identity", "zip", "yesno", "amount")
# A letter before 4-6 digits: the C of a customer number, or a letter a recogniser heard
# instead (the identity task reads the E-set letters as C).
_ID = re.compile(r"(?<![\w-])[A-Za-z]\s?\d{4,6}(?![\w-])")
_ZIP = re.compile(r"(?<![\w$.-])\d{5}(?![\w-]|\.\d)")
_YES_NO = re.compile(
    r"^\W*(?:(?:uh|um|oh|well)\W+)*(yes|yeah|yep|yup|sure|correct|right|ok(?:ay)?|go ahead|please do|do it|"
    r"no|nope|nah|don'?t|do not|cancel|stop|uh-huh|mm-hmm)\b", re.I)


def fit(slot: str, text: str) -> int:
    """How well a reading fits the pending slot: 0 not at all, higher is better."""
    said = normalise(text)
    if slot == "identity":
        has_id = bool(_ID.search(said))
        has_zip = bool(_ZIP.search(_ID.sub(" ", said)))
        return 2 * has_id + has_zip
    if slot == "zip":
        return int(bool(_ZIP.search(said)))
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
    scores = [fit(slot, r) for r in readings]
    best = max(scores)
    return readings[scores.index(best)] if best > 0 else readings[0]
