"""The spoken suite in unseen voices: scripts and voices never used to tune the speech path.

Rule: nothing in callcenter/speech, meta/voice*, the recogniser prompt or the slot grammar may
be chosen by looking at these calls or these voices. They are run for the reported numbers
only (`bench_calls.py --suite unseen`); a failure is read by class, not fixed one by one.

Voices: espeak-ng accents and speakers the dev set never uses (British, a US female, British
RP female), each at 140 and 175 words a minute. The dev set's espeak voice is en-us+m3 at 130.
Scripts: five calls from callers the line does not know; four say who they are aloud,
written for this suite (benchmarks/calls/phrases.yaml is not reused).
"""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np

from benchmarks.calls.suite import OOS, Call, Turn
from meta.voice_io import read_wav

VARIANTS = ("en-gb", "en-us+f2", "en-gb-x-rp+f4")
SPEEDS = (140, 175)


def espeak_voice(variant: str, wpm: int) -> Callable[[str], tuple[np.ndarray, int]]:
    def speak(text: str) -> tuple[np.ndarray, int]:
        with tempfile.TemporaryDirectory() as d:
            out = Path(d) / "say.wav"
            subprocess.run(["espeak-ng", "-v", variant, "-s", str(wpm), "-w", str(out), text], check=True, capture_output=True)
            return read_wav(out)

    return speak


VOICES: dict[str, Callable[[str], tuple[np.ndarray, int]]] = {
    f"espeak-{v}-{s}": espeak_voice(v, s) for v in VARIANTS for s in SPEEDS
}
VERIFY = "verify who you are"


def calls() -> list[Call]:
    """Five calls; each caller is unverified and gives a customer number and ZIP code aloud."""
    return [
        Call("unseen-refund", "unseen", "spoken_identity", [
            Turn("hi there, it looks like I got billed two times for the same thing", not_says=(OOS,)),
            Turn("sure, it's C one zero zero one, and the zip is nine four one zero seven", not_says=(OOS, VERIFY)),
            Turn("yes please go ahead"),
            Turn("great, that's everything, bye"),
        ], reach=["billing.refund"], refunds=[("CH-1001-D", 4900)]),
        Call("unseen-balance", "unseen", "spoken_identity", [
            Turn("how much do I owe you right now", not_says=(OOS,)),
            Turn("my customer number is C one zero zero three, zip code six zero six zero one", not_says=(OOS, VERIFY)),
            Turn("ok thanks, goodbye"),
        ], reach=["billing.balance"]),
        Call("unseen-invoice", "unseen", "spoken_identity", [
            Turn("could you send me a copy of my last invoice", not_says=(OOS,)),
            Turn("C one zero zero two. zip code one zero zero zero one", not_says=(OOS, VERIFY)),
            Turn("thank you, bye"),
        ], reach=["billing.invoices"]),
        Call("unseen-api", "unseen", "spoken_identity", [
            Turn("our requests to your API keep failing with a five oh three error", not_says=(OOS,)),
            Turn("yeah it's C one zero zero five, zip nine seven two zero one", not_says=(OOS, VERIFY)),
            Turn("alright, that's all, bye"),
        ], reach=["technical.api_errors"]),
        Call("unseen-status", "unseen", "spoken_identity", [
            Turn("is your service having an outage today", not_says=(OOS,)),
            Turn("thanks, bye"),
        ], reach=["technical.service_status"]),
    ]
