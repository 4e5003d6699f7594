"""CLINC150, the public intent data set the router is measured on, and its export as labelled
files for ``callcenter router eval``.

    .venv/bin/python -m benchmarks.router.clinc150 --out /tmp/clinc150

The data ships with the repository (``benchmarks/data/clinc150``: CC BY 3.0, its README says
who made it); ``$CLINC150_DIR`` or ``--src`` points at another copy. ``load()`` gives the six
splits with two-level labels (``domain/intent``, ``oos``), as the tests use them; the export
writes flat-label JSONL splits plus ``mapping.json`` (intent -> domain/intent, oos -> oos), so
the same files exercise the mapping path of the CLI. ``*_oos`` splits add the out-of-scope items.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
from pathlib import Path
from typing import Any

SHIPPED = Path(__file__).resolve().parents[1] / "data" / "clinc150"
DEFAULT_DIR = Path(os.environ["CLINC150_DIR"]) if os.environ.get("CLINC150_DIR") else SHIPPED

Rows = list[tuple[str, str]]


def _read(src: Path) -> tuple[dict[str, list[list[str]]], dict[str, list[str]]]:
    """Upstream's data_full.json (plain or as shipped, gzip-compressed) and domains.json."""
    plain = src / "data_full.json"
    raw: Any = plain.read_bytes() if plain.is_file() else gzip.decompress((src / "data_full.json.gz").read_bytes())
    return json.loads(raw), json.loads((src / "domains.json").read_text(encoding="utf-8"))


def mapping(domains: dict[str, list[str]]) -> dict[str, str]:
    """intent -> "domain/intent" (CLINC's domains.json: supervisor -> specialist), oos -> oos."""
    return {intent: f"{dom}/{intent}" for dom, intents in domains.items() for intent in intents} | {"oos": "oos"}


def load(src: Path = DEFAULT_DIR) -> dict[str, Rows]:
    """The six splits (train, val, test, oos_train, oos_val, oos_test) with two-level labels."""
    data, domains = _read(src)
    to = mapping(domains)
    return {split: [(text, to[label]) for text, label in rows] for split, rows in data.items()}


def export(src: Path, out: Path) -> dict[str, int]:
    data, domains = _read(src)
    out.mkdir(parents=True, exist_ok=True)
    (out / "mapping.json").write_text(json.dumps(mapping(domains), indent=1, sort_keys=True), encoding="utf-8")
    files = {
        "train": data["train"],
        "val": data["val"],
        "test": data["test"],
        "train_oos": data["train"] + data["oos_train"],
        "val_oos": data["val"] + data["oos_val"],
        "test_oos": data["test"] + data["oos_test"],
    }
    sizes: dict[str, int] = {}
    for name, rows in files.items():
        with (out / f"{name}.jsonl").open("w", encoding="utf-8") as fh:
            for text, label in rows:
                fh.write(json.dumps({"text": text, "label": label}) + "\n")
        sizes[name] = len(rows)
    return sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", type=Path, default=DEFAULT_DIR, help="a CLINC150 folder (default: the shipped copy)")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    for name, n in export(args.src, args.out).items():
        print(f"{args.out / (name + '.jsonl')}: {n}")


if __name__ == "__main__":
    main()
