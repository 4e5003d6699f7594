"""Whisper base (the identity answers' model) decodes below the process's CPU priority, tiny.en
(every other turn) at it: an identity answer that needs the id/ZIP grammar decode (about 7 CPU-s)
runs on what the machine's other calls leave, instead of taking a core from their turns
(`local_stt.IDENTITY_NICE`; benchmarks/README.md, issue 26, session 16)."""

from __future__ import annotations

import os
import threading
from typing import Any

from benchmarks.voice.voices import hibari, to_16k
from callcenter.speech.local_stt import IDENTITY_NICE, load_whisper


def _threads() -> dict[int, tuple[int, int]]:
    """This process's threads: CPU ticks (user + system) and nice value, by thread id."""
    out = {}
    for tid in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{tid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:  # the thread ended meanwhile
            continue
        out[int(tid)] = (int(fields[11]) + int(fields[12]), int(fields[16]))
    return out


def _ticks_by_nice(model: Any) -> dict[int, int]:
    """CPU ticks spent while `model` reads a sentence, by the nice value of the thread that spent them."""
    audio = to_16k(*hibari("My customer number is C one zero zero two and my zip code is one zero zero zero one."))
    before = _threads()
    for _ in range(2):
        list(model.transcribe(audio, language="en", beam_size=5, without_timestamps=True)[0])
    by_nice: dict[int, int] = {}
    for tid, (ticks, nice) in _threads().items():
        by_nice[nice] = by_nice.get(nice, 0) + ticks - before.get(tid, (0, 0))[0]
    return by_nice


def test_whisper_base_decodes_below_the_process_priority_and_tiny_en_at_it(base_model: Any) -> None:
    own = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    low = min(19, own + IDENTITY_NICE)
    base = _ticks_by_nice(base_model)
    assert sum(base.values()) > 0
    # Most of the work is the model's own threads; the reading thread computes the features.
    assert base.get(low, 0) >= 0.8 * sum(base.values()), base
    tiny = _ticks_by_nice(load_whisper(2))
    assert tiny.get(low, 0) <= 0.2 * sum(tiny.values()), tiny
