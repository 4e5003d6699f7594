"""Domain slots are handed down: the foundation's slot reader knows no department's ids or
words; a line's `SlotReader` (built by the composition root from the domains the line serves)
reads them, and so does its `SpokenIds` read their record ids aloud. Nothing is registered
process-wide (tests/core/test_two_lines.py holds two lines in one process)."""

from __future__ import annotations

import re

import pytest

from callcenter.routing.slots import SlotPattern, SlotPatternError, SlotReader, extract_slots
from callcenter.spoken import SpokenIds, for_the_ear
from domains import registry
from meta.session import line_slots

SAID = "uh the charge ch 1002-d on invoice inv 1001-2, um, move me to the pro plan, zip 94107, 503 errors"


def test_the_foundation_alone_reads_only_shared_slots() -> None:
    got = extract_slots(SAID).as_dict()
    assert not {"charge_id", "invoice_id", "plan", "http_status", "ticket_id"} & got.keys(), got
    assert got["zip_code"] == "94107"
    assert extract_slots("what happened to refund-ch-1001-d").request_id is None  # no domain's kinds


def test_the_domains_patterns_fill_their_slots() -> None:
    got = line_slots().read(SAID).as_dict()
    assert got["charge_id"] == "CH-1002-D" and got["invoice_id"] == "INV-1001-2"
    assert got["plan"] == "pro" and got["http_status"] == "503" and got["zip_code"] == "94107"
    assert line_slots().read("what happened to refund-ch-1001-d").request_id == "refund-ch-1001-d"


def test_a_domain_id_is_not_a_zip_code() -> None:
    # "ch-10023": five digits inside a charge id are the id, not a ZIP code
    assert "zip_code" not in line_slots().read("refund charge ch-10023 please").as_dict()


def test_each_slot_is_declared_by_one_domain() -> None:
    names = [p.name for p in registry.slot_patterns()]
    assert len(names) == len(set(names)), names


def test_conflicting_or_shared_names_are_refused() -> None:
    parcel = SlotPattern("parcel_id", re.compile(r"\b(pkg-\d{4,8})\b", re.I), lambda m: m.group(1).upper())
    reader = SlotReader.of([parcel, parcel])  # declared twice, the same pattern: once
    assert reader.read("where is pkg-1234").get("parcel_id") == "PKG-1234"
    with pytest.raises(SlotPatternError, match="declared twice"):
        SlotReader.of([parcel, SlotPattern("parcel_id", re.compile(r"\b(box-\d+)\b"))])
    with pytest.raises(SlotPatternError, match="shared slot"):
        SlotReader.of([SlotPattern("customer_id", re.compile(r"\b(x\d+)\b"))])


def test_record_ids_are_read_aloud_by_the_words_the_domains_declare() -> None:
    reply = "I've refunded $49.00 for CH-1002-D; invoice INV-1001 is paid."
    assert "charge" not in for_the_ear(reply)  # the foundation knows no charge
    said = SpokenIds.of(registry.spoken_ids().items()).for_the_ear(reply)
    assert "charge 1 0 0 2 D" in said and "invoice 1 0 0 1" in said and "invoice invoice" not in said


def test_spoken_id_prefixes_are_declared_once() -> None:
    assert SpokenIds.of([("CH", "charge"), ("CH", "charge")]).ids == {"CH": "charge"}
    with pytest.raises(ValueError):
        SpokenIds.of([("CH", "charge"), ("CH", "chore")])
    with pytest.raises(ValueError):
        SpokenIds.of([("C-H", "charge")])
