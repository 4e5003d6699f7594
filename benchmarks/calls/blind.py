"""Blind parts of the call-success suite: calls written by someone who never saw the code.

`blind.yaml` and `blind2.yaml` were written by a helper session given only the classes of
failure of issue 25, a description of the line's specialists and the demo data (never the
router's utterances, `phrases.yaml`, the tests or the code). They are run and reported,
never tuned on: do not edit them to make the line pass, and do not read them while fixing it.

Their format is the conversation-suite format (`docs/suites.md`); this module turns one into
the suite's `Call`s so `run.py` checks them exactly as it checks the composed parts.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

import yaml

from benchmarks.calls.suite import Call, Turn

HERE = Path(__file__).parent
PARTS = {"blind": HERE / "blind.yaml", "blind2": HERE / "blind2.yaml"}


def _lower(xs: list[str] | None) -> tuple[str, ...]:
    return tuple(x.lower() for x in xs or ())


def load(part: str) -> list[Call]:
    """The calls of one blind part, in file order."""
    doc = yaml.safe_load(PARTS[part].read_text())
    calls = []
    for raw in doc["calls"]:
        turns, needs = [], []
        for t in raw["turns"]:
            exp = t.get("expect") or {}
            said = tuple(exp.get("needs") or ())
            turns.append(Turn(str(t["say"]), says=_lower(exp.get("says")), not_says=_lower(exp.get("not_says")), needs=said))
            needs += said
        exp: dict[str, Any] = raw.get("expect") or {}
        reach = list(dict.fromkeys([*(exp.get("reach") or []), *needs]))
        calls.append(Call(
            id=str(raw["name"]), part=part, category=str(raw.get("class", "unclassed")), turns=turns,
            customer=raw.get("customer"), reach=reach, multi=any(len(t.needs) > 1 for t in turns),
            refunds=[(r["charge"], int(Decimal(str(r["amount"])) * 100)) for r in exp.get("refunds") or []],
            requests=list(exp.get("requests") or []),
            tickets=list(exp["tickets"]) if exp.get("tickets") is not None else None,
            profile={cid: dict(fields) for cid, fields in (exp.get("profile") or {}).items()},
        ))
    return calls
