"""The store's settings: where the line's records live and how a process reaches them."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import platformdirs
from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings

from callcenter.config.base import CONFIG

if TYPE_CHECKING:
    from callcenter.store.engine import DatabaseTarget



def _default_data_dir() -> Path:
    return Path(platformdirs.user_data_dir("callcenter", appauthor=False))


class StoreSettings(BaseSettings):
    """Read by every process that opens the store (the line, the worker, the console, the CLI)."""

    model_config = CONFIG

    data_dir: Path = Field(default_factory=_default_data_dir, description="Folder for the database and local servers.")
    database_url: SecretStr | None = Field(
        None,
        description="A shared database server for every process, e.g. postgresql+psycopg://user:pw@host:5432/callcenter"
        " (needs the postgres extra); unset = the SQLite file in the data folder.",
    )
    db_pool_size: int = Field(5, ge=1, le=200, description="Database connections each process keeps open (server databases).")
    db_max_overflow: int = Field(5, ge=0, le=200, description="Extra connections a process may open at a peak, closed after use.")
    db_pool_timeout_s: float = Field(
        5.0, gt=0, le=120, description="Seconds a request waits for a free database connection before the caller is told."
    )
    db_connect_timeout_s: float = Field(5.0, gt=0, le=120, description="Seconds to wait for the database server to answer a connect.")
    db_migrate_on_start: bool = Field(
        True,
        description="Upgrade the database schema when a process starts; the chart turns this off and runs"
        " `callcenter db upgrade` once per release instead.",
    )

    adapters: str = Field(
        "",
        description="Company systems that replace the embedded stand-in of a port, as port=module:factory pairs separated"
        " by commas (ports: customers, tickets, and each domain's own: billing, status); see docs/adapters.md.",
    )


    @field_validator("data_dir", mode="before")
    @classmethod
    def _not_empty(cls, v: object) -> object:
        # An empty value would silently mean the current directory.
        if isinstance(v, str | Path) and not str(v).strip():
            raise ValueError("must name a folder, not be empty")
        return v

    @field_validator("database_url", mode="before")
    @classmethod
    def _unset_if_empty(cls, v: object) -> object:
        # The chart renders an empty value when no server is configured: the SQLite default.
        return None if isinstance(v, str) and not v.strip() else v

    @property
    def db_path(self) -> Path | DatabaseTarget:
        """Where the store lives: the SQLite file, or the server named by CALLCENTER_DATABASE_URL."""
        if self.database_url is None:
            return self.data_dir / "callcenter.sqlite3"
        from callcenter.store.engine import DatabaseTarget

        return DatabaseTarget(
            url=self.database_url.get_secret_value(), data_dir=self.data_dir, pool_size=self.db_pool_size,
            max_overflow=self.db_max_overflow, pool_timeout_s=self.db_pool_timeout_s,
            connect_timeout_s=self.db_connect_timeout_s, migrate_on_start=self.db_migrate_on_start,
        )
