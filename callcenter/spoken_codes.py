"""Status codes said in the plural: "four oh threes", "four twenty nines", "five oh twos".

Callers count errors by their code ("we keep getting four oh threes"); the plural ending
sits on the code's last number word, which then no longer reads as a number ("four twenty
nines" became "420 nines"). `singular` takes the ending off before the numbers are read and
leaves a mark; `plural` writes the figure as its errors ("403 errors"), and a code typed in the plural
("401s") too: the status-code slot and the router read that form as they read the code said
once (they read "giving 401s, the double charge" as one need).
"""

from __future__ import annotations

import re

_MARK = " qqpluralcode"
_PLURALS = {"ones": "one", "twos": "two", "threes": "three", "fours": "four", "fives": "five", "sixes": "six",
            "sevens": "seven", "eights": "eight", "nines": "nine"}
_MIDDLE = r"(?:oh|o|zero|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)"
# three figures, with a middle word ("four oh threes"); "four nines" is no code, and "five
# hundreds" stays words (the errors' own name: the routing rules read it as said)
_CODE = re.compile(rf"\b((?:four|five)[\s-]+{_MIDDLE}[\s-]+)({'|'.join(_PLURALS)})\b", re.I)
_MARKED = re.compile(rf"\b([45]\d\d){_MARK}\b")
# typed as counted, "giving 401s", "the 429's": the same errors ("$500s" is money, "4501s" no code)
_TYPED = re.compile(r"(?<![$\d.,])\b([45]\d\d)'?s\b")


def singular(text: str) -> str:
    """"four oh threes" -> "four oh three" and a mark, for the number reader."""
    return _CODE.sub(lambda m: f"{m.group(1)}{_PLURALS[m.group(2).lower()]}{_MARK}", text)


def plural(text: str) -> str:
    """The mark put back as the figure's errors ("403 errors"); a mark left elsewhere is dropped."""
    return _TYPED.sub(r"\1 errors", _MARKED.sub(r"\1 errors", text).replace(_MARK, ""))
