"""Turns that are no value, read while the line waits for one: does a decode held to digit words make one?

    .venv/bin/python benchmarks/voice/bench_one_value.py [--bands 8k 16k] [--slots fix id zip] [--show]

After the read-back of a customer number and ZIP ("If I misheard, please say the right one
again.": the `fix` slot), or "What's your customer number?" (`id`), or "And the ZIP code?"
(`zip`), the caller may say something else: a goodbye, a question. Every caller turn of the
dev sample (`bench_calls.py`'s 30 calls) but the identity answers, and a few asides, in the dev
voices, cut as EarlySTT cuts a turn (0.4 s of quiet before, 0.2 s after), is read by the
line's model for the slot with its prompt: the free decode (five readings) and the decode held
to the slot's words (`slot_grammar.VOCABULARY`). A value is made when no free reading fits the
slot and the held one does: before session 15 always asked; now only when a free reading holds
two digits or digit words (`slot_grammar.heard_a_number`). The id/ZIP grammar decode that
follows (with its own threshold, digit_grammar.py) is not run here.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from benchmarks.voice.bench_calls import VOICES, sample  # noqa: E402
from benchmarks.voice.voices import telephone, to_16k  # noqa: E402
from callcenter.speech.local_stt import WhisperSTT  # noqa: E402
from callcenter.speech.slot_grammar import FULL_FIT, VOCABULARY, fit, heard_a_number  # noqa: E402
from callcenter.speech.whisper_window import transcribe_window  # noqa: E402
from meta.voice_prompt import SLOT_PROMPTS, recogniser_prompt  # noqa: E402

ASIDES = ["that's right", "yes that's correct", "i don't know it", "hang on let me find it", "what do you need that for",
          "never mind", "can i just talk to a person", "great thanks bye"]
DEV_VOICES = ("hibari", "piper-joe", "espeak-ng")


def cut(audio: np.ndarray) -> np.ndarray:
    """0.4 s of quiet before the first sound and 0.2 s after the last, as EarlySTT cuts a turn."""
    sound = np.flatnonzero(np.abs(audio) > 1e-3)
    if sound.size == 0:
        return audio
    return np.concatenate([np.zeros(6400, np.float32), audio[sound[0]:sound[-1] + 1], np.zeros(3200, np.float32)])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bands", nargs="+", choices=["16k", "8k"], default=["8k", "16k"])
    ap.add_argument("--slots", nargs="+", choices=["fix", "id", "zip"], default=["fix"])
    ap.add_argument("--show", action="store_true")
    args = ap.parse_args()
    turns = sorted({t.say for c in sample("dev", 30, 11) for t in c.turns
                    if t.say.isascii() and "zip" not in t.say} | set(ASIDES))
    stt = WhisperSTT(prompt=recogniser_prompt())
    cpu0 = time.process_time()
    for band in args.bands:
        for slot in args.slots:
            made_before = made_now = 0
            n = 0
            for voice in DEV_VOICES:
                for say in turns:
                    pcm, rate = VOICES[voice](say)
                    if band == "8k":
                        pcm, rate = telephone(pcm, rate)
                    audio = cut(to_16k(pcm, rate))
                    model = stt.model_for(audio, slot)
                    free = transcribe_window(model, audio, prompt=SLOT_PROMPTS[slot], window_s=15.0, beam_size=5, hypotheses=5)
                    n += 1
                    if not free or max(fit(slot, r) for r in free[0].readings) >= FULL_FIT[slot]:
                        continue  # a free reading fits: not the held decode's doing
                    held = transcribe_window(model, audio, prompt=SLOT_PROMPTS[slot], window_s=15.0, beam_size=5,
                                             only=VOCABULARY[slot])
                    if held and fit(slot, held[0].text) >= FULL_FIT[slot]:
                        made_before += 1
                        asked = heard_a_number(free[0].readings)
                        made_now += asked
                        if args.show:
                            print(f"  {band} {slot} {voice}: {say!r} -> {held[0].text!r} (free: {free[0].readings[0]!r};"
                                  f" {'still asked' if asked else 'not asked now'})")
            print(f"{band} {slot}: {n} turns; a value made by the held decode: before {made_before}, now {made_now}", flush=True)
    print(f"cpu_s {time.process_time() - cpu0:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
