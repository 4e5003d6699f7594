"""One SQL layer for both backends: a SQLAlchemy 2 Core engine and a small connection facade.

The repository writes portable SQL with `?` placeholders (the SQLite file is the embedded
default, PostgreSQL the shared server of a deployment). `Conn.execute` runs it through
`Connection.exec_driver_sql`, turning `?` into psycopg's `%s` on PostgreSQL, and hands back
rows that read by name or position (`row["id"]`, `row[0]`, `dict(row)`).

SQLite: every write transaction starts with BEGIN IMMEDIATE, so writers from several
processes queue on the file lock instead of failing half-way. PostgreSQL: the pool is sized by
settings, and exactly-once paths take row locks (`FOR UPDATE`) or transaction-scoped
advisory locks; process-local locks would not hold across pods.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError
from sqlalchemy.exc import TimeoutError as PoolTimeout


class StoreError(RuntimeError):
    """The store cannot be opened or is from a newer version of the product."""


class StoreUnavailable(StoreError):
    """The database server cannot be reached (down, slow, or refusing connections)."""


@dataclass(frozen=True, slots=True)
class DatabaseTarget:
    """A database server for the store: its URL (a secret: it may hold a password) and pool sizes.

    `data_dir` is the local folder of the process (keys and caches live there, not data).
    """

    url: str
    data_dir: Path
    pool_size: int = 5
    max_overflow: int = 5
    pool_timeout_s: float = 5.0
    connect_timeout_s: float = 5.0
    migrate_on_start: bool = True

    def __str__(self) -> str:
        return safe_url(self.url)

    __repr__ = __str__


def safe_url(url: str) -> str:
    """The URL with any password hidden: what may appear in a message or a log."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except (ArgumentError, ValueError, TypeError):
        return "<unreadable database URL>"


class Row(tuple):  # noqa: SLOT001 - a tuple with names: row[0], row["id"], dict(row)
    _index: dict[str, int]

    def __new__(cls, values: Iterable[Any], index: dict[str, int]) -> Row:
        row = super().__new__(cls, values)
        row._index = index
        return row

    def __getitem__(self, key: Any) -> Any:  # type: ignore[override]
        if isinstance(key, str):
            return tuple.__getitem__(self, self._index[key])
        return tuple.__getitem__(self, key)

    def keys(self) -> list[str]:
        return list(self._index)


class Result:
    """A fully read statement result: rows, rowcount, and lastrowid (SQLite only)."""

    def __init__(self, rows: list[Row], rowcount: int, lastrowid: int | None) -> None:
        self._rows = rows
        self.rowcount = rowcount
        self.lastrowid = lastrowid

    def fetchone(self) -> Row | None:
        return self._rows[0] if self._rows else None

    def fetchall(self) -> list[Row]:
        return list(self._rows)

    def __iter__(self) -> Iterator[Row]:
        return iter(self._rows)


@functools.lru_cache(maxsize=512)
def _pyformat(sql: str) -> str:
    # Placeholders only: the repository keeps literals out of its SQL text (values are bound).
    return sql.replace("%", "%%").replace("?", "%s")


class Conn:
    """The repository's view of one SQL connection, inside a transaction or autocommitting."""

    def __init__(self, engine: Engine, conn: Connection | None = None) -> None:
        self._engine = engine
        self._conn = conn
        self.dialect = engine.dialect.name

    def _run(self, conn: Connection, sql: str, args: Sequence[Any]) -> Result:
        if self.dialect != "sqlite" and args:
            sql = _pyformat(sql)
        cur = conn.exec_driver_sql(sql, tuple(args))
        rows: list[Row] = []
        if cur.returns_rows:
            index = {k: i for i, k in enumerate(cur.keys())}
            rows = [Row(r, index) for r in cur.fetchall()]
        lastrowid = cur.lastrowid if self.dialect == "sqlite" else None
        return Result(rows, cur.rowcount, lastrowid)

    def execute(self, sql: str, args: Sequence[Any] = ()) -> Result:
        if self._conn is not None:
            return self._run(self._conn, sql, args)
        # Outside a transaction: one statement, committed on its own (reads take no write lock).
        write = not sql.lstrip()[:6].upper().startswith(("SELECT", "WITH", "PRAGMA"))
        try:
            with connect(self._engine, write=write) as conn:
                result = self._run(conn, sql, args)
                conn.commit()
                return result
        except PoolTimeout:
            raise StoreUnavailable("the database has no free connection; try again shortly") from None
        except DBAPIError as exc:
            if self.dialect != "sqlite" and (exc.connection_invalidated or _is_connect_error(exc)):
                raise StoreUnavailable(f"the database cannot be reached ({type(exc.orig).__name__})") from None
            if self.dialect == "sqlite" and "locked" in str(exc.orig).lower():
                # Another process held the file's write lock past the busy timeout: down for now, not broken.
                raise StoreUnavailable("the database file stayed locked by another writer; try again shortly") from None
            raise

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        for args in rows:
            self.execute(sql, args)

    def iterdump(self) -> Iterator[str]:
        """SQLite's text dump (benchmarks and tests look for leaked data in every row)."""
        with self._engine.connect() as conn:
            raw = conn.connection.dbapi_connection
            yield from raw.iterdump()  # type: ignore[union-attr]


def _is_connect_error(exc: DBAPIError) -> bool:
    return type(exc.orig).__name__ in ("OperationalError", "InterfaceError")


def connect(engine: Engine, *, write: bool = True) -> Connection:
    """A pooled connection whose first statement opens the transaction (IMMEDIATE if `write`)."""
    conn = engine.connect()
    if engine.dialect.name == "sqlite":
        conn = conn.execution_options(cc_write=write)
    return conn


def _sqlite_engine(path: Path, pool_size: int) -> Engine:
    engine = create_engine(
        f"sqlite+pysqlite:///{path}",
        connect_args={"timeout": 10, "check_same_thread": False},
        # A file has no server to overload: extra connections beyond the kept ones are fine.
        pool_size=pool_size,
        max_overflow=-1,
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # transactions are begun below, not by the driver
        for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON"):
            dbapi_conn.execute(f"PRAGMA {pragma}")

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        write = conn.get_execution_options().get("cc_write", True)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine


_USE = "use postgresql+psycopg://user:password@host:5432/database or sqlite:////path/to/file"


def parse_url(raw: str) -> URL:
    """The database URL, checked before any driver sees it: every malformed one is one
    `StoreError` line naming what is wrong, never the URL's text (it may hold a password)."""
    if not raw.strip():
        raise StoreError(f"the database URL (CALLCENTER_DATABASE_URL) is empty; {_USE}")
    try:
        url = make_url(raw.strip())
        port = url.port  # SQLAlchemy reads the port lazily on some versions: a bad one raises here
    except ValueError:  # SQLAlchemy's int() of the text after the host's colon
        raise StoreError(f"the port in the database URL (CALLCENTER_DATABASE_URL) is not a number; {_USE}") from None
    except (ArgumentError, TypeError):
        raise StoreError(f"the database URL (CALLCENTER_DATABASE_URL) is not a URL; {_USE}") from None
    backend, _, driver = url.drivername.partition("+")  # read here: SQLAlchemy would import the dialect
    if backend not in ("postgresql", "postgres", "sqlite"):
        raise StoreError(f"unsupported database {safe_url(raw)}: {_USE}")
    if backend != "sqlite" and driver not in ("psycopg", "psycopg2", ""):
        raise StoreError(f"unsupported PostgreSQL driver {driver!r} in the database URL: {_USE}")
    if backend == "sqlite" and driver not in ("pysqlite", ""):
        raise StoreError(f"unsupported SQLite driver {driver!r} in the database URL: {_USE}")
    if port is not None and not 0 < port < 65536:
        raise StoreError("the port in the database URL (CALLCENTER_DATABASE_URL) must be a number from 1 to 65535")
    if backend == "sqlite" and url.host:
        raise StoreError(f"a SQLite database URL names a file, not a host: {_USE}")
    # psycopg 3 for every PostgreSQL URL (not the psycopg2 default; "postgres://" as many hosts write it).
    return url.set(drivername="postgresql+psycopg") if backend != "sqlite" else url


def make_engine(target: Path | DatabaseTarget) -> Engine:
    if isinstance(target, Path):
        return _sqlite_engine(target, pool_size=5)
    url = parse_url(target.url)
    if url.get_backend_name() == "sqlite":
        return _sqlite_engine(Path(url.database or ":memory:"), pool_size=target.pool_size)
    try:
        return create_engine(
            url,
            pool_size=target.pool_size,
            max_overflow=target.max_overflow,
            pool_timeout=target.pool_timeout_s,
            pool_pre_ping=True,  # a restarted server or a dropped connection is replaced, not an error
            connect_args={"connect_timeout": max(1, int(target.connect_timeout_s))},
        )
    except (NoSuchModuleError, ModuleNotFoundError):
        raise StoreError(
            "PostgreSQL support is not installed: pip install 'callcenter[postgres]'"
        ) from None
