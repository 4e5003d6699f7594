"""`callcenter call` as a user runs it: bad local state is one clear line, never a traceback;
caller secrets never reach its output; undecodable input is replaced, not echoed."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
from pathlib import Path

import pytest

from callcenter.redact import has_card_number
from callcenter.store import Store
from callcenter.store.repository import _db_problem
from tests.conftest import CALLCENTER

CLI = [CALLCENTER]  # the installed console script, as a user runs it


def _env(data_dir: Path | str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CALLCENTER_")}
    env.update({"CALLCENTER_DATA_DIR": str(data_dir), **extra})
    return env


def _call(env: dict[str, str], stdin: bytes = b"hello\n", *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([*CLI, "call", "--json", "--no-durable", *args], input=stdin, capture_output=True, env=env, timeout=120, cwd=cwd)


def _one_line_error(proc: subprocess.CompletedProcess[bytes], *needles: str) -> str:
    err = proc.stderr.decode()
    assert proc.returncode == 2, err
    assert "Traceback" not in err, err
    [line] = [ln for ln in err.splitlines() if ln.startswith("error:")]
    for needle in needles:
        assert needle in line, line
    return line


@pytest.fixture
def fresh_db(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    Store(data / "callcenter.sqlite3").close()
    return data


def test_router_model_problems(tmp_path: Path) -> None:
    data = tmp_path / "data"
    missing = tmp_path / "nope.model"
    _one_line_error(_call(_env(data, CALLCENTER_ROUTER_MODEL=str(missing))), "does not exist")
    corrupt = tmp_path / "corrupt.model"
    corrupt.write_bytes(os.urandom(4096))
    _one_line_error(_call(_env(data, CALLCENTER_ROUTER_MODEL=str(corrupt))), str(corrupt))
    folder = tmp_path / "folder.model"
    folder.mkdir()
    _one_line_error(_call(_env(data, CALLCENTER_ROUTER_MODEL=str(folder))), str(folder))


def test_router_model_that_does_not_cover_the_registry_is_refused(tmp_path: Path) -> None:
    from callcenter.routing import IntentRouter
    from meta.router import training_examples

    # A company's model trained without two of the line's labels.
    examples = [(x, y) for x, y in training_examples() if y not in ("account/close_account", "billing/plan_change")]
    model = tmp_path / "partial.model"
    IntentRouter.train(examples).save(model)
    line = _one_line_error(_call(_env(tmp_path / "data", CALLCENTER_ROUTER_MODEL=str(model))), "does not cover")
    assert "account/close_account" in line and "billing/plan_change" in line


def test_data_dir_problems(tmp_path: Path) -> None:
    a_file = tmp_path / "not-a-dir"
    a_file.write_text("x")
    _one_line_error(_call(_env(a_file)), "is a file")
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    proc = _call(_env(""), cwd=cwd)
    assert proc.returncode == 2 and b"Traceback" not in proc.stderr and b"CALLCENTER_DATA_DIR" in proc.stderr
    assert list(cwd.iterdir()) == []  # nothing written into the current directory


def test_database_problems(tmp_path: Path, fresh_db: Path) -> None:
    db = fresh_db / "callcenter.sqlite3"
    good = db.read_bytes()
    db.write_bytes(good[: len(good) // 3])  # truncated
    for suffix in ("-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    _one_line_error(_call(_env(fresh_db)), "corrupt or truncated")
    db.write_bytes(os.urandom(8192))  # random bytes
    _one_line_error(_call(_env(fresh_db)), "corrupt or truncated")
    db.unlink()
    Store(db).close()
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA user_version = 99")
    _one_line_error(_call(_env(fresh_db)), "newer than this program")
    db.unlink()
    db.mkdir()
    _one_line_error(_call(_env(fresh_db)), "is a directory")


def test_read_only_database(fresh_db: Path) -> None:
    assert "read-only" in _db_problem(fresh_db, sqlite3.OperationalError("attempt to write a readonly database"))
    if os.geteuid() == 0:
        pytest.skip("root writes through file permissions; the message mapping is checked above")
    db = fresh_db / "callcenter.sqlite3"
    db.chmod(0o444)
    fresh_db.chmod(0o555)
    try:
        _one_line_error(_call(_env(fresh_db)), "read-only")
    finally:
        fresh_db.chmod(0o755)
        db.chmod(0o644)


def test_invalid_utf8_and_card_numbers_in_json_output(tmp_path: Path) -> None:
    stdin = b"I was charged twice \xff\xfe\x80 and my card is 4111 1111 1111 1111\nmy pin is 4321\n"
    proc = _call(_env(tmp_path / "data"), stdin, "--customer", "C1001")
    assert proc.returncode == 0, proc.stderr.decode()
    out = proc.stdout.decode()
    turns = [json.loads(line) for line in out.splitlines()]
    assert len(turns) == 3
    assert "\\ud" not in out and "\ufffd" in turns[1]["user"]  # replaced, never lone surrogates
    assert not has_card_number(out) and "[card ending 1111]" in turns[1]["user"] and "4321" not in out
    assert "line 1 was not valid UTF-8" in proc.stderr.decode()
    db = sqlite3.connect(tmp_path / "data" / "callcenter.sqlite3")
    assert not has_card_number("\n".join(db.iterdump()))


MALFORMED_URLS = [
    ("notaurl", "is not a URL"),
    ("://secretpw@", "is not a URL"),
    ("postgresql+psycopg://ana:secretpw@db.example:fivefour/cc", "port in the database URL (CALLCENTER_DATABASE_URL) is not a number"),
    ("postgresql+psycopg://ana:secretpw@db.example:99999/cc", "must be a number from 1 to 65535"),
    ("postgresql+psycopg://ana:secretpw@[::1/cc", "not a number"),
    ("mysql://ana:secretpw@db.example/cc", "unsupported database"),
    ("postgresql+nosuchdriver://ana:secretpw@db.example/cc", "unsupported PostgreSQL driver 'nosuchdriver'"),
    ("sqlite://db.example/cc.sqlite3", "names a file, not a host"),
]


@pytest.mark.parametrize(("url", "says"), MALFORMED_URLS)
def test_every_malformed_database_url_is_one_line(tmp_path: Path, url: str, says: str) -> None:
    proc = subprocess.run([*CLI, "db", "current"], capture_output=True, env=_env(tmp_path, CALLCENTER_DATABASE_URL=url), timeout=120)
    assert "secretpw" not in _one_line_error(proc, says)


@pytest.mark.parametrize(("url", "says"), [MALFORMED_URLS[0], MALFORMED_URLS[2]])  # the two of issue 24
def test_a_call_with_a_malformed_database_url_is_one_line(tmp_path: Path, url: str, says: str) -> None:
    assert "secretpw" not in _one_line_error(_call(_env(tmp_path / "data", CALLCENTER_DATABASE_URL=url)), says)


def test_reset_demo_never_touches_a_database_server(tmp_path: Path) -> None:
    for url in ("postgresql+psycopg://ana:secretpw@db.example/cc", "notaurl"):
        proc = subprocess.run([*CLI, "reset-demo"], capture_output=True, env=_env(tmp_path, CALLCENTER_DATABASE_URL=url), timeout=120)
        assert "secretpw" not in _one_line_error(proc, "CALLCENTER_DATABASE_URL names a database server")
