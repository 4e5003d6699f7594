"""Under CI=true no test skips: a skip becomes a failure that names its reason.

`require` (tests/conftest.py) already fails under CI for the tools and data it checks; these
hooks hold every other way a test or a whole module can skip (pytest.skip, skipif,
importorskip), so CI can never be green with part of the suite not run. xfail stays xfail.
The hooks are imported into tests/conftest.py; tests/core/test_ci_skips.py loads this module
as a plugin on a throwaway test file to show it.
"""

from __future__ import annotations

import os
from collections.abc import Generator
from typing import Any

import pytest

IN_CI = os.environ.get("CI") == "true"


def _why(longrepr: Any) -> str:
    # a skip's longrepr is (path, line, "Skipped: reason")
    return str(longrepr[2]) if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr)


def _fail(report: Any) -> None:
    report.outcome = "failed"
    report.longrepr = f"skipped under CI=true, which is a failure here: {_why(report.longrepr)}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    outcome = yield
    report = outcome.get_result()
    if IN_CI and report.skipped and not hasattr(report, "wasxfail"):
        _fail(report)


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Generator[None, Any, None]:
    outcome = yield
    report = outcome.get_result()
    if IN_CI and report.skipped:  # a module-level skip or importorskip
        _fail(report)
