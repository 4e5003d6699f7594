"""`callcenter router train|eval` on small temporary files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meta.shell.cli_router import main
from tests.conftest import callcenter, cli_env

PHRASES = {
    "refund": ["I was charged twice", "refund my money", "wrong charge on my card", "give me my money back",
               "double charge please refund", "you billed me twice", "I want a refund", "reverse this charge"],
    "login": ["I can't log in", "forgot my password", "reset my password", "login is broken",
              "cannot sign in", "password not accepted", "locked out of my account", "sign in fails"],
    "outage": ["is the service down", "is there an outage", "nothing loads is it down", "are you down",
               "service status please", "is the site offline", "any incident right now", "is the system up"],
}
MAPPING = {"refund": "billing/refund", "login": "account/login_help", "outage": "technical/service_status"}


@pytest.fixture()
def files(tmp_path: Path) -> dict[str, Path]:
    train = tmp_path / "train.csv"
    rows = ["text,intent"] + [f'"{t}",{lab}' for lab, ts in PHRASES.items() for t in ts]
    train.write_text("\n".join(rows) + "\n", encoding="utf-8")
    test = tmp_path / "test.jsonl"
    test.write_text(
        "\n".join(
            json.dumps({"text": t, "label": MAPPING[lab]})
            for lab, t in [("refund", "please refund the double charge"), ("login", "I forgot my password again"),
                           ("outage", "is your service down today")]
        )
        + "\n",
        encoding="utf-8",
    )
    mapping = tmp_path / "map.json"
    mapping.write_text(json.dumps(MAPPING), encoding="utf-8")
    return {"train": train, "test": test, "mapping": mapping, "model": tmp_path / "out" / "m.npz"}


def test_train_then_eval_model(files: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    args = ["router", "train", "--data", str(files["train"]), "--out", str(files["model"]),
            "--mapping", str(files["mapping"])]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "24 utterances, 3 labels" in out and str(files["model"]) in out
    assert files["model"].is_file()
    assert main(["router", "eval", "--model", str(files["model"]), "--test", str(files["test"]), "--json"]) == 0
    metrics = json.loads(capsys.readouterr().out)
    for key in ("accuracy", "macro_f1", "coverage", "selective_accuracy", "latency_ms_p95", "ece",
                "domain_accuracy", "per_domain_accuracy", "confusions", "latency_ms_p50"):
        assert key in metrics
    assert metrics["accuracy"] == 1.0
    assert set(metrics["per_domain_accuracy"]) == {"billing", "account", "technical"}


def test_eval_with_train_prints_report(files: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["router", "eval", "--train", str(files["train"]), "--test", str(files["test"]),
                 "--mapping", str(files["mapping"])])
    assert code == 0
    out = capsys.readouterr().out
    assert "accuracy (top-1)" in out and "latency" in out


def test_a_rejection_bound_out_of_range_is_a_usage_error(files: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["router", "train", "--data", str(files["train"]), "--max-reject", "5"])
    assert exit_.value.code == 2
    assert "--max-reject: must be between 0 and 1, got 5" in capsys.readouterr().err
    assert main(["router", "train", "--data", str(files["train"]), "--out", str(files["model"]), "--max-reject", "0.02"]) == 0


def test_flat_labels_without_mapping_are_allowed(files: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["router", "train", "--data", str(files["train"]), "--out", str(files["model"])]) == 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["router", "train", "--data", "/nonexistent/x.csv", "--out", "/tmp/never.npz"], "file not found"),
        (["router", "eval", "--model", "/nonexistent/m.npz", "--test", "{test}"], "does not exist"),
        (["router", "eval", "--train", "{bad}", "--test", "{test}"], "expected 2 fields"),
        (["router", "train", "--data", "{train}", "--out", "{model}", "--label-column", "nope"], "no column 'nope'"),
        (["router", "train", "--data", "{train}", "--out", "{model}", "--mapping", "{emptymap}"], "not in the mapping"),
    ],
)
def test_expected_errors_are_one_line(
    files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("text,label\nhello,a\nhi,b,c\n", encoding="utf-8")
    empty_map = tmp_path / "empty.json"
    empty_map.write_text("{}", encoding="utf-8")
    subst = {**{k: str(v) for k, v in files.items()}, "bad": str(bad), "emptymap": str(empty_map)}
    code = main([a.format(**subst) for a in argv])
    err = capsys.readouterr().err
    assert code == 1
    assert message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_main_cli_subprocess(files: dict[str, Path], tmp_path: Path) -> None:
    """Through the installed `callcenter` console script, as an operator runs it: a moved or
    renamed entry module fails here (the script cannot start) instead of skipping."""
    argv = ["router", "eval", "--train", str(files["train"]), "--test", str(files["test"]),
            "--mapping", str(files["mapping"]), "--json"]
    env = cli_env(tmp_path / "data")
    done = callcenter(*argv, env=env, timeout=240)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1])["accuracy"] == 1.0
    bad = callcenter(*argv[:2], "--train", "/nonexistent.csv", "--test", str(files["test"]), env=env, timeout=240)
    assert bad.returncode == 1 and "Traceback" not in bad.stderr
    assert bad.stderr.count("\n") == 1 and "/nonexistent.csv" in bad.stderr
