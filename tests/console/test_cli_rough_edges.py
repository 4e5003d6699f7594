"""Issue 29's rough edges in the operators' commands, each through the real `callcenter`:
operator accounts on the base install (no console extra), what `callcenter console` says
when it starts, `approvals list` that never cuts a word, and the hint after a call stopped
its local Temporal server."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

from tests.conftest import CALLCENTER, ROOT, callcenter, cli_env, free_port, refund_request
from workflows.client import DurableWork

from .conftest import uid


def _extra_only_modules(extra: str) -> list[str]:
    """Top-level modules of the packages only `extra` installs (absent from the base install)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    name = lambda req: req.split(";")[0].split("[")[0].split("<")[0].split(">")[0].split("=")[0].split("~")[0].strip().lower()  # noqa: E731
    base = {name(r) for r in project["dependencies"]}
    only = {name(r) for r in project["optional-dependencies"][extra]} - base
    return sorted(mod for mod, dists in packages_distributions().items()
                  if any(d.lower().replace("_", "-") in only for d in dists))


# The `callcenter` entry point, with the console extra's packages made impossible to import:
# what a base install (`pip install .`) is.
BASE_INSTALL = """
import sys
HIDDEN = set(sys.argv[1].split(","))
class Hide:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in HIDDEN:
            raise ModuleNotFoundError(f"No module named {name!r}")
        return None
sys.meta_path.insert(0, Hide())
from meta.shell.cli import main
sys.exit(main(sys.argv[2:]))
"""


def _base(data_dir: Path, *args: str, input: str | None = None) -> subprocess.CompletedProcess[str]:
    hidden = ",".join(_extra_only_modules("console"))
    env = cli_env(data_dir, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-c", BASE_INSTALL, hidden, *args], input=input, capture_output=True,
                          text=True, env=env, timeout=120)


def test_operator_accounts_work_on_the_base_install(tmp_path: Path) -> None:
    assert "argon2" not in _extra_only_modules("console")  # the base install has what accounts need
    assert {"starlette", "uvicorn"} <= set(_extra_only_modules("console"))
    made = _base(tmp_path, "operators", "add", "maria", "--role", "manager", "--password-stdin",
                 input="correct horse battery staple\n")
    assert made.returncode == 0 and "operator maria: manager" in made.stdout, made.stderr
    login = _base(tmp_path, "operators", "login", "maria", "--password-stdin", input="correct horse battery staple\n")
    assert login.returncode == 0 and login.stdout.strip().startswith("cco_"), login.stderr
    wrong = _base(tmp_path, "operators", "login", "maria", "--password-stdin", input="not the password\n")
    assert wrong.returncode == 1 and wrong.stderr.count("\n") == 1 and "Traceback" not in wrong.stderr
    # The web console itself needs its extra: one line says so.
    served = _base(tmp_path, "console", "--port", str(free_port()))
    assert served.returncode == 1 and served.stderr == "error: the console needs its extra: pip install 'callcenter[console]'\n"


def test_weak_passwords_and_bad_numbers_are_refused_in_one_line(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    # The last three are the breached pattern word + year (+ word or "!!"): zxcvbn puts three
    # cheap tokens at about 10^8 guesses, its score 3; the insider's probe found them accepted.
    for weak in ("aaaaaaaaaaaa", "password1234", "maria1234567", "maria2026maria", "Summer2026Summer", "Welcome2026!!"):
        r = callcenter("operators", "add", "maria", "--role", "manager", "--password-stdin", env=env, input=weak + "\n")
        assert r.returncode == 1 and "too easy to guess" in r.stderr and r.stderr.count("\n") == 1, (weak, r.stderr)
    for bad in ("NaN", "Infinity", "1e400000", "-5", "12.345"):
        r = callcenter("operators", "add", "maria", "--role", "agent", "--limit", bad, "--password-stdin", env=env,
                       input="correct horse battery staple\n")
        assert r.returncode == 2 and "--limit must be an amount" in r.stderr and "Traceback" not in r.stderr, (bad, r.stderr)
    r = callcenter("operators", "token", "maria", "--hours", "99999999999999999999", env=env)
    assert r.returncode == 2 and "--hours must be a whole number" in r.stderr


def test_console_says_where_it_serves_and_how_to_make_the_first_operator(tmp_path: Path) -> None:
    port = free_port()
    proc = subprocess.Popen([CALLCENTER, "console", "--port", str(port)], env=cli_env(tmp_path),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = proc.stdout.readline()  # type: ignore[union-attr]
        second = proc.stdout.readline()  # type: ignore[union-attr]
    finally:
        proc.terminate()
        proc.wait(10)
    assert first.strip() == f"operators' console on http://127.0.0.1:{port}/ (Ctrl-C stops it)", proc.stderr.read()  # type: ignore[union-attr]
    assert "no operator accounts yet" in second and "callcenter operators add NAME --role manager" in second


async def test_approvals_list_wraps_at_word_boundaries(settings, store, worker, work: DurableWork) -> None:  # noqa: ANN001
    said = ("I was charged twice for the same order last Tuesday and again on Wednesday although I cancelled "
            "the second subscription before the renewal date")
    req = refund_request(uid("refund-wrap"), said=said)
    await work.submit_approval(req)
    env = cli_env(settings.data_dir, CALLCENTER_TEMPORAL_ADDRESS=settings.temporal_address or "",
                  CALLCENTER_TEMPORAL_TASK_QUEUE=settings.temporal_task_queue)
    for columns in ("100", "60", "200"):
        out = await asyncio.to_thread(callcenter, "approvals", "list", env={**env, "COLUMNS": columns})
        assert out.returncode == 0, out.stderr
        lines = out.stdout.splitlines()
        mine = lines[next(n for n, ln in enumerate(lines) if ln.startswith(req.request_id)):]
        assert all(len(ln) <= int(columns) for ln in mine[1:]), (columns, out.stdout)
        words = " ".join(ln.strip() for ln in mine).split()
        # every word of what the caller said is there whole, in order
        said_words = said.split()
        start = words.index(said_words[0])
        assert words[start:start + len(said_words)] == said_words, (columns, out.stdout)


def test_an_approvals_command_after_the_demo_call_says_its_server_stopped(data_dir: Path) -> None:
    env = cli_env(data_dir)
    call = callcenter("call", "--customer", "C1001", env=env, input="", timeout=300)
    assert call.returncode == 0, call.stderr
    assert (data_dir / "temporal.sqlite3").exists()  # the call's local server kept its history here
    listed = callcenter("approvals", "list", env=env)
    assert listed.returncode == 1
    assert "the local one stops when `callcenter call` (or `bash .ci/demo`) ends" in listed.stderr
    assert "callcenter temporal-server --worker" in listed.stderr and listed.stderr.count("\n") == 1
    # A data dir that never ran a server gets the plain sentence.
    fresh = callcenter("approvals", "list", env=cli_env(data_dir.parent / "never"))
    assert "set CALLCENTER_TEMPORAL_ADDRESS or start `callcenter temporal-server`" in fresh.stderr

