"""When to ask a clarifying question instead of routing: a calibrated decision.

Below the fast-path threshold a reading is not certain, but it is usually still clear: the
caller said one thing, and the next best reading is far behind ("how much was my bill" is
billing's balance at 0.88, invoices at 0.10). A question is worth the caller's time only
where two readings are close and both plausible. So the slow path routes a reading whose
lead over the next best (``margin``) is at least ``ASK_MARGIN`` and asks otherwise.

``ASK_MARGIN`` was chosen on validation data (the near-duplicate-aware hold-out of the
shipped training utterances; ``benchmarks/router/clarify_levels.py`` prints every level):
the largest level at which the line asks on at most 5% of clear single-need turns at both
the front desk and the supervisor (0.2: 0.7% and 4.2%; asking below the threshold on every
turn, as before, asked on 4.2% and 19.9%). Below the threshold, routes at that level were
right 74-79% of the time on validation, about what any level up to 0.7 gives, so the
questions the higher levels ask buy little: a wrong specialist is recoverable (it reads
back before acting, and a caller who says what they meant is routed again).
"""

from __future__ import annotations

from dataclasses import dataclass

from callcenter.routing.calibration import OOS

ASK_MARGIN = 0.2


@dataclass(frozen=True, slots=True)
class Reading:
    """The best reading and its margin over the next best, at one level of the hierarchy."""

    label: str
    confidence: float
    runner_up: str | None
    margin: float


def domain_of(label: str) -> str:
    return label.split("/", 1)[0]


def reading(label: str, confidence: float, alternatives: tuple[tuple[str, float], ...], *, by_domain: bool) -> Reading:
    """``by_domain``: the front desk chooses a department, so readings are summed per domain
    (a label and its same-domain alternatives); a supervisor compares specialists."""
    if not by_domain or label == OOS or label.startswith("meta/"):
        others = [(lab, p) for lab, p in alternatives if lab != label]
        best = max(others, key=lambda x: x[1], default=(None, 0.0))
        return Reading(label, confidence, best[0], confidence - best[1])
    mine = domain_of(label)
    sums: dict[str, float] = {mine: confidence}
    for lab, p in alternatives:
        key = domain_of(lab) if "/" in lab and not lab.startswith("meta/") else lab
        sums[key] = sums.get(key, 0.0) + p
    top = sums.pop(mine)
    best = max(sums.items(), key=lambda x: x[1], default=(None, 0.0))
    return Reading(mine, min(top, 1.0), best[0], min(top, 1.0) - best[1])


def should_ask(r: Reading, threshold: float, margin: float = ASK_MARGIN) -> bool:
    """Ask only when the reading is below the fast-path threshold and the next best is close."""
    return r.confidence < threshold and r.margin < margin
