"""The store: a versioned SQLite database behind a small typed repository."""

from callcenter.store.repository import Store, StoreError, now_iso

__all__ = ["Store", "StoreError", "now_iso"]
