"""`callcenter call` as a program sees it: the installed command, piped stdin, JSON per
turn, exit codes, start-up errors, .env, and the default line with its own local Temporal."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from callcenter.settings import load_settings
from callcenter.store import Store
from domains.billing.ledger import Ledger
from tests.conftest import CALLCENTER, callcenter, cli_env


def test_scripted_call_json_hop_trail(data_dir: Path) -> None:
    script = "\n".join([
        "hello",
        "I was charged twice",
        "yes",
        "My API calls fail with 429, I was charged twice, and I can't log in",
        "bye",
    ]) + "\n"
    proc = callcenter("call", "--json", "--customer", "C1001", "--no-durable", input=script, env=cli_env(data_dir))
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
    # Every need is acknowledged; the API lookup is answered at once and the actions are
    # taken one at a time (meta/agenda.py): the refund now, signing in after it.
    assert multi["reply"].startswith("I can help with all three")
    assert [h["to"] for h in multi["hops"] if h["from"] == "meta"] == ["billing", "account", "technical"]
    assert {h["path"] for h in multi["hops"]} <= {"fast", "llm", "embedded"}
    # The duplicate was refunded in turn 3, so billing says so instead of paying twice; with
    # nothing left to refund, that answers the refund, and signing in comes in the same turn
    # (domains/billing/refund.py): every need returns a result this turn.
    assert [(r["specialist"], r["status"]) for r in multi["results"]] == [
        ("api_errors", "info"), ("refund", "refused"), ("login_help", "done")]
    assert "already been refunded" in multi["reply"] and "password reset link" in multi["reply"]
    # "bye" with nothing waiting: the call ends, and nothing more is started or stopped
    bye = turns[5]
    assert bye["reply"].endswith("Thanks for calling. Goodbye!")
    assert bye["results"] == []


def test_plain_output_from_a_file(tmp_path: Path, data_dir: Path) -> None:
    script = tmp_path / "call.txt"
    script.write_text("what's my balance\n")
    with script.open() as stdin:
        proc = subprocess.run([CALLCENTER, "call", "--customer", "C1004", "--no-durable"], stdin=stdin,
                              capture_output=True, text=True, env=cli_env(data_dir), timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "agent> Hello, thanks for calling. I can help with billing, technical problems and your account. What can I do for you today?"
    assert lines[1].startswith("agent> ") and "balance due is $49.00" in lines[1]
    assert len(lines) == 2


def test_unknown_customer_is_a_clear_error(data_dir: Path) -> None:
    proc = callcenter("call", "--customer", "C9999", "--no-durable", input="", env=cli_env(data_dir))
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines()[-1] == "error: --customer 'C9999' is not a known customer id (like C1001)"
    assert "Traceback" not in proc.stderr


def test_bad_setting_names_the_variable(tmp_path: Path) -> None:
    proc = callcenter("call", input="", env=cli_env(tmp_path, CALLCENTER_AUTO_REFUND_LIMIT="lots", CALLCENTER_LLM_API_KEY="sk-secret-value"), timeout=60)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.splitlines()[:2] == [
        "error: invalid settings:",
        "  CALLCENTER_AUTO_REFUND_LIMIT: Input should be a valid decimal (Refunds at or under this amount (USD) are issued without approval.)",
    ]
    assert "lots" not in proc.stderr and "sk-secret-value" not in proc.stderr
    assert "Traceback" not in proc.stderr


def test_settings_errors_list_accepted_values(tmp_path: Path) -> None:
    from callcenter.settings import SettingsError

    with pytest.raises(SettingsError) as err:
        load_settings(data_dir=tmp_path, llm_provider="gpt", log_level="LOUD")
    msg = str(err.value)
    assert "CALLCENTER_LLM_PROVIDER: accepted values: 'embedded' or 'openai'" in msg
    assert "CALLCENTER_LOG_LEVEL" in msg


COMMANDS = ("call", "worker", "router", "temporal-worker", "temporal-server", "approvals", "tickets", "reset-demo")


def test_help_lists_every_command() -> None:
    proc = callcenter("--help", env=os.environ, timeout=60)
    assert proc.returncode == 0, proc.stderr
    # the subcommand choices as argparse prints them: whole names, not substrings
    choices = re.search(r"\{([\w,-]+)\}", proc.stdout)
    assert choices, proc.stdout
    assert set(COMMANDS) <= set(choices.group(1).split(","))
    for command in COMMANDS:
        line = re.search(rf"^    {re.escape(command)} +(\S.*)$", proc.stdout, re.M)
        assert line, f"no help line for {command}"


@pytest.mark.parametrize("command", [c for c in COMMANDS if c != "worker"])  # worker: LiveKit's CLI, tests/core/test_worker.py
def test_each_command_has_its_own_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    # the entry point's own parser, in-process: one interpreter start per command would
    # cost the suite ~6 s each for what the parser alone decides
    from meta.shell.cli import build_parser

    with pytest.raises(SystemExit) as done:
        build_parser().parse_args([command, "--help"])
    assert done.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: callcenter {command} ")


@pytest.mark.parametrize("where", ["before", "after"])
def test_the_log_level_is_taken_before_or_after_the_command(where: str, data_dir: Path) -> None:
    """README: `callcenter call --log-level INFO`. DEBUG shows asyncio's first line on stderr;
    without the option a call's terminal shows no log line at all."""
    option = ["--log-level", "debug"]
    args = [*option, "call", "--no-durable"] if where == "before" else ["call", "--no-durable", *option]
    proc = callcenter(*args, input="what is my balance\n", env=cli_env(data_dir))
    assert proc.returncode == 0, proc.stderr
    assert " DEBUG asyncio " in proc.stderr and "$0.00" not in proc.stderr
    quiet = callcenter("call", "--no-durable", input="what is my balance\n", env=cli_env(data_dir))
    assert quiet.returncode == 0 and quiet.stderr == ""


def test_the_log_level_is_accepted_by_nested_commands_and_checked(data_dir: Path) -> None:
    proc = callcenter("db", "upgrade", "--log-level", "INFO", env=cli_env(data_dir))
    assert proc.returncode == 0, proc.stderr
    bad = callcenter("call", "--log-level", "LOUD", env=cli_env(data_dir))
    assert bad.returncode == 2 and "invalid choice: 'LOUD'" in bad.stderr and "Traceback" not in bad.stderr


def test_unknown_command_is_a_usage_error() -> None:
    proc = callcenter("cal", env=os.environ, timeout=60)
    assert proc.returncode == 2
    assert "invalid choice: 'cal'" in proc.stderr and "Traceback" not in proc.stderr


def test_missing_router_model_file_is_a_clear_error(data_dir: Path) -> None:
    missing = data_dir / "nope.npz"
    proc = callcenter("call", "--no-durable", input="hi\n", env=cli_env(data_dir, CALLCENTER_ROUTER_MODEL=str(missing)))
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip() == f"error: CALLCENTER_ROUTER_MODEL: router model {missing} does not exist"
    garbage = data_dir / "garbage.npz"
    garbage.write_bytes(b"not a model")
    proc = callcenter("call", "--no-durable", input="hi\n", env=cli_env(data_dir, CALLCENTER_ROUTER_MODEL=str(garbage)))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith(f"error: CALLCENTER_ROUTER_MODEL: router model {garbage} is corrupt or unreadable")


def test_dotenv_in_the_working_folder_is_read(tmp_path: Path, data_dir: Path) -> None:
    # The README: settings come from CALLCENTER_* variables or a .env file.
    (tmp_path / ".env").write_text(f"CALLCENTER_DATA_DIR={data_dir}\nCALLCENTER_AUTO_REFUND_LIMIT=10\n")
    env = {k: v for k, v in cli_env(data_dir).items() if k != "CALLCENTER_DATA_DIR"}
    proc = callcenter("call", "--json", "--customer", "C1001", "--no-durable", input="I was charged twice\nyes\n", env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    refund = json.loads(proc.stdout.splitlines()[2])["results"][0]  # after the read-back's "yes"
    # $49 is over the .env's $10 auto-refund limit: sent for approval, not paid
    assert (refund["specialist"], refund["status"]) == ("refund", "needs_approval")
    assert Ledger(Store(data_dir / "callcenter.sqlite3")).list_refunds() == []
    # a variable in the environment wins over .env (a fresh data dir: the first call left
    # an approval pending on that charge, and no second one is filed while it waits)
    fresh = tmp_path / "fresh-data"
    proc = callcenter("call", "--json", "--customer", "C1001", "--no-durable", input="I was charged twice\nyes\n",
                      env={**env, "CALLCENTER_AUTO_REFUND_LIMIT": "100", "CALLCENTER_DATA_DIR": str(fresh)}, cwd=tmp_path)
    assert json.loads(proc.stdout.splitlines()[2])["results"][0]["status"] == "done", proc.stderr
    # a bad value in .env is reported like one in the environment
    (tmp_path / ".env").write_text("CALLCENTER_LLM_PROVIDER=gpt\n")
    proc = callcenter("call", input="", env=cli_env(data_dir), cwd=tmp_path)
    assert proc.returncode == 2
    assert "CALLCENTER_LLM_PROVIDER: accepted values: 'embedded' or 'openai'" in proc.stderr


def test_default_call_starts_and_stops_its_own_temporal(data_dir: Path) -> None:
    """No --no-durable, no address: the line starts a local Temporal dev server and worker
    in the data dir, submits the approval as a workflow, and stops both when the call ends."""
    proc = callcenter("call", "--json", "--customer", "C1002", input="I was charged twice\nyes\n",
                      env=cli_env(data_dir), timeout=180)
    assert proc.returncode == 0, proc.stderr
    turn = json.loads(proc.stdout.splitlines()[2])  # the "yes" to the read-back
    assert [(r["specialist"], r["status"]) for r in turn["results"]] == [("refund", "needs_approval")]
    store = Store(data_dir / "callcenter.sqlite3")
    [work] = store.list_work(customer_id="C1002")
    assert work.status == "submitted"  # accepted by Temporal, not left in the outbox
    assert (data_dir / "temporal.sqlite3").is_file()
    assert not (data_dir / "temporal.json").exists()  # the server it started is gone
    assert Ledger(store).list_refunds() == []
    # The terminal is the transcript: no INFO lines of the dev server or the worker in it.
    assert " INFO " not in proc.stderr and "ToolError" not in proc.stderr, proc.stderr
    store.close()

    # A newcomer starts the demo again: the request is forgotten, the router cache is kept.
    reset = callcenter("reset-demo", env=cli_env(data_dir), timeout=60)
    assert reset.returncode == 0 and "callcenter.sqlite3" in reset.stdout, reset.stderr
    assert not (data_dir / "callcenter.sqlite3").exists() and not (data_dir / "temporal.sqlite3").exists()
    assert (data_dir / "models").is_dir()
    again = Store(data_dir / "callcenter.sqlite3")
    assert again.list_work(customer_id="C1002") == [] and again.get_customer("C1002") is not None
    again.close()
