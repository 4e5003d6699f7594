"""Composition: the domains' durable actions, own ports and console tables, handed to everything below that needs them.

The Temporal worker's activities and the client validate and carry out requests from this
table; the metrics learn the request kinds from it (and the line's slot reader, in meta/session.py). Nothing below meta/
imports the domains.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from callcenter import metrics
from domains import registry
from workflows.actions import ActionTable

if TYPE_CHECKING:
    from callcenter.store.adapters import PortSpec
    from callcenter.store.migrate import SchemaBranch
    from console.records import CustomerRecords
    from domains.base import DomainSpec


def durable_actions(domains: Sequence[DomainSpec] | None = None) -> ActionTable:
    """The action table of `domains` (default: the registry's), with its kinds declared to
    the metrics label vocabulary. Cheap: without specs loaded it reads only actions.py."""
    table = registry.action_table(domains)
    metrics.register_kinds(table.kinds)
    return table


def operator_records() -> tuple[CustomerRecords, ...]:
    """The tables each domain shows an operator beside a request (billing's charges), for the console."""
    return registry.operator_records()


def domain_schemas() -> tuple[SchemaBranch, ...]:
    """The domains' own tables (billing's ledger), for the store's opening and `callcenter db upgrade`."""
    return registry.schemas()


def domain_ports(domains: Sequence[DomainSpec] | None = None) -> tuple[PortSpec, ...]:
    """The ports the domains bring (a carrier for shipping), for the line and the worker, so an
    approved effect reaches the same system the call did. Cheap like `durable_actions`."""
    return registry.port_specs(domains)
