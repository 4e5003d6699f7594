"""Two lines with different domain sets in one process: each reads its own domains' slots and
request ids and reads its own record ids aloud. These were process-wide registries filled by
every `build_line` (the second line's parcel ids leaked into the first's calls); they are
now values each line hands down to its calls, its LLM and its speech."""

from __future__ import annotations

from pathlib import Path

import pytest

from callcenter.settings import load_settings
from callcenter.store import Store
from domains import registry
from meta.session import Line, build_line, start_call
from tests.conftest import SHIPPING


def _line(tmp_path: Path, name: str) -> Line:
    return build_line(load_settings(data_dir=tmp_path / name), store=Store(tmp_path / f"{name}.sqlite3"))


async def test_two_lines_in_one_process_keep_their_own_words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    plain = _line(tmp_path, "plain")  # billing, technical, account
    with monkeypatch.context() as m:  # the second line serves shipping too (its PACKAGES line)
        m.setattr(registry, "PACKAGES", (*registry.PACKAGES, SHIPPING))
        cached = vars(registry).pop("DOMAINS")
        try:
            shipping = _line(tmp_path, "shipping")
        finally:
            registry.DOMAINS = cached  # type: ignore[misc]
    said = "it was pkg 48213, what happened to reship-pkg-48213"
    assert shipping.slots.read(said).get("parcel_id") == "PKG-48213"
    assert shipping.slots.read(said).request_id == "reship-pkg-48213"
    # Built first, the plain line is untouched by the second: no parcel, no reship requests.
    assert plain.slots.read(said).get("parcel_id") is None and plain.slots.read(said).request_id is None
    assert plain.slots.read("refund ch 1002-d").get("charge_id") == "CH-1002-D"  # its own still read
    reply = "Your parcel PKG-48213 ships with charge CH-1002-D."
    assert "parcel 4 8 2 1 3" in shipping.ear.for_the_ear(reply)
    assert "PKG-48213" in plain.ear.for_the_ear(reply) and "charge 1 0 0 2 D" in plain.ear.for_the_ear(reply)
    # Handed down: a call's specialists and the line's embedded LLM read with the line's reader.
    call = await start_call(plain, customer_id="C1001")
    try:
        assert call.state.slots is plain.slots and plain.llm.policy.slots is plain.slots  # type: ignore[attr-defined]
    finally:
        await call.close()
    for line in (plain, shipping):
        line.store.close()
