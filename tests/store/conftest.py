"""The store's tests run on both backends: the embedded SQLite file and a real PostgreSQL.

PostgreSQL is Debian's server started in a temp dir for the session; where it cannot be
installed the PostgreSQL half is skipped with the reason (a failure under CI=true).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from callcenter.store import DatabaseTarget, Store
from domains import registry

sys.path.insert(0, str(Path(__file__).parent))
import pg  # noqa: E402

from tests.conftest import require  # noqa: E402


@pytest.fixture(scope="session")
def postgres() -> Iterator[pg.LocalPostgres]:
    why = pg.missing()
    require("PostgreSQL", why is None, why or "")
    with pg.running() as server:
        yield server


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> Path | DatabaseTarget:
    """Where a test's store lives: a new SQLite file or a new database on the session's server."""
    if request.param == "sqlite":
        return tmp_path / "store.sqlite3"
    server = request.getfixturevalue("postgres")
    return DatabaseTarget(url=server.new_database(), data_dir=tmp_path)


@pytest.fixture
def store(target: Path | DatabaseTarget) -> Iterator[Store]:
    s = Store(target, schemas=registry.schemas())  # as the line opens it: with the domains' tables
    yield s
    s.close()
