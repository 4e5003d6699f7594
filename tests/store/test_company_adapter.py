"""A company's own systems plug in by configuration, and a whole call runs on them.

The SQL store here has no demo data at all: the caller Acme knows (C7001) exists only in
the adapter, so verifying, refunding, reading the status page and booking a person can
only work if every specialist reads and writes through the ports.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

import tests.store.acme_line as acme
from callcenter.settings import load_settings
from callcenter.store import Store
from callcenter.store.adapters import AdapterError, Ports, PortSpec, load_ports, parse
from domains.billing.ledger import Ledger
from domains.billing.ports import PORTS as BILLING
from domains.billing.ports import billing_port
from domains.technical.ports import PORTS as STATUS
from domains.technical.ports import status_port
from domains.technical.status import StatusBoard
from meta.session import build_line, start_call

ALL_FOUR = ",".join(f"{p}=tests.store.acme_line:systems" for p in ("customers", "billing", "tickets", "status"))
# What the line keeps for itself whoever holds the business data (throttling, audit, outbox).
LINE_RECORDS = {"verification_attempts", "audit_log", "notifications", "work_requests", "durable_outcomes", "pending_changes",
                "caller_requests", "call_outcomes", "call_needs", "alembic_version"}  # outcomes: the line's KPIs


def _tables_with_rows(db: Path) -> set[str]:
    with sqlite3.connect(db) as conn:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        return {n for n in names if conn.execute(f'SELECT COUNT(*) FROM "{n}"').fetchone()[0]}  # noqa: S608 - names from sqlite_master


@pytest.fixture
def acme_line(tmp_path: Path, router_cache: Path, monkeypatch: pytest.MonkeyPatch):  # noqa: ANN201
    shutil.copytree(router_cache, tmp_path / "models")
    monkeypatch.chdir(tmp_path)  # no stray .env
    monkeypatch.setenv("CALLCENTER_ADAPTERS", ALL_FOUR)
    monkeypatch.setattr(acme, "SYSTEMS", None)  # a fresh Acme for this test
    db = tmp_path / "line.sqlite3"
    store = Store(db, seed_demo=False)
    line = build_line(load_settings(data_dir=tmp_path, hold_on_line_s=0), store=store)
    yield line, db
    store.close()


async def test_a_whole_call_runs_on_the_companys_systems(acme_line) -> None:  # noqa: ANN001
    line, db = acme_line
    systems = acme.SYSTEMS
    assert systems is not None and line.ports == Ports(systems, systems, declared={"billing": systems, "status": systems})
    call = await start_call(line)
    try:
        turn = await call.send("hi um i think i was charged twice for my plan")
        assert "verify" in " ".join(turn.replies), turn.replies
        turn = await call.send("uh sure it's c7001 and the zip is 02139")
        said = " ".join(turn.replies)
        assert "To confirm" in said and "CH-7001-D on account C7001" in said, said
        turn = await call.send("yes please")
        assert "refunded $49.00" in " ".join(turn.replies), turn.replies
        turn = await call.send("is the dashboard down or something")
        assert "Acme dashboard loads slowly" in " ".join(turn.replies), turn.replies
        turn = await call.send("ok can i talk to a real person")
        said = " ".join(turn.replies)
        [ticket] = systems.tickets.values()
        assert ticket.id in said and ticket.customer_id == "C7001", said
    finally:
        await call.close()
    [refund] = systems.refunds
    assert (refund.charge_id, refund.amount_cents, refund.approved_by) == ("CH-7001-D", 4900, None)
    assert {"get_customer", "list_charges", "record_refund", "incidents", "create_ticket"} <= set(systems.calls)
    # The SQL store holds no business data: nothing was read from it or written to it.
    assert _tables_with_rows(db) <= LINE_RECORDS, _tables_with_rows(db) - LINE_RECORDS


def test_unconfigured_ports_stay_on_the_store(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite3")
    try:
        settings = load_settings(data_dir=tmp_path, adapters="tickets=tests.store.acme_line:systems")
        ports = load_ports(store, settings, BILLING + STATUS)
        assert ports.customers is store and isinstance(billing_port(ports), Ledger)
        assert isinstance(status_port(ports), StatusBoard)
        assert isinstance(ports.tickets, acme.AcmeSystems)
        assert load_ports(store, load_settings(data_dir=tmp_path)) == Ports.of(store)
    finally:
        store.close()


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("payments=tests.store.acme_line:systems", "'payments' is not a port; use customers, tickets, billing, status"),
        ("billing", "'billing' is not a port"),
        ("billing=tests.store.acme_line", "billing needs module:factory"),
        ("billing=tests.store.acme_line:systems,billing=tests.store.acme_line:systems", "billing is named twice"),
        ("billing=tests.store.no_such_module:systems", "billing: cannot load tests.store.no_such_module:systems (ModuleNotFoundError)"),
        ("billing=tests.store.acme_line:nothing", "cannot load tests.store.acme_line:nothing (AttributeError)"),
        ("billing=tests.store.acme_line:billing_without_refunds", "lacks record_refund of the Billing port"),
    ],
)
def test_a_wrong_entry_stops_the_start_with_one_line(spec: str, says: str, tmp_path: Path) -> None:
    store = Store(tmp_path / "s.sqlite3")
    try:
        with pytest.raises(AdapterError) as err:
            load_ports(store, load_settings(data_dir=tmp_path, adapters=spec), BILLING + STATUS)
        assert says in str(err.value) and "\n" not in str(err.value), str(err.value)
    finally:
        store.close()


def test_spaces_and_empty_entries_are_allowed() -> None:
    assert parse(" billing = a.b:c , ,tickets=d:e ", ("tickets", "billing")) == {"billing": "a.b:c", "tickets": "d:e"}
    assert parse("") == {}


async def test_an_approved_refund_is_paid_by_the_companys_billing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The worker's own activity, in Temporal's activity test environment: an operator approved
    # a refund; the effect must reach Acme's billing, once, however often Temporal retries.
    from temporalio.testing import ActivityEnvironment

    from domains import registry
    from workflows.activities import CallcenterActivities
    from workflows.models import ApprovalRequest, FinishInput

    monkeypatch.setattr(acme, "SYSTEMS", None)
    db = tmp_path / "line.sqlite3"
    store = Store(db, seed_demo=False)
    try:
        ports = load_ports(store, load_settings(data_dir=tmp_path, adapters=ALL_FOUR), BILLING + STATUS)
        acts = CallcenterActivities(store, registry.action_table(), ports=ports)
        req = ApprovalRequest(kind="refund", customer_id="C7001", amount_cents=4900, record_id="CH-7001-D",
                              caller_reason="charged twice", policy_finding="duplicate", requested_by="billing/refund",
                              request_id="refund-CH-7001-D")
        done = FinishInput(request=req, verdict="approved", decided_by="op-ana", reason="duplicate", waited_s=3.0)
        env = ActivityEnvironment()
        first = env.run(acts.finish_approval, done)
        again = env.run(acts.finish_approval, done)  # a retry after a lost acknowledgement
        assert (first.state, first.created, again.created) == ("completed", True, False)
        [refund] = acme.SYSTEMS.refunds
        assert (refund.charge_id, refund.amount_cents, refund.approved_by) == ("CH-7001-D", 4900, "op-ana")
        assert Ledger(store).list_refunds() == []  # not the SQL store's ledger
    finally:
        store.close()


async def test_an_approved_closure_reaches_the_companys_customers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 29: the closure went into the line's own customers table with raw SQL, so Acme's
    # customer system never saw it. It goes through the customers port now.
    from temporalio.testing import ActivityEnvironment

    from domains import registry
    from workflows.activities import CallcenterActivities
    from workflows.models import ApprovalRequest, FinishInput

    monkeypatch.setattr(acme, "SYSTEMS", None)
    store = Store(tmp_path / "line.sqlite3", seed_demo=False)
    try:
        ports = load_ports(store, load_settings(data_dir=tmp_path, adapters=ALL_FOUR), BILLING + STATUS)
        acts = CallcenterActivities(store, registry.action_table(), ports=ports)
        req = ApprovalRequest(kind="close_account", customer_id="C7001", amount_cents=None, caller_reason="moving",
                              policy_finding="closure", requested_by="account/close_account", request_id="close_account-C7001")
        done = FinishInput(request=req, verdict="approved", decided_by="op-ana", reason="confirmed", waited_s=3.0)
        assert ActivityEnvironment().run(acts.finish_approval, done).state == "completed"
        assert acme.SYSTEMS.customers["C7001"].closed and "close_account" in acme.SYSTEMS.calls
    finally:
        store.close()


def test_the_real_command_says_a_wrong_entry_in_one_line(data_dir: Path) -> None:
    import subprocess

    from tests.conftest import CALLCENTER, cli_env

    env = cli_env(data_dir, CALLCENTER_ADAPTERS="billing=tests.store.no_such_module:systems")
    out = subprocess.run([CALLCENTER, "call"], input="hello\n", env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 2, out.stderr[-2000:]
    assert out.stderr.strip() == "error: CALLCENTER_ADAPTERS: billing: cannot load tests.store.no_such_module:systems (ModuleNotFoundError)"


# --- a domain's own port (the fourth domain's carrier) ------------------------------------
class _Carrier:
    def __init__(self) -> None:
        self.orders: dict[str, str] = {}

    def order_replacement(self, *, customer_id: str, reference: str, idempotency_key: str) -> str:
        return self.orders.setdefault(idempotency_key, f"ACME-{len(self.orders) + 1}")


CARRIER = _Carrier()


def acme_carrier(store: Store, settings: object) -> _Carrier:
    return CARRIER


def no_carrier_methods(store: Store, settings: object) -> object:
    return object()


def test_a_domain_brings_its_own_port(tmp_path: Path) -> None:
    """Declared in the domain's folder (tests/fixtures/domains/shipping/ports.py), named in
    CALLCENTER_ADAPTERS like the two every line has, checked against its Protocol."""
    from tests.fixtures.domains.shipping.ports import PORTS, StoreCarrier

    store = Store(tmp_path / "s.sqlite3")
    try:
        embedded = load_ports(store, load_settings(data_dir=tmp_path), PORTS)
        assert isinstance(embedded.port("carrier"), StoreCarrier)
        named = load_ports(store, load_settings(data_dir=tmp_path, adapters=f"carrier={__name__}:acme_carrier"), PORTS)
        carrier = named.port("carrier")
        assert carrier is CARRIER
        assert carrier.order_replacement(customer_id="C1001", reference="reship-pkg-1", idempotency_key="k") == \
            carrier.order_replacement(customer_id="C1001", reference="reship-pkg-1", idempotency_key="k")
        # Without the domain's spec the name is unknown, and a line without it has no such port.
        with pytest.raises(AdapterError, match=r"'carrier' is not a port; use customers, tickets \(as"):
            load_ports(store, load_settings(data_dir=tmp_path, adapters=f"carrier={__name__}:acme_carrier"))
        with pytest.raises(LookupError, match="no port named 'carrier'"):
            Ports.of(store).port("carrier")
        with pytest.raises(AdapterError, match="lacks order_replacement of the Carrier port"):
            load_ports(store, load_settings(data_dir=tmp_path, adapters=f"carrier={__name__}:no_carrier_methods"), PORTS)
        with pytest.raises(AdapterError, match="use customers, tickets, billing, status, carrier "):
            load_ports(store, load_settings(data_dir=tmp_path, adapters=f"parcels={__name__}:acme_carrier"), BILLING + STATUS + PORTS)
        # A domain cannot take over a shared port, or another domain's, by naming its port the same.
        for name in ("tickets", "billing", "status"):
            clash = (PortSpec(name, PORTS[0].protocol, PORTS[0].default),)
            with pytest.raises(AdapterError, match=f"two ports are named '{name}'"):
                load_ports(store, load_settings(data_dir=tmp_path), BILLING + STATUS + clash)
    finally:
        store.close()
