"""The call-success suite (benchmarks/calls/), spoken: task success, text vs voice.

    .venv/bin/python benchmarks/voice/bench_calls.py [--part dev|holdout] [--sample 30] [--voice piper-joe] [--band 16k|8k]
    .venv/bin/python benchmarks/voice/bench_calls.py --suite unseen --band 16k|8k   # unseen.py: every call in every unseen voice

The same scripted calls and the same expectations as `benchmarks/calls/run.py` (imported, not
copied: effects in the store, agents reached, words a reply must or must not carry, unsafe
effects). Each caller turn is synthesised by a local TTS voice (not the line's own by
default), optionally sent through the 8 kHz mu-law telephone band, played in real time into
a real `AgentSession`, recognised by the line's recogniser and answered by the hierarchy.
The text run of the same sample is made alongside, so the difference is what speech costs.
A seeded sample keeps the run to minutes; the suite's own held-out part stays held out here
too (nothing in the speech path was tuned on it).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import random
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from benchmarks.calls.run import (  # noqa: E402
    Outcome,
    _snapshot,
    check_reply,
    render,
    run_call,
    settle,
    summarise,
)
from benchmarks.calls.suite import Call, build  # noqa: E402
from benchmarks.voice import unseen  # noqa: E402
from benchmarks.voice.voices import espeak, espeak_as, hibari, piper, telephone  # noqa: E402
from callcenter.settings import load_settings  # noqa: E402
from callcenter.store import Store  # noqa: E402
from meta.session import Line, build_line  # noqa: E402
from meta.voice import start_voice_call  # noqa: E402

# devx: four more espeak-ng speakers to tune on (bench_identity.py's devx part), none of the unseen ones.
DEVX = {f"espeak-{v}-{s}": espeak_as(v, s) for v, s in
        (("en-gb-scotland", 150), ("en-029+m2", 165), ("en-us-nyc+f3", 150), ("en-gb-x-gbclan+f5", 170))}
VOICES = {"hibari": hibari, "piper-joe": piper, "espeak-ng": espeak, **DEVX, **unseen.VOICES}


async def run_spoken_call(line: Line, call: Call, voice_name: str, band: str) -> Outcome:
    """`benchmarks.calls.run.run_call`, with each turn spoken instead of typed."""
    out = Outcome(call)
    before = _snapshot(line.store)
    voice = None
    synth = VOICES[voice_name]
    try:
        voice = await start_voice_call(line, customer_id=call.customer, playout_speed=8.0)
        for turn in call.turns:
            pcm, rate = synth(turn.say)
            if band == "8k":
                pcm, rate = telephone(pcm, rate)
            spoken = await voice.speak(pcm, rate)
            reply = " ".join(spoken.replies)
            hops = spoken.record.hops if spoken.record else []
            out.transcript.append(
                f"> {turn.say}\n  heard: {spoken.heard!r}\n  [{','.join(h.to_agent for h in hops if h.path != 'return')}] {reply}"
            )
            out.reached.update(h.to_agent for h in hops)
            check_reply(out, turn, reply)
    except Exception:
        out.traceback = True
        out.fail("traceback: " + traceback.format_exc(limit=3).replace("\n", " | ")[-300:])
    finally:
        if voice is not None:
            await voice.close()
    return settle(out, call, before, _snapshot(line.store))


def sample(part: str, n: int, seed: int) -> list[Call]:
    calls = build(part)
    if n >= len(calls):
        return calls
    return sorted(random.Random(seed).sample(calls, n), key=lambda c: c.id)


async def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--suite", choices=["calls", "unseen"], default="calls",
                   help="unseen: unseen.py's calls, each spoken by every unseen voice (never tuned on)")
    p.add_argument("--part", choices=["dev", "holdout"], default="dev")
    p.add_argument("--sample", type=int, default=30, help="calls drawn from the part (seeded)")
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--voice", choices=sorted(VOICES), default="piper-joe")
    p.add_argument("--band", choices=["16k", "8k"], default="16k")
    p.add_argument("--show-failures", action="store_true")
    p.add_argument("--json", type=Path, help="merge the results into this file")
    p.add_argument("--modes", nargs="+", choices=["text", "voice"], default=["text", "voice"],
                   help="voice alone skips the typed run of the same calls")
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.CRITICAL)
    data = Path(tempfile.mkdtemp(prefix="voicecalls-"))
    settings = load_settings(data_dir=data, hold_on_line_s=0)
    calls = unseen.calls() if args.suite == "unseen" else sample(args.part, args.sample, args.seed)
    # (call, voice) pairs: the unseen suite speaks every call in every unseen voice.
    spoken = [(c, v) for v in unseen.VOICES for c in calls] if args.suite == "unseen" else [(c, args.voice) for c in calls]
    result: dict[str, Any] = {"calls": [c.id for c in calls], "load_average_start": list(os.getloadavg())}
    cpu0 = time.process_time()
    for mode in args.modes:
        outcomes, started = [], time.perf_counter()
        for i, (call, voice_name) in enumerate([(c, "") for c in calls] if mode == "text" else spoken):
            store = Store(data / f"{mode}-{i}.sqlite3")
            line = build_line(settings, store=store)
            if mode == "text":
                outcomes.append(await run_call(line, call))
            else:
                outcomes.append(await run_spoken_call(line, call, voice_name, args.band))
            store.close()
        table = summarise(outcomes)
        result[mode] = table
        result[f"{mode}_failed"] = [f"{o.call.id}/{v}" if args.suite == "unseen" else o.call.id
                                    for o, (_, v) in zip(outcomes, spoken if mode == "voice" else [(c, "") for c in calls],
                                                         strict=True) if not o.ok]
        who = "unseen voices" if args.suite == "unseen" else args.voice
        label = f"{args.suite if args.suite == 'unseen' else args.part} {mode}" + ("" if mode == "text" else f" ({who}, {args.band})")
        print(render(label, table))
        print(f"({len(calls)} calls in {time.perf_counter() - started:.0f} s)\n", flush=True)
        if args.show_failures:
            for o in outcomes:
                if not o.ok:
                    print(f"--- {o.call.id} ({o.call.customer}): {'; '.join(o.problems)}")
                    print("\n".join(o.transcript))
    result["load_average_end"] = list(os.getloadavg())
    result["cpu_s"] = round(time.process_time() - cpu0, 1)
    if args.json:
        merged = json.loads(args.json.read_text()) if args.json.exists() else {}
        key = f"calls/unseen/{args.band}" if args.suite == "unseen" else f"calls/{args.part}/{args.voice}/{args.band}"
        merged[key] = result
        args.json.write_text(json.dumps(merged, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
