"""Fixtures for the offline core: a real SQLite store per test and the embedded LLM."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from callcenter.settings import Settings, load_settings
from callcenter.store import Store
from meta.session import Call, Line, build_line, start_call


@pytest.fixture(scope="session")
def model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # One data dir for the whole session so the router model is trained once and cached.
    return tmp_path_factory.mktemp("callcenter-data")


@pytest.fixture
def settings(model_dir: Path) -> Settings:
    return load_settings(data_dir=model_dir, hold_on_line_s=0)


@pytest.fixture
def store(tmp_path: Path) -> Store:
    s = Store(tmp_path / "store.sqlite3")
    yield s
    s.close()


@pytest.fixture
def line(settings: Settings, store: Store) -> Line:
    return build_line(settings, store=store)


@pytest.fixture
async def open_call(line: Line) -> AsyncIterator[Callable[..., Awaitable[Call]]]:
    calls: list[Call] = []

    async def _open(customer_id: str | None = None, **kwargs: object) -> Call:
        call = await start_call(line, customer_id=customer_id, **kwargs)  # type: ignore[arg-type]
        calls.append(call)
        return call

    yield _open
    for call in calls:
        await call.close()
