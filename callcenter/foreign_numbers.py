"""Numbers said in words in Spanish, French, Italian, Portuguese and German, read as digits.

A caller who hears "$49.00" and asks back "quarantanove?" or "quarante-neuf ?", or who names a
plan by its limit ("seiscentas requisições por minuto"), says a figure the English reader
(callcenter/spoken.py) does not know. Number words are a closed class in each language and
they compose the same way: units, teens and tens add up ("cuarenta y nueve", "neunundvierzig",
"quarantanove", written as one word or joined by "y", "e", "et", "und"), a hundred or a
thousand multiplies what came before it ("doscientos", "zweihundert", "deux cents"). So the
words are cut into those parts (longest first, also inside a compound) and summed.

Only whole runs of number words are read, and a run of one small word ("un", "sei", "ein") is
left alone: those are also articles and verbs.
"""

from __future__ import annotations

import re

_VALUES: dict[str, int] = {}


def _add(value: int, *words: str) -> None:
    for word in words:
        _VALUES[word] = value


# units and teens
# (not Portuguese "um": it is the English filler too)
_add(1, "uno", "una", "un", "une", "uma", "eins", "ein", "eine")
_add(2, "dos", "deux", "due", "dois", "duas", "zwei")
_add(3, "tres", "três", "trois", "tre", "drei")
_add(4, "cuatro", "quatre", "quattro", "quatro", "vier")
_add(5, "cinco", "cinq", "cinque", "fünf", "funf")
_add(6, "seis", "six", "sei", "sechs")
_add(7, "siete", "sept", "sette", "sete", "sieben")
_add(8, "ocho", "huit", "otto", "oito", "acht")
_add(9, "nueve", "neuf", "nove", "neun")
_add(10, "diez", "dix", "dieci", "dez", "zehn")
_add(11, "once", "onze", "undici", "elf")
_add(12, "doce", "douze", "dodici", "doze", "zwölf", "zwolf")
_add(13, "trece", "treize", "tredici", "treze", "dreizehn")
_add(14, "catorce", "quatorze", "quattordici", "catorze", "vierzehn")
_add(15, "quince", "quinze", "quindici", "fünfzehn")
_add(16, "dieciséis", "dieciseis", "seize", "sedici", "dezesseis", "dezasseis", "sechzehn")
_add(17, "diecisiete", "diciassette", "dezessete", "dezassete", "siebzehn")
_add(18, "dieciocho", "diciotto", "dezoito", "achtzehn")
_add(19, "diecinueve", "diciannove", "dezenove", "dezanove", "neunzehn")
# tens (Italian drops a tens word's last vowel before "uno" and "otto": "ventuno", "quarantotto")
_add(20, "veinte", "veinti", "vingt", "vingts", "venti", "vent", "vinte", "zwanzig")
_add(30, "treinta", "trente", "trenta", "trent", "trinta", "dreißig", "dreissig")
_add(40, "cuarenta", "quarante", "quaranta", "quarant", "quarenta", "vierzig")
_add(50, "cincuenta", "cinquante", "cinquanta", "cinquant", "cinquenta", "fünfzig", "funfzig")
_add(60, "sesenta", "soixante", "sessanta", "sessant", "sessenta", "sechzig")
_add(70, "setenta", "settanta", "settant", "siebzig")
_add(80, "ochenta", "quatrevingt", "quatrevingts", "ottanta", "ottant", "oitenta", "achtzig")
_add(90, "noventa", "novanta", "novant", "neunzig")
# hundreds said as one word
_add(200, "doscientos", "doscientas", "duzentos", "duzentas")
_add(300, "trescientos", "trescientas", "trezentos", "trezentas")
_add(400, "cuatrocientos", "cuatrocientas", "quatrocentos", "quatrocentas")
_add(500, "quinientos", "quinientas", "quinhentos", "quinhentas")
_add(600, "seiscientos", "seiscientas", "seiscentos", "seiscentas")
_add(700, "setecientos", "setecientas", "setecentos", "setecentas")
_add(800, "ochocientos", "ochocientas", "oitocentos", "oitocentas")
_add(900, "novecientos", "novecientas", "novecentos", "novecentas")
_HUNDRED = frozenset("cien ciento cent cents cento cem hundert".split())
_THOUSAND = frozenset("mil mille mila tausend".split())
_JOINS = frozenset("y e et und".split())
_PARTS = sorted([*_VALUES, *_HUNDRED, *_THOUSAND, "und"], key=len, reverse=True)
_PART = re.compile("|".join(re.escape(p) for p in _PARTS))
_SMALL_ALONE = 10  # a lone word below this is as often an article or a verb


def _cut(word: str) -> list[str] | None:
    """A word cut into number parts ("quarantanove" -> "quaranta", "nove"), or None."""
    parts: list[str] = []
    at = 0
    while at < len(word):
        m = _PART.match(word, at)
        if m is None:
            return None
        parts.append(m.group(0))
        at = m.end()
    return parts


def _value(parts: list[str]) -> int:
    total, current = 0, 0
    for part in parts:
        if part in _HUNDRED:
            current = (current or 1) * 100
        elif part in _THOUSAND:
            total, current = total + (current or 1) * 1000, 0
        elif part in ("vingt", "vingts") and current % 10 == 4:
            current += 76  # "quatre vingt" said apart: four twenties, not four and twenty
        elif part != "und":
            current += _VALUES[part]
    return total + current


def _composes(parts: list[str]) -> bool:
    """The parts make one number: no two units or teens in a row ("dos tres", "uno uno" count,
    they are no figure)."""
    small = [p not in _HUNDRED and p not in _THOUSAND and p != "und" and _VALUES.get(p, 100) < 20 for p in parts]
    # ... except a ten before a unit: French "dix-sept", "soixante-dix-neuf"
    return not any(a and b and _VALUES.get(p) != 10 for a, b, p in zip(small, small[1:], parts, strict=False))


_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")


def _parts_of(word: str) -> list[str] | None:
    low = word.lower().replace("quatre-vingt", "quatrevingt")  # French 80 is "four twenties": one part
    parts: list[str] = []
    for piece in low.split("-"):
        cut = _cut(piece)
        if cut is None:
            return None
        parts += cut
    return parts


def digits(text: str) -> str:
    """``text`` with each run of number words in these languages written as digits
    ("¿cuarenta y nueve?" -> "¿49?", "neunundvierzig" -> "49"); other words as they were."""
    tokens = [(m, _parts_of(m.group(0))) for m in _WORD.finditer(text)]
    out: list[str] = []
    last, k = 0, 0
    while k < len(tokens):
        m, parts = tokens[k]
        if parts is None:
            k += 1
            continue
        run, j = list(parts), k + 1
        # the run goes on over spaces, with "y", "e", "et", "und" between two numbers
        while j < len(tokens) and not text[tokens[j - 1][0].end():tokens[j][0].start()].strip():
            nxt, nxt_parts = tokens[j]
            if nxt_parts is not None:
                run += nxt_parts
                j += 1
            elif (nxt.group(0).lower() in _JOINS and j + 1 < len(tokens) and (joined := tokens[j + 1][1]) is not None
                  and not text[nxt.end():tokens[j + 1][0].start()].strip()):
                run += joined
                j += 2
            else:
                break
        words = j - k
        if not _composes(run):
            k = j
            continue
        # alone, a small word is an article or a verb ("un", "sei"), and a bare "mille" or "cent"
        # thanks or is English ("mille grazie")
        if words > 1 or (_value(run) >= _SMALL_ALONE and any(p in _VALUES for p in run)):
            out += [text[last:m.start()], str(_value(run))]
            last = tokens[j - 1][0].end()
        k = j
    out.append(text[last:])
    return "".join(out)
