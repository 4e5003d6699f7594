"""Issue 6 targets on CLINC150 (slow: ~1 minute per router; skipped without the dataset).

The asserted floors are the issue's targets; the measured numbers (benchmarks/README.md) sit
0.3-5 points above them.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from callcenter.routing import IntentRouter
from callcenter.routing.evaluate import evaluate

ROOT = Path(__file__).resolve().parents[2]
SRC = Path(os.environ.get("CLINC150_DIR", ROOT.parent / "shared/datasets/clinc150"))

pytestmark = pytest.mark.skipif(
    not (SRC / "data_full.json").is_file(), reason=f"CLINC150 not found at {SRC}"
)


@pytest.fixture(scope="module")
def clinc() -> dict[str, list[tuple[str, str]]]:
    """Splits with two-level labels: CLINC's domains.json maps each intent to its domain."""
    data = json.loads((SRC / "data_full.json").read_text(encoding="utf-8"))
    domains = json.loads((SRC / "domains.json").read_text(encoding="utf-8"))
    to = {i: f"{d}/{i}" for d, intents in domains.items() for i in intents} | {"oos": "oos"}
    return {k: [(t, to[lab]) for t, lab in rows] for k, rows in data.items()}


def test_in_scope_targets(clinc: dict[str, list[tuple[str, str]]]) -> None:
    train = clinc["train"]
    start = time.perf_counter()
    router = IntentRouter.train(train, validation=clinc["val"])
    seconds = time.perf_counter() - start
    m = evaluate(router, clinc["test"], latency_samples=1000)
    assert len(train) == 15000 and seconds < 60
    assert m["accuracy"] >= 0.94  # target 0.94; measured 0.9444
    assert m["domain_accuracy"] >= 0.98
    assert m["selective_accuracy"] >= 0.97 and m["coverage"] >= 0.85
    assert m["latency_ms_p95"] <= 2.0


def test_out_of_scope_targets(clinc: dict[str, list[tuple[str, str]]]) -> None:
    router = IntentRouter.train(
        clinc["train"] + clinc["oos_train"], validation=clinc["val"] + clinc["oos_val"]
    )
    m = evaluate(router, clinc["test"] + clinc["oos_test"], latency_samples=200)
    # targets: recall >= 0.80 with in-scope accuracy (rejections as errors) >= 0.91;
    # measured 0.852 / 0.9156
    assert m["oos_recall"] >= 0.80
    assert m["accuracy_with_rejection"] >= 0.91
