"""The embedded stand-ins implement their ports with the ports' exact signatures: the SQL
store the two every line has, billing's ledger and technical's status board their domains'."""

from __future__ import annotations

import inspect

import pytest

from callcenter.store import Store
from callcenter.store.ports import PORTS
from domains.billing.ledger import Ledger
from domains.billing.ports import Billing
from domains.technical.ports import ServiceStatus
from domains.technical.status import StatusBoard

STAND_INS = [(Store, port) for port in PORTS] + [(Ledger, Billing), (StatusBoard, ServiceStatus)]


@pytest.mark.parametrize(("impl", "port"), STAND_INS, ids=lambda p: p.__name__)
def test_each_stand_in_implements_its_port_with_its_signatures(impl: type, port: type) -> None:
    methods = [n for n, v in vars(port).items() if callable(v) and not n.startswith("_")]
    assert methods, port
    for name in methods:
        want = inspect.signature(getattr(port, name))
        have = inspect.signature(getattr(impl, name))
        assert list(have.parameters) == list(want.parameters), name
        assert [p.kind for p in have.parameters.values()] == [p.kind for p in want.parameters.values()], name
        assert [p.default for p in have.parameters.values()] == [p.default for p in want.parameters.values()], name
        assert str(have.return_annotation) == str(want.return_annotation), name


def test_a_live_store_is_each_port(store: Store) -> None:
    assert all(isinstance(store, port) for port in PORTS)
    assert isinstance(Ledger(store), Billing) and not isinstance(store, Billing)
    assert isinstance(StatusBoard(store), ServiceStatus) and not isinstance(store, ServiceStatus)
