"""Composition: the domains' durable actions, handed to everything below that needs them.

The Temporal worker's activities and the client validate and carry out requests from this
table; the metrics and the slot reader learn the request kinds from it. Nothing below meta/
imports the domains.
"""

from __future__ import annotations

from collections.abc import Sequence

from callcenter import metrics
from callcenter.routing.slots import register_request_kinds
from domains import registry
from domains.base import DomainSpec
from workflows.actions import ActionTable


def durable_actions(domains: Sequence[DomainSpec] | None = None) -> ActionTable:
    """The action table of `domains` (default: the registry's), with its kinds declared to
    the metrics label vocabulary and the request-id slot pattern."""
    table = registry.action_table(domains)
    metrics.register_kinds(table.kinds)
    register_request_kinds(table.kinds)
    return table
