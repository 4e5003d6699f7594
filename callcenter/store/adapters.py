"""Which system answers each port: the SQL store by default, a company's adapter by configuration.

`CALLCENTER_ADAPTERS="billing=acme.line:billing,tickets=acme.line:tickets"` names, per
port, a factory `module:callable` that the line calls once per process with
`(store, settings)` and that returns an object with the port's methods. Ports left out
stay on the SQL store. A wrong entry stops the start with one line naming the entry.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from callcenter.store.ports import Billing, Customers, ServiceStatus, Tickets

if TYPE_CHECKING:
    from callcenter.store import Store

# The name a configuration entry uses for each port, and the field of `Ports` it fills.
AREAS: dict[str, type] = {"customers": Customers, "billing": Billing, "tickets": Tickets, "status": ServiceStatus}


class AdapterError(ValueError):
    """A CALLCENTER_ADAPTERS entry that cannot be used; the message is one line."""


@dataclass(frozen=True, slots=True)
class Ports:
    """The four business systems one line talks to (one object per port, maybe the same one)."""

    customers: Customers
    billing: Billing
    tickets: Tickets
    status: ServiceStatus

    @classmethod
    def of(cls, store: Store) -> Ports:
        """Every port on the SQL store: the default."""
        return cls(customers=store, billing=store, tickets=store, status=store)


def parse(spec: str) -> dict[str, str]:
    """`"billing=pkg.mod:make, tickets=..."` -> {"billing": "pkg.mod:make", ...}."""
    out: dict[str, str] = {}
    for entry in (e.strip() for e in spec.split(",")):
        if not entry:
            continue
        area, sep, target = (p.strip() for p in entry.partition("="))
        if not sep or area not in AREAS:
            raise AdapterError(f"CALLCENTER_ADAPTERS: {area!r} is not a port; use {', '.join(AREAS)} (as port=module:factory)")
        if area in out:
            raise AdapterError(f"CALLCENTER_ADAPTERS: {area} is named twice")
        module, colon, name = target.partition(":")
        if not colon or not module or not name.isidentifier():
            raise AdapterError(f"CALLCENTER_ADAPTERS: {area} needs module:factory, like {area}=mycompany.line:{area}")
        out[area] = target
    return out


def _build(area: str, target: str, store: Store, settings: Any) -> object:
    module, _, name = target.partition(":")
    try:
        factory = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as exc:
        raise AdapterError(f"CALLCENTER_ADAPTERS: {area}: cannot load {target} ({type(exc).__name__})") from None
    adapter = factory(store, settings)
    port = AREAS[area]
    missing = [n for n in vars(port) if not n.startswith("_") and callable(vars(port)[n]) and not callable(getattr(adapter, n, None))]
    if missing:
        raise AdapterError(f"CALLCENTER_ADAPTERS: {area}: {target} lacks {', '.join(sorted(missing))} of the {port.__name__} port")
    return adapter


def load_ports(store: Store, settings: Any) -> Ports:
    """The line's ports: the store for each, except those CALLCENTER_ADAPTERS names."""
    chosen = {area: _build(area, target, store, settings) for area, target in parse(getattr(settings, "adapters", "")).items()}
    return Ports(**{area: chosen.get(area, store) for area in AREAS})


__all__ = ["AREAS", "AdapterError", "Ports", "load_ports", "parse"]
