"""Alembic environment: runs on the connection `callcenter.store.migrate` hands over.

The caller has already begun the transaction and, on PostgreSQL, taken the migration
advisory lock, so several pods starting together migrate once and the rest wait.
"""

from __future__ import annotations

from alembic import context

connection = context.config.attributes["connection"]
# A domain's branch records its revisions in a version table of its own (migrate.SchemaBranch).
version_table = context.config.attributes.get("version_table", "alembic_version")
context.configure(connection=connection, target_metadata=None, transactional_ddl=True, version_table=version_table)
with context.begin_transaction():
    context.run_migrations()
