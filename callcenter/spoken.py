"""Spoken forms, both ways: what a caller (or a recogniser) says -> what the slots read, and
what the agent writes -> what a speech engine should say.

`normalise` runs once, where caller text enters the call (text and voice alike), before
routing and slot filling: "C one oh oh one" -> "C1001", "nine four one oh seven" -> "94107",
"forty nine dollars" -> "$49", "minus twenty" -> "-$20" (kept negative so the money policy,
not this module, rejects it), "john at example dot com" -> "john@example.com",
"march third nineteen eighty five" -> "march 3rd 1985". It only rewrites words; it never
decides what an amount may be.

`for_the_ear` runs just before speech synthesis: "$49.00" -> "49 dollars", "C1001" ->
"C 1 0 0 1", "2024-03-15" -> "March 15, 2024", and a domain's record ids, whose prefixes the
line's domains declare: billing's "CH-1001" -> "charge 1 0 0 1". The composition root builds
one `SpokenIds` per line and hands it to the speech of that line's calls; `for_the_ear(text)`
without one reads the shared forms alone.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterable, AsyncIterator, Iterable, Mapping
from dataclasses import InitVar, dataclass, field
from datetime import date

from callcenter import foreign_numbers
from callcenter.llm.language import detect_language
from callcenter.misheard import misheard
from callcenter.spoken_codes import plural, singular
from callcenter.spoken_dates import birth_dates

_UNITS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine".split())}
_TEENS = {w: i for i, w in enumerate(
    "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split(), start=10)}
_TENS = {w: (i + 2) * 10 for i, w in enumerate(
    "twenty thirty forty fifty sixty seventy eighty ninety".split())}
_SCALES = {"hundred": 100, "thousand": 1000}
_ZERO_ALIASES = {"oh", "o"}
_REPEAT = {"double": 2, "triple": 3}
_ORDINALS = {w: i for i, w in enumerate(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth "
    "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth".split(), start=1)}
_ORDINALS["thirtieth"] = 30
_MONTHS = ("january february march april may june july august september october november december").split()
_NUMBER_WORDS = set(_UNITS) | set(_TEENS) | set(_TENS) | set(_SCALES)
_FILLER = r"(?:uh+|um+|uhm+|erm+|hmm+)"
_MONEY_AFTER = re.compile(r"^\s*(?:dollars?|bucks|usd|cents?)\b", re.I)
_NUMBER_BEFORE = re.compile(r"(?:\b(?:minus|negative|zip|code|number)|\$)\s*$", re.I)
_WORD = re.compile(r"[A-Za-z]+|\d+")
# The name of an id or a ZIP code just before a number ("c", "zip code is"): what it names is
# read digit by digit and ends where the caller paused.
_ID_OR_ZIP_BEFORE = re.compile(r"(?:\b(?:c|see|cee)|\bzip(?:\s*code)?|\bpostal\s+code)(?:\s+(?:is|it's))?[\s:]*$", re.I)


def _suffix(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


# --- number runs ----------------------------------------------------------------------
def _chunks(words: list[str]) -> list[str] | None:
    """Number words -> digit chunks to concatenate: 'one oh oh one' -> ['1','0','0','1'],
    'forty nine' -> ['49'], 'nineteen eighty five' -> ['19','85'], 'one hundred and five' ->
    ['105']. None when the words do not form numbers."""
    out: list[str] = []
    cur: int | None = None  # value of the chunk being built
    big = 0  # thousands part of the chunk
    last = ""  # kind of the previous word: unit, teen, tens, scale
    repeat = 1
    decimals: list[str] | None = None

    def close() -> None:
        nonlocal cur, big, last
        if cur is not None or big:
            out.append(str(big + (cur or 0)))
        cur, big, last = None, 0, ""

    for w in words:
        if decimals is not None:
            if w in _UNITS or w in _ZERO_ALIASES:
                decimals.append(str(_UNITS.get(w, 0)))
                continue
            return None
        if w in _REPEAT:
            close()
            repeat = _REPEAT[w]
            continue
        if w == "and":
            if last != "scale":
                return None
            continue
        if w == "point":
            close()
            if not out:
                return None
            decimals = []
            continue
        if w in _UNITS or w in _ZERO_ALIASES:
            d = _UNITS.get(w, 0)
            if last == "tens" and d and cur is not None and cur % 10 == 0:
                cur += d
            elif last == "scale":
                cur = (cur or 0) + d
            else:
                close()
                if repeat > 1:  # "double oh seven"
                    out.extend([str(d)] * repeat)
                    repeat = 1
                    continue
                cur = d
            last = "unit"
        elif w in _TEENS:
            if last == "scale":
                cur = (cur or 0) + _TEENS[w]
            else:
                close()
                cur = _TEENS[w]
            last = "teen"
        elif w in _TENS:
            if last == "scale" and (cur or 0) % 100 == 0:
                cur = (cur or 0) + _TENS[w]
            else:
                close()
                cur = _TENS[w]
            last = "tens"
        elif w in _SCALES:
            if w == "hundred":
                if cur is not None and cur >= 100:
                    return None  # "one hundred hundred"
                cur = (1 if cur is None else cur) * 100
            else:
                big, cur = (1 if cur is None else cur) * 1000, None
            last = "scale"
        else:
            return None
    close()
    if decimals is not None:
        if not decimals:
            return None
        out[-1] = out[-1] + "." + "".join(decimals)
    return out


_RUN_WORD = "|".join(sorted(_NUMBER_WORDS | _ZERO_ALIASES | set(_REPEAT) | {"and", "point", "a"}, key=len, reverse=True))
_RUN = re.compile(rf"\b(?:{_RUN_WORD})(?:[\s,-]+(?:{_RUN_WORD}))*\b", re.I)
# "one uh zero zero one": a filler inside a number is dropped; fillers elsewhere stay (the
# router and the repair of vague turns read them).
_FILLER_IN_NUMBER = re.compile(rf"(?<=[\w\d])[\s,]+{_FILLER}[\s,]+(?=(?:{_RUN_WORD}|\d)\b)", re.I)


def _convert_run(m: re.Match[str]) -> str:
    text = m.group(0)
    words = [w.lower() for w in re.split(r"[\s,-]+", text) if w]
    # Leading/trailing glue words belong to the sentence, not the number.
    lead: list[str] = []
    while words and (words[0] in ("and", "point") or (words[0] == "a" and (len(words) < 2 or words[1] not in _SCALES))):
        lead.append(words.pop(0))
    trail: list[str] = []
    while words and words[-1] in ("and", "point", "a", "double", "triple"):
        trail.insert(0, words.pop())
    real = [w for w in words if w in _NUMBER_WORDS]
    if not real:
        return text  # "oh", "a", "and" alone are words
    if words[0] == "a":
        words[0] = "one"
    after = m.string[m.end():]
    before = m.string[: m.start()]
    if (len(words) >= 2 and words[-2] in _SCALES and words[-1] == "one"
            and _PICKED_BEFORE.search(before) and _PICKED_AFTER.match(after)):
        # "ok the six hundred one": the one of six hundred (a plan, a charge), not 601 ("the two
        # forty nine one" stays as it was: its figure alone reads as an error code)
        return f"{_RUN.sub(_convert_run, ' '.join(words[:-1]))} one"
    # One small number word on its own stays a word ("two factor", "one more thing") unless
    # money follows; everything longer is a number someone is reading out.
    said_as_number = bool(_MONEY_AFTER.match(after) or _NUMBER_BEFORE.search(before))
    if len(words) == 1 and words[0] in _UNITS and not said_as_number:
        return text
    if any(w in _ZERO_ALIASES for w in words) and len(words) < 3 and not said_as_number:
        return text  # "oh one thing": too short to be a digit string
    named = _ID_OR_ZIP_BEFORE.search(before) if "," in text else None
    if named:
        # "c one oh oh five, nine seven two oh one" / "zip nine four one oh seven, two things":
        # a whole id (4 digits) or ZIP (5) said after its name ends at the comma, so the next
        # number (or a "two things") is not run into it; a pause inside one ("zip nine four,
        # one oh seven") still joins, and without a name before it (a card read in groups) a
        # comma joins.
        head, rest = text.split(",", 1)
        whole = _chunks([w.lower() for w in head.split()])
        need = 5 if re.search(r"zip|postal", named.group(0), re.I) else 4
        if whole is not None and len("".join(whole)) >= need:
            return f"{''.join(whole)},{_RUN.sub(_convert_run, rest)}"
        again = _chunks([w.lower() for w in re.split(r"[\s,-]+", rest) if w])
        if whole is not None and again is not None and len("".join(again)) == need:
            # "zip nine four one oh, uh, nine four one zero seven": a caller who broke off and
            # read the whole ZIP again; joined, the two made nine digits that verify nobody
            return "".join(again)
    if "," in text:
        groups = [_chunks([w.lower() for w in g.split()]) for g in text.split(",") if g.strip()]
        codes = ["".join(g) for g in groups if g is not None]
        if 2 <= len(codes) == len(groups) and len(set(codes)) == 1 and _STATUS_CODE.fullmatch(codes[0]):
            # "four oh one, four oh one, four oh one": one status code said again and again, not
            # a nine-digit number
            return _with_trail(", ".join(codes), text, trail)
        # "nine four one... nine four one oh seven": broken off and read again from the start
        head, rest = text.split(",", 1)
        first = _chunks([w.lower() for w in head.split()])
        again = _chunks([w.lower() for w in re.split(r"[\s,-]+", rest) if w])
        whole_zip = _ZIP_DIGITS
        if (first is not None and again is not None and len("".join(again)) == whole_zip
                and "".join(again).startswith("".join(first)) and len("".join(first)) < whole_zip):
            return "".join(again)  # a ZIP read again in full (a card read in groups repeats none)
    chunks = _chunks(words)
    if chunks is None:
        parts = re.split(r"(\s+and\s+)", text, flags=re.I)
        # "c one oh oh one and nine four one oh seven": two numbers read digit by digit
        # (amounts such as "forty nine and fifty cents" are left to the money reader)
        if len(parts) > 1 and all(len(p.split()) >= 3 for p in parts[::2]):
            return "".join(p if i % 2 else _RUN.sub(_convert_run, p) for i, p in enumerate(parts))
        return text
    if (len(chunks) >= 2 and words[0] in _UNITS and chunks[0] != "0" and len(chunks[1]) + len(chunks) >= 4
            and _COUNTED_AFTER.match(after)):
        # "two forty nine dollar charges": two charges of 49 dollars (the count stays a word),
        # not a charge of 249; one charge of it is said in the singular
        return _with_trail(" ".join([*lead, words[0], "".join(chunks[1:])]), text, trail)
    digits = "".join(chunks)
    return _with_trail(" ".join([*lead, digits]), text, trail)


_STATUS_CODE = re.compile(r"[1-5]\d\d")
# The pause before the glue words a run ends on: "... one two one two, and what's the outage"
# keeps its comma (a clause boundary), as said.
_TRAIL_SEP = re.compile(r"([\s,-]+)(?:and|point|a|double|triple)(?:[\s,-]+(?:and|point|a|double|triple))*$", re.I)


def _with_trail(number: str, text: str, trail: list[str]) -> str:
    if not trail:
        return number
    sep = _TRAIL_SEP.search(text)
    return f"{number}{', ' if sep and ',' in sep.group(1) else ' '}{' '.join(trail)}"


# "the six hundred one, then": a number then "one" said as a pick ends where the clause does
_PICKED_BEFORE = re.compile(r"\b(?:the|that)\s+$", re.I)
_PICKED_AFTER = re.compile(r"^\s*(?:$|[,.!?;]|(?:then|please|instead|plan|i\s+think|i\s+guess|thanks)\b)", re.I)

_COUNTED_AFTER = re.compile(
    r"^\s*(?:dollars?|bucks|usd)?\s*(?:charges|payments|debits|transactions|withdrawals|deductions)\b", re.I)


# --- patterns over digits ---------------------------------------------------------------
_ORDINAL_WORD = "|".join(sorted(_ORDINALS, key=len, reverse=True))
_MONTH = "|".join(_MONTHS)
_ORD_AFTER_MONTH = re.compile(rf"\b({_MONTH})\s+(?:the\s+)?(?:(twenty|thirty)[\s-]+)?({_ORDINAL_WORD})\b", re.I)
_ORD_BEFORE_MONTH = re.compile(rf"\b(?:the\s+)?(?:(twenty|thirty)[\s-]+)?({_ORDINAL_WORD})\s+of\s+({_MONTH})\b", re.I)
_SPACED_DIGITS = re.compile(r"(?<![\d.$])\b\d(?:,?[\s-]\d\b){2,}(?!\d|\.\d)")
# A recogniser writes "C1, 0, 0, 1" or "C 10 01" for an id read digit by digit.
# "c, one, zero, zero, one": a caller reading the letter and each digit with a pause after it
_ID_SPLIT = re.compile(r"\b(?:c|see|sea|si|cee)[\s.,-]*(\d[\d\s,.-]*\d)\b", re.I)
_ID_PREFIX = re.compile(r"\b(?:c|see|sea|si|cee)[\s.,-]*(\d{4,6})\b", re.I)
# "c one zero zero five nine seven two oh one": an id and its ZIP read in one breath run into
# one digit string; a ZIP is 5 digits and an id 4 to 6, so 9 to 11 digits split one way only.
_ID_THEN_ZIP = re.compile(r"\b(?:c|see|sea|si|cee)[\s.,-]*(\d{4,6})(\d{5})\b", re.I)
# "oh, nine seven two oh one", "oh uh nine four ...": an "oh" said first with a pause (or a filler) after it is a sound of surprise,
# not a zero (a ZIP is five digits, and this one would be six)
_OH_FIRST = re.compile(r"^(\W*)oh(?:[,!.]\s*|\s+(?:uh+|um+|er+)[,.]?\s+)(?=(?:zero|oh|one|two|three|four|five|six|seven|eight|nine|\d)\b)", re.I)
_ZIP_WORDS = re.compile(r"\b(zip(?:\s*code)?|postal\s+code)(\s*(?:is|it's|of)?[\s:,]*)(\d[\d\s-]{3,9}\d)\b", re.I)
_MINUS = re.compile(r"\b(?:minus|negative)\s+\$?(\d+(?:\.\d{1,2})?)(?:\s*(?:dollars?|bucks|usd))?\b", re.I)
_MONEY = re.compile(
    r"(?<![\w$])(-?)(\d[\d,]*(?:\.\d{1,2})?)\s*(?:dollars?|bucks|usd)\b(?:\s*(?:and\s+)?(\d{1,2})\s*cents?\b)?", re.I)
_CENTS = re.compile(r"(?<![\w$.])(\d{1,2})\s*cents?\b", re.I)
# A mailbox may be spelled letter by letter ("l p a u l i n g at example dot org") and a
# domain's ending too ("turing dot i o").
# A written dot has no space after it (in "i'm at home. thanks" the full stop ends a sentence).
_EMAIL = re.compile(
    r"(?<!')\b((?:[a-z](?:\s+[a-z]\b){2,}),?|[a-z0-9][a-z0-9._-]*(?:\s+(?:dot|underscore|dash)\s+[a-z0-9]+)*)\s+(?:at|@)\s+"
    r"([a-z0-9-]+(?:(?:\s+dot\s+|\.)(?:[a-z]{2,24}|[a-z](?:\s[a-z]\b){1,3}))+)\b", re.I)


# A domain said as two or three words ("linus at pauling lab dot org"): joined only where an email
# is what was asked for (domains/account/profile_update.py), never in open speech, where "at"
# joins words that are no address.
_EMAIL_WORDY_DOMAIN = re.compile(
    r"(?<!')\b((?:[a-z](?:\s+[a-z]\b){2,})|[a-z0-9][a-z0-9._-]*(?:\s+(?:dot|underscore|dash)\s+[a-z0-9]+)*)\s+(?:at|@)\s+"
    r"((?:[a-z0-9-]+\s+){1,2}[a-z0-9-]+)\s+dot\s+([a-z]{2,24})\b", re.I)


def wordy_email(text: str) -> str | None:
    """The email address in words whose domain was said as two or three words, or None
    ("my new one is alan dot t at turing labs dot com" -> "alan.t@turinglabs.com")."""
    m = _EMAIL_WORDY_DOMAIN.search(text)
    if m is None or m.group(1).split()[-1].lower() in _NOT_MAILBOX:
        return None
    mailbox = re.sub(r"\s+", "", re.sub(r"\s+dot\s+", ".", re.sub(r"\s+underscore\s+", "_", m.group(1), flags=re.I), flags=re.I))
    domain = re.sub(r"\s+", "", m.group(2))
    return f"{mailbox}@{domain}.{m.group(3)}".lower()


def _ordinal_after(m: re.Match[str]) -> str:
    n = _ORDINALS[m.group(3).lower()] + (20 if (m.group(2) or "").lower() == "twenty" else 30 if m.group(2) else 0)
    return f"{m.group(1)} {n}{_suffix(n)}"


def _ordinal_before(m: re.Match[str]) -> str:
    n = _ORDINALS[m.group(2).lower()] + (20 if (m.group(1) or "").lower() == "twenty" else 30 if m.group(1) else 0)
    return f"{n}{_suffix(n)} of {m.group(3)}"


# Words that end a sentence before "at" ("I looked at example.com") are not mailbox names.
_NOT_MAILBOX = frozenset(
    "look looked looking am is are was were be been me us him her them it that this here there not "
    "and or only even just still back out up down get got call called reach reached arrive arrived".split())


def _email(m: re.Match[str]) -> str:
    if m.group(1).split()[-1].lower() in _NOT_MAILBOX or m.group(1).lower() in _NOT_MAILBOX:
        return m.group(0)
    def squash(part: str) -> str:
        part = re.sub(r"\s+dot\s+", ".", part, flags=re.I)
        part = re.sub(r"\s+underscore\s+", "_", part, flags=re.I)
        part = re.sub(r"\s+dash\s+", "-", part, flags=re.I)
        return re.sub(r"\s+", "", part).lower()

    # "grace, g r a c e, at example dot com": the pause after the spelling is no part of it
    return f"{squash(m.group(1).rstrip(','))}@{squash(m.group(2))}"


def _money(m: re.Match[str]) -> str:
    sign, whole, cents = m.group(1), m.group(2).replace(",", ""), m.group(3)
    amount = f"{whole}.{int(cents):02d}" if cents and "." not in whole else whole
    return f"{sign}${amount}"


# A caller who corrects a value they just read out ("C1002 no sorry C1001", "zip 94108 no
# 94107") means the last one. Slot filling reads the first match of each slot, so the
# correction is applied here, once, for every reader: the earlier value of the same kind
# (customer id, five-digit code or email) is dropped when a correction cue sits between the two.
_VALUE = r"(?<![\w$.-])(?:C\d{4,6}|\d{5}|[\w.+-]+@[\w-]+(?:\.[\w-]+)+)(?![\w-]|\.\d)"  # "C1002... wait no" ends a value
_CUE = (r"no+|nope|nah|sorry|wait|hold on|hang on|i mean|i meant|actually|oops|scratch that|make that|"
        r"rather|correction|my bad|let me correct that|not that")
# ... and words that say what changed in an email ("l.p@x.com, no sorry, no dot, lp@x.com")
_SOFT = (r"uh+|um+|er+m?|oh+|it'?s|it is|that'?s|that is|the|my|customer|number|id|zip|code|is|one sec|sorry|"
         r"email|address|dot|dash|underscore|with|without|a|an|"
         # what the first value was: "linus@oldmail.com, no wait, that's the old one, linus@new..."
         r"old|one|qqonekept|wrong|previous|former|new|right|correct|should be|it should be")  # qqonekept: normalise's kept "one"
_CORRECTED = re.compile(
    rf"({_VALUE})((?:[\s,.;!-]+(?:{_CUE}|{_SOFT}))+)[\s,.;:!-]+({_VALUE})", re.I)
_HAS_CUE = re.compile(rf"\b(?:{_CUE})\b", re.I)


def _kind(value: str) -> str:
    return "email" if "@" in value else "id" if value[:1].upper() == "C" else "code"


def _last_wins(m: re.Match[str]) -> str:
    first, between, last = m.group(1), m.group(2), m.group(3)
    if _kind(first) != _kind(last) or not _HAS_CUE.search(between):
        return m.group(0)
    # keep the words that say what the value is ("zip", "customer number") and drop the
    # first value and the cue
    label = re.search(r"\b(zip(?: code)?|customer(?: number| id)?)\b[\s:]*(?:is\s+)?$", between, re.I)
    return f"{label.group(1)} {last}" if label else last


# A long number (a phone number) whose last group is said again after a cue: "four one five, five
# five five, oh one two... no, oh one three two" keeps the start and takes the new last group.
_DIGITS_CORRECTED = re.compile(
    rf"(?<![\w$.])(\d{{6,}})((?:[\s,.;!-]+(?:{_CUE}|{_SOFT}))+)[\s,.;:!-]+(\d{{2,}})(?![\w-]|\.\d)", re.I)
_SAME_START = 2  # the new group starts as the group it corrects did ("012" -> "0132")


def _tail_wins(m: re.Match[str]) -> str:
    first, between, last = m.group(1), m.group(2), m.group(3)
    if not _HAS_CUE.search(between):
        return m.group(0)
    if len(last) >= len(first):
        return last  # the whole number said again
    for size in range(min(len(last), len(first)), _SAME_START - 1, -1):
        if first[-size:][:_SAME_START] == last[:_SAME_START]:
            return first[:-size] + last
    # "two one two, five five five, three four, no wait, sorry, three six one seven": the group
    # said again from its first digit only, when that alone makes a whole ten-digit number
    fits = [size for size in range(1, min(len(last), len(first)) + 1)
            if len(first) - size + len(last) == _NATIONAL and first[-size] == last[0]]
    if len(fits) == 1:
        return first[: -fits[0]] + last
    return m.group(0)


_NATIONAL = 10  # digits in a number said without its country code (the reader adds +1)

# "c one zero zero two, no sorry, one zero zero one": the id said again without its letter
_ID_AGAIN = re.compile(rf"(?<![\w$.])(C\d{{4,6}})((?:[\s,.;!-]+(?:{_CUE}|{_SOFT}))+)[\s,.;:!-]+(\d{{4,6}})(?![\w-]|\.\d)", re.I)


def _id_again(m: re.Match[str]) -> str:
    first, between, last = m.group(1), m.group(2), m.group(3)
    if len(first) - 1 != len(last) or not _HAS_CUE.search(between):
        return m.group(0)
    return f"{first}{between} C{last}"


def correct_values(text: str) -> str:
    """Keep the last of two same-kind values separated by a correction cue."""
    text = _DIGITS_CORRECTED.sub(_tail_wins, text)
    text = _ID_AGAIN.sub(_id_again, text)
    pos = 0
    # "C1 no C2 sorry C3": each correction removes one superseded value and the search goes
    # on from the value kept; "C1002, zip 10010, no sorry, 10001": an id then a ZIP is no
    # correction, so the search goes on from the ZIP, which the next value may correct
    while (m := _CORRECTED.search(text, pos)) is not None:
        kept = _last_wins(m)
        if kept == m.group(0):
            pos = m.start(3)
            continue
        text = text[: m.start()] + kept + text[m.end():]
        pos = m.start()
    return text


# Digits said in the other languages callers use (Spanish, French, German, Italian, Portuguese):
# "c uno cero cero tres", "code postal six zéro six zéro un". Read only as a run of three or
# more, in a turn that is not English: "um" is a filler in English and one in Portuguese, "six"
# and "zero" are English's own (its runs are read below).
_FOREIGN_DIGITS = {w: d for d, words in enumerate((
    "cero zéro null", "uno un une eins um", "dos deux zwei zwo due dois duas", "tres trois drei tre três",
    "cuatro quatre vier quattro quatro", "cinco cinq fünf cinque", "seis sechs sei",
    "siete sept sieben sette sete", "ocho huit acht otto oito", "nueve neuf neun nove",
)) for w in words.split()} | {"zero": 0, "six": 6}
_FOREIGN_WORD = "|".join(sorted(_FOREIGN_DIGITS, key=len, reverse=True))
_FOREIGN_RUN = re.compile(rf"(?<!\w)(?:{_FOREIGN_WORD})(?:[\s,-]+(?:{_FOREIGN_WORD})){{2,}}(?!\w)", re.I)


# ... and words English uses too ("the bill was due, um, six days ago" is no number)
_ALSO_ENGLISH = frozenset("zero six um un une due dos null tre sei sept acht".split())


_ENGLISH_DIGIT = frozenset("zero oh one two three four five six seven eight nine".split())


def _foreign_digits(text: str) -> str:
    if _FOREIGN_RUN.search(text) is None:
        return text
    foreign = detect_language(text, weak=True) is not None

    def digits(m: re.Match[str]) -> str:
        words = [w.lower() for w in re.findall(r"[^\W\d_]+", m.group(0))]
        if all(w in _ENGLISH_DIGIT for w in words):
            return m.group(0)  # "es one zero zero zero one": English digits in a Spanish turn, read whole below
        if not foreign and sum(w not in _ALSO_ENGLISH for w in words) < 2:
            return m.group(0)
        return "".join(str(_FOREIGN_DIGITS[w]) for w in words)

    return _FOREIGN_RUN.sub(digits, text)


# "oh sorry, wrong one, nine seven two oh one": "one" after a word that points at a thing is
# that thing ("the wrong one", "that one", "the other one"), never a digit of the number after it.
_PRONOUN_ONE = re.compile(
    r"\b(wrong|right|correct|that|this|the|other|new|old|last|first|second|third|which|each|every|same|another"
    r"|latest|previous|next|earlier|older|newer)(\s+)one\b"
    r"(?!\s+(?:zero|oh|o|one|two|three|four|five|six|seven|eight|nine|double|triple)\b)", re.I)  # "the one oh oh two": digits
_KEPT_ONE = "qqonekept"


# Typed shorthand a caller uses in a chat window ("wat plan am i on", "pls", "acct"): the words
# routing and slot filling know. Whole words only, and none a spelled-out address is made of.
_SHORTHAND = {"wat": "what", "wut": "what", "wats": "what's", "whatz": "what's", "pls": "please", "plz": "please",
              "acct": "account", "accts": "accounts", "thx": "thanks", "pw": "password", "pwd": "password"}
_SHORTHAND_WORD = re.compile(rf"\b({'|'.join(_SHORTHAND)})\b", re.I)
# "d o b", "d.o.b.": a recogniser spells the abbreviation out; the identity readers know "dob"
_SPELLED_DOB = re.compile(r"\bd\.?[\s.]*o\.?[\s.]*b\b\.?(?=\s|$|,)", re.I)

_ZIP_DIGITS = 5
_DAY_THEN_YEAR = re.compile(rf"\b({'|'.join(_MONTHS)})\s+(\d{{1,2}})((?:19|20)\d{{2}})\b", re.I)
_ELLIPSIS = re.compile(r"\s*(?:\.{2,}|…)\s*")


# A question in a learner's word order ("so what i do now?", "how much i must pay", "why i
# cannot log in"): put in the order every reader of the turn knows ("what do i do now"). Only at
# the start of a clause, where English puts the verb first; "i know why i get it" stays.
_LEARNER_QUESTION = re.compile(
    r"(^|[.?!,;]\s*|\b(?:so|and|but|ok|okay|then|now|please)\s+)"
    r"(what|how(?:\s+much|\s+many|\s+long)?|why|where|when)\s+(i|we)\s+"
    r"(must|can|should|could|will|cannot|can'?t|need\s+to|have\s+to|do|get|pay|owe|see|fix|use|change|make|unlock|log|sign"
    r"|reset|cancel|close|upgrade|downgrade|update|find|stop|add|remove|download|send|lock|go|switch|move|delete|open|check)\b", re.I)
_MODALS = frozenset("must can should could will".split())


def _question_order(m: re.Match[str]) -> str:
    lead, wh, who, verb = m.group(1), m.group(2), m.group(3), m.group(4)
    low = verb.lower()
    if low in _MODALS:
        return f"{lead}{wh} {verb} {who}"
    if wh.lower() in ("when", "where"):
        return m.group(0)  # "when i get a new laptop": a time, not a question
    if low in ("cannot", "can't", "cant"):
        return f"{lead}{wh} can't {who}"
    return f"{lead}{wh} do {who} {verb}"


# "c as in cat, one zero zero five": a letter spelled by a word is the letter
_LETTER_AS_IN = re.compile(r"\b([a-z])\s+(?:as\s+in|like\s+in)\s+[a-z]+\b", re.I)


# "a nine not an eight, two one four nine": a digit named with an article is one digit, and the
# pause after it ends it (else it runs into the digits after the comma: "an 82149").
_ONE_DIGIT = re.compile(r"\b(an?)\s+(zero|one|two|three|four|five|six|seven|eight|nine)(?=\s*,)", re.I)


# A turn that is only a figure: "¿49?", "49 ?", "mais 49 ?"
# ("neunhundertneunundneunzig dollar?": with its currency)
_ONLY_A_FIGURE = re.compile(r"\W*(?:(?:y|e|et|und|ah|oh|eh|um|uh|mais|ma|pero|aber|mas|nur|solo|seulement|apenas|solamente)\W+)*\d+"
                            r"(?:\s+(?:dollars?|d[oó]lares|dollari|dólar|euros?|bucks))?\W*", re.I)
_SHORT = 6  # words: a figure said back alone is short; longer turns skip the foreign figures here


def said_back_figure(text: str) -> bool:
    """The turn is only a figure said back ("¿cuarenta y nueve dólares?", "49?"), in any language."""
    return bool(_ONLY_A_FIGURE.fullmatch(normalise(text).lstrip("¿¡ ")))


def normalise(text: str) -> str:
    """Caller words -> the written forms routing and slot filling read. Idempotent."""
    # a trailing-off pause ("c... one... zero... zero... four") is a pause like a comma's: a
    # written full stop in it would end the sentence inside the number
    text = _ELLIPSIS.sub(", ", text)
    text = misheard(text)  # "ok thanks by", "c one oh oh for": a recogniser's homophones, as meant
    # "quarantanove?", "¿cuarenta y nueve?": a figure said back in another language, alone
    said_back = foreign_numbers.digits(text) if len(text.split()) <= _SHORT else text
    if said_back != text and _ONLY_A_FIGURE.fullmatch(said_back):
        text = said_back.lstrip("¿¡ ")  # "¿49?" is "49?", the figure said back
    text = _SPELLED_DOB.sub("dob", text)
    text = birth_dates(text)  # before the numbers: a day and a two-digit year would run together
    text = _SHORTHAND_WORD.sub(lambda m: _SHORTHAND[m.group(1).lower()], text)
    text = _PRONOUN_ONE.sub(rf"\1\2{_KEPT_ONE}", text)
    text = _LETTER_AS_IN.sub(r"\1", text)
    text = _ONE_DIGIT.sub(lambda m: f"{m.group(1)} {_UNITS[m.group(2).lower()]}", text)
    # the pause a comma marks stays ("zip nine four one oh, uh, nine four one zero seven" is read again)
    out = _FILLER_IN_NUMBER.sub(lambda m: ", " if "," in m.group(0) else " ", _OH_FIRST.sub(r"\1", _foreign_digits(text)))
    out = _ORD_AFTER_MONTH.sub(_ordinal_after, out)
    out = _ORD_BEFORE_MONTH.sub(_ordinal_before, out)
    out = plural(_RUN.sub(_convert_run, singular(out)))  # "four oh threes" -> "403 errors"
    # "june twenty three nineteen eighty two" ran into "june 231982": a day, then a year
    out = _DAY_THEN_YEAR.sub(r"\1 \2 \3", out)
    out = _SPACED_DIGITS.sub(lambda m: re.sub(r"[\s,-]", "", m.group(0)), out)
    out = _ID_THEN_ZIP.sub(lambda m: f"C{m.group(1)} {m.group(2)}", out)
    out = _ID_SPLIT.sub(_split_id, out)
    out = _ZIP_WORDS.sub(lambda m: _zip(m), out)
    out = _ID_PREFIX.sub(lambda m: f"C{m.group(1)}", out)
    out = _EMAIL.sub(_email, out)
    out = _MINUS.sub(lambda m: f"-${m.group(1)}", out)
    out = _MONEY.sub(_money, out)
    out = _CENTS.sub(lambda m: f"$0.{int(m.group(1)):02d}", out)
    out = correct_values(out).replace(_KEPT_ONE, "one")
    out = _LEARNER_QUESTION.sub(_question_order, out)
    return re.sub(r"[ \t]{2,}", " ", out).strip()


def _split_id(m: re.Match[str]) -> str:
    whole, _, rest = m.group(1).partition(",")
    if rest and 4 <= len(re.sub(r"\D", "", whole)) <= 6:
        # "c one zero zero three, nine four... no, six oh six oh one": a whole number, then a pause;
        # what follows it is the next value begun (a ZIP), not more of the number
        return f"C{re.sub(r'[^0-9]', '', whole)},{rest}"
    digits = re.sub(r"\D", "", m.group(1))
    return f"C{digits}" if 4 <= len(digits) <= 6 else m.group(0)


def _zip(m: re.Match[str]) -> str:
    digits = re.sub(r"[\s-]", "", m.group(3))
    if len(digits) == 5:
        return f"{m.group(1)}{m.group(2)}{digits}"
    return m.group(0)


# --- replies for the ear ------------------------------------------------------------
_SAY_MONEY = re.compile(r"(-?)\$(\d[\d,]*)(?:\.(\d{2}))?")
_SAY_CUSTOMER = re.compile(r"\bC(\d{4,6})\b")
_SAY_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_SAY_SYMBOLS = {"&": " and ", "%": " percent", "/": " or "}
# A phone number read back in groups ("+1 971 555 0442"): each digit said, a pause between groups.
_SAY_PHONE = re.compile(r"\+(\d{1,3})((?:\s\d{2,4}){2,5})\b")


def _say_phone(m: re.Match[str]) -> str:
    return ", ".join(["plus " + " ".join(m.group(1)), *(" ".join(g) for g in m.group(2).split())])


def _say_money(m: re.Match[str]) -> str:
    sign, whole, cents = m.group(1), m.group(2).replace(",", ""), m.group(3)
    words = f"{int(whole)} dollar{'s' if whole != '1' else ''}"
    if cents and cents != "00":
        words += f" and {int(cents)} cent{'s' if cents != '01' else ''}"
    return ("minus " if sign else "") + words


def _say_date(m: re.Match[str]) -> str:
    try:
        d = date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return m.group(0)
    return f"{_MONTHS[d.month - 1].capitalize()} {d.day}{_suffix(d.day)}, {d.year}"


@dataclass(frozen=True)
class SpokenIds:
    """Record ids one line's domains write in replies, by prefix ("CH"), with the word said
    before the digits ("charge"): "CH-1002-D" -> "charge 1 0 0 2 D". Declared by the
    composition root from the line's domains, so this module names no domain. A prefix
    declared twice with the same word counts once; with another word it is an error."""

    ids: Mapping[str, str] = field(default_factory=dict)
    declared: InitVar[Iterable[tuple[str, str]]] = ()

    def __post_init__(self, declared: Iterable[tuple[str, str]]) -> None:
        ids: dict[str, str] = {}
        for prefix, word in (*self.ids.items(), *declared):
            if not re.fullmatch(r"[A-Za-z]{1,6}", prefix) or not re.fullmatch(r"[a-z ]{1,30}", word):
                raise ValueError(f"spoken id {prefix!r} -> {word!r}: a 1-6 letter prefix and a lower-case word")
            known = ids.get(prefix.upper())
            if known is not None and known != word:
                raise ValueError(f"spoken id prefix {prefix!r} is declared twice with different words")
            ids[prefix.upper()] = word
        object.__setattr__(self, "ids", ids)
        code = None
        if ids:
            prefixes = "|".join(sorted(ids, key=len, reverse=True))
            words = "|".join(re.escape(w) for w in sorted(set(ids.values()), key=len, reverse=True))
            code = re.compile(rf"\b(?:(?:{words})\s+)?({prefixes})-(\d{{3,6}})(?:-([A-Z0-9]{{1,4}}))?\b", re.I)
        object.__setattr__(self, "_code", code)

    @classmethod
    def of(cls, pairs: Iterable[tuple[str, str]]) -> SpokenIds:
        """A line's ids, from its domains' (prefix, word) pairs."""
        return cls(declared=pairs)

    def _say_id(self, m: re.Match[str]) -> str:
        return " ".join([self.ids[m.group(1).upper()], *m.group(2), *([m.group(3)] if m.group(3) else [])])

    def for_the_ear(self, text: str) -> str:
        """Agent text -> what a speech engine should read aloud: ids digit by digit, amounts and
        dates in words, no symbols a synthesiser would spell out."""
        out = _SAY_PHONE.sub(_say_phone, _SAY_ISO.sub(_say_date, text))
        out = _SAY_MONEY.sub(_say_money, out)
        out = _SAY_CUSTOMER.sub(lambda m: "C " + " ".join(m.group(1)), out)
        if self._code is not None:  # type: ignore[attr-defined]
            out = self._code.sub(self._say_id, out)  # type: ignore[attr-defined]
        for sym, word in _SAY_SYMBOLS.items():
            out = out.replace(sym, word)
        return re.sub(r"\s{2,}", " ", re.sub(r"[*_#`]", "", out)).strip()

    async def ear_transform(self, text: AsyncIterable[str]) -> AsyncIterator[str]:
        """A session's `tts_text_transforms` entry: streamed reply text -> text for the ear,
        one finished sentence at a time (an amount is never cut between two chunks)."""
        pending = ""
        async for chunk in text:
            pending += chunk
            parts = _SENTENCE_END.split(pending)
            for sentence in parts[:-1]:
                yield self.for_the_ear(sentence) + " "
            pending = parts[-1]
        if pending:
            yield self.for_the_ear(pending)


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
SHARED_EAR = SpokenIds()  # the forms every line reads aloud, whatever its domains


def for_the_ear(text: str, ids: SpokenIds | None = None) -> str:
    """Agent text for the ear: the line's record ids (`ids`), or the shared forms alone."""
    return (ids or SHARED_EAR).for_the_ear(text)
