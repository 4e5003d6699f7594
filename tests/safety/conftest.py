"""Fixtures for the safety tests: a real SQLite store per test and the embedded line."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest

from callcenter.settings import Settings, load_settings
from callcenter.store import Store
from meta.session import Call, Line, build_line, start_call

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("callcenter-data")  # the router model is trained once


@pytest.fixture
def settings(model_dir: Path) -> Settings:
    return load_settings(data_dir=model_dir, hold_on_line_s=0)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(tmp_path / "store.sqlite3")
    yield s
    s.close()


@pytest.fixture
def line(settings: Settings, store: Store) -> Line:
    return build_line(settings, store=store)


@pytest.fixture
async def open_call(line: Line) -> AsyncIterator[Callable[..., Awaitable[Call]]]:
    calls: list[Call] = []

    async def _open(customer_id: str | None = None, *, caller_line: str | None = None) -> Call:
        call = await start_call(line, customer_id=customer_id)
        call.state.caller.line = caller_line
        calls.append(call)
        return call

    yield _open
    for call in calls:
        await call.close()


@pytest.fixture(scope="session")
def adversary() -> ModuleType:
    """benchmarks/safety/adversary.py: the generator and invariants the benchmark runs too."""
    name = "safety_adversary"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks/safety/adversary.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod

