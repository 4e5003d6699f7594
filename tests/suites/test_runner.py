"""Suite calls through the real line: a fresh store per call, fixtures (SQLite and SQL),
callers the store does not know, and the company's own systems left alone."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from meta.suites.loader import load_suites
from meta.suites.runner import fresh_store, run_suites, suite_settings

REFUND = """
  - name: {name}
    customer: C1001
    turns:
      - say: "i was charged twice"
      - say: "yes"
        expect:
          says: ["{says}"]
    expect:
      reach: [billing.refund]
      {effect}
"""


def _suite(tmp_path: Path, body: str, head: str = "") -> Any:
    path = tmp_path / "suite.yaml"
    path.write_text(f"suite: s\n{head}calls:\n{body}")
    suites, errors = load_suites([path])
    assert errors == []
    return suites


def test_every_call_starts_from_a_fresh_store(tmp_path: Path, settings: Any) -> None:
    # Two calls pay the same duplicate charge: each can, because neither sees the other's refund.
    body = "".join(REFUND.format(name=n, says="I've refunded $49.00", effect="refunds: [{charge: CH-1001-D, amount: 49}]")
                   for n in ("first", "second"))
    results = run_suites(_suite(tmp_path, body), settings)
    assert [(r.call, r.ok) for r in results] == [("first", True), ("second", True)], results
    assert not (settings.data_dir / "callcenter.sqlite3").exists()  # never the data dir's own store


def test_a_sqlite_fixture_is_copied_for_each_call(tmp_path: Path, settings: Any) -> None:
    # The company's store: C1001's last charge and its duplicate are $600, above the auto-refund limit.
    fixture = tmp_path / "company.sqlite3"
    store = fresh_store(fixture)
    store.execute("UPDATE charges SET amount_cents = 60000 WHERE id IN ('CH-1001-1', 'CH-1001-D')")
    store.close()
    body = "".join(REFUND.format(name=n, says="approval", effect="requests: [refund]") for n in ("one", "two"))
    [a, b] = run_suites(_suite(tmp_path, body, head="fixture: company.sqlite3\n"), settings)
    assert a.ok and b.ok, (a, b)
    assert "$600.00" in a.turns[0].reply
    with sqlite3.connect(fixture) as db:  # the fixture itself is never written to
        assert db.execute("SELECT count(*) FROM work_requests").fetchone() == (0,)


def test_an_sql_fixture_runs_over_the_demo_store(tmp_path: Path, settings: Any) -> None:
    (tmp_path / "cheap.sql").write_text("UPDATE charges SET amount_cents = 1250 WHERE id IN ('CH-1001-1', 'CH-1001-D');\n")
    body = REFUND.format(name="cheap", says="I've refunded $12.50", effect="refunds: [{charge: CH-1001-D, amount: 12.50}]")
    [res] = run_suites(_suite(tmp_path, body, head="fixture: cheap.sql\n"), settings)
    assert res.ok, res


def test_a_broken_fixture_or_unknown_customer_fails_that_call_only(tmp_path: Path, settings: Any) -> None:
    (tmp_path / "broken.sql").write_text("UPDATE no_such_table SET x = 1;\n")
    [res] = run_suites(_suite(tmp_path, REFUND.format(name="x", says="a", effect=""), head="fixture: broken.sql\n"), settings)
    assert not res.ok and res.error.startswith("the store could not be prepared: no such table: no_such_table")
    body = "  - name: stranger\n    customer: C9999\n    turns: [{say: hi}]\n  - name: fine\n    turns: [{say: hi}]\n"
    stranger, fine = run_suites(_suite(tmp_path, body), settings)
    assert stranger.error == "customer C9999 is not in the store this call starts from"
    assert fine.ok


def test_a_wrong_expectation_is_reported_with_expected_and_actual(tmp_path: Path, settings: Any) -> None:
    body = REFUND.format(name="wrong", says="I've refunded $49.00", effect="refunds: [{charge: CH-1001-D, amount: 48}]")
    [res] = run_suites(_suite(tmp_path, body), settings)
    assert not res.ok and res.error is None
    [f] = res.failures
    assert (f.check, f.expected, f.actual, f.unsafe) == ("refunds", "CH-1001-D $48.00", "CH-1001-D $49.00", ("refund CH-1001-D $49.00",))
    lines = (tmp_path / "suite.yaml").read_text().splitlines()
    assert f.line == lines.index("    expect:") + 1  # the call's `expect:` line in the suite file


def test_a_suite_never_reaches_a_companys_systems(settings: Any) -> None:
    company = settings.model_copy(update={"adapters": "billing=acme.line:billing", "hold_on_line_s": 10.0})
    safe = suite_settings(company)
    assert safe.adapters == "" and safe.database_url is None and safe.hold_on_line_s == 0
