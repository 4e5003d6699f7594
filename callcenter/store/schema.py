"""The schema of releases up to 0.1 as hand-written steps (SQLite `user_version` = last step).

Frozen: new schema changes are Alembic revisions in callcenter/store/migrations/versions/,
or in a domain's own branch for its tables (callcenter/store/migrate.py: `SchemaBranch`).
Step 1 still creates the first domains' tables (plans, charges, api_usage...) because that
is what 0.1 databases hold; billing's branch adopts its tables, and the foundation's code
reads none of them.
Revision 0001 replays the steps a database is missing (an existing SQLite file keeps its
data), and on PostgreSQL all of them with the two spellings that differ (`pg_ddl`).
"""

from __future__ import annotations

# Operators' console: accounts (role and approval limit come from here, never from a request),
# sessions and CLI tokens (stored as SHA-256 of the secret), and the role and customer on
# every audit line so the trail can be searched by operator, request and customer.
OPERATOR_ACCOUNTS = """
    CREATE TABLE operators (
        name TEXT PRIMARY KEY,
        password_hash TEXT,
        role TEXT NOT NULL CHECK (role IN ('agent', 'supervisor', 'manager')),
        limit_cents INTEGER NOT NULL CHECK (limit_cents >= 0),
        customer_id TEXT,
        oidc_subject TEXT UNIQUE,
        disabled INTEGER NOT NULL DEFAULT 0,
        failed_logins INTEGER NOT NULL DEFAULT 0,
        locked_until TEXT,
        created_at TEXT NOT NULL
    );
    CREATE TABLE operator_sessions (
        id_hash TEXT PRIMARY KEY,
        operator TEXT NOT NULL REFERENCES operators(name),
        csrf TEXT NOT NULL,
        created_at TEXT NOT NULL,
        last_seen TEXT NOT NULL,
        expires_at TEXT NOT NULL
    );
    CREATE TABLE operator_tokens (
        id_hash TEXT PRIMARY KEY,
        operator TEXT NOT NULL REFERENCES operators(name),
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        revoked INTEGER NOT NULL DEFAULT 0
    );
    ALTER TABLE audit_log ADD COLUMN role TEXT;
    ALTER TABLE audit_log ADD COLUMN customer_id TEXT;
    CREATE INDEX audit_by_actor ON audit_log(actor, at);
    CREATE INDEX audit_by_subject ON audit_log(subject, at);
    CREATE INDEX audit_by_customer ON audit_log(customer_id, at);
"""

MIGRATIONS: list[str] = [
    # 1: the call-center data model.
    """
    CREATE TABLE plans (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        monthly_price_cents INTEGER NOT NULL CHECK (monthly_price_cents >= 0),
        api_rate_limit_per_min INTEGER NOT NULL,
        api_monthly_quota INTEGER NOT NULL
    );
    CREATE TABLE customers (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        email TEXT NOT NULL UNIQUE,
        phone TEXT NOT NULL,
        zip_code TEXT NOT NULL,
        birth_date TEXT NOT NULL,
        locked INTEGER NOT NULL DEFAULT 0,
        closed INTEGER NOT NULL DEFAULT 0,
        two_factor INTEGER NOT NULL DEFAULT 1,
        api_key_prefix TEXT NOT NULL,
        created_at TEXT NOT NULL
    );
    CREATE TABLE subscriptions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        customer_id TEXT NOT NULL REFERENCES customers(id),
        plan_id TEXT NOT NULL REFERENCES plans(id),
        started_at TEXT NOT NULL,
        ended_at TEXT
    );
    CREATE TABLE charges (
        id TEXT PRIMARY KEY,
        customer_id TEXT NOT NULL REFERENCES customers(id),
        amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
        description TEXT NOT NULL,
        charged_at TEXT NOT NULL,
        invoice_id TEXT
    );
    CREATE TABLE invoices (
        id TEXT PRIMARY KEY,
        customer_id TEXT NOT NULL REFERENCES customers(id),
        period TEXT NOT NULL,
        amount_cents INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('paid', 'open', 'overdue')),
        issued_at TEXT NOT NULL,
        due_at TEXT NOT NULL
    );
    CREATE TABLE refunds (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        charge_id TEXT NOT NULL REFERENCES charges(id),
        customer_id TEXT NOT NULL REFERENCES customers(id),
        amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
        reason TEXT NOT NULL,
        idempotency_key TEXT NOT NULL UNIQUE,
        approved_by TEXT,
        created_at TEXT NOT NULL
    );
    CREATE TABLE api_usage (
        customer_id TEXT NOT NULL REFERENCES customers(id),
        day TEXT NOT NULL,
        requests INTEGER NOT NULL,
        errors_401 INTEGER NOT NULL DEFAULT 0,
        errors_403 INTEGER NOT NULL DEFAULT 0,
        errors_429 INTEGER NOT NULL DEFAULT 0,
        errors_5xx INTEGER NOT NULL DEFAULT 0,
        peak_per_min INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (customer_id, day)
    );
    CREATE TABLE incidents (
        id TEXT PRIMARY KEY,
        service TEXT NOT NULL,
        title TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('investigating', 'monitoring', 'resolved')),
        started_at TEXT NOT NULL,
        resolved_at TEXT
    );
    CREATE TABLE login_events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        customer_id TEXT NOT NULL REFERENCES customers(id),
        at TEXT NOT NULL,
        success INTEGER NOT NULL,
        country TEXT NOT NULL
    );
    CREATE TABLE tickets (
        id TEXT PRIMARY KEY,
        customer_id TEXT,
        kind TEXT NOT NULL,
        summary TEXT NOT NULL,
        status TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE TABLE profile_changes (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        customer_id TEXT NOT NULL REFERENCES customers(id),
        field TEXT NOT NULL,
        changed_at TEXT NOT NULL
    );
    -- Requests for durable work, kept here first so nothing is lost while Temporal is down.
    CREATE TABLE work_requests (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        customer_id TEXT,
        amount_cents INTEGER,
        payload TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'queued',
        created_at TEXT NOT NULL,
        submitted_at TEXT
    );
    CREATE TABLE notifications (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        customer_id TEXT,
        channel TEXT NOT NULL,
        body TEXT NOT NULL,
        dedupe_key TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        sent_at TEXT
    );
    CREATE TABLE audit_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        subject TEXT NOT NULL,
        action TEXT NOT NULL,
        actor TEXT NOT NULL,
        reason TEXT NOT NULL,
        at TEXT NOT NULL
    );
    CREATE INDEX charges_by_customer ON charges(customer_id, charged_at);
    CREATE INDEX logins_by_customer ON login_events(customer_id, at);
    CREATE INDEX tickets_by_customer ON tickets(customer_id);
    """,
    # 2: outcomes of durable work (Temporal), one row per idempotency key. Activities write
    # their side effect and this row in one transaction, so a retried activity finds the row
    # and does nothing twice; the line reads it when Temporal is unreachable.
    """
    CREATE TABLE durable_outcomes (
        key TEXT PRIMARY KEY,
        request_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        customer_id TEXT,
        state TEXT NOT NULL,
        decided_by TEXT,
        reason TEXT,
        detail TEXT,
        at TEXT NOT NULL
    );
    CREATE INDEX durable_outcomes_by_request ON durable_outcomes(request_id, at);
    """,
    OPERATOR_ACCOUNTS,
    # 4: safety (issue 10). Every identity verification attempt, so guessing is throttled per
    # customer and per calling line across calls; and contact changes that wait for a step-up
    # (a call back to the number on file) before they are applied.
    """
    CREATE TABLE verification_attempts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at TEXT NOT NULL,
        customer_id TEXT,
        line TEXT NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('success', 'failure', 'locked_out')),
        actor TEXT NOT NULL
    );
    CREATE INDEX verification_by_customer ON verification_attempts(customer_id, at);
    CREATE INDEX verification_by_line ON verification_attempts(line, at);
    CREATE TABLE pending_changes (
        id TEXT PRIMARY KEY,
        customer_id TEXT NOT NULL REFERENCES customers(id),
        field TEXT NOT NULL CHECK (field IN ('email', 'phone', 'unlock')),
        new_value TEXT,
        status TEXT NOT NULL DEFAULT 'awaiting_callback',
        created_at TEXT NOT NULL,
        decided_at TEXT
    );
    """,
]

SCHEMA_VERSION = len(MIGRATIONS)


def pg_ddl(step: str) -> str:
    """A step's DDL for PostgreSQL: identity keys instead of SQLite's AUTOINCREMENT."""
    return step.replace("INTEGER PRIMARY KEY AUTOINCREMENT", "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY")


def statements(step: str) -> list[str]:
    lines = [ln for ln in step.splitlines() if not ln.strip().startswith("--")]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]
