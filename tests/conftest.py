"""Helpers shared by every test package: required tools, free ports, the real `callcenter`
entry point with a clean environment, a router trained once per session, and the embedded
line on a real SQLite store per test (`settings`, `store`, `line`, `open_call`; a package
that needs another store or settings, e.g. Temporal's, declares its own).

Test modules import the plain helpers with ``from tests.conftest import ...``.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.ci_skips import pytest_make_collect_report, pytest_runtest_makereport  # noqa: F401  (hooks: no skip under CI)

ROOT = Path(__file__).resolve().parents[1]
IN_CI = os.environ.get("CI") == "true"
# The console script pip installed beside this interpreter: what a user runs.
CALLCENTER = str(Path(sys.executable).with_name("callcenter"))


def require(what: str, present: bool, how: str) -> None:
    """A missing required tool or data set: skipped on a developer's machine, a failure
    under CI=true, so that CI can never be green without it."""
    if present:
        return
    message = f"{what} is missing ({how})"
    if IN_CI:
        pytest.fail(f"{message}; it is required under CI=true", pytrace=False)
    pytest.skip(message)


def require_module(name: str, how: str) -> Any:
    """A module from an extra the suite needs (e.g. faster_whisper from [voice]), imported;
    called at a test module's top it skips (or, under CI=true, fails) the whole module."""
    import importlib

    try:
        return importlib.import_module(name)
    except ImportError:
        message = f"{name} is not installed ({how})"
        if IN_CI:
            pytest.fail(f"{message}; it is required under CI=true", pytrace=False)
        pytest.skip(message, allow_module_level=True)


def require_tool(name: str) -> str:
    path = shutil.which(name)
    require(name, path is not None, "Debian 'prometheus'; bash .ci/setup --test installs it")
    return path  # type: ignore[return-value]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cli_env(data_dir: Path, **extra: str) -> dict[str, str]:
    """The environment a user's shell would give: no CALLCENTER_* from the test run."""
    # PROMETHEUS_MULTIPROC_DIR: set in this process once a LiveKit worker ran in it
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("CALLCENTER_", "LIVEKIT_")) and k != "PROMETHEUS_MULTIPROC_DIR"}
    env["CALLCENTER_DATA_DIR"] = str(data_dir)
    env.update(extra)
    return env


def refund_request(
    request_id: str, *, amount_cents: int = 24900, charge: str = "CH-1002-D", customer: str = "C1002",
    said: str = "charged twice", finding: str = "duplicate",
) -> Any:
    """A refund approval request as billing/refund files it (workflows.client.ApprovalRequest)."""
    from workflows.client import ApprovalRequest

    return ApprovalRequest("refund", customer, amount_cents, said, finding, "billing/refund", request_id, record_id=charge)


def demo_invoice(store: Any, customer: str, back: int) -> tuple[str, str]:
    """(id, month as the line says it: "September 2026") of the demo invoice ``back`` calendar
    months before today. The demo data is dated from today, so a test names its months from
    here, never from the day it was written."""
    from domains.billing.ledger import Ledger
    from domains.billing.months import spoken

    invoice = next(i for i in Ledger(store).list_invoices(customer) if i.id.endswith(f"-{back}"))
    return invoice.id, spoken(invoice.period)


def callcenter(
    *args: str,
    env: Mapping[str, str],
    input: str | None = None,
    timeout: float = 120,
    cwd: Path | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run the installed `callcenter` command and wait for it."""
    return subprocess.run(
        [CALLCENTER, *args], input=input, capture_output=True, text=True, env=dict(env),
        timeout=timeout, cwd=cwd,
    )


@pytest.fixture(scope="session")
def router_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data dir's ``models/`` folder holding the router trained from the shipped
    utterances (and the second reading's, from the call data), trained once per session (the
    line's own cache, same digests)."""
    from meta.router import _second, _trained

    models = tmp_path_factory.mktemp("router-cache") / "models"
    _trained(models)
    _second(models)
    return models


@pytest.fixture
def data_dir(tmp_path: Path, router_cache: Path) -> Path:
    """A fresh data dir whose router model is already cached: CLI subprocesses do not
    each retrain it."""
    d = tmp_path / "data"
    shutil.copytree(router_cache, d / "models")
    return d


@pytest.fixture
def exporter(settings: Any) -> Any:
    """Tracing on for one test, every span kept in OpenTelemetry's in-memory exporter."""
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    from callcenter import tracing

    spans = InMemorySpanExporter()
    tracing.configure(settings, exporter=spans, set_global=False)
    yield spans
    tracing.uninstall()


# --- the embedded line on a real SQLite store --------------------------------------------


@pytest.fixture(scope="session")
def model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # One data dir for the whole session so the router model is trained once and cached.
    return tmp_path_factory.mktemp("callcenter-data")


@pytest.fixture
def settings(model_dir: Path) -> Any:
    from callcenter.settings import load_settings

    return load_settings(data_dir=model_dir, hold_on_line_s=0)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Any]:
    from callcenter.store import Store
    from domains import registry

    s = Store(tmp_path / "store.sqlite3", schemas=registry.schemas())  # as the line opens it
    yield s
    s.close()


@pytest.fixture
def line(settings: Any, store: Any) -> Any:
    from meta.session import build_line

    return build_line(settings, store=store)


@pytest.fixture
async def open_call(line: Any) -> AsyncIterator[Callable[..., Awaitable[Any]]]:
    """Open calls on `line` (closed after the test); `caller_line` is the calling number's key."""
    from meta.session import start_call

    calls: list[Any] = []

    async def _open(customer_id: str | None = None, *, caller_line: str | None = None, **kwargs: object) -> Any:
        call = await start_call(line, customer_id=customer_id, **kwargs)  # type: ignore[arg-type]
        if caller_line is not None:
            call.state.caller.line = caller_line
        calls.append(call)
        return call

    yield _open
    for call in calls:
        await call.close()


SHIPPING = "tests.fixtures.domains.shipping"  # a fourth domain's folder, outside the domains package


@pytest.fixture
def shipping_added(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The one line a user edits: shipping added to `PACKAGES` in domains/registry.py. The
    specs are read from PACKAGES when first asked for, so the cached ones are put aside."""
    from domains import registry

    monkeypatch.setattr(registry, "PACKAGES", (*registry.PACKAGES, SHIPPING))
    cached = vars(registry).pop("DOMAINS", None)
    yield
    vars(registry).pop("DOMAINS", None)
    if cached is not None:
        registry.DOMAINS = cached  # type: ignore[misc]
