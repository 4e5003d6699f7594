"""LiveKit's agent worker runs each call in its own job process; with PROMETHEUS_MULTIPROC_DIR
set, the worker's /metrics merges every process's values. The callcenter metrics must
merge into the same bounded series (no per-process `pid` label) and add up correctly."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

SCRIPT = textwrap.dedent("""
    import multiprocessing as mp
    import urllib.request

    def call_a():
        from callcenter import metrics as m
        m.call_started()   # still on the line when scraped
        m.hop(from_agent="meta", to_agent="billing", path="fast", outcome="ok", seconds=0.002)
        m.hop(from_agent="billing", to_agent="billing.refund", path="fast", outcome="ok", seconds=0.003)
        m.turn(seconds=0.02)

    def call_b():
        from callcenter import metrics as m
        m.call_started()
        m.hop(from_agent="meta", to_agent="billing", path="fast", outcome="ok", seconds=0.004)
        m.turn(seconds=0.03)
        m.call_ended(outcome="resolved", seconds=12.0)

    if __name__ == "__main__":
        ctx = mp.get_context("spawn")   # like LiveKit's job processes: fresh interpreters
        for target in (call_a, call_b):
            p = ctx.Process(target=target)
            p.start()
            p.join()
            assert p.exitcode == 0
        from callcenter import metrics
        server = metrics.serve(0)
        print(urllib.request.urlopen(server.url).read().decode())
        server.close()
""")


def test_job_processes_merge_into_the_same_series(tmp_path: Path) -> None:
    mpdir = tmp_path / "multiproc"
    mpdir.mkdir()
    script = tmp_path / "jobs.py"
    script.write_text(SCRIPT)
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(mpdir)}
    out = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True,
                         timeout=120, cwd=Path(__file__).resolve().parents[2])
    assert out.returncode == 0, out.stderr
    samples = [s for fam in text_string_to_metric_families(out.stdout)
               if fam.name.startswith("callcenter_") for s in fam.samples]
    assert samples, out.stdout[:2000]
    assert not [s for s in samples if "pid" in s.labels], "a per-process label leaked"

    def value(name: str, **labels: str) -> float:
        return sum(s.value for s in samples if s.name == name and labels.items() <= s.labels.items())

    assert value("callcenter_calls_active") == 1  # livesum: one call still on the line
    assert value("callcenter_calls_started_total") == 2
    assert value("callcenter_calls_total", outcome="resolved") == 1
    assert value("callcenter_hops_total", from_agent="meta", to_agent="billing") == 2
    assert value("callcenter_hops_total") == 3
    assert value("callcenter_hop_duration_seconds_count", from_agent="meta", to_agent="billing") == 2
    assert value("callcenter_turns_total") == 2
    assert value("callcenter_approvals_pending", kind="refund") == 0
