"""The domains this line serves. A fourth domain is one folder and one line here."""

from __future__ import annotations

from domains import account, billing, technical
from domains.base import DomainSpec

DOMAINS: tuple[DomainSpec, ...] = (
    billing.DOMAIN,
    technical.DOMAIN,
    account.DOMAIN,
)


def by_name(name: str) -> DomainSpec | None:
    return next((d for d in DOMAINS if d.name == name), None)
