"""Building the package the way `pip install` does (an isolated build with the newest
setuptools the build-system table allows) prints no deprecation warning about its metadata."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.timeout(600)  # pip fetches the build backend into an isolated environment


def test_the_build_prints_no_licence_deprecation(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    for package in ("callcenter", "workflows", "domains", "meta"):  # what the Dockerfile copies
        shutil.copytree(ROOT / package, src / package, ignore=shutil.ignore_patterns("__pycache__"))
    out = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-v", "--disable-pip-version-check", str(src), "-w", str(tmp_path / "dist")],
        capture_output=True, text=True, timeout=540,
    )
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    printed = out.stdout + out.stderr
    assert "BuildBackendWarning" not in printed and "license` as a TOML table is deprecated" not in printed
    [wheel] = (tmp_path / "dist").glob("callcenter-*.whl")
    with zipfile.ZipFile(wheel) as zf:
        metadata = next(zf.read(n).decode() for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
    assert "License-Expression: Apache-2.0" in metadata
