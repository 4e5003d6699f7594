from __future__ import annotations

import sys
from pathlib import Path

import pytest

# The test modules import their helpers from helmchart.py beside this file (pytest runs with
# --import-mode=importlib, which puts no test folder on sys.path).
sys.path.insert(0, str(Path(__file__).resolve().parent))

from helmchart import VARIANTS, Rendered, load_values, render  # noqa: E402


@pytest.fixture(scope="session")
def rendered() -> dict[str, Rendered]:
    """Every variant (the defaults and each ci/*-values.yaml) rendered once per session."""
    return {variant: render(load_values(variant)) for variant in VARIANTS}
