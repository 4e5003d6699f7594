"""`callcenter test` as a company's CI runs it: the installed command on the shipped
examples, a suite with one wrong expectation, malformed suites, JUnit XML, and a real
call's transcript recorded into a suite that passes."""

from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from meta.suites.loader import load_suites
from tests.conftest import ROOT, callcenter, cli_env

EXAMPLES = ROOT / "examples"


def _junit(path: Path) -> ET.Element:
    """The file parsed as JUnit XML: <testsuites> of <testsuite> of <testcase>, with the
    counts CI systems read, consistent with the cases inside."""
    root = ET.parse(path).getroot()
    assert root.tag == "testsuites"
    for ts in root:
        assert ts.tag == "testsuite"
        cases = list(ts.iter("testcase"))
        assert int(ts.get("tests")) == len(cases)
        assert int(ts.get("failures")) == sum(1 for c in cases if c.find("failure") is not None)
        assert int(ts.get("errors")) == sum(1 for c in cases if c.find("error") is not None)
        for c in cases:
            assert c.get("name") and c.get("classname") and float(c.get("time")) >= 0
    assert int(root.get("tests")) == sum(int(ts.get("tests")) for ts in root)
    return root


def test_examples_pass_in_parallel_with_junit(tmp_path: Path, data_dir: Path) -> None:
    suites, errors = load_suites([EXAMPLES])
    assert not errors
    calls = sum(len(s.calls) for s in suites)
    assert {"billing", "technical", "account"} <= {s.name for s in suites}
    report = tmp_path / "reports" / "junit.xml"
    proc = callcenter("test", str(EXAMPLES), "-j", "2", "--junit", str(report), env=cli_env(data_dir), timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"{len(suites)} suites, {calls} calls: {calls} passed, 0 failed" in proc.stdout
    assert "FAIL" not in proc.stdout
    root = _junit(report)
    assert int(root.get("tests")) == calls and root.get("failures") == "0" and root.get("errors") == "0"
    assert {ts.get("name") for ts in root} == {s.name for s in suites}
    # The user's own database is never where suite calls run.
    assert not (data_dir / "callcenter.sqlite3").exists()


def test_one_wrong_expectation_fails_and_is_named(tmp_path: Path, data_dir: Path) -> None:
    text = (EXAMPLES / "billing.yaml").read_text()
    assert text.count("amount: 49.00") == 1
    suite = tmp_path / "billing.yaml"
    suite.write_text(text.replace("amount: 49.00", "amount: 48.00"))
    wrong_line = next(i for i, line in enumerate(text.splitlines(), 1) if "amount: 49.00" in line)
    expect_line = max(i for i, line in enumerate(text.splitlines()[:wrong_line], 1) if line.strip() == "expect:")
    report = tmp_path / "junit.xml"
    proc = callcenter("test", str(suite), "--junit", str(report), env=cli_env(data_dir), timeout=600)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    out = proc.stdout
    assert "FAIL  duplicate-charge-refunded" in out
    assert f"call: refunds ({suite}:{expect_line})" in out
    assert "expected: CH-1001-D $48.00" in out and "actual:   CH-1001-D $49.00" in out
    assert out.count("FAIL  ") == 1 and out.count("PASS  ") == len(load_suites([suite])[0][0].calls) - 1
    failed = [c for c in _junit(report).iter("testcase") if c.find("failure") is not None]
    assert [c.get("name") for c in failed] == ["duplicate-charge-refunded"]
    assert failed[0].find("failure").get("type") == "refunds"


def test_malformed_suites_get_one_line_each(tmp_path: Path, data_dir: Path) -> None:
    shutil.copy(EXAMPLES / "technical.yaml", tmp_path / "good.yaml")
    (tmp_path / "typo.yaml").write_text("suite: typo\ncalls:\n  - name: one\n    turns:\n      - sya: hello\n")
    (tmp_path / "broken.yaml").write_text('suite: broken\ncalls:\n  - name: one\n    turns:\n      - say: "hello\n')
    proc = callcenter("test", str(tmp_path), env=cli_env(data_dir), timeout=300)
    assert proc.returncode == 2
    assert proc.stdout == ""  # nothing ran
    lines = proc.stderr.strip().splitlines()
    assert lines == [
        f"error: {tmp_path / 'broken.yaml'}:6: not valid YAML: found unexpected end of stream",
        f"error: {tmp_path / 'typo.yaml'}:5: call 'one', turn 1: unknown field 'sya' (did you mean 'say'?); expected: say, audio, expect",
    ]


def test_a_recorded_real_call_becomes_a_passing_suite(tmp_path: Path, data_dir: Path) -> None:
    script = "hi um i was charged twice\nyeah go ahead\nis the service down and also how much do i owe\nthanks bye\n"
    call = callcenter("call", "--json", "--customer", "C1001", "--no-durable", input=script, env=cli_env(data_dir))
    assert call.returncode == 0, call.stderr
    recorded = tmp_path / "suites" / "recorded.yaml"
    recorded.parent.mkdir()
    # A fresh data dir for the test run: the recorded call's refund is not in its store.
    env = cli_env(data_dir)
    proc = callcenter("test", "--record", "-", "--customer", "C1001", "--name", "refund-and-two-needs",
                      "-o", str(recorded), input=call.stdout, env=env)
    assert proc.returncode == 0, proc.stderr
    text = recorded.read_text()
    assert '- say: "hi um i was charged twice"' in text
    assert "# agent (recorded): To confirm: a refund of $49.00" in text
    assert "agent (replay)" not in text  # the replay said what the real call said
    [suite], errors = load_suites([recorded])
    assert not errors
    [entry] = suite.calls
    assert entry.customer == "C1001" and len(entry.turns) == 4
    assert entry.expect.refunds == (("CH-1001-D", 4900),) and entry.expect.requests == ()
    assert set(entry.expect.reach) == {"billing.refund", "technical.service_status", "billing.balance"}
    assert set(entry.turns[2].expect.needs) == {"technical.service_status", "billing.balance"}
    run = callcenter("test", str(recorded), env=env, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert re.search(r"1 suite, 1 call: 1 passed, 0 failed", run.stdout)


def test_help_and_usage_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # The entry point's own parser and command, in-process (each is decided before any call runs).
    from meta.shell.cli import build_parser, main

    with pytest.raises(SystemExit) as done:
        build_parser().parse_args(["test", "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: callcenter test ") and "--junit FILE" in out and "--record FILE" in out
    for argv, message in [
        (["test"], "error: name suite files or folders, e.g. `callcenter test examples/`"),
        (["test", str(tmp_path / "nope.yaml")], f"error: {tmp_path / 'nope.yaml'}: no such file or folder"),
        (["test", str(EXAMPLES), "-j", "0"], "error: -j needs 1 or more"),
        (["test", str(EXAMPLES), "--customer", "C1001"], "error: --customer, --name, --fixture and -o go with --record"),
        (["test", "--record", str(tmp_path / "none.jsonl")], f"error: {tmp_path / 'none.jsonl'}: cannot read it (No such file or directory)"),
    ]:
        assert main(argv) == 2
        assert capsys.readouterr().err.strip().splitlines() == [message]
    (tmp_path / "t.jsonl").write_text('{"turn": 0, "user": null, "reply": "Hello"}\nnot json\n')
    assert main(["test", "--record", str(tmp_path / "t.jsonl")]) == 2
    assert capsys.readouterr().err.strip() == (
        f"error: {tmp_path / 't.jsonl'}:2: not a JSON object: record reads `callcenter call --json` output")
