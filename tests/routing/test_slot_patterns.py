"""Domain slots are handed down: the foundation's slot reader knows no department's ids or
words until the composition root gives it the patterns the domain folders declare."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from callcenter.routing import slots
from callcenter.routing.slots import (
    SlotPattern,
    SlotPatternError,
    extract_slots,
    register_slot_patterns,
)
from domains import registry
from tests.conftest import ROOT

SAID = "uh the charge ch 1002-d on invoice inv 1001-2, um, move me to the pro plan, zip 94107, 503 errors"


def _fresh(text: str, *, line: bool) -> dict[str, object]:
    """extract_slots in a new interpreter: no other test's registration leaks in."""
    code = (
        "import json, sys\n"
        "from callcenter.routing.slots import extract_slots, register_slot_patterns\n"
        + ("from domains import registry\nregister_slot_patterns(registry.slot_patterns())\n" if line else "")
        + "print(json.dumps(extract_slots(sys.argv[1]).as_dict(), default=str))\n"
    )
    done = subprocess.run([sys.executable, "-c", code, text], capture_output=True, text=True, cwd=ROOT, timeout=120, check=True)
    return json.loads(done.stdout)


def test_the_foundation_alone_reads_only_shared_slots() -> None:
    got = _fresh(SAID, line=False)
    assert not {"charge_id", "invoice_id", "plan", "http_status", "ticket_id"} & got.keys(), got
    assert got["zip_code"] == "94107"


def test_the_domains_patterns_fill_their_slots() -> None:
    got = _fresh(SAID, line=True)
    assert got["charge_id"] == "CH-1002-D" and got["invoice_id"] == "INV-1001-2"
    assert got["plan"] == "pro" and got["http_status"] == "503" and got["zip_code"] == "94107"


def test_a_domain_id_is_not_a_zip_code() -> None:
    # "ch-10023": five digits inside a charge id are the id, not a ZIP code
    assert "zip_code" not in _fresh("refund charge ch-10023 please", line=True)


def test_each_slot_is_declared_by_one_domain() -> None:
    names = [p.name for p in registry.slot_patterns()]
    assert len(names) == len(set(names)), names


def test_conflicting_or_shared_names_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(slots, "_PATTERNS", dict(slots._PATTERNS))  # this test's slot leaves with it
    parcel = SlotPattern("parcel_id", re.compile(r"\b(pkg-\d{4,8})\b", re.I), lambda m: m.group(1).upper())
    register_slot_patterns([parcel, parcel])  # every line of a process declares them again: no-op
    assert extract_slots("where is pkg-1234").get("parcel_id") == "PKG-1234"
    with pytest.raises(SlotPatternError, match="declared twice"):
        register_slot_patterns([SlotPattern("parcel_id", re.compile(r"\b(box-\d+)\b"))])
    with pytest.raises(SlotPatternError, match="shared slot"):
        register_slot_patterns([SlotPattern("customer_id", re.compile(r"\b(x\d+)\b"))])


def _ear_fresh(text: str, *, line: bool) -> str:
    """for_the_ear in a new interpreter, with or without the domains' id prefixes."""
    code = (
        "import sys\nfrom callcenter.spoken import for_the_ear, register_spoken_ids\n"
        + ("from domains import registry\nregister_spoken_ids(registry.spoken_ids())\n" if line else "")
        + "print(for_the_ear(sys.argv[1]))\n"
    )
    return subprocess.run([sys.executable, "-c", code, text], capture_output=True, text=True, cwd=ROOT, timeout=120, check=True).stdout


def test_record_ids_are_read_aloud_by_the_words_the_domains_declare() -> None:
    reply = "I've refunded $49.00 for CH-1002-D; invoice INV-1001 is paid."
    assert "charge" not in _ear_fresh(reply, line=False)  # the foundation knows no charge
    said = _ear_fresh(reply, line=True)
    assert "charge 1 0 0 2 D" in said and "invoice 1 0 0 1" in said and "invoice invoice" not in said
