"""Open turns at 8 kHz: what the router makes of the recogniser's words (issue 26, session 19).

    .venv/bin/python benchmarks/voice/bench_open_turns.py --variants now beam8 ... [--band 8k] [--show]

The distinct caller turns of the dev call suite (`bench_calls.py --part dev`: 30 calls, seed
11), each spoken by the dev voices (hibari, Piper joe, espeak-ng en-us+m3) and the four devx
espeak-ng speakers (`bench_calls.DEVX`; none of the unseen ones), sent through the telephone
band and read by the line's `WhisperSTT` with no slot pending, as an open turn is. Scored:
the router's label of the reading against its label of the typed words (no call context), and
the word error rate. A variant is a recogniser setting; "now" is what the line runs. The
unseen voices are never used here.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from benchmarks.voice.bench_calls import DEVX, sample  # noqa: E402
from benchmarks.voice.bench_voice import edit_distance, words  # noqa: E402
from benchmarks.voice.voices import espeak, hibari, piper, telephone, to_16k, trim  # noqa: E402
from callcenter.settings import load_settings  # noqa: E402
from callcenter.speech.local_stt import WhisperSTT  # noqa: E402
from meta.router import build_router  # noqa: E402
from meta.voice_lm import BigramLM, line_lm  # noqa: E402
from meta.voice_prompt import recogniser_prompt, telephone_prompt  # noqa: E402
from meta.voice_slots import OpenReading  # noqa: E402

VOICES = {"hibari": hibari, "piper-joe": piper, "espeak-ng": espeak, **DEVX}

# Recogniser settings compared here (dev and devx voices only). Keys: WhisperSTT attributes
# or constructor arguments; "prompt": another recogniser prompt.
VARIANTS: dict[str, dict[str, Any]] = {
    "now": {},
    "beam8": {"beam_size": 8},
    "patience2": {"options": {"patience": 2.0}},
    "greedy": {"beam_size": 1},
    "words80": {"prompt": recogniser_prompt(words=80)},
    "words20": {"prompt": recogniser_prompt(words=20)},
    "said": {"prompt": recogniser_prompt(style="said")},
    "noprompt": {"prompt": None},
    "peak": {"level": 10 ** (-3 / 20)},  # peak to -3 dBFS (session 11: better on 24 sentences, too few to tell)
    "beam8-peak": {"beam_size": 8, "level": 10 ** (-3 / 20)},
    "vote": {"choice": ("vote", 10.0)},
    "vote5": {"choice": ("vote", 5.0)},
    "vote20": {"choice": ("vote", 20.0)},
    "surest": {"choice": ("surest", 0.15)},
    "surest30": {"choice": ("surest", 0.3)},
    # Session 21: the beam's readings rescored by the line's word bigram (meta/voice_lm.py).
    "lm05": {"choice": ("lm", 0.05)},
    "lm1": {"choice": ("lm", 0.1)},
    "lm2": {"choice": ("lm", 0.2)},
    "lm3": {"choice": ("lm", 0.3)},
    "beam8-lm1": {"beam_size": 8, "choice": ("lm", 0.1)},
    "beam8-lm2": {"beam_size": 8, "choice": ("lm", 0.2)},
    # The line before session 21: one reading with the topic-word prompt, however it routes.
    "topics": {"open_retry": None},
    # Every open turn read with the caller-requests prompt (session 21, not adopted).
    "requests": {"prompt": telephone_prompt()},
}


def lm_choice(weight: float, lm: BigramLM | None = None) -> Callable[[list[str], list[float]], int | None]:
    """A chooser among an open turn's beam readings (`WhisperSTT.open_choice`; measured, not wired: benchmarks/README.md session 21): the reading
    with the best recogniser score + `weight` x language score; None keeps the likeliest."""
    model = lm or line_lm()

    def choose(readings: list[str], scores: list[float]) -> int | None:
        combined = [s + weight * model.score(r) for r, s in zip(readings, scores, strict=True)]
        best = max(range(len(readings)), key=lambda i: combined[i])
        return best or None

    return choose


def open_choice(router: Any, how: str, k: float) -> Any:
    """A chooser among the beam's readings of an open turn (`WhisperSTT.open_choice`)."""
    if how == "lm":
        return lm_choice(k)

    def vote(readings: list[str], scores: list[float]) -> int | None:
        labels = [router.classify(r).label for r in readings]
        w = np.exp(k * (np.array(scores) - max(scores)))
        tally: dict[str, float] = {}
        for label, weight in zip(labels, w, strict=True):
            tally[label] = tally.get(label, 0.0) + float(weight)
        best = max(tally, key=lambda lab: tally[lab])
        return labels.index(best)

    def surest(readings: list[str], scores: list[float]) -> int | None:
        top = router.classify(readings[0])
        if top.label != "oos" and top.confidence >= router.threshold:
            return None
        best, conf = None, top.confidence if top.label != "oos" else 0.0
        for i, (r, s) in enumerate(zip(readings, scores, strict=True)):
            if i and s >= scores[0] - k:
                it = router.classify(r)
                if it.label != "oos" and it.confidence > conf:
                    best, conf = i, it.confidence
        return best

    return vote if how == "vote" else surest


# Session 22: when to read an open turn again with the caller-requests prompt, and which of the
# two readings to take. Each clip is read once with the line's prompt and once with
# `telephone_prompt()` (`--pairs`), then every policy below is applied to the two readings
# offline. A policy: (read again?, take the second?) given the router's view of each reading.
def surety(router: Any, text: str) -> tuple[str, float, float]:
    """The router's label for a reading, its confidence (0 when out of scope) and its lead over
    the next reading (0 when out of scope)."""
    if not text.strip():
        return "oos", 0.0, 0.0
    it = router.classify(text)
    if it.label == "oos":
        return "oos", 0.0, 0.0
    runner_up = max((p for lab, p in it.alternatives if lab != it.label), default=0.0)
    return it.label, it.confidence, it.confidence - runner_up


def policies(threshold: float, margin: float) -> dict[str, Callable[..., bool]]:
    """Name -> (first, second, lm) -> take the second reading. first/second: (label, conf, lead)."""
    oos = lambda a: a[0] == "oos"  # noqa: E731
    asks = lambda a: a[0] != "oos" and a[1] < threshold and a[2] < margin  # noqa: E731 - a clarifying question
    below = lambda a, t: a[0] == "oos" or a[1] < t  # noqa: E731
    routed = lambda b: b[0] != "oos"  # noqa: E731
    out: dict[str, Callable[..., bool]] = {
        "first": lambda a, b, lm: False,
        "oos-routable (line)": lambda a, b, lm: oos(a) and routed(b),
        "oos-or-ask, surer": lambda a, b, lm: (oos(a) or asks(a)) and routed(b) and b[1] > a[1],
    }
    for t in (0.74, 0.9, 0.95, 0.99):
        out[f"conf<{t}, surer"] = lambda a, b, lm, t=t: below(a, t) and routed(b) and b[1] > a[1]
        out[f"conf<{t}, surer by 0.1"] = lambda a, b, lm, t=t: below(a, t) and routed(b) and b[1] > a[1] + 0.1
        out[f"conf<{t}, second sure"] = lambda a, b, lm, t=t: below(a, t) and routed(b) and b[1] >= threshold and b[1] > a[1]
        out[f"conf<{t}, lm"] = lambda a, b, lm, t=t: below(a, t) and routed(b) and lm[1] > lm[0]
        out[f"conf<{t}, surer + lm"] = lambda a, b, lm, t=t: below(a, t) and routed(b) and b[1] > a[1] and lm[1] > lm[0]
    out["conf<0.74, surer, no goodbye from a need"] = lambda a, b, lm: (
        below(a, threshold) and routed(b) and b[1] > a[1] and not (a[0] != "oos" and b[0] == "meta/goodbye"))
    out["lm only (any)"] = lambda a, b, lm: lm[1] > lm[0]
    out["lm, oos-routable or lm"] = lambda a, b, lm: (oos(a) and routed(b)) or (routed(b) and lm[1] > lm[0])
    return out


def pairs(router: Any, audio: dict[tuple[str, str], np.ndarray], typed: dict[str, str], dump: Path | None,
          load: Path | None, show: bool) -> None:
    """Both readings of every clip, then the policies above on them."""
    if load is not None:
        rows = json.loads(load.read_text())
    else:
        first, second = WhisperSTT(prompt=recogniser_prompt()), WhisperSTT(prompt=telephone_prompt())
        rows = [{"voice": v, "say": t, "first": first.read(clip).text, "second": second.read(clip).text}
                for (v, t), clip in audio.items()]
        if dump is not None:
            dump.write_text(json.dumps(rows, indent=1))
    lm = line_lm()
    for row in rows:
        row["a"], row["b"] = surety(router, row["first"]), surety(router, row["second"])
        row["lm"] = (lm.score(row["first"]) if row["first"] else -99.0, lm.score(row["second"]) if row["second"] else -99.0)
        row["typed"] = typed.get(row["say"]) or router.classify(row["say"]).label
    for name, take in policies(router.threshold, router.ask_margin).items():
        right, switched, gained, lost, per = 0, 0, 0, 0, {}
        changes = []
        for row in rows:
            second = take(row["a"], row["b"], row["lm"])
            label = row["b"][0] if second else row["a"][0]
            ok = label == row["typed"]
            right += ok
            per.setdefault(row["voice"], [0, 0])
            per[row["voice"]][0] += ok
            per[row["voice"]][1] += 1
            if second and row["b"][0] != row["a"][0]:
                switched += 1
                was = row["a"][0] == row["typed"]
                gained += ok and not was
                lost += was and not ok
                changes.append(f"    {'+' if ok else '-' if was else '='} {row['voice']}: {row['say']!r} "
                               f"{row['first']!r} ({row['a'][0]} {row['a'][1]:.2f}) -> {row['second']!r} ({row['b'][0]} {row['b'][1]:.2f}); typed {row['typed']}")
        print(f"{name}: {right}/{len(rows)} right, {switched} switched ({gained} gained, {lost} lost), "
              + ", ".join(f"{v.removeprefix('espeak-')} {a}/{b}" for v, (a, b) in per.items()), flush=True)
        if show:
            print("\n".join(changes))


def turns() -> list[str]:
    seen: dict[str, None] = {}
    for call in sample("dev", 30, 11):
        for turn in call.turns:
            seen.setdefault(turn.say, None)
    return list(seen)


def spoken(voice: str, text: str, band: str) -> np.ndarray | None:
    try:
        pcm, rate = VOICES[voice](text)
    except Exception:  # noqa: BLE001 - a voice that cannot say it (hibari and Chinese)
        return None
    pcm = trim(pcm)
    if pcm.size == 0:
        return None
    pcm = np.concatenate([np.zeros(rate // 5, np.int16), pcm, np.zeros(rate // 5, np.int16)])
    if band == "8k":
        pcm, rate = telephone(pcm, rate)
    return to_16k(pcm, rate)


def make_stt(variant: dict[str, Any], router: Any = None) -> WhisperSTT:
    args = {k: v for k, v in variant.items() if k in ("beam_size", "options", "prompt")}
    args.setdefault("prompt", recogniser_prompt())
    stt = WhisperSTT(**args)
    # As SlotWatcher wires a call: an open turn on the telephone band the router is unsure of
    # is read again with caller requests (a variant with a prompt of its own reads once).
    if "prompt" not in variant and router is not None:
        reading = OpenReading(router)
        stt.narrowband_prompt = telephone_prompt()
        stt.open_retry, stt.open_prefer = reading.retry, reading.prefer
    for key, value in variant.items():
        if key == "level":
            continue
        if key == "choice":
            stt.open_choice = open_choice(router, *value)
        elif key not in ("beam_size", "options", "prompt"):
            setattr(stt, key, value)
    return stt


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--variants", nargs="+", default=["now"], choices=sorted(VARIANTS))
    p.add_argument("--voices", nargs="+", default=sorted(VOICES), choices=sorted(VOICES))
    p.add_argument("--band", choices=["8k", "16k"], default="8k")
    p.add_argument("--show", action="store_true", help="print each reading whose label differs from the typed one")
    p.add_argument("--json", type=Path, help="merge the results into this file")
    p.add_argument("--pairs", action="store_true", help="both readings of each clip, and the policies choosing between them")
    p.add_argument("--dump", type=Path, help="--pairs: write the readings here")
    p.add_argument("--load", type=Path, help="--pairs: the readings from here (no decoding)")
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.CRITICAL)
    router = build_router(load_settings())
    texts = turns()
    typed = {t: router.classify(t).label for t in texts}
    if args.pairs and args.load:
        pairs(router, {}, typed, None, args.load, args.show)
        return 0
    audio = {(v, t): a for v in args.voices for t in texts if (a := spoken(v, t, args.band)) is not None}
    if args.pairs:
        pairs(router, audio, typed, args.dump, None, args.show)
        return 0
    results: dict[str, Any] = {"turns": len(audio), "load_average_start": list(os.getloadavg())}
    base_labels: dict[tuple[str, str], str] = {}
    for name in args.variants:
        stt = make_stt(VARIANTS[name], router)
        right, errors, total, cpu0, per_voice = 0, 0, 0, time.process_time(), {}
        changed: list[str] = []
        for (voice, text), clip in audio.items():
            level = VARIANTS[name].get("level")
            if level:
                clip = (clip * (level / max(float(np.abs(clip).max()), 1e-6))).astype(np.float32)
            heard = stt.read(clip).text
            label = router.classify(heard).label if heard else "oos"
            ok = label == typed[text]
            right += ok
            pv = per_voice.setdefault(voice, [0, 0])
            pv[0] += ok
            pv[1] += 1
            ref = words(text)
            errors += edit_distance(ref, words(heard))
            total += len(ref)
            if name == args.variants[0]:
                base_labels[(voice, text)] = label
            elif base_labels.get((voice, text)) != label:
                changed.append(f"  {'+' if ok else '-'} {voice}: {text!r} -> {heard!r} ({label}; typed {typed[text]})")
            if args.show and not ok:
                print(f"  [{name}] {voice}: {text!r} -> {heard!r} ({label}; typed {typed[text]})")
        cpu = time.process_time() - cpu0
        row = {"labels_right": right, "turns": len(audio), "wer": round(100 * errors / max(total, 1), 1),
               "cpu_s_per_turn": round(cpu / max(len(audio), 1), 3),
               "per_voice": {v: f"{a}/{b}" for v, (a, b) in per_voice.items()}}
        results[name] = row
        print(f"{name}: labels {right}/{len(audio)}, WER {row['wer']}%, {row['cpu_s_per_turn']} CPU-s/turn, {row['per_voice']}",
              flush=True)
        for line in changed:
            print(line)
    results["load_average_end"] = list(os.getloadavg())
    if args.json:
        merged = json.loads(args.json.read_text()) if args.json.exists() else {}
        merged[f"open_turns/{args.band}"] = results
        args.json.write_text(json.dumps(merged, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
