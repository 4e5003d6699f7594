"""A skip under CI=true is a failure (tests/ci_skips.py): a test that skips itself and one
marked skipif fail there, a module whose import skips is a collection error, each naming its
reason; off CI they skip as before; xfail is untouched."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SKIPPING = '''
import pytest

def test_skips_itself():
    pytest.skip("no widget here")

@pytest.mark.skipif(True, reason="not on this machine")
def test_marked():
    pass

@pytest.mark.xfail(reason="known")
def test_known_bug():
    assert False

def test_runs():
    pass
'''


def _pytest(folder: Path, ci: bool) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "CI"} | {"PYTHONPATH": str(ROOT)}
    if ci:
        env["CI"] = "true"
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rfs", "-p", "no:cacheprovider", "-p", "tests.ci_skips", str(folder)],
        cwd=folder, env=env, capture_output=True, text=True, timeout=120,
    )


def test_a_skip_under_ci_is_a_failure(tmp_path: Path) -> None:
    (tmp_path / "test_skipping.py").write_text(SKIPPING)
    ci = _pytest(tmp_path, ci=True)
    assert ci.returncode == 1, ci.stdout
    assert "1 failed, 1 passed, 1 xfailed, 1 error" in ci.stdout, ci.stdout  # skipif acts at setup: an error
    assert "skipped under CI=true" in ci.stdout and "no widget here" in ci.stdout and "not on this machine" in ci.stdout
    local = _pytest(tmp_path, ci=False)
    assert local.returncode == 0, local.stdout
    assert "1 passed, 2 skipped, 1 xfailed" in local.stdout, local.stdout


def test_a_module_that_skips_under_ci_is_a_collection_error(tmp_path: Path) -> None:
    (tmp_path / "test_module.py").write_text('import pytest\npytest.importorskip("no_such_module_here")\n\ndef test_x():\n    pass\n')
    ci = _pytest(tmp_path, ci=True)
    assert ci.returncode == 2 and "1 error" in ci.stdout, ci.stdout  # the run stops: CI is red at once
    assert "skipped under CI=true" in ci.stdout and "no_such_module_here" in ci.stdout
    local = _pytest(tmp_path, ci=False)
    assert local.returncode == 5 and "1 skipped" in local.stdout, local.stdout  # 5: no test ran
