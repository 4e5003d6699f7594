"""The agent worker reports its load to LiveKit: active calls over CALLCENTER_WORKER_MAX_CALLS
(or CPU, if higher), so dispatch stops sending calls to a full worker."""

from __future__ import annotations

import math
from pathlib import Path

from livekit.agents.worker import ServerEnvOption

from callcenter.settings import load_settings
from meta.shell import livekit_worker as worker


class _Server:
    def __init__(self, calls: int) -> None:
        self.active_jobs = [object()] * calls


def test_load_is_the_share_of_max_calls_or_cpu(monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setattr("livekit.agents.worker._DefaultLoadCalc.get_load", classmethod(lambda cls, s: 0.1))
    assert worker.worker_load(4, _Server(0)) == 0.1  # idle: the CPU average
    assert worker.worker_load(4, _Server(3)) == 0.75
    assert worker.worker_load(4, _Server(4)) == 1.0 and worker.worker_load(4, _Server(9)) == 1.0
    monkeypatch.setattr("livekit.agents.worker._DefaultLoadCalc.get_load", classmethod(lambda cls, s: 0.95))
    assert worker.worker_load(4, _Server(1)) == 0.95  # a saturated CPU counts as full too


def test_the_server_uses_it_with_a_threshold_below_full(tmp_path: Path) -> None:
    server = worker.build_server(load_settings(data_dir=tmp_path, worker_max_calls=7), metrics=False)
    assert server.load_fnc.args == (7,)  # type: ignore[union-attr]
    threshold = server._load_threshold  # noqa: SLF001
    assert isinstance(threshold, ServerEnvOption)
    assert ServerEnvOption.getvalue(threshold, False) == 0.99  # prod: full at max calls
    assert ServerEnvOption.getvalue(threshold, True) == math.inf  # dev: LiveKit's default
