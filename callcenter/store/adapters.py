"""Which system answers each port: the SQL store by default, a company's adapter by configuration.

`CALLCENTER_ADAPTERS="billing=acme.line:billing,tickets=acme.line:tickets"` names, per
port, a factory `module:callable` that the line calls once per process with
`(store, settings)` and that returns an object with the port's methods. Ports left out
stay on their embedded stand-in. A wrong entry stops the start with one line naming it.

Two ports every line has (customers, tickets) are the SQL store by default. A domain that
talks to a system of its own (billing's ledger, technical's status page, a carrier for
shipping) declares it as a `PortSpec` in its folder; the composition root hands the specs to
`load_ports`, the port is named in `CALLCENTER_ADAPTERS` like the two, and code reads it as
`ports.port(name)`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from callcenter.store.ports import Customers, Tickets

if TYPE_CHECKING:
    from callcenter.store import Store

# The name a configuration entry uses for each port, and the field of `Ports` it fills.
AREAS: dict[str, type] = {"customers": Customers, "tickets": Tickets}


class AdapterError(ValueError):
    """A CALLCENTER_ADAPTERS entry that cannot be used; the message is one line."""


@dataclass(frozen=True, slots=True)
class PortSpec:
    """A port a domain brings: the name `CALLCENTER_ADAPTERS` uses for it, the methods an
    adapter must have (a Protocol), and the embedded stand-in used when no adapter is
    named, built once per process from `(store, settings)` like an adapter."""

    name: str
    protocol: type
    default: Callable[[Store, Any], object]


@dataclass(frozen=True, slots=True)
class Ports:
    """The business systems one line talks to (one object per port, maybe the same one):
    the two every line has, and those its domains declare (`port(name)`)."""

    customers: Customers
    tickets: Tickets
    declared: Mapping[str, object] = field(default_factory=dict)

    def port(self, name: str) -> Any:
        """A domain's own port, by the name its `PortSpec` gives."""
        try:
            return self.declared[name]
        except KeyError:
            raise LookupError(f"no port named {name!r}: the composition root was not given its PortSpec") from None

    def close_account(self, customer_id: str) -> None:
        """An approved closure, in every system that keeps the customer: the customers port
        marks the account closed, then each domain's port with an `account_closed` method
        ends what it keeps for them (billing's ledger ends the subscription). Idempotent."""
        self.customers.close_account(customer_id)
        for port in self.declared.values():
            ended = getattr(port, "account_closed", None)
            if callable(ended):
                ended(customer_id)

    @classmethod
    def of(cls, store: Store) -> Ports:
        """The two shared ports on the SQL store, and no domain's own."""
        return cls(customers=store, tickets=store)


def parse(spec: str, names: Sequence[str] = tuple(AREAS)) -> dict[str, str]:
    """`"billing=pkg.mod:make, tickets=..."` -> {"billing": "pkg.mod:make", ...}."""
    out: dict[str, str] = {}
    for entry in (e.strip() for e in spec.split(",")):
        if not entry:
            continue
        area, sep, target = (p.strip() for p in entry.partition("="))
        if not sep or area not in names:
            raise AdapterError(f"CALLCENTER_ADAPTERS: {area!r} is not a port; use {', '.join(names)} (as port=module:factory)")
        if area in out:
            raise AdapterError(f"CALLCENTER_ADAPTERS: {area} is named twice")
        module, colon, name = target.partition(":")
        if not colon or not module or not name.isidentifier():
            raise AdapterError(f"CALLCENTER_ADAPTERS: {area} needs module:factory, like {area}=mycompany.line:{area}")
        out[area] = target
    return out


def _build(area: str, port: type, target: str, store: Store, settings: Any) -> object:
    module, _, name = target.partition(":")
    try:
        factory = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as exc:
        raise AdapterError(f"CALLCENTER_ADAPTERS: {area}: cannot load {target} ({type(exc).__name__})") from None
    adapter = factory(store, settings)
    missing = [n for n in vars(port) if not n.startswith("_") and callable(vars(port)[n]) and not callable(getattr(adapter, n, None))]
    if missing:
        raise AdapterError(f"CALLCENTER_ADAPTERS: {area}: {target} lacks {', '.join(sorted(missing))} of the {port.__name__} port")
    return adapter


def load_ports(store: Store, settings: Any, declared: Sequence[PortSpec] = ()) -> Ports:
    """The line's ports: the store for each of the two and each domain's own stand-in for
    its declared ports, except those CALLCENTER_ADAPTERS names."""
    protocols = dict(AREAS)
    for spec in declared:
        if spec.name in protocols:
            raise AdapterError(f"CALLCENTER_ADAPTERS: two ports are named {spec.name!r}; a domain's port needs a name of its own")
        protocols[spec.name] = spec.protocol
    entries = parse(getattr(settings, "adapters", ""), tuple(protocols))
    chosen = {area: _build(area, protocols[area], target, store, settings) for area, target in entries.items()}
    own = {spec.name: chosen[spec.name] if spec.name in chosen else spec.default(store, settings) for spec in declared}
    return Ports(**{area: chosen.get(area, store) for area in AREAS}, declared=own)


__all__ = ["AREAS", "AdapterError", "PortSpec", "Ports", "load_ports", "parse"]
