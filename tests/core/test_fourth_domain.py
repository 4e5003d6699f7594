"""A fourth domain is one folder (spec, supervisor, specialist, utterances) and one line in
`registry.PACKAGES`: here tests/fixtures/domains/shipping, outside the domains package, added
the way a user adds it (tests/conftest.py `shipping_added`), with nothing else patched."""

from __future__ import annotations

from pathlib import Path

from callcenter.settings import load_settings
from callcenter.store import Store
from meta.session import build_line, start_call


async def test_fourth_domain_routes_with_no_other_change(shipping_added: None, tmp_path: Path) -> None:
    line = build_line(load_settings(data_dir=tmp_path / "data"), store=Store(tmp_path / "db.sqlite3"))
    call = await start_call(line, customer_id="C1001")
    try:
        assert "deliveries" in call.greeting  # its own wording
        turn = await call.send("uh my parcel never arrived")
        assert [(h.from_agent, h.to_agent) for h in turn.hops] == [("meta", "shipping"), ("shipping", "shipping.reship")]
        assert "parcel number" in " ".join(turn.replies)
        # The other domains still route as before.
        other = await call.send("never mind. what's my balance")
        assert [r.domain for r in other.results][-1:] == ["billing"], other.replies
    finally:
        await call.close()
        line.store.close()
