"""Shared helpers of the metrics tests."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def load_dashboard_builder() -> ModuleType:
    # deploy/ is not a package; load the dashboard's source module by path.
    path = ROOT / "deploy/monitoring/build_dashboard.py"
    spec = importlib.util.spec_from_file_location("callcenter_build_dashboard", path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="session")
def dashboard_builder() -> ModuleType:
    return load_dashboard_builder()
