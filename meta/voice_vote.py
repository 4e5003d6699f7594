"""Which of the recogniser's readings of an open turn the line takes: the beam votes on the need.

An open turn (no slot pending) is decoded with a beam of 5 (callcenter/speech/local_stt.py);
the likeliest reading stood alone. On the telephone band an unseen-style voice's likeliest
reading is often one garbled word away from the need the other readings agree on ("Can you
just leave your head?" beside four readings the router reads as small talk). Here each reading
is read by the line's router, each label gets the weight of the readings that carry it
(exp(K x (score - best score)), the score being a reading's mean log-probability per token),
and the line takes the likeliest reading of the label with the most weight. When the likeliest
reading's label wins (most turns) nothing changes. Measured on the dev and devx voices at 8
kHz (benchmarks/voice/bench_open_turns.py, benchmarks/README.md session 19).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from callcenter.spoken import normalise

# How fast a reading's weight falls with its score: at 10 a reading 0.1 less likely per token
# weighs e^-1 of the likeliest. 5 and 10 read the same number of dev/devx turns right
# (243/328, against 235 with the likeliest alone), 20 fewer (240).
K = 10.0


def open_choice(router: Any) -> Callable[[list[str], list[float]], int | None]:
    """`WhisperSTT.open_choice` for a line whose router is `router`."""

    def choose(readings: list[str], scores: list[float]) -> int | None:
        if len(readings) < 2 or len(scores) != len(readings):
            return None
        labels = [router.classify(normalise(r)).label if r.strip() else "" for r in readings]
        weights = np.exp(K * (np.asarray(scores, dtype=np.float64) - max(scores)))
        tally: dict[str, float] = {}
        for label, weight in zip(labels, weights, strict=True):
            tally[label] = tally.get(label, 0.0) + float(weight)
        best = max(tally, key=lambda label: tally[label])  # a tie keeps the likeliest reading's label
        index = labels.index(best)
        return index or None

    return choose
