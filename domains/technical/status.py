"""The embedded status board: incidents and API usage in the line's own database.

The default behind the status port when no company adapter is named; its tables are
technical's schema branch (`schema.py`), checked on first use, as billing's ledger does.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from callcenter.store import Store
from callcenter.store.own_tables import OwnTables
from domains.technical.records import ApiUsage, Incident
from domains.technical.schema import SCHEMA


class StatusBoard(OwnTables):
    """Every method of the status port over the line's database."""

    schema = SCHEMA

    def api_usage(self, customer_id: str, days: int = 7) -> list[ApiUsage]:
        since = (datetime.now(UTC) - timedelta(days=days)).strftime("%Y-%m-%d")
        return self._db.fetch_all(ApiUsage, "SELECT * FROM api_usage WHERE customer_id = ? AND day > ? ORDER BY day DESC", customer_id, since)

    def incidents(self, *, active_only: bool = False, days: int = 14) -> list[Incident]:
        since = (datetime.now(UTC) - timedelta(days=days)).isoformat()
        sql = "SELECT * FROM incidents WHERE started_at >= ?"
        if active_only:
            sql += " AND status != 'resolved'"
        return self._db.fetch_all(Incident, sql + " ORDER BY started_at DESC", since)

    def add_incident(self, incident: Incident) -> None:
        """Post an incident (what the status page would): for tests and demos."""
        self._db.execute(
            "INSERT INTO incidents VALUES (?, ?, ?, ?, ?, ?)",
            (incident.id, incident.service, incident.title, incident.status, incident.started_at, incident.resolved_at),
        )


def embedded(store: Store, settings: Any) -> StatusBoard:
    """The status port's stand-in (PortSpec.default): built once per process."""
    return StatusBoard(store)
