"""The LiveKit worker serves calls: a whole call runs inside the worker's own job executor.

These tests start LiveKit's real process pool (`AgentServer.run(unregistered=True)` plus
`simulate_job(fake_job=True)`), so the entrypoint and prewarm step are pickled, a job
process (or thread) is spawned, the line is built in it, and caller turns run through a
real session there. A worker whose jobs cannot start fails here, as it would in production.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from livekit.agents import JobExecutorType

from callcenter.llm.embedded import EmbeddedLLM
from callcenter.settings import SettingsError, load_settings
from callcenter.store import Store
from domains.billing.ledger import Ledger
from meta.session import build_line
from meta.shell.livekit_worker import build_server, run_script, speech_kwargs
from tests.conftest import cli_env, free_port, require_module

CALLCENTER = str(Path(sys.executable).with_name("callcenter"))


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_args, **_kwargs):
        raise AssertionError("the worker tried to open a network connection")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


@pytest.mark.parametrize("executor", [JobExecutorType.PROCESS, JobExecutorType.THREAD], ids=["process", "thread"])
async def test_a_whole_call_runs_in_a_real_job(executor: JobExecutorType, tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path, hold_on_line_s=0, metrics_port=0)
    server = build_server(settings, executor=executor, port=0, metrics=False, idle_processes=0)
    turns = ["uh hi i was charged twice for my subscription", "yes please", "thanks bye"]
    report = await run_script(server, turns, customer="C1001")

    assert report.ok, report.error
    assert len(report.replies) == len(turns)
    assert ["meta", "billing"] in report.hops
    assert ["billing", "billing.refund"] in report.hops
    assert "$49.00" in " ".join(report.replies)
    # The job process wrote to the same database the worker was configured with, once.
    store = Store(settings.db_path)
    try:
        assert [(r.charge_id, r.amount_cents) for r in Ledger(store).list_refunds("C1001")] == [("CH-1001-D", 4900)]
    finally:
        store.close()


async def test_a_job_that_fails_is_reported_not_hidden(tmp_path: Path) -> None:
    # An unknown customer makes start_call raise inside the job: the report says so.
    settings = load_settings(data_dir=tmp_path, metrics_port=0)
    server = build_server(settings, executor=JobExecutorType.THREAD, port=0, metrics=False, idle_processes=0)
    report = await run_script(server, ["hello"], customer="C9999")
    assert not report.ok
    assert report.error == "UnknownCustomerError"
    assert report.replies == []


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    return cli_env(tmp_path, **{"CALLCENTER_METRICS_PORT": "0", **extra})


def test_selfcheck_command_runs_a_job_process(tmp_path: Path) -> None:
    out = subprocess.run([CALLCENTER, "worker", "selfcheck"], env=_env(tmp_path), capture_output=True, text=True, timeout=240)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "worker self-check passed" in out.stderr
    assert "Traceback" not in out.stderr


def test_selfcheck_fails_loudly_when_jobs_cannot_run(tmp_path: Path) -> None:
    # A data dir that is a file: the job process cannot open its database.
    bad = tmp_path / "not-a-dir"
    bad.write_text("x")
    out = subprocess.run([CALLCENTER, "worker", "selfcheck"], env=_env(bad), capture_output=True, text=True, timeout=240)
    assert out.returncode == 1
    last = out.stderr.strip().splitlines()[-1]
    assert last.startswith("error: worker self-check call failed in the job process: the line could not be built")


def test_worker_start_refuses_to_register_when_jobs_cannot_run(tmp_path: Path) -> None:
    bad = tmp_path / "not-a-dir"
    bad.write_text("x")
    env = _env(bad, LIVEKIT_URL="ws://127.0.0.1:9", LIVEKIT_API_KEY="k", LIVEKIT_API_SECRET="s")
    out = subprocess.run([CALLCENTER, "worker", "start"], env=env, capture_output=True, text=True, timeout=240)
    assert out.returncode == 1
    assert "error: worker self-check" in out.stderr


def test_worker_start_names_a_bad_domain_setting(tmp_path: Path) -> None:
    # Billing's limits are billing's own settings section: checked before any job process
    # starts, and reported like any setting, not as a failed self-check.
    env = _env(tmp_path, LIVEKIT_URL="ws://127.0.0.1:9", LIVEKIT_API_KEY="k", LIVEKIT_API_SECRET="s",
               CALLCENTER_AUTO_REFUND_LIMIT="lots")
    out = subprocess.run([CALLCENTER, "worker", "start"], env=env, capture_output=True, text=True, timeout=240)
    assert out.returncode == 2
    assert out.stderr.splitlines()[:2] == [
        "error: invalid settings:",
        "  CALLCENTER_AUTO_REFUND_LIMIT: Input should be a valid decimal (Refunds at or under this amount (USD) are issued without approval.)",
    ], out.stderr
    assert "lots" not in out.stderr and "Traceback" not in out.stderr


@pytest.mark.parametrize(
    ("moment", "selfcheck"),
    [("initializing process", "false"), ("process initialized", "true")],
    ids=["while-job-processes-load", "with-idle-job-processes"],
)
def test_worker_start_stops_cleanly_on_sigterm_to_its_group(tmp_path: Path, moment: str, selfcheck: str) -> None:
    # What the image and the chart run, stopped as `timeout`, systemd or a terminal stop it:
    # SIGTERM to the whole process group. The forkserver used to die with the worker, so every
    # job process reported exit code 255 and one still loading logged a traceback.
    health = free_port()
    env = _env(tmp_path, LIVEKIT_URL=f"ws://127.0.0.1:{free_port()}", LIVEKIT_API_KEY="devkey",
               LIVEKIT_API_SECRET="secretsecretsecretsecretsecret12", CALLCENTER_WORKER_SELFCHECK=selfcheck,
               CALLCENTER_WORKER_HTTP_PORT=str(health), CALLCENTER_METRICS_PORT=str(free_port()))
    proc = subprocess.Popen([CALLCENTER, "worker", "start"], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, start_new_session=True)
    seen: list[str] = []
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            seen.append(line)
            if moment in line:
                break
        assert moment in "".join(seen), "".join(seen)[-3000:]
        with urllib.request.urlopen(f"http://127.0.0.1:{health}/", timeout=10) as answer:  # the probes' port
            assert answer.status == 200
        time.sleep(0.5)
        os.killpg(proc.pid, signal.SIGTERM)
        rest, _ = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    log = "".join(seen) + rest
    assert proc.returncode == 0, log[-3000:]
    assert "Traceback" not in log, log[-3000:]
    assert '"level": "ERROR"' not in log and " ERROR " not in log, log[-3000:]
    assert "shutting down worker" in log  # LiveKit's own lines reach the SRE, once each
    assert log.count("starting worker") == 1


@pytest.mark.parametrize(
    ("argv", "code", "expect"),
    [
        (["worker"], 2, "usage: callcenter worker"),
        (["worker", "--help"], 0, "selfcheck"),
        (["worker", "console"], 2, "error: `worker console`"),
        (["worker", "start"], 2, "error: CALLCENTER_LIVEKIT_URL"),
    ],
)
def test_worker_command_line(tmp_path: Path, argv: list[str], code: int, expect: str) -> None:
    out = subprocess.run([CALLCENTER, *argv], env=_env(tmp_path), capture_output=True, text=True, timeout=60)
    assert out.returncode == code, out.stderr
    assert expect in out.stdout + out.stderr
    assert "Traceback" not in out.stderr


@pytest.mark.parametrize("command", ["start", "dev", "connect"])
def test_worker_help_is_instant_and_loads_no_livekit(tmp_path: Path, command: str) -> None:
    """`worker start --help` took 26 s: it imported LiveKit, the router and the speech stack.
    The installed command prints the options; in a fresh interpreter that runs the same
    entry point, no LiveKit (nor the router's scikit-learn) module gets imported."""
    out = subprocess.run([CALLCENTER, "worker", command, "--help"], env=_env(tmp_path), capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.startswith(f"usage: callcenter worker {command} "), out.stderr
    assert "--url URL" in out.stdout and "Traceback" not in out.stderr
    probe = (
        "import sys\nfrom meta.shell.cli import main\n"
        f"code = main(['worker', '{command}', '--help'])\n"
        "heavy = sorted({m.split('.')[0] + '.' + m.split('.')[1] for m in sys.modules if m.startswith(('livekit.', 'sklearn.'))})\n"
        "print('loaded:', heavy)\nsys.exit(code)\n"
    )
    run = subprocess.run([sys.executable, "-c", probe], env=_env(tmp_path), capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert "loaded: []" in run.stdout


def test_worker_help_names_the_options_livekit_accepts() -> None:
    """The help is written out (no LiveKit import); it must name exactly LiveKit's visible options."""
    import typer.main
    from livekit.agents import AgentServer
    from livekit.agents.cli import _legacy

    from meta.shell.worker_help import COMMANDS

    livekit = typer.main.get_command(_legacy._build_cli(AgentServer()))
    for name in ("start", "dev", "connect"):
        theirs = {o for p in livekit.commands[name].params if not getattr(p, "hidden", False) for o in p.opts}  # type: ignore[attr-defined]
        ours = {option.split()[0] for option, _ in COMMANDS[name][1]}
        assert ours == theirs, name


def test_text_only_without_speech_providers(tmp_path: Path) -> None:
    assert speech_kwargs(load_settings(data_dir=tmp_path, stt_provider="none")) == {"vad": None}


def test_local_speech_is_the_default_and_builds_offline(tmp_path: Path, no_network: None) -> None:
    require_module("faster_whisper", "the voice extra: bash .ci/setup --test")
    from livekit.agents import inference

    from callcenter.speech.local_stt import WhisperSTT
    from callcenter.speech.local_tts import HibariTTS
    from callcenter.speech.spoken_io import NormalisedSTT
    from callcenter.spoken import SpokenIds

    ear = SpokenIds.of([("CH", "charge")])  # the line's (Line.ear)
    kwargs = speech_kwargs(load_settings(data_dir=tmp_path), ear)
    # NormalisedSTT -> EarlySTT (decodes during the end-of-turn silence) -> WhisperSTT
    assert isinstance(kwargs["stt"], NormalisedSTT) and isinstance(kwargs["stt"].inner.inner, WhisperSTT)
    assert isinstance(kwargs["tts"], HibariTTS)
    assert isinstance(kwargs["vad"], inference.VAD)
    assert ear.ear_transform in kwargs["tts_text_transforms"]  # the line's ids are read aloud
    assert kwargs["turn_handling"]["turn_detection"] == "vad"


def test_openai_speech_builds_plugins_offline(tmp_path: Path, no_network: None) -> None:
    settings = load_settings(data_dir=tmp_path, stt_provider="openai", tts_provider="openai", llm_api_key="sk-test", llm_base_url="http://127.0.0.1:9/v1")
    kwargs = speech_kwargs(settings)
    # Every recogniser is wrapped so its transcripts get the spoken-form normaliser.
    inner = kwargs["stt"].inner  # a batch cloud STT gets the early decode too (EarlySTT)
    assert type(getattr(inner, "inner", inner)).__module__.startswith("livekit.plugins.openai")
    assert type(kwargs["tts"]).__module__.startswith("livekit.plugins.openai")


def test_openai_speech_needs_a_key(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="CALLCENTER_LLM_API_KEY"):
        speech_kwargs(load_settings(data_dir=tmp_path, stt_provider="openai", tts_provider="openai"))


def test_llm_provider_is_a_setting(tmp_path: Path, no_network: None) -> None:
    embedded = build_line(load_settings(data_dir=tmp_path))
    assert isinstance(embedded.llm, EmbeddedLLM)
    hosted = build_line(load_settings(data_dir=tmp_path, llm_provider="openai", llm_base_url="http://127.0.0.1:9/v1", llm_model="m"))
    assert not isinstance(hosted.llm, EmbeddedLLM)
    assert hosted.llm.model == "m"


def test_livekit_env_names_are_accepted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LIVEKIT_URL", "wss://lk.example.invalid")
    monkeypatch.setenv("LIVEKIT_API_KEY", "key-from-livekit-name")
    settings = load_settings(data_dir=tmp_path)
    assert settings.livekit_url == "wss://lk.example.invalid"
    assert settings.livekit_api_key is not None
    assert settings.livekit_api_key.get_secret_value() == "key-from-livekit-name"


def test_our_forkserver_preload_is_the_one_livekit_would_set() -> None:
    """We start the forkserver before LiveKit can set its preload list, so we set LiveKit's
    list ourselves; this reads LiveKit's source so an upgrade that changes it fails here."""
    import inspect

    from livekit.agents.worker import AgentServer

    from meta.shell.worker_process import LIVEKIT_PRELOAD_TAIL, forkserver_preload

    src = inspect.getsource(AgentServer.run)
    assert "[p.package for p in Plugin.registered_plugins] + self._preload_modules" in src
    tail = src[src.index("self._preload_modules") : src.index("set_forkserver_preload")]
    assert [m for m in re.findall(r'"(livekit\.agents\.[\w.]+)"', tail)] == list(LIVEKIT_PRELOAD_TAIL)
    preload = forkserver_preload()
    assert preload[-2:] == list(LIVEKIT_PRELOAD_TAIL) and len(preload) == len(set(preload))
