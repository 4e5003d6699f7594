"""A recogniser's homophones, written back as the caller meant them.

A speech recogniser writes what it heard, and on a phone line it often hears the right sound
and picks the wrong word: "ok thanks by", "know, not now", "c one oh oh for", "zip nine seven
to oh one". A person on the line hears "bye", "no", "four" and "two" without a thought; routing,
the yes/no reading and the digit reading do not. `misheard` runs first in `spoken.normalise`
(typed and heard turns alike), and only where the context leaves one reading:

- a digit's homophone ("for", "to", "too", "won", "ate") inside a customer number, ZIP code or
  phone number being said: after "c", "zip", "plus" or "number is" and a digit, and before
  another digit or the end of the value ("nine to five" said of working hours stays);
- "by" / "buy" ending a turn after a closing word ("ok by", "thanks by now", "good by"), or
  alone at its end, not after a verb it belongs to ("stand by", "drop by");
- "know" opening a turn as its answer ("know thanks", "know. by", "know way");
- "for get it": a take-back split in two.
"""

from __future__ import annotations

import re

_DIGIT = r"(?:zero|oh|o|one|two|three|four|five|six|seven|eight|nine|double|triple|\d)"
_SOUNDS_LIKE = {"for": "four", "fore": "four", "to": "two", "too": "two", "won": "one", "ate": "eight"}
_HOMOPHONE = r"(?:for|fore|to|too|won|ate)"
# where a value is being said: the customer number's letter, the ZIP code, a phone number
_VALUE_START = r"(?:\b(?:c|see|cee|sea|(?:zip(?:\s+code)?|postal\s+code)(?:\s+is|'s)?|plus|number\s+is|number's)\s+)"
# a value said as digit words, with homophones among them (at least one real digit before each)
_VALUE = re.compile(
    # (the value's first word may be one too, when a digit follows it: "c won zero zero three")
    rf"{_VALUE_START}(?:{_DIGIT}|{_HOMOPHONE}(?=[\s,-]+{_DIGIT}\b))"
    rf"(?:[\s,-]+(?:{_DIGIT}|{_HOMOPHONE}(?=[\s,-]+{_DIGIT}\b|\s*(?:[.,!?]|$|\s+(?:zip|and|postal|birth|date|dob|born)\b))))+\b",
    re.I)
_IN_VALUE = re.compile(rf"\b{_HOMOPHONE}\b", re.I)

# "by" that a verb owns: "stand by", "drop by", "go by the name" (not ending a turn the same way)
_OWNED_BY = r"(?<!stand )(?<!standing )(?<!stood )(?<!drop )(?<!dropped )(?<!pass )(?<!passed )(?<!stop )(?<!stopped )" \
            r"(?<!swing )(?<!come )(?<!came )(?<!close )(?<!near )(?<!get )(?<!sit )(?<!abide )(?<!step )"
_BYE = re.compile(
    rf"\bgood[\s-]*(?:by|buy)\b|{_OWNED_BY}\b(?:by|buy)(?=(?:\s+(?:now|for\s+now|then|bye|by))?\s*[.!]*\s*$)", re.I)
# "buy" is a word of its own ("i want to buy more requests"): only after a closing word
_CLOSING = re.compile(r"(?:ok|okay|thanks|thank\s+you|cheers|great|alright|right|perfect|lovely|yes|yeah|yep|sure|it|go|bye|by|\.|,|^)\W*$", re.I)
# "for get it": a take-back the recogniser split in two (never a purpose: "for" is not said before
# "get it" or "get about")
_FOR_GET = re.compile(r"\bfor\s+get(?=\s+(?:it|that|about|the\s+\w+\s+(?:thing|part|bit))\b)", re.I)
_KNOW = re.compile(r"^(\W*)know\b(?=\s*(?:[.,!]|$|thanks|thank\s+you|way|not|please|i\s+don'?t|don'?t|i'?m\s+good))", re.I)


def _value(m: re.Match[str]) -> str:
    return _IN_VALUE.sub(lambda w: _SOUNDS_LIKE[w.group(0).lower()], m.group(0))


def _bye(m: re.Match[str], text: str) -> str:
    word = m.group(0)
    if word.lower().startswith("good"):
        return "goodbye"
    if word.lower() == "buy" and not _CLOSING.search(text[: m.start()]):
        return word
    return "bye"


def misheard(text: str) -> str:
    """``text`` with a recogniser's homophones written as meant, where only that reading fits."""
    text = _VALUE.sub(_value, text)
    text = _BYE.sub(lambda m: _bye(m, text), text)
    text = _FOR_GET.sub("forget", text)
    return _KNOW.sub(r"\1no", text)
