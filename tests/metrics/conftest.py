"""Shared helpers of the metrics tests."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
import yaml

from tests.conftest import free_port, require_tool

ROOT = Path(__file__).resolve().parents[2]


def load_dashboard_builder() -> ModuleType:
    # deploy/ is not a package; load the dashboard's source module by path.
    path = ROOT / "deploy/monitoring/build_dashboard.py"
    spec = importlib.util.spec_from_file_location("callcenter_build_dashboard", path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="session")
def dashboard_builder() -> ModuleType:
    return load_dashboard_builder()


# --- a real Prometheus server for the tests ------------------------------------------------
ALERTS = ROOT / "deploy/helm/callcenter/files/alerts.yaml"
RECORDING_RULES = ROOT / "deploy/helm/callcenter/files/recording_rules.yaml"


class Prometheus:
    """A Prometheus server on 127.0.0.1 with temp storage, scraping every second and
    evaluating the shipped alert and recording rules (so the real server proves they load)."""

    def __init__(self, workdir: Path, targets: dict[str, list[str]]) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = {
            "global": {"scrape_interval": "1s", "scrape_timeout": "900ms", "evaluation_interval": "1s"},
            "rule_files": [str(ALERTS), str(RECORDING_RULES)],
            "scrape_configs": [{"job_name": job, "static_configs": [{"targets": hosts}]}
                               for job, hosts in targets.items()],
        }
        (workdir / "prometheus.yml").write_text(yaml.safe_dump(config))
        self.log = (workdir / "prometheus.log").open("wb")
        self.proc = subprocess.Popen(
            [shutil.which("prometheus") or "prometheus",
             f"--config.file={workdir / 'prometheus.yml'}",
             f"--storage.tsdb.path={workdir / 'tsdb'}",
             f"--web.listen-address=127.0.0.1:{self.port}",
             "--storage.tsdb.retention.time=1h"],
            stdout=self.log, stderr=subprocess.STDOUT,
        )
        self._wait_ready()

    def _wait_ready(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"prometheus exited {self.proc.returncode}: {self.log.name}")
            try:
                if urllib.request.urlopen(f"{self.url}/-/ready", timeout=1).status == 200:
                    return
            except OSError:
                time.sleep(0.2)
        raise TimeoutError("prometheus not ready")

    def api(self, path: str, **params: str) -> dict:
        url = f"{self.url}/api/v1/{path}?{urllib.parse.urlencode(params)}"
        try:
            body = urllib.request.urlopen(url, timeout=10).read()
        except urllib.error.HTTPError as err:  # 400 = bad query: return Prometheus' answer
            body = err.read()
        return json.loads(body)

    def query(self, expr: str) -> dict:
        return self.api("query", query=expr)

    def wait_for(self, expr: str, timeout: float = 30) -> list[dict]:
        """Poll until the instant query returns a non-empty vector."""
        deadline = time.monotonic() + timeout
        while True:
            res = self.query(expr)
            if res.get("status") == "success" and res["data"]["result"]:
                return res["data"]["result"]
            if time.monotonic() > deadline:
                raise TimeoutError(f"no data for {expr!r}: {res}")
            time.sleep(0.5)

    def wait_value(self, expr: str, expected: float, timeout: float = 30) -> None:
        """Poll until the single-valued instant query equals ``expected``; report the last value."""
        deadline = time.monotonic() + timeout
        last: object = None
        while time.monotonic() < deadline:
            res = self.query(expr)
            result = res.get("data", {}).get("result", [])
            last = [r["value"][1] for r in result] if res.get("status") == "success" else res
            if len(result) == 1 and float(result[0]["value"][1]) == expected:
                return
            time.sleep(0.5)
        raise AssertionError(f"{expr} = {last}, expected {expected}")

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


@pytest.fixture
def prometheus_factory(tmp_path: Path) -> Iterator:
    require_tool("prometheus")  # skipped on a developer's machine without it, failed in CI
    started: list[Prometheus] = []

    def start(targets: dict[str, list[str]]) -> Prometheus:
        prom = Prometheus(tmp_path, targets)
        started.append(prom)
        return prom

    yield start
    for prom in started:
        prom.close()


@pytest.fixture(scope="session")
def promtool() -> str:
    return require_tool("promtool")


@pytest.fixture
def port() -> int:
    """A free TCP port on 127.0.0.1 (tests bind it in a subprocess)."""
    return free_port()
