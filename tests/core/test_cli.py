"""`callcenter call` as a program sees it: piped stdin, JSON per turn, exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from callcenter.settings import load_settings

CLI = [sys.executable, "-m", "meta.cli"]


def _env(data_dir: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CALLCENTER_")}
    env.update({"CALLCENTER_DATA_DIR": str(data_dir), **extra})
    return env


def test_scripted_call_json_hop_trail(tmp_path: Path) -> None:
    script = "\n".join([
        "hello",
        "I was charged twice",
        "yes",
        "My API calls fail with 429, I was charged twice, and I can't log in",
        "bye",
    ]) + "\n"
    proc = subprocess.run(
        [*CLI, "call", "--json", "--customer", "C1001", "--no-durable"],
        input=script, capture_output=True, text=True, env=_env(tmp_path), timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    turns = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [t["turn"] for t in turns] == [0, 1, 2, 3, 4, 5]
    assert turns[1]["hops"] == [] and turns[1]["user"] == "hello"
    refund = turns[2]
    assert set(refund) == {"turn", "user", "reply", "hops", "results"}
    assert [(h["from"], h["to"], h["path"]) for h in refund["hops"]] == [
        ("meta", "billing", "fast"),
        ("billing", "billing.refund", "fast"),
    ]
    assert all(0 < h["confidence"] <= 1 for h in refund["hops"])
    # The refund is read back first; the caller's "yes" to it is what pays.
    assert refund["results"] == [] and "To confirm: a refund of $49.00" in refund["reply"]
    paid = turns[3]
    assert paid["results"][0]["status"] == "done"
    assert paid["results"][0]["data"]["amount_cents"] == 4900
    multi = turns[4]
    assert [h["to"] for h in multi["hops"] if h["from"] == "meta"] == ["technical", "billing"]
    assert {h["path"] for h in multi["hops"]} <= {"fast", "llm", "embedded"}
    # The duplicate was refunded in turn 3, so billing asks which charge instead of paying
    # twice: that need stays open and only the other two return results this turn.
    assert [r["specialist"] for r in multi["results"]] == ["api_errors"]
    assert "don't see a duplicate charge" in multi["reply"]
    # "bye" while billing waits for an answer: billing stops, the rest of the turn is not
    # started, and what was already found is still said.
    bye = turns[5]
    assert bye["reply"].startswith("Your 429 errors are rate limiting")
    assert bye["reply"].endswith("Thanks for calling, goodbye!")
    assert [(r["domain"], r["specialist"], r["status"]) for r in bye["results"]] == [
        ("billing", "refund", "cancelled"),
        ("account", None, "cancelled"),
    ]


def test_plain_output_from_a_file(tmp_path: Path) -> None:
    script = tmp_path / "call.txt"
    script.write_text("what's my balance\n")
    with script.open() as stdin:
        proc = subprocess.run([*CLI, "call", "--customer", "C1004", "--no-durable"], stdin=stdin, capture_output=True, text=True, env=_env(tmp_path), timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("agent> Hello")
    assert "balance due is $49.00" in lines[1]


def test_unknown_customer_is_a_clear_error(tmp_path: Path) -> None:
    proc = subprocess.run([*CLI, "call", "--customer", "C9999", "--no-durable"], input="", capture_output=True, text=True, env=_env(tmp_path), timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines()[-1] == "error: --customer 'C9999' is not a known customer id (like C1001)"
    assert "Traceback" not in proc.stderr


def test_bad_setting_names_the_variable(tmp_path: Path) -> None:
    proc = subprocess.run([*CLI, "call"], input="", capture_output=True, text=True, env=_env(tmp_path, CALLCENTER_AUTO_REFUND_LIMIT="lots", CALLCENTER_LLM_API_KEY="sk-secret-value"), timeout=60)
    assert proc.returncode == 2
    assert "CALLCENTER_AUTO_REFUND_LIMIT" in proc.stderr
    assert "lots" not in proc.stderr and "sk-secret-value" not in proc.stderr
    assert "Traceback" not in proc.stderr


def test_settings_errors_list_accepted_values(tmp_path: Path) -> None:
    import pytest

    from callcenter.settings import SettingsError

    with pytest.raises(SettingsError) as err:
        load_settings(data_dir=tmp_path, llm_provider="gpt", log_level="LOUD")
    msg = str(err.value)
    assert "CALLCENTER_LLM_PROVIDER: accepted values: 'embedded' or 'openai'" in msg
    assert "CALLCENTER_LOG_LEVEL" in msg


def test_help_lists_every_command() -> None:
    proc = subprocess.run([*CLI, "--help"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0
    for command in ("call", "worker", "router", "temporal-worker", "temporal-server", "approvals"):
        assert command in proc.stdout
