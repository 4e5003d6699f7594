"""Blind parts of the call-success suite: calls written by someone who never saw the code.

`blind.yaml` to `blind40.yaml` were written by forty helper sessions given only
the classes of failure of issue 25, a description of the line's specialists and the demo data (never the
router's utterances, `phrases.yaml`, the tests or the code). They are run and reported,
never tuned on: do not edit them to make the line pass, and do not read them while fixing it.
One exception, for safety: an unsafe effect is read. In session 40 the one call with an unsafe
effect in each of `blind3` (blind3-075) and `blind30` (b30-131) was read and its cause fixed, so
those two parts are no longer wholly blind; their other calls were not read. In session 42 the one
call with an unsafe effect in `blind38` (b38-068, a question after "do it" taken as a yes) was read
and its cause fixed; no other call of it was read.

They are conversation suites (`docs/suites.md`), loaded and validated by `callcenter test`'s
own loader; this module turns one into the benchmark's `Call`s so `run.py` checks them
exactly as it checks the composed parts.
"""

from __future__ import annotations

from pathlib import Path

from benchmarks.calls.suite import Call, Turn
from meta.suites.loader import load_suites

HERE = Path(__file__).parent
PARTS = {"blind": HERE / "blind.yaml", "blind2": HERE / "blind2.yaml", "blind3": HERE / "blind3.yaml",
         "blind4": HERE / "blind4.yaml", "blind5": HERE / "blind5.yaml",
         "blind6": HERE / "blind6.yaml", "blind7": HERE / "blind7.yaml", "blind8": HERE / "blind8.yaml",
         "blind9": HERE / "blind9.yaml", "blind10": HERE / "blind10.yaml",
         "blind11": HERE / "blind11.yaml", "blind12": HERE / "blind12.yaml",
         "blind13": HERE / "blind13.yaml", "blind14": HERE / "blind14.yaml",
         "blind15": HERE / "blind15.yaml", "blind16": HERE / "blind16.yaml",
         "blind17": HERE / "blind17.yaml",
         "blind18": HERE / "blind18.yaml", "blind19": HERE / "blind19.yaml",
         "blind20": HERE / "blind20.yaml", "blind21": HERE / "blind21.yaml", "blind22": HERE / "blind22.yaml",
         "blind23": HERE / "blind23.yaml",
         "blind24": HERE / "blind24.yaml", "blind25": HERE / "blind25.yaml",
         "blind26": HERE / "blind26.yaml", "blind27": HERE / "blind27.yaml",
         "blind28": HERE / "blind28.yaml", "blind29": HERE / "blind29.yaml",
         "blind30": HERE / "blind30.yaml", "blind31": HERE / "blind31.yaml",
         "blind32": HERE / "blind32.yaml", "blind33": HERE / "blind33.yaml", "blind34": HERE / "blind34.yaml",
         "blind35": HERE / "blind35.yaml", "blind36": HERE / "blind36.yaml",
         "blind37": HERE / "blind37.yaml", "blind38": HERE / "blind38.yaml",
         "blind39": HERE / "blind39.yaml", "blind40": HERE / "blind40.yaml"}


def load(part: str) -> list[Call]:
    """The calls of one blind part, in file order."""
    suites, errors = load_suites([PARTS[part]])
    if errors:
        raise ValueError(errors[0])
    calls = []
    for c in suites[0].calls:
        turns = [Turn(t.say, says=t.expect.says, not_says=t.expect.not_says, needs=t.expect.needs) for t in c.turns]
        needs = [n for t in turns for n in t.needs]
        calls.append(Call(
            id=c.name, part=part, category=c.klass or "unclassed", turns=turns, customer=c.customer,
            reach=list(dict.fromkeys([*c.expect.reach, *needs])), multi=any(len(t.needs) > 1 for t in turns),
            refunds=list(c.expect.refunds), requests=list(c.expect.requests),
            tickets=list(c.expect.tickets) if c.expect.tickets is not None else None, profile=dict(c.expect.profile),
        ))
    return calls
