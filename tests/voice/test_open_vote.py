"""`WhisperSTT.open_choice`: a chooser among the beam's readings of an open turn (no slot
pending), asked on the telephone band only. The line sets none (a chooser by the router's vote
over the beam was measured and did not pay in calls: benchmarks/README.md, session 19); the
open-turn benchmark (benchmarks/voice/bench_open_turns.py) sets its variants through it, so
what it is asked, and when, is tested here on real audio through the real recogniser."""

from __future__ import annotations

from benchmarks.voice.voices import espeak_as, telephone, to_16k
from callcenter.speech.local_stt import WhisperSTT
from meta.voice_prompt import recogniser_prompt


def test_only_the_telephone_band_is_voted_on(engines: None, espeak_ng: str, sox_bin: str) -> None:
    asked: list[tuple[list[str], list[float]]] = []

    def second(readings: list[str], scores: list[float]) -> int:
        asked.append((readings, scores))
        return 1

    recogniser = WhisperSTT(prompt=recogniser_prompt())
    pcm, rate = espeak_as("en-us-nyc+f3", 150)("oh thanks a bunch")
    plain = recogniser.read(to_16k(*telephone(pcm, rate))).text  # no chooser: the likeliest reading
    recogniser.open_choice = second
    recogniser.read(to_16k(pcm, rate))  # wideband: not asked
    assert asked == []
    heard = recogniser.read(to_16k(*telephone(pcm, rate))).text
    assert len(asked) == 1
    readings, scores = asked[0]
    assert len(readings) == len(scores) == 5 and readings[0] == plain  # the beam's five, likeliest first
    assert heard == readings[1] != plain  # the chosen reading is the one read
    recogniser.read(to_16k(*telephone(pcm, rate)), "yesno")  # a slot pending: the slot's own reading
    assert len(asked) == 1
