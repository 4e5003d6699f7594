"""Export CLINC150 as labelled files for ``callcenter router eval``.

    .venv/bin/python -m benchmarks.router.clinc150 --out /tmp/clinc150

Reads ``data_full.json`` and ``domains.json`` from the dataset folder (default
``../shared/datasets/clinc150`` beside the repository, or ``$CLINC150_DIR``) and writes
flat-label JSONL splits plus ``mapping.json`` (intent -> domain/intent, oos -> oos), so the
same files exercise the mapping path of the CLI. ``*_oos`` splits add the out-of-scope items.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_DIR = Path(os.environ.get("CLINC150_DIR", ROOT.parent / "shared/datasets/clinc150"))


def export(src: Path, out: Path) -> dict[str, int]:
    data = json.loads((src / "data_full.json").read_text(encoding="utf-8"))
    domains = json.loads((src / "domains.json").read_text(encoding="utf-8"))
    mapping = {intent: f"{dom}/{intent}" for dom, intents in domains.items() for intent in intents}
    mapping["oos"] = "oos"
    out.mkdir(parents=True, exist_ok=True)
    (out / "mapping.json").write_text(json.dumps(mapping, indent=1, sort_keys=True), encoding="utf-8")
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
    parser.add_argument("--src", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    for name, n in export(args.src, args.out).items():
        print(f"{args.out / (name + '.jsonl')}: {n}")


if __name__ == "__main__":
    main()
