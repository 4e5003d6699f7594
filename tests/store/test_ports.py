"""The SQL store is the default adapter of every port, with the ports' exact signatures."""

from __future__ import annotations

import inspect

import pytest

from callcenter.store import Store
from callcenter.store.ports import PORTS


@pytest.mark.parametrize("port", PORTS, ids=lambda p: p.__name__)
def test_store_implements_the_port_with_its_signatures(port: type) -> None:
    methods = [n for n, v in vars(port).items() if callable(v) and not n.startswith("_")]
    assert methods, port
    for name in methods:
        want = inspect.signature(getattr(port, name))
        have = inspect.signature(getattr(Store, name))
        assert list(have.parameters) == list(want.parameters), name
        assert [p.kind for p in have.parameters.values()] == [p.kind for p in want.parameters.values()], name
        assert [p.default for p in have.parameters.values()] == [p.default for p in want.parameters.values()], name
        assert str(have.return_annotation) == str(want.return_annotation), name


def test_a_live_store_is_each_port(store: Store) -> None:
    assert all(isinstance(store, port) for port in PORTS)
