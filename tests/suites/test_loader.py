"""Reading suites: the documented format as written, the optional fields, and one line
(file, line, what is wrong) for each way a suite can be malformed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from meta.suites.loader import SCHEMA_FILE, SuiteError, find_files, load_suites
from tests.conftest import ROOT


def _load(tmp_path: Path, text: str, name: str = "s.yaml") -> object:
    path = tmp_path / name
    path.write_text(text)
    suites, errors = load_suites([path])
    if errors:
        raise SuiteError(errors[0].split(":", 1)[0], None, errors[0])
    return suites[0]


def _error(tmp_path: Path, text: str) -> str:
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    suites, errors = load_suites([path])
    assert suites == [] and len(errors) == 1
    prefix = f"{path}:"
    assert errors[0].startswith(prefix) and "\n" not in errors[0]
    return errors[0][len(prefix):]


def test_docs_schema_is_the_one_the_loader_uses() -> None:
    assert json.loads((ROOT / "docs/suite.schema.json").read_text()) == json.loads(SCHEMA_FILE.read_text())


def test_the_documented_example_loads_as_documented(tmp_path: Path) -> None:
    docs = (ROOT / "docs/suites.md").read_text()
    example = re.search(r"```yaml\n(.*?)```", docs, re.S).group(1)
    suite = _load(tmp_path, example)
    [call] = suite.calls
    assert suite.name == "short-name-of-the-suite" and call.name == "a-unique-name-within-the-suite"
    assert call.klass == "multi_need" and call.customer == "C1001"
    first, second = call.turns
    assert first.expect.says == ("refund", "charge") and first.expect.not_says == ("just so i get this right",)
    assert first.expect.needs == ("billing.refund", "technical.service_status")
    assert second.say == "yes go ahead" and second.expect.says == ()
    e = call.expect
    assert e.reach == ("billing.refund",) and e.refunds == (("CH-1001-D", 4900),)
    assert e.requests == ("close_account",) and e.tickets == ("engineering",)
    assert e.profile == {"C1003": {"plan": "pro"}}
    assert first.line == example.splitlines().index('      - say: "hi um i was charged twice for the same thing last month"') + 1


def test_omitted_means_none_and_tickets_unchecked(tmp_path: Path) -> None:
    suite = _load(tmp_path, "suite: s\ncalls:\n  - name: a\n    turns:\n      - say: hi\n")
    [call] = suite.calls
    assert call.customer is None and call.klass is None
    assert call.expect.refunds == () and call.expect.requests == () and call.expect.profile == {}
    assert call.expect.tickets is None


def test_suite_default_customer_and_an_unknown_caller(tmp_path: Path) -> None:
    suite = _load(tmp_path, "suite: s\ncustomer: C1002\ncalls:\n  - name: a\n    turns: [{say: hi}]\n"
                            "  - name: b\n    customer: null\n    turns: [{say: hi}]\n"
                            "  - name: c\n    customer: C1003\n    turns: [{say: hi}]\n")
    assert [c.customer for c in suite.calls] == ["C1002", None, "C1003"]


def test_fixture_and_audio_resolve_next_to_the_suite(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "extra.sql").write_text("SELECT 1;")
    (tmp_path / "data" / "hi.wav").write_bytes(b"RIFF")
    suite = _load(tmp_path, "suite: s\nfixture: data/extra.sql\ncalls:\n  - name: a\n    turns:\n"
                            "      - {say: hi, audio: data/hi.wav}\n")
    assert suite.fixture == tmp_path / "data" / "extra.sql"
    assert suite.calls[0].turns[0].audio == tmp_path / "data" / "hi.wav" and suite.calls[0].spoken


@pytest.mark.parametrize(("text", "error"), [
    ("- a\n", "1: a suite is a mapping with `suite:` and `calls:` (see docs/suites.md)"),
    ("", "1: a suite is a mapping with `suite:` and `calls:` (see docs/suites.md)"),
    ("suite: s\ncalls:\n  - name: a\n    turns:\n      - say: [unclosed\n",
     "6: not valid YAML: expected ',' or ']', but got '<stream end>'"),
    ("suite: s\nsuite: t\ncalls: []\n", "2: 'suite' is given twice in the same mapping"),
    ("calls:\n  - name: a\n    turns: [{say: hi}]\n", "1: missing 'suite'"),
    ("suite: s\ncalls: []\n", "2: calls: must list at least one item"),
    ("suite: s\ncalls:\n  - name: a\n    turns:\n      - sya: hi\n",
     "5: call 'a', turn 1: unknown field 'sya' (did you mean 'say'?); expected: say, audio, expect"),
    ("suite: s\ncalls:\n  - nme: a\n    turns: [{say: hi}]\n",
     "3: call 1: unknown field 'nme' (did you mean 'name'?); expected: name, class, customer, turns, expect"),
    ("suite: s\ncalls:\n  - name: a\n    turns:\n      - say: hi\n      - say: 42\n",
     "6: call 'a', turn 2, say: expected a string, got the number 42"),
    ("suite: s\ncalls:\n  - name: a\n    turns:\n      - say: hi\n        expect:\n          says: refund\n",
     "7: call 'a', turn 1, expect.says: expected a list, got the text 'refund'"),
    ("suite: s\ncalls:\n  - name: a\n    turns: [{say: hi}]\n    expect:\n      reach: [billing.refnd]\n",
     "6: call 'a', expect.reach[0]: unknown specialist 'billing.refnd' (did you mean 'billing.refund'?)"),
    ("suite: s\ncalls:\n  - name: a\n    turns: [{say: hi}]\n    expect:\n      reach: [Billing Refund]\n",
     "6: call 'a', expect.reach[0]: 'Billing Refund' is not a valid value here (expected like billing.refund)"),
    ("suite: s\ncalls:\n  - name: a\n    turns: [{say: hi}]\n    expect:\n      requests: [close_acount]\n",
     "6: call 'a', expect.requests[0]: unknown request kind 'close_acount' (did you mean 'close_account'?);"
     " kinds: refund, close_account, two_factor_reset"),
    ("suite: s\ncalls:\n  - name: a\n    turns: [{say: hi}]\n    expect:\n      refunds: [{charge: CH-1, amount: 1.005}]\n",
     "6: call 'a', expect.refunds[0].amount: 1.005 has more than two decimals (USD)"),
    ("suite: s\ncalls:\n  - name: a\n    turns: [{say: hi}]\n    expect:\n      refunds: [{charge: CH-1, amount: -3}]\n",
     "6: call 'a', expect.refunds[0].amount: must be more than 0"),
    ("suite: s\ncalls:\n  - name: a\n    turns: [{say: hi}]\n    expect:\n      refunds: [{charge: CH-1}]\n",
     "6: call 'a', expect.refunds[0]: missing 'amount'"),
    ("suite: s\ncalls:\n  - name: a\n    turns: [{say: hi}]\n    expect:\n      profile: {C1001: {zip: '1'}}\n",
     "6: call 'a', expect.profile.C1001: unknown field 'zip'; expected: plan, email, phone, locked"),
    ("suite: s\ncalls:\n  - name: a\n    turns: [{say: hi}]\n    expect:\n      profile:\n        C1001:\n          locked: 'yes'\n",
     "8: call 'a', expect.profile.C1001.locked: expected true or false, got the text 'yes'"),
    ("suite: s\ncalls:\n  - name: a\n    turns: [{say: hi}]\n  - name: a\n    turns: [{say: hi}]\n",
     "5: call 'a', name: the name 'a' is also used by the call on line 3"),
    ("suite: s\nfixture: nowhere.sql\ncalls:\n  - name: a\n    turns: [{say: hi}]\n",
     "2: fixture: no such file 'nowhere.sql' (relative to this suite)"),
    ("suite: s\nfixture: data.csv\ncalls:\n  - name: a\n    turns: [{say: hi}]\n",
     "2: fixture: a fixture is a SQLite database or an SQL script (.sqlite3, .sqlite, .db, .sql)"),
    ("suite: s\ncalls:\n  - name: a\n    turns:\n      - {say: hi, audio: missing.wav}\n",
     "5: call 'a', turn 1, audio: no such audio file 'missing.wav' (relative to this suite)"),
    ("suite: s\ncalls:\n  - name: a\n    turns: [{say: hi}]\n    expect:\n      tickets: engineering\n",
     "6: call 'a', expect.tickets: expected a list, got the text 'engineering'"),
    ("suite: s\ncalls:\n  - name: a\n    customer: 1001\n    turns: [{say: hi}]\n",
     "4: call 'a', customer: expected a string or null, got the number 1001"),
])
def test_malformed_suites_are_one_line(tmp_path: Path, text: str, error: str) -> None:
    assert _error(tmp_path, text) == error


def test_audio_on_some_turns_only(tmp_path: Path) -> None:
    (tmp_path / "a.wav").write_bytes(b"RIFF")
    text = "suite: s\ncalls:\n  - name: a\n    turns:\n      - {say: hi, audio: a.wav}\n      - say: bye\n"
    assert _error(tmp_path, text) == "3: call 'a': give `audio:` on every turn of a call or on none"


def test_folders_are_searched_and_names_are_unique_across_files(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "one.yaml").write_text("suite: same\ncalls:\n  - name: x\n    turns: [{say: hi}]\n")
    (tmp_path / "b.yml").write_text("suite: same\ncalls:\n  - name: x\n    turns: [{say: hi}]\n")
    (tmp_path / "notes.txt").write_text("not a suite")
    assert find_files([tmp_path]) == [tmp_path / "a" / "one.yaml", tmp_path / "b.yml"]
    suites, errors = load_suites([tmp_path])
    assert [s.name for s in suites] == ["same"]
    assert errors == [f"{tmp_path / 'b.yml'}:1: suite name 'same' is also used by {tmp_path / 'a' / 'one.yaml'}"]


def test_missing_paths_and_empty_folders(tmp_path: Path) -> None:
    with pytest.raises(SuiteError, match=re.escape(f"{tmp_path / 'nope'}: no such file or folder")):
        find_files([tmp_path / "nope"])
    with pytest.raises(SuiteError, match="no suite files"):
        find_files([tmp_path])


def test_shipped_examples_load() -> None:
    suites, errors = load_suites([ROOT / "examples"])
    assert errors == []
    assert {s.name for s in suites} >= {"billing", "technical", "account"}
