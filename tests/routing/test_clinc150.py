"""Issue 6 targets on CLINC150 (slow: ~1 minute per router). The data set is not shipped:
without ../shared/datasets/clinc150 (or CLINC150_DIR) these tests skip, and fail under CI=true.

The asserted floors are the issue's accuracy targets; the measured numbers sit 0.3-5 points
above them. Training time and decision latency are benchmarks, reported in
benchmarks/README.md, not asserted here (a shared 2-core machine makes them flaky).
"""

from __future__ import annotations

import json

import pytest

from callcenter.routing import IntentRouter
from callcenter.routing.evaluate import evaluate
from tests.conftest import CLINC150 as SRC
from tests.conftest import require


@pytest.fixture(scope="module")
def clinc() -> dict[str, list[tuple[str, str]]]:
    """Splits with two-level labels: CLINC's domains.json maps each intent to its domain."""
    require(f"CLINC150 at {SRC}", (SRC / "data_full.json").is_file(), "set CLINC150_DIR")
    data = json.loads((SRC / "data_full.json").read_text(encoding="utf-8"))
    domains = json.loads((SRC / "domains.json").read_text(encoding="utf-8"))
    to = {i: f"{d}/{i}" for d, intents in domains.items() for i in intents} | {"oos": "oos"}
    return {k: [(t, to[lab]) for t, lab in rows] for k, rows in data.items()}


def test_in_scope_targets(clinc: dict[str, list[tuple[str, str]]]) -> None:
    train = clinc["train"]
    router = IntentRouter.train(train, validation=clinc["val"])
    m = evaluate(router, clinc["test"], latency_samples=10)
    assert len(train) == 15000
    assert m["accuracy"] >= 0.94  # target 0.94; measured 0.9444
    assert m["domain_accuracy"] >= 0.98
    assert m["selective_accuracy"] >= 0.97 and m["coverage"] >= 0.85


def test_out_of_scope_targets(clinc: dict[str, list[tuple[str, str]]]) -> None:
    router = IntentRouter.train(
        clinc["train"] + clinc["oos_train"], validation=clinc["val"] + clinc["oos_val"]
    )
    m = evaluate(router, clinc["test"] + clinc["oos_test"], latency_samples=10)
    # targets: recall >= 0.80 with in-scope accuracy (rejections as errors) >= 0.91;
    # measured 0.852 / 0.9156
    assert m["oos_recall"] >= 0.80
    assert m["accuracy_with_rejection"] >= 0.91
