"""Train and evaluate routers from labelled files: the logic behind ``callcenter router``."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from callcenter.routing.classifier import IntentRouter
from callcenter.routing.data import (
    DataError,
    apply_mapping,
    read_labelled,
    read_mapping,
    read_multi,
)
from callcenter.routing.evaluate import evaluate


@dataclass(frozen=True, slots=True)
class TrainReport:
    router: IntentRouter
    examples: int
    labels: dict[str, int]
    seconds: float


def load_examples(
    path: Path, *, label_column: str | None = None, mapping: Path | None = None
) -> list[tuple[str, str]]:
    """Labelled pairs from ``path``, flat labels mapped through ``mapping`` when given."""
    pairs = read_labelled(path, label_column=label_column)
    if mapping is not None:
        pairs = apply_mapping(pairs, read_mapping(mapping), source=str(path))
    return pairs


def train_from_file(
    data: Path,
    *,
    label_column: str | None = None,
    mapping: Path | None = None,
    validation: Path | None = None,
    seed: int = 0,
    max_reject: float | None = None,
) -> TrainReport:
    examples = load_examples(data, label_column=label_column, mapping=mapping)
    counts = Counter(label for _, label in examples)
    if len(counts) < 2:
        raise DataError(f"{data}: needs at least two distinct labels, found {len(counts)}")
    val = (
        load_examples(validation, label_column=label_column, mapping=mapping)
        if validation is not None
        else None
    )
    start = time.perf_counter()
    router = IntentRouter.train(examples, validation=val, seed=seed, max_reject=max_reject)
    return TrainReport(router, len(examples), dict(sorted(counts.items())), time.perf_counter() - start)


def evaluate_files(
    test: Path,
    *,
    train: Path | None = None,
    model: Path | None = None,
    validation: Path | None = None,
    multi: Path | None = None,
    label_column: str | None = None,
    mapping: Path | None = None,
    seed: int = 0,
    max_reject: float | None = None,
) -> dict[str, Any]:
    """Train on ``train`` (or load ``model``) and measure on ``test``; one JSON-ready dict."""
    if (train is None) == (model is None):
        raise ValueError("give exactly one of a training file or a model")
    test_pairs = load_examples(test, label_column=label_column, mapping=mapping)
    if model is not None:
        router = IntentRouter.load(model)
        train_seconds = None
    else:
        assert train is not None
        report = train_from_file(
            train, label_column=label_column, mapping=mapping, validation=validation, seed=seed, max_reject=max_reject
        )
        router, train_seconds = report.router, report.seconds
    multi_items = None
    if multi is not None:
        multi_items = read_multi(multi)
        if mapping is not None:
            table = read_mapping(mapping)
            multi_items = [(t, [table.get(lab, lab) for lab in labs]) for t, labs in multi_items]
    metrics = evaluate(router, test_pairs, multi=multi_items)
    metrics["train_seconds"] = None if train_seconds is None else round(train_seconds, 2)
    return metrics
