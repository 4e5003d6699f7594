"""The base of a domain's embedded stand-in that keeps tables in the line's database."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from callcenter.store.migrate import SchemaBranch
    from callcenter.store.repository import Store


class OwnTables:
    """Queries go through `self._db`, which checks the domain's schema branch first (once per
    store, then a set lookup). Checked on first use, not when built: a database that fails
    then fails that call, like any other read, not the line's start."""

    schema: ClassVar[SchemaBranch]

    def __init__(self, store: Store) -> None:
        self._store = store

    @property
    def _db(self) -> Store:
        self._store.ensure_schema(self.schema)
        return self._store
