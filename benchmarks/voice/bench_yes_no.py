"""Answers to a read-back, spoken: which turns the read-back gate reads as a yes, a no, or neither.

    .venv/bin/python benchmarks/voice/bench_yes_no.py [--bands 8k 16k]

Each turn is what a caller might say after "... Shall I go ahead? Please say yes or no.": the dev
calls' yes and no answers (benchmarks/calls), three more noes, ten questions and asides, and
every other turn of the dev sample (`bench_calls.py`'s 30 calls), in the dev voices (hibari,
Piper joe, espeak-ng en-us+m3), read by tiny.en with the yes/no slot pending: five beam
readings, then a reading chosen three ways. `top`: the most likely; `any fit` (before session
15): the most likely that opens with a yes or no word; `line`: `slot_grammar.pick` as the line
runs it. An answer is right when `domains.intent.yes_or_no` reads it as the caller meant; a
non-answer read as a yes would run the action read back on words that said no yes.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from benchmarks.voice.bench_calls import VOICES, sample  # noqa: E402
from benchmarks.voice.voices import telephone, to_16k  # noqa: E402
from callcenter.speech.local_stt import WhisperSTT  # noqa: E402
from callcenter.speech.slot_grammar import fit, pick  # noqa: E402
from callcenter.speech.whisper_window import transcribe_window  # noqa: E402
from domains.intent import yes_or_no  # noqa: E402
from meta.voice_prompt import recogniser_prompt  # noqa: E402

YES = ["yeah go ahead", "mm-hm do it", "yep thats right", "that works for me", "uh huh sure", "sure why not",
       "perfect go ahead"]
NO = ["nope leave it", "no thanks", "no don't do that"]
ASIDES = ["wait how long does that take", "what card will it go to", "hang on let me check something",
          "actually make it twenty dollars", "can i undo that later", "what's the fee for that",
          "i still can't log in", "who am i talking to", "um i'm not sure", "is it done yet"]


def any_fit(readings: list[str]) -> str:
    """Before session 15: the most likely reading that fits the yes/no slot, whatever the most likely says."""
    fits = [r for r in readings if fit("yesno", r)]
    return fits[0] if fits else readings[0]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bands", nargs="+", choices=["16k", "8k"], default=["8k", "16k"])
    ap.add_argument("--show", action="store_true", help="print each turn read wrong")
    args = ap.parse_args()
    others = sorted({t.say for c in sample("dev", 30, 11) for t in c.turns
                     if t.say not in YES + NO and t.say.isascii()} | set(ASIDES))
    turns = [(s, True) for s in YES] + [(s, False) for s in NO] + [(s, None) for s in others]
    stt = WhisperSTT(prompt=recogniser_prompt(), identity_model=False)
    ways = {"top": lambda r: r[0], "any fit": any_fit, "line": lambda r: pick("yesno", r)}
    for band in args.bands:
        right = dict.fromkeys(ways, 0)
        made_yes = dict.fromkeys(ways, 0)
        answers = sum(1 for _, want in turns if want is not None) * len(VOICES_DEV)
        for voice in VOICES_DEV:
            for say, want in turns:
                pcm, rate = VOICES[voice](say)
                if band == "8k":
                    pcm, rate = telephone(pcm, rate)
                segments = transcribe_window(stt._model, to_16k(pcm, rate), prompt=recogniser_prompt(), window_s=15.0,
                                             beam_size=5, hypotheses=5)
                readings = list(segments[0].readings) if segments else [""]
                for way, choose in ways.items():
                    text = choose(readings)
                    got = yes_or_no(text)
                    if want is not None:
                        right[way] += got is want
                    else:
                        made_yes[way] += got is True
                    if args.show and ((want is not None and got is not want) or (want is None and got is True)):
                        print(f"  {band} {way:7s} {voice:10s} {say!r} -> {text!r} ({got})")
        n_other = len(others) * len(VOICES_DEV)
        for way in ways:
            print(f"{band} {way:7s}: answers read right {right[way]}/{answers}, non-answers read as a yes {made_yes[way]}/{n_other}",
                  flush=True)
    return 0


VOICES_DEV = ("hibari", "piper-joe", "espeak-ng")

if __name__ == "__main__":
    sys.exit(main())
