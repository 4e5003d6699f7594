"""Durable actions as values: what an approved request does, declared by the domain that owns it.

The workflows and activities know no domain. A domain folder declares its `DurableAction`s
(kind, required fields, the phrase a notice uses, the effect, a policy check); the composition
root (meta/) builds an `ActionTable` from `domains.registry` and passes it to the worker's
activities and to the client at construction. The workflow code never reads the table, so
workflow histories replay the same whatever domains are installed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from callcenter.store import durable as d
from callcenter.store.adapters import Ports, PortSpec
from workflows.models import ApprovalRequest


@dataclass(frozen=True, slots=True)
class Applied:
    """What an effect did: a detail for the record, and/or an effect to run inside the
    outcome's transaction (so it happens exactly once with it)."""

    detail: str | None = None
    effect: d.Effect | None = None


# (the line's ports, the request, the idempotency key, who decided) -> Applied. Raises ValueError when
# the action is impossible (retrying cannot help): the request is recorded as failed.
EffectFn = Callable[[Ports, ApprovalRequest, str, str], Applied]
# A refusal reason for a request this action must never run, or None. Checked when the
# request is submitted and again just before the effect (the outbox may hold old rows).
PolicyFn = Callable[[ApprovalRequest], str | None]


@dataclass(frozen=True, slots=True)
class DurableAction:
    kind: str  # the request kind, the prefix of its business id ("refund-CH-1001-D")
    what: str  # how a notice names it: "refund", "account closure"
    effect: EffectFn
    required: tuple[str, ...] = ()  # ApprovalRequest fields that must be set ("record_id")
    policy: PolicyFn | None = None
    domain: str = ""  # the owning domain, for the operator's listing
    # The lowest operator role that may decide it ("agent", "supervisor", "manager"); the
    # workflow enforces it. CALLCENTER_APPROVAL_MIN_ROLE overrides it per kind.
    min_role: str = "agent"

    def refusal(self, req: ApprovalRequest) -> str | None:
        """Why `req` cannot be this action, or None."""
        missing = [f for f in self.required if not getattr(req, f, None)]
        if missing:
            return f"a {self.what} approval needs {' and '.join(missing)}"
        return self.policy(req) if self.policy is not None else None


class ActionTable(Mapping[str, DurableAction]):
    """kind -> action, built once by a composition root; duplicate kinds are an error.

    `ports` are the domains' own ports (billing's ledger) that the effects reach: they come
    with the actions, so a worker given the table cannot lack the system a refund is paid in."""

    def __init__(self, actions: Iterable[DurableAction], ports: Sequence[PortSpec] = ()) -> None:
        self.ports = tuple(ports)
        self._by_kind: dict[str, DurableAction] = {}
        for action in actions:
            if action.kind in self._by_kind:
                raise ValueError(f"two durable actions declare the kind {action.kind!r}")
            self._by_kind[action.kind] = action

    def __getitem__(self, kind: str) -> DurableAction:
        return self._by_kind[kind]

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_kind)

    def __len__(self) -> int:
        return len(self._by_kind)

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(self._by_kind)

    def what(self, kind: str) -> str:
        action = self._by_kind.get(kind)
        return action.what if action is not None else kind
