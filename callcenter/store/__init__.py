"""The store: one SQL database (embedded SQLite file or a PostgreSQL server) behind a typed repository."""

from callcenter.store.engine import DatabaseTarget, StoreUnavailable
from callcenter.store.repository import Store, StoreError, now_iso

__all__ = ["DatabaseTarget", "Store", "StoreError", "StoreUnavailable", "now_iso"]
