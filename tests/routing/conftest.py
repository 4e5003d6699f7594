"""Shared fixtures: one router trained from the shipped utterances per test session."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from callcenter.routing import IntentRouter, read_labelled

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = [ROOT / "domains/billing", ROOT / "domains/technical", ROOT / "domains/account", ROOT / "meta"]

Shipped = Callable[[str], list[tuple[str, str]]]


def _shipped(split: str) -> list[tuple[str, str]]:
    return [pair for base in SHIPPED for pair in read_labelled(base / "utterances" / f"{split}.jsonl")]


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def shipped() -> Shipped:
    """``shipped("train")`` / ``shipped("test")``: the shipped labelled pairs."""
    return _shipped


@pytest.fixture(scope="session")
def router() -> IntentRouter:
    return IntentRouter.train(_shipped("train"))
