"""Offline voice pipeline benchmark: recogniser WER, end-of-speech -> first-audio latency by
stage, and concurrent spoken calls per machine.

    .venv/bin/python benchmarks/voice/bench_voice.py wer [--splits dev] [--draws 3] [--variants now before]
    .venv/bin/python benchmarks/voice/bench_voice.py latency --turns 20 [--configs 0:30 0.2:15 0.2:15:1]
    .venv/bin/python benchmarks/voice/bench_voice.py concurrency --levels 1 2 3 4 --seconds 60
    .venv/bin/python benchmarks/voice/bench_voice.py processes --levels 2 4 6 8 --seconds 45
    .venv/bin/python benchmarks/voice/bench_voice.py processes --levels 12 --seconds 90 --identity-every 5 --band 8k

WER: the project's own spoken set (spoken_set.jsonl, a dev part and a held-out part never
tuned against), synthesised by hibari (the line's TTS), Piper joe and espeak-ng (other
voices), at 16 kHz and through an 8 kHz mu-law telephone band (sox), resampled the same way
on every run and quantised with seeded dither draws, recognised by the local Whisper;
reference and hypothesis both go through `spoken.normalise`, then words are compared.
The same command gives the same numbers on every run.
Latency: real spoken turns through a real AgentSession (meta_voice.VoiceCall), timed from
the exact end of the caller's audio. Concurrency: N calls in one process, each speaking
turns back to back; the level where p95 first audio passes 2 s is the machine's limit.
Processes: N calls in N processes, as LiveKit's worker runs them. With `--identity-every K`
each process is a caller who calls again and again, K turns a call, as a real call goes: a new
call, unverified; "What is my balance?" (the line asks for the customer number and ZIP); the
answer, spoken by one of the identity benchmark's dev voices for one of the seeded customers
(the identity turn: Whisper base, its held and grammar decodes, verification); then "What is
my balance?" until the call has had K turns. First audio is reported for the fast-path turns
and the identity turns apart, with the identity answers verified; every turn timed from where
the caller's voice stops.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from benchmarks.voice import unseen  # noqa: E402
from benchmarks.voice.voices import dithered, espeak, hibari, piper, telephone, to_16k, trim  # noqa: E402
from callcenter.settings import load_settings  # noqa: E402
from callcenter.speech.local_stt import BEAM, WhisperSTT  # noqa: E402
from callcenter.spoken import normalise  # noqa: E402
from meta.session import build_line  # noqa: E402
from meta.voice import start_voice_call  # noqa: E402
from meta.voice_prompt import recogniser_prompt  # noqa: E402

SET = Path(__file__).with_name("spoken_set.jsonl")
TURNS = {
    # meta answers by itself: classifier + template, one level
    "one_level": "Hello, how are you today?",
    # meta -> billing -> billing.balance and back, all on the fast path
    "three_level": "What is my balance?",
}


_HESITATION = re.compile(r"\b(?:uh|um+|uhm|erm|er|hmm+)\b(?!\s+huh)")


def words(text: str) -> list[str]:
    """Normalised words for scoring; a sentence's punctuation is not a word error ("all." vs
    "all"), the dots inside an email or an amount stay."""
    # Hesitations are not scored (as Whisper's own English normaliser does): a recogniser that
    # leaves out "uh" has not misheard the caller. "uh huh" is a yes and stays.
    bare = _HESITATION.sub(" ", normalise(text).lower())
    # A hyphen between letters is not a word error either ("uh-huh" / "uh huh", "two-factor").
    bare = re.sub(r"(?<=[a-z])-(?=[a-z])", " ", bare)
    found = re.findall(r"[a-z0-9$@.\-]+", bare.replace(",", " "))
    return [w for w in (t.strip(".-") for t in found) if w]


def edit_distance(a: list[str], b: list[str]) -> int:
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (x != y))
    return row[-1]


# The unseen voices (unseen.py) are for reported numbers only: never tune on them.
VOICES = {"hibari": hibari, "piper-joe": piper, "espeak-ng": espeak, **unseen.VOICES}


# Recogniser variants compared on dev (`--variants`): short-window decode options for WhisperSTT,
# and "prompt" for another recogniser prompt. "now" is what the line runs.
# Tried in issue 11's fourth session (mean of 3 draws; Piper 16k / 8k, hibari 16k / 8k dev):
# before 4.9/6.0/2.9/2.5%, topics-prompt 4.5/3.8/1.8/2.5%, said-prompt 4.5/5.7/3.3/2.5% (its email then "jane.doe"),
# now 3.7/3.8/2.2/2.5%, patience2 3.7/5.9/2.2/2.5% (and 35% more CPU).
VARIANTS: dict[str, dict[str, Any]] = {
    "now": {},
    "before": {"pad": "zero", "prompt": recogniser_prompt(style="topics")},
    "topics-prompt": {"prompt": recogniser_prompt(style="topics")},
    "said-prompt": {"prompt": recogniser_prompt(style="said")},
    "patience2": {"patience": 2.0},
}


def bench_wer(voices: list[str], splits: list[str], margins: list[str], beams: list[int], draws: int = 1,
              variants: tuple[str, ...] = ("now",), bands: tuple[str, ...] = ("16k", "8k"),
              engine: str = "whisper") -> dict[str, Any]:
    """WER per voice, band and split, for each recogniser window (30 = Whisper's own).

    Deterministic: the caller audio is made the same on every run (voices.to_16k, sox -D), and
    CTranslate2 gives the same words for the same samples. Each draw quantises that audio to
    int16 with a different seeded +-1 LSB dither, as a line's resampler would; `draws` > 1
    reports the mean over draws 0..N-1, so a change is not judged on one lucky draw.
    `engine="moonshine"`: Moonshine base-en (moonshine_stt.MoonshineSTT) reads the same audio
    instead of Whisper; its key names no window or beam, it has neither (session 25)."""
    cases = [json.loads(x) for x in SET.read_text().splitlines() if x.strip()]
    audio: dict[tuple[str, str, str], np.ndarray] = {}
    for voice_name in voices:
        for case in (c for c in cases if c["split"] in splits):
            pcm, rate = VOICES[voice_name](case["text"])
            if "16k" in bands:
                audio[voice_name, "16k", case["text"]] = to_16k(pcm, rate)
            if "8k" in bands:
                audio[voice_name, "8k", case["text"]] = to_16k(*telephone(pcm, rate))
    out: dict[str, Any] = {}
    for margin, beam, variant in ((m, b, v) for m in margins for b in beams for v in variants):
        options = dict(VARIANTS[variant])
        prompt = options.pop("prompt", recogniser_prompt())
        if engine == "moonshine":
            from benchmarks.voice.moonshine_stt import MoonshineSTT

            stt: Any = MoonshineSTT()
        else:
            stt = WhisperSTT(prompt=prompt, window_s=float(margin), beam_size=beam, options=options)
        for voice_name in voices:
            for band in bands:
                for split in splits:
                    rates: list[float] = []
                    cpu = 0.0
                    total = 0
                    worst: list[tuple[float, str, str]] = []
                    cases_here = [c for c in cases if c["split"] == split]
                    for seed in range(draws):
                        errors = total = 0
                        for case in cases_here:
                            clip = dithered(audio[voice_name, band, case["text"]], seed)
                            started = time.process_time()
                            heard = stt.transcribe(clip)[0]
                            cpu += time.process_time() - started
                            ref, hyp = words(case["text"]), words(heard)
                            e = edit_distance(ref, hyp)
                            errors, total = errors + e, total + len(ref)
                            if seed == 0:
                                worst.append((e / max(1, len(ref)), case["text"], heard))
                        rates.append(errors / total)
                    key = (f"moonshine-base-en/{voice_name}/{band}/{split}" if engine == "moonshine"
                           else f"{variant}/window={margin}/beam={beam}/{voice_name}/{band}/{split}")
                    out[key] = {"wer": round(statistics.fmean(rates), 4), "draws": [round(r, 4) for r in rates],
                                "words": total, "cpu_s_per_utterance": round(cpu / (draws * len(cases_here)), 3)}
                    if split == "dev":  # held-out sentences are never read one by one
                        out[key]["worst"] = [w[1:] for w in sorted(worst, reverse=True)[:5]]
                    print(key, out[key]["wer"], out[key]["draws"], out[key]["cpu_s_per_utterance"], flush=True)
    return out


def _pcts(xs: list[float]) -> dict[str, float]:
    xs = sorted(xs)
    if not xs:
        return {}
    p95 = xs[min(len(xs) - 1, int(round(0.95 * (len(xs) - 1))))]
    return {"p50": round(statistics.median(xs), 3), "p95": round(p95, 3), "n": len(xs)}


async def bench_latency(turns: int, data_dir: Path, configs: list[str]) -> dict[str, Any]:
    """Each turn type, spoken `turns` times into one call per recogniser configuration
    ("early:window", e.g. "0:30" = before this work, "0.2:15" = the default); the calls take
    turns, so a load change on the shared machine hits every configuration alike."""
    out: dict[str, Any] = {}
    for name, text in TURNS.items():
        # Trimmed: the timings start where the voice stops, not after the TTS's own trailing
        # silence (the caller's input then carries on with silence, as a line does).
        pcm, rate = hibari(text)
        pcm = trim(pcm)
        calls = {}
        for e in configs:
            early, window, *beam = (float(x) for x in e.split(":"))
            settings = load_settings(data_dir=data_dir, hold_on_line_s=0, stt_early_decode_s=early, stt_window_s=window)
            calls[e] = await start_voice_call(build_line(settings), customer_id="C1005", playout_speed=8.0)
            if beam:
                _recogniser(calls[e].session.stt)._beam = int(beam[0])
        stages: dict[str, dict[str, list[float]]] = {e: {} for e in configs}
        for _ in range(turns):
            for e, voice in calls.items():
                turn = await voice.speak(pcm, rate)
                for k, v in turn.timings.items():
                    stages[e].setdefault(k, []).append(v)
        for e, voice in calls.items():
            key = f"{name}/early:window={e}"
            out[key] = {k: _pcts(v) for k, v in stages[e].items()}
            inner = getattr(voice.session.stt, "inner", None)
            if hasattr(inner, "guesses"):
                out[key]["early_decodes"] = {"started": inner.guesses, "used": inner.guesses_used}
            print(key, out[key], flush=True)
            await voice.close()
    return out


def _recogniser(stt: Any) -> WhisperSTT:
    """The WhisperSTT under the session's adapters (NormalisedSTT -> EarlySTT -> WhisperSTT)."""
    while not isinstance(stt, WhisperSTT):
        stt = stt.inner
    return stt


async def bench_concurrency(levels: list[int], seconds: float, data_dir: Path) -> dict[str, Any]:
    settings = load_settings(data_dir=data_dir, hold_on_line_s=0)
    line = build_line(settings)
    pcm, rate = hibari(TURNS["three_level"])
    out: dict[str, Any] = {}
    for n in levels:
        calls = [await start_voice_call(line, customer_id="C1005", playout_speed=1.0) for _ in range(n)]
        firsts: list[float] = []
        deadline = time.monotonic() + seconds

        async def talk(i: int, voice: Any, deadline: float = deadline, firsts: list[float] = firsts) -> None:
            await asyncio.sleep(i * 1.3)  # callers do not all stop speaking at the same instant
            while time.monotonic() < deadline:
                turn = await voice.speak(pcm, rate)
                if "first_audio" in turn.timings:
                    firsts.append(turn.timings["first_audio"])

        await asyncio.gather(*(talk(i, v) for i, v in enumerate(calls)))
        for v in calls:
            await v.close()
        out[str(n)] = _pcts(firsts)
        print(n, out[str(n)], flush=True)
    return out


def identity_answers(work: Path, band: str) -> list[dict[str, Any]]:
    """The identity answers the callers give (`--identity-every`): each dev voice of
    bench_identity.py x each seeded customer x each dev script, synthesised once by the
    parent into `work` (the callers only read them), in a fixed shuffled order."""
    import random

    from benchmarks.voice.bench_identity import DEV_SCRIPTS, VOICES, ZIPS, fill

    answers = []
    for voice_name, voice in VOICES["dev"].items():
        for cid in sorted(ZIPS):
            for k, script in enumerate(DEV_SCRIPTS):
                pcm, rate = voice(fill(script, cid))
                pcm, rate = telephone(pcm, rate) if band == "8k" else (pcm, rate)
                pcm = trim(pcm)  # timed from where the voice stops (the TTS's own trailing silence cut)
                path = work / f"id-{voice_name}-{cid}-{k}.npy"
                np.save(path, pcm)
                answers.append({"voice": voice_name, "customer": cid, "rate": rate, "path": str(path)})
    random.Random(26).shuffle(answers)
    return answers


def _caller_audio(text: str, band: str, trimmed: bool) -> tuple[np.ndarray, int]:
    """The caller's words; `trimmed`: without the TTS's trailing silence, so first audio is
    timed from where the voice stops (session 9's rows timed from the end of the file, about
    0.35 s later for this sentence, and kept that for comparison)."""
    pcm, rate = hibari(text)
    pcm, rate = telephone(pcm, rate) if band == "8k" else (pcm, rate)
    return (trim(pcm) if trimmed else pcm), rate


async def one_caller(seconds: float, offset: float, data_dir: Path, out: Path, identity_every: int = 0,
                     band: str = "16k", answers: Path | None = None, index: int = 0) -> None:
    """One call at a time in this process (as a LiveKit job process runs one), speaking
    turns back to back until `seconds` have passed; its first-audio times and CPU go to `out`.
    identity_every = 0: one call, verified from the start, every turn on the fast path.
    identity_every = K: calls of K turns, each verified by a spoken identity turn (module doc)."""
    settings = load_settings(data_dir=data_dir, hold_on_line_s=0)
    line = build_line(settings)
    pcm, rate = _caller_audio(TURNS["three_level"], band, trimmed=identity_every > 0)
    said = json.loads(answers.read_text()) if answers else []
    # Each caller starts at another answer, so the callers' identity turns differ.
    said = said[index * 7 % len(said):] + said[:index * 7 % len(said)] if said else said

    async def call() -> Any:
        return await start_voice_call(line, customer_id=None if identity_every else "C1005", playout_speed=1.0)

    voice = await call()
    out.with_suffix(".ready").write_text("")  # loaded: the parent starts the clock when all are
    while not out.with_suffix(".go").exists():
        await asyncio.sleep(0.05)
    await asyncio.sleep(offset)  # callers do not all stop speaking at the same instant
    firsts: list[float] = []
    identity: list[dict[str, Any]] = []
    stages: list[dict[str, Any]] = []
    cpu0, deadline = time.process_time(), time.monotonic() + seconds
    turns = 0
    while time.monotonic() < deadline:
        if identity_every and turns and turns % identity_every == 0:
            await voice.close()
            voice = await call()  # the next caller
        if identity_every and turns % identity_every == 1:
            answer = said[(turns // identity_every) % len(said)]
            c0 = time.process_time()
            turn = await voice.speak(np.load(answer["path"]), answer["rate"])
            reply = " ".join(turn.replies)
            identity.append({"voice": answer["voice"], "first_audio": turn.timings.get("first_audio"),
                             "cpu_s": round(time.process_time() - c0, 2),
                             # The balance read out = verified (the line answers the question it was asked).
                             "verified": "balance" in reply.lower() or "paid up" in reply.lower()})
        else:
            turn = await voice.speak(pcm, rate)
            if "first_audio" in turn.timings:
                firsts.append(turn.timings["first_audio"])
                # Where a fast-path turn's time went, and where in its call it fell (0 = the
                # call's first turn, whose answer asks who is calling), to tell slow turns apart.
                stages.append({"position": turns % identity_every if identity_every else turns,
                               **{k: round(v, 3) for k, v in turn.timings.items()}})
        turns += 1
    out.write_text(json.dumps({"firsts": firsts, "identity": identity, "cpu_s": time.process_time() - cpu0,
                               "seconds": seconds, "stages": stages}))
    await voice.close()


def bench_processes(levels: list[int], seconds: float, data_dir: Path, identity_every: int = 0,
                    band: str = "16k") -> dict[str, Any]:
    """N calls in N processes (LiveKit's worker runs each call in a job process), one
    recogniser thread each: p50/p95 first audio and CPU per call-second at each level; with
    `identity_every`, the identity turns' first audio and how many verified, apart."""
    import subprocess

    out: dict[str, Any] = {}
    extra = ["--identity-every", str(identity_every), "--band", band]
    if identity_every:
        answers = data_dir / "answers.json"
        if not answers.exists():
            answers.write_text(json.dumps(identity_answers(data_dir, band)))
        extra += ["--answers", str(answers)]
    for n in levels:
        work = Path(tempfile.mkdtemp(prefix=f"calls-{n}-", dir=data_dir))
        env = {**os.environ, "CALLCENTER_SPEECH_THREADS": "1", "PYTHONPATH": str(ROOT)}
        procs = [subprocess.Popen([sys.executable, __file__, "_caller", "--seconds", str(seconds), "--offset", str(i * 1.3),
                                   "--out", str(work / f"{i}.json"), "--index", str(i), *extra], env=env)
                 for i in range(n)]
        while not all((work / f"{i}.ready").exists() for i in range(n)):
            if any(p.poll() not in (None, 0) for p in procs):
                raise RuntimeError("a caller process failed")
            time.sleep(0.2)
        (work / "go").write_text("")
        for i in range(n):
            (work / f"{i}.go").write_text("")
        for p in procs:
            p.wait()
        runs = [json.loads((work / f"{i}.json").read_text()) for i in range(n)]
        firsts = [f for r in runs for f in r["firsts"]]
        cpu_per_call_s = statistics.fmean(r["cpu_s"] / r["seconds"] for r in runs)
        out[str(n)] = {**_pcts(firsts), "cpu_per_call_second": round(cpu_per_call_s, 3),
                       "load_average": [round(x, 2) for x in os.getloadavg()]}
        staged = [t for r in runs for t in r.get("stages", [])]
        out[str(n)]["by_position"] = {
            str(k): {stage: _pcts([t[stage] for t in staged if t["position"] == k and stage in t])
                     for stage in ("transcript", "first_llm_output", "first_audio")}
            for k in sorted({t["position"] for t in staged})} if identity_every else {}
        ids = [t for r in runs for t in r.get("identity", [])]
        if ids:
            timed = [t["first_audio"] for t in ids if t["first_audio"] is not None]
            out[str(n)]["identity"] = {**_pcts(timed), "verified": sum(t["verified"] for t in ids), "turns": len(ids),
                                       "cpu_s_mean": round(statistics.fmean(t["cpu_s"] for t in ids), 2),
                                       "by_voice": {v: sum(t["verified"] for t in ids if t["voice"] == v)
                                                    for v in sorted({t["voice"] for t in ids})}}
        print(n, out[str(n)], flush=True)
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=["wer", "latency", "concurrency", "processes", "_caller"])
    ap.add_argument("--offset", type=float, default=0.0, help=argparse.SUPPRESS)
    ap.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--index", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--answers", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--identity-every", type=int, default=0,
                    help="processes: calls of this many turns, one of them a spoken identity answer (0 = fast path only)")
    ap.add_argument("--band", choices=["16k", "8k"], default="16k",
                    help="processes: the callers' audio as recorded (16k) or through the 8 kHz mu-law telephone band")
    ap.add_argument("--voices", nargs="+", choices=sorted(VOICES), default=list(VOICES))
    ap.add_argument("--bands", nargs="+", choices=["16k", "8k"], default=["16k", "8k"])
    ap.add_argument("--splits", nargs="+", choices=["dev", "heldout"], default=["dev", "heldout"],
                    help="wer: tune on dev only; read heldout once, at the end")
    ap.add_argument("--window", nargs="+", default=["15"],
                    help="wer: recogniser windows in seconds to compare (30 = Whisper's own)")
    ap.add_argument("--beam", type=int, nargs="+", default=[BEAM],
                    help="wer: recogniser beam sizes to compare (1 = greedy)")
    ap.add_argument("--variants", nargs="+", choices=sorted(VARIANTS), default=["now"],
                    help="wer: recogniser variants to compare (tune on dev only)")
    ap.add_argument("--engine", choices=["whisper", "moonshine"], default="whisper",
                    help="wer: the recogniser, the line's Whisper tiny.en or Moonshine base-en (pip install moonshine-cpp)")
    ap.add_argument("--draws", type=int, default=1,
                    help="wer: mean over this many seeded +-1 LSB dither draws of the same audio (1 = draw 0 only)")
    ap.add_argument("--turns", type=int, default=20)
    ap.add_argument("--levels", type=int, nargs="+", default=[1, 2, 3, 4])
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--configs", nargs="+", default=["0.2:15"],
                    help="latency: recogniser early-decode silence, window and beam, 'EARLY:WINDOW[:BEAM]', compared turn by turn")
    ap.add_argument("--json", type=Path, help="merge the results into this file")
    args = ap.parse_args()
    os.environ.setdefault("CALLCENTER_LOG_LEVEL", "WARNING")
    data_dir = Path(tempfile.mkdtemp(prefix="voice-bench-"))
    if args.what == "wer":
        result = bench_wer(args.voices, args.splits, args.window, args.beam, args.draws, tuple(args.variants), tuple(args.bands),
                           args.engine)
    elif args.what == "latency":
        result = asyncio.run(bench_latency(args.turns, data_dir, args.configs))
    elif args.what == "_caller":
        asyncio.run(one_caller(args.seconds, args.offset, data_dir, args.out, args.identity_every, args.band,
                               args.answers, args.index))
        return 0
    elif args.what == "processes":
        result = bench_processes(args.levels, args.seconds, data_dir, args.identity_every, args.band)
    else:
        result = asyncio.run(bench_concurrency(args.levels, args.seconds, data_dir))
    result = {"load_average": [round(x, 2) for x in os.getloadavg()], args.what: result}
    print(json.dumps(result, indent=2))
    if args.json:
        merged = json.loads(args.json.read_text()) if args.json.exists() else {}
        merged[args.what] = result
        args.json.write_text(json.dumps(merged, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
