"""The domains this line serves. A fourth domain is one folder and one line in PACKAGES.

A domain folder holds `spec.py` (`DOMAIN = DomainSpec(...)`: specialists, wording, slot
patterns, durable actions); if it has durable work, `actions.py` (`ACTIONS`), which
imports without LiveKit: the Temporal worker reads the action table without loading any task;
if it has settings of its own, `settings.py` (`SETTINGS`, a `SettingsSection`); and if it
talks to a system of its own, `ports.py` (`PORTS`, `PortSpec`s, also given to `DomainSpec`);
if an operator deciding a request should see its records, `console.py` (`RECORDS`); and if
its embedded stand-in keeps tables in the line's database, `schema.py` (`SCHEMA`, its own
Alembic branch).

The functions below are what composition roots (meta/) build from the domains' own values:
the worker's action table, the sentences that name the departments, the slot patterns, and
the vocabularies of metric labels and request ids. They read `DOMAINS` when called, so a
test-only registry (or a patched one) is seen everywhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING

from callcenter.llm.templates import Phrasebook, join_words
from callcenter.settings import SettingsSection, load_section
from workflows.actions import ActionTable, DurableAction

if TYPE_CHECKING:
    from callcenter.routing.slots import SlotPattern
    from callcenter.store.adapters import PortSpec
    from callcenter.store.migrate import SchemaBranch
    from console.records import CustomerRecords
    from domains.base import DomainSpec, Wording

PACKAGES: tuple[str, ...] = (
    "domains.billing",
    "domains.technical",
    "domains.account",
)

DOMAINS: tuple[DomainSpec, ...]  # loaded on first use, in PACKAGES order


def __getattr__(name: str) -> object:
    # The specs import every task (and so LiveKit): loaded when first asked for.
    if name == "DOMAINS":
        domains = tuple(import_module(f"{p}.spec").DOMAIN for p in PACKAGES)
        globals()["DOMAINS"] = domains
        return domains
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _loaded() -> tuple[DomainSpec, ...]:
    # A bare `DOMAINS` inside this module would not reach the module __getattr__.
    return globals()["DOMAINS"] if "DOMAINS" in globals() else __getattr__("DOMAINS")  # type: ignore[return-value]


def by_name(name: str) -> DomainSpec | None:
    return next((d for d in _loaded() if d.name == name), None)


def _domains(domains: Sequence[DomainSpec] | None) -> Sequence[DomainSpec]:
    return _loaded() if domains is None else domains


def _optional(package: str, module: str) -> ModuleType | None:
    """A domain's `actions`, `ports`, `settings`, `console` or `schema` module, or None if it has none."""
    try:
        return import_module(f"{package}.{module}")
    except ModuleNotFoundError as err:
        if err.name == f"{package}.{module}":
            return None
        raise


def _actions_of(package: str) -> tuple[DurableAction, ...]:
    module = _optional(package, "actions")
    return tuple(module.ACTIONS) if module else ()  # () : a domain with no durable work


def port_specs(domains: Sequence[DomainSpec] | None = None) -> tuple[PortSpec, ...]:
    """Every domain's own ports (its `ports.PORTS`), for the line and the Temporal worker."""
    if domains is None and "DOMAINS" not in globals():
        found = (_optional(p, "ports") for p in PACKAGES)  # the standalone worker: no task loaded
        return tuple(spec for m in found if m is not None for spec in m.PORTS)
    return tuple(spec for d in _domains(domains) for spec in d.ports)


def operator_records() -> tuple[CustomerRecords, ...]:
    """Every domain's tables for the operator console (its `console.RECORDS`), without loading a task."""
    found = (_optional(p, "console") for p in PACKAGES)
    return tuple(source for m in found if m is not None for source in m.RECORDS)


def schemas() -> tuple[SchemaBranch, ...]:
    """Every domain's own tables (its `schema.SCHEMA`), for `callcenter db upgrade` and the store's opening."""
    found = (_optional(p, "schema") for p in PACKAGES)
    return tuple(m.SCHEMA for m in found if m is not None)


def settings_sections() -> tuple[type[SettingsSection], ...]:
    """Every domain's own settings class (its `settings.SETTINGS`), without loading a task."""
    found = (_optional(p, "settings") for p in PACKAGES)
    return tuple(m.SETTINGS for m in found if m is not None)


def load_sections() -> dict[type[SettingsSection], SettingsSection]:
    """Each domain's settings, read now: a bad value raises SettingsError naming its variable."""
    return {cls: load_section(cls) for cls in settings_sections()}


def action_table(domains: Sequence[DomainSpec] | None = None) -> ActionTable:
    """Every domain's durable actions, by kind: for the worker's activities and the client."""
    if domains is None and "DOMAINS" not in globals():
        # Specs not loaded (the standalone worker): the same ACTIONS, from actions.py alone.
        return ActionTable((a for p in PACKAGES for a in _actions_of(p)), port_specs())
    return ActionTable((a for d in _domains(domains) for a in d.actions), port_specs(domains))


def slot_patterns(domains: Sequence[DomainSpec] | None = None) -> list[SlotPattern]:
    """Every domain's own slots (a charge id, a plan name), for the line's slot reader."""
    return [p for d in _domains(domains) for p in d.slots]


def spoken_ids(domains: Sequence[DomainSpec] | None = None) -> dict[str, str]:
    """Every domain's record-id prefixes and the word said before their digits."""
    return {prefix: word for d in _domains(domains) for prefix, word in d.spoken_ids}


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
