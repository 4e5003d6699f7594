"""What an operator sees of a customer's records beside a request: tables a domain hands in.

The console names no business: billing shows charges and refunds, a shipping domain its
parcels. A domain declares `RECORDS` (functions of the line's ports and a customer id) in
its `console.py`; the composition root hands them to the console.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Cell = str | int | None


@dataclass(frozen=True, slots=True)
class RecordTable:
    """One titled table; `money` lists the columns that are cents (shown as dollars)."""

    title: str
    rows: list[tuple[Cell, ...]] = field(default_factory=list)
    money: tuple[int, ...] = ()
    unavailable: bool = False  # the system behind it did not answer


# (ports, customer_id) -> the domain's tables for that customer, newest first.
CustomerRecords = Callable[[Any, str], list[RecordTable]]


def read_records(sources: tuple[CustomerRecords, ...], ports: Any, customer_id: str) -> list[RecordTable]:
    """Every domain's tables. A system that fails shows as one unavailable table (the operator
    still sees the rest and the request), never as an error page."""
    out: list[RecordTable] = []
    for source in sources:
        try:
            out.extend(source(ports, customer_id))
        except Exception:  # noqa: BLE001 - a company's adapter may raise anything; the page must still render
            # Titled after the source ("billing_records" -> "Billing"): its own titles are unknown.
            title = source.__name__.removesuffix("_records").replace("_", " ").capitalize()
            out.append(RecordTable(title=title, unavailable=True))
    return out
