"""The domains this line serves. A fourth domain is one folder and one line here.

The functions below are what composition roots (meta/) build from the domains' own values:
the Temporal worker's action table, the sentences that list the departments, and the
vocabularies of metric labels and request ids. They read `DOMAINS` when called, so a
test-only registry (or a patched one) is seen everywhere.
"""

from __future__ import annotations

from collections.abc import Sequence

from callcenter.llm.templates import Phrasebook, join_words
from domains import account, billing, technical
from domains.base import DomainSpec, Wording
from workflows.actions import ActionTable

DOMAINS: tuple[DomainSpec, ...] = (
    billing.DOMAIN,
    technical.DOMAIN,
    account.DOMAIN,
)


def by_name(name: str) -> DomainSpec | None:
    return next((d for d in DOMAINS if d.name == name), None)


def _domains(domains: Sequence[DomainSpec] | None) -> Sequence[DomainSpec]:
    return DOMAINS if domains is None else domains


def action_table(domains: Sequence[DomainSpec] | None = None) -> ActionTable:
    """Every domain's durable actions, by kind: for the worker's activities and the client."""
    return ActionTable(a for d in _domains(domains) for a in d.actions)


def wordings(domains: Sequence[DomainSpec] | None = None) -> list[Wording]:
    return [d.wording for d in _domains(domains) if d.wording is not None]


def phrasebook(domains: Sequence[DomainSpec] | None = None) -> Phrasebook:
    """The greeting, the out-of-scope reply and the open question, naming every department."""
    words = wordings(domains)
    return Phrasebook.for_departments([w.offer for w in words], [w.ask for w in words])


def prompt_departments(domains: Sequence[DomainSpec] | None = None) -> str:
    """'billing, technical support and accounts', for a hosted LLM's instructions."""
    return join_words([w.prompt for w in wordings(domains)], "and")


def department_names(domains: Sequence[DomainSpec] | None = None) -> str:
    """'billing, technical or account': the names a supervisor may hand a request to."""
    return join_words([d.name for d in _domains(domains)], "or")
