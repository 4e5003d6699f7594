"""The one line a user edits to add a domain: `PACKAGES` in domains/registry.py, naming a
folder that need not live in `domains/` (here tests/fixtures/domains/shipping, outside the
package). Everything the registry derives from it follows: the standalone Temporal worker's
action table (read from actions.py, no task loaded), `schemas()` (`callcenter db upgrade`),
`settings_sections()` (a bad value stops the start naming its variable), the operator
console's records, and the specs themselves. Nothing patches `DOMAINS`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from callcenter.settings import SettingsError
from callcenter.store import Store
from domains import registry
from tests.conftest import ROOT, SHIPPING, cli_env

# What a user's edit of the PACKAGES line amounts to, before anything reads it.
EDIT = f"from domains import registry\nregistry.PACKAGES = (*registry.PACKAGES, {SHIPPING!r})\n"


def _python(code: str, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code, *args], env=env, cwd=ROOT, capture_output=True, text=True, timeout=180)


def test_the_standalone_workers_action_table_reads_the_line_without_loading_a_task(tmp_path: Path) -> None:
    code = EDIT + (
        "import sys\ntable = registry.action_table()\n"
        "print(sorted(table.kinds), sorted(s.name for s in registry.port_specs()))\n"
        "print('livekit loaded:', any(m.startswith('livekit') for m in sys.modules))\n"
    )
    out = _python(code, env=cli_env(tmp_path))
    assert out.returncode == 0, out.stderr
    kinds, ports = out.stdout.splitlines()[0].split("] [")
    assert "'reship'" in kinds and "'refund'" in kinds
    assert "'carrier'" in ports and "'billing'" in ports
    assert "livekit loaded: False" in out.stdout


def test_db_upgrade_brings_the_new_domains_tables(tmp_path: Path) -> None:
    code = EDIT + "from meta.shell.cli import main\nraise SystemExit(main())\n"
    out = _python(code, "db", "upgrade", env=cli_env(tmp_path))
    assert out.returncode == 0, out.stderr
    assert "shipping schema none -> s0001" in out.stdout and "billing schema none -> b0001" in out.stdout
    current = _python(code, "db", "current", env=cli_env(tmp_path))
    assert current.returncode == 0 and "shipping schema s0001 (current)" in current.stdout, current.stdout
    store = Store(tmp_path / "callcenter.sqlite3")
    try:
        assert store._conn().execute("SELECT id, status FROM parcels").fetchall() == [("PKG-48213", "lost")]
    finally:
        store.close()


def test_settings_sections_and_operator_records_follow_the_line(shipping_added: None, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    sections = registry.settings_sections()
    assert [c.__name__ for c in sections][-1] == "ShippingSettings"
    assert registry.load_sections()[sections[-1]].reships_per_year == 2  # type: ignore[attr-defined]
    monkeypatch.setenv("CALLCENTER_RESHIPS_PER_YEAR", "40")
    with pytest.raises(SettingsError, match="CALLCENTER_RESHIPS_PER_YEAR"):
        registry.load_sections()
    records = registry.operator_records()
    assert [r.__name__ for r in records][-1] == "reship_records"
    assert [b.name for b in registry.schemas()] == ["billing", "technical", "shipping"]


def test_the_specs_follow_the_line(shipping_added: None) -> None:
    assert [d.name for d in registry.DOMAINS] == ["billing", "technical", "account", "shipping"]
    assert "reship" in registry.action_table().kinds
    assert "parcel_id" in {p.name for p in registry.slot_patterns()}
