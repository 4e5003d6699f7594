"""save/load round trip and clear errors for bad model files."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

from callcenter.routing import IntentRouter, RouterModelError
from callcenter.routing import model as model_mod


def test_round_trip(router: IntentRouter, tmp_path: Path, shipped) -> None:
    path = tmp_path / "router.npz"
    router.save(path)
    loaded = IntentRouter.load(path)
    assert loaded.labels == router.labels
    assert (loaded.threshold, loaded.oos_threshold) == (router.threshold, router.oos_threshold)
    texts = [t for t, _ in shipped("test")[:60]]
    assert np.allclose(loaded.probabilities(texts), router.probabilities(texts), atol=1e-6)
    assert loaded.detect("I can't log in and I was charged twice") == router.detect(
        "I can't log in and I was charged twice"
    )


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(RouterModelError, match="does not exist"):
        IntentRouter.load(tmp_path / "nope.npz")


@pytest.mark.parametrize("content", [b"", b"not a model at all", b"PK\x03\x04garbage"])
def test_corrupt_file(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "bad.npz"
    path.write_bytes(content)
    with pytest.raises(RouterModelError, match="corrupt|not a router"):
        IntentRouter.load(path)


def test_truncated_file(router: IntentRouter, tmp_path: Path) -> None:
    path = tmp_path / "router.npz"
    router.save(path)
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    with pytest.raises(RouterModelError):
        IntentRouter.load(path)


def _rewrite_header(src: Path, dst: Path, **changes: object) -> None:
    with np.load(src, allow_pickle=False) as npz:
        arrays = {k: npz[k] for k in npz.files}
    header = json.loads(bytes(arrays["header"]).decode())
    header.update(changes)
    arrays["header"] = np.frombuffer(json.dumps(header).encode(), dtype=np.uint8)
    np.savez(dst, **arrays)


def test_incompatible_version(router: IntentRouter, tmp_path: Path) -> None:
    good = tmp_path / "router.npz"
    router.save(good)
    bad = tmp_path / "old.npz"
    _rewrite_header(good, bad, version=model_mod.FORMAT_VERSION + 1)
    with pytest.raises(RouterModelError, match="version"):
        IntentRouter.load(bad)
    other = tmp_path / "other.npz"
    _rewrite_header(good, other, format="something-else")
    with pytest.raises(RouterModelError, match="not a router model"):
        IntentRouter.load(other)


def test_model_file_holds_no_pickle(router: IntentRouter, tmp_path: Path) -> None:
    path = tmp_path / "router.npz"
    router.save(path)
    with zipfile.ZipFile(path) as zf:
        for name in zf.namelist():
            assert zf.read(name)[:6] == b"\x93NUMPY"  # plain .npy arrays only
