"""The shipped utterance files are what the seeded generator writes, and train never
leaks into test (a router measured on phrasings it trained on would look better than it is)."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

from benchmarks.router.make_utterances import build


def _read(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _key(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


def test_shipped_files_match_the_generator(root: Path) -> None:
    train, test, multi = build()
    for group in train:
        base = root / ("meta" if group == "meta" else f"domains/{group}") / "utterances"
        assert _read(base / "train.jsonl") == train[group], f"{group} train: rerun make_utterances"
        assert _read(base / "test.jsonl") == test[group], f"{group} test: rerun make_utterances"
    assert _read(root / "meta/utterances/multi_intent.jsonl") == multi


def test_no_training_phrasing_is_a_test_item() -> None:
    train, test, _ = build()
    train_keys = {_key(r["text"]) for rows in train.values() for r in rows}
    leaked = [r["text"] for rows in test.values() for r in rows if _key(r["text"]) in train_keys]
    assert not leaked, leaked[:5]


def test_every_label_has_varied_training_data() -> None:
    train, _, _ = build()
    counts = Counter(r["label"] for rows in train.values() for r in rows)
    # conversation labels are short closed phrases; every need gets at least 100 examples
    thin = {label: n for label, n in counts.items() if "/" in label and not label.startswith("meta/") and n < 100}
    assert all(counts[label] >= 60 for label in counts), counts
    assert not thin, thin


def test_written_phrasings_are_known_labels_and_never_test_items(root: Path) -> None:
    """`written.jsonl` (phrasings written by hand from the labels' definitions) trains the
    router beside the generated data: its labels must exist, and none of it may be a test item."""
    train, test, _ = build()
    labels = {r["label"] for rows in train.values() for r in rows}
    test_keys = {_key(r["text"]) for rows in test.values() for r in rows}
    written = [r for path in root.glob("*/**/utterances/written.jsonl") for r in _read(path)]
    assert len(written) >= 800
    assert {r["label"] for r in written} <= labels
    leaked = [r["text"] for r in written if _key(r["text"]) in test_keys]
    assert not leaked, leaked[:5]
