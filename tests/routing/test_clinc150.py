"""Issue 6 targets on CLINC150 (slow: ~1 minute per router), from the copy that ships in
benchmarks/data/clinc150 (CC BY 3.0), so they run from any clone.

The asserted floors are the issue's accuracy targets; the measured numbers sit 0.3-5 points
above them. Training time and decision latency are benchmarks, reported in
benchmarks/README.md, not asserted here (a shared 2-core machine makes them flaky).
"""

from __future__ import annotations

import pytest

from benchmarks.router import clinc150
from callcenter.routing import IntentRouter
from callcenter.routing.evaluate import evaluate


@pytest.fixture(scope="module")
def clinc() -> dict[str, list[tuple[str, str]]]:
    """Splits with two-level labels: CLINC's domains.json maps each intent to its domain."""
    return clinc150.load()


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
