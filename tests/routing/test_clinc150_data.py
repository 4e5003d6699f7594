"""The CLINC150 copy shipped in benchmarks/data/clinc150 is upstream's, whole, and the
benchmark's export reads it from a fresh clone with nothing beside the repository."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

from benchmarks.router import clinc150

ROOT = Path(__file__).resolve().parents[2]
UPSTREAM_SHA256 = "36923c3705a59e08fe9c3883d8bc2dd966ef93e22cb78ac41171782a698d56e0"


def test_the_shipped_copy_is_upstreams_data_full_json() -> None:
    folder = ROOT / "benchmarks/data/clinc150"
    raw = gzip.decompress((folder / "data_full.json.gz").read_bytes())
    assert hashlib.sha256(raw).hexdigest() == UPSTREAM_SHA256
    assert "CC BY 3.0" in (folder / "README.md").read_text() and "Larson" in (folder / "LICENSE").read_text()
    splits = clinc150.load(folder)
    assert {k: len(v) for k, v in splits.items()} == {
        "train": 15000, "val": 3000, "test": 4500, "oos_train": 100, "oos_val": 100, "oos_test": 1000,
    }
    assert len({label for _, label in splits["train"]}) == 150
    assert len({label.split("/")[0] for _, label in splits["train"]}) == 10  # two levels: domain/intent
    assert splits["train"][0] == ("what expression would i use to say i love you if i were an italian", "travel/translate")


def test_the_export_runs_without_any_folder_beside_the_repository(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "CLINC150_DIR"}
    out = subprocess.run([sys.executable, "-m", "benchmarks.router.clinc150", "--out", str(tmp_path)],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert f"{tmp_path / 'train_oos.jsonl'}: 15100" in out.stdout
    first = json.loads((tmp_path / "test.jsonl").read_text().splitlines()[0])
    assert first["label"] in json.loads((tmp_path / "mapping.json").read_text())
