"""Spoken identity turns: is the caller verified, and never as someone else?

    .venv/bin/python benchmarks/voice/bench_identity.py [--part dev|devx|unseen] [--bands 16k 8k] [--variants file slots]

Each script is a caller's answer to "your customer number and ZIP code?" for one of the seeded
customers, spoken by a voice, optionally through the 8 kHz mu-law telephone band, and
recognised by the line's recogniser (Whisper base for these answers when its packages are
installed, else tiny.en; `--identity-model`). The caller is
verified when the identity task reads that customer's number and ZIP code from the words
(`domains/identity.py` reads an E-set letter as C). When the first answer does not verify, the
caller gets a second chance in the same voice, as the line asks it (`--second line`,
`second_chance`): a number and a ZIP heard -> the read-back, and the caller says the misheard
one again ("no, it's C one zero zero two"; `correction` reads it); a number alone -> "And
the ZIP code?"; no number -> (`slots`) the number alone, then the ZIP if none was heard, or
(before) both again, which a caller repeating the same words in the same voice cannot pass.
`--second readback` is sessions 8-10's model: always the read-back, the answer read with
the first answer's slot. For `slots` the row also gives both models as the line before it
ran them (`after_line-before`, `after_readback-before`): the first answer is read the same.

Parts: `dev` (hibari, Piper joe, espeak-ng en-us+m3 at 130 wpm; scripts A) and `devx` (four
more espeak-ng accents and speakers, none of the unseen ones; scripts A) are for tuning;
`unseen` (espeak-ng voices and speeds never used for tuning, scripts B never read while
tuning) is run for the reported numbers only.
Variants: `base` (the most likely reading, the line's prompt: before issue 26), `grammar`
(the beam's reading that fits the pending slot; callcenter/speech/slot_grammar.py) and `line`
(the grammar with the identity slot's own prompt, meta/voice_prompt.py: what the line does),
`held` (`line`, then a second decode held to the slot's words when no reading fits),
`digits` (`held`, then a decode held to the id/ZIP grammar token by token when still
nothing fits; callcenter/speech/digit_grammar.py), `file` (`digits`, then of the whole
readings the one that names an account on file, with the first reading's ZIP;
domains/identity_readings.py), `slots` (`file`, and the one-value questions after a first
answer that did not verify read with their own grammar: the number alone, the ZIP alone, the
read-back's fix; what the line does, session 11).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from benchmarks.voice.voices import espeak, espeak_as, hibari, piper, telephone, to_16k  # noqa: E402
from callcenter.routing.slots import extract_slots  # noqa: E402
from callcenter.speech.digit_grammar import FORMS  # noqa: E402
from callcenter.speech.local_stt import WhisperSTT  # noqa: E402
from callcenter.spoken import normalise  # noqa: E402
from callcenter.store import Store  # noqa: E402
from callcenter.store.seed import CUSTOMERS  # noqa: E402
from domains import registry  # noqa: E402
from domains.identity import correction, heard_customer_number  # noqa: E402
from domains.identity_readings import number_on_file, on_file  # noqa: E402
from meta.voice_prompt import SLOT_PROMPTS, recogniser_prompt  # noqa: E402

DIGIT = "zero one two three four five six seven eight nine".split()
ZIPS = {cid: z for cid, _n, _e, _p, z, *_ in CUSTOMERS}


def said(digits: str, oh: bool = False) -> str:
    return " ".join("oh" if oh and d == "0" else DIGIT[int(d)] for d in digits)


# {id} / {zip}: the digits read one by one; "oh" variants are the script's own.
DEV_SCRIPTS = [
    "C {id}, zip {zip}.",
    "My customer number is C {id} and my zip code is {zip}.",
    "It's C {id_oh}, zip code {zip_oh}.",
    "Customer number C {id}, zip {zip}.",
]
SCRIPTS = {
    "dev": DEV_SCRIPTS,
    "devx": DEV_SCRIPTS,
    "unseen": [
        "Sure, it's C {id_oh}, and the zip is {zip_oh}.",
        "Uh, my number is C {id} and zip {zip_oh}.",
        "C {id}. Zip code is {zip}.",
        "Yeah, C {id} and the zip code {zip}.",
        "The customer number is C {id_oh}, zip code {zip}.",
    ],
}
FIX_ID = {"dev": "No, it's C {id}.", "devx": "No, it's C {id}.", "unseen": "No, the number is C {id}."}
FIX_ZIP = {"dev": "The zip is {zip}.", "devx": "The zip is {zip}.", "unseen": "No, my zip code is {zip}."}


VOICES = {
    "dev": {"hibari": hibari, "piper-joe": piper, "espeak-us-m3-130": espeak},
    # More voices to tune on (session 11): dev's own are read right 92-93% of the time with 5
    # customers, too few misses to choose between changes. Other espeak-ng accents and
    # speakers than the unseen part's, with dev's scripts.
    "devx": {f"espeak-{v}-{s}": espeak_as(v, s) for v, s in
             (("en-gb-scotland", 150), ("en-029+m2", 165), ("en-us-nyc+f3", 150), ("en-gb-x-gbclan+f5", 170))},
    # Never used for tuning: other espeak-ng accents and speakers, at two speeds.
    "unseen": {f"espeak-{v}-{s}": espeak_as(v, s) for v in ("en-gb", "en-us+f2", "en-gb-x-rp+f4") for s in (140, 175)},
}


def fill(template: str, cid: str) -> str:
    digits, zip_code = cid[1:], ZIPS[cid]
    return template.format(id=said(digits), id_oh=said(digits, oh=True), zip=said(zip_code), zip_oh=said(zip_code, oh=True))


def verified_as(text: str) -> tuple[str | None, str | None]:
    """(customer number, ZIP) the identity task reads from a recognised answer."""
    heard = normalise(text)
    return heard_customer_number(heard), extract_slots(heard).zip_code


# What the caller says to the line's one-value questions: the number alone, the ZIP alone.
SAY_ID = {"dev": "It's C {id}.", "devx": "It's C {id}.", "unseen": "The number is C {id}."}


def second(model: str, variant: str, got: tuple[str | None, str | None], cid: str,
           say: Any, part: str) -> tuple[tuple[str, str] | None, str]:
    """The second chance under one model: "line" (second_chance), "readback" (sessions 8-10:
    always a read-back, the caller says the misheard part again with the first answer's
    slot), and, for `slots`, the same two as the line before it ("-before": the one-value
    answers read without their grammar, the line asking for both again)."""
    if model.startswith("readback"):
        heard_id, heard_zip = got[0] or "C", got[1] or "00000"
        fix = FIX_ID[part] if got[0] != cid else FIX_ZIP[part]
        again = say(fix, "fix" if model == "readback" and variant == "slots" else "identity")
        return correction(normalise(again), heard_id, heard_zip), again
    if model == "line-before":
        return second_chance("file", got, cid, say, part)
    return second_chance(variant, got, cid, say, part)


def second_chance(variant: str, got: tuple[str | None, str | None], cid: str,
                  say: Any, part: str) -> tuple[tuple[str, str] | None, str]:
    """What the line does after a first answer that did not verify (domains/identity.py), and
    what the caller then says: a number and a ZIP heard -> the read-back, and the caller says
    the misheard one again; a number alone -> "And the ZIP code?"; no number -> the line
    asks again. `say(template, slot)` is the recogniser's reading of the caller's words.
    Before `slots` the line asked for both again, and the caller repeated the first answer
    (the same words in the same voice: the same reading, so no second chance); `slots` asks
    for the number alone, then the ZIP if none was heard. Returns the (number, ZIP) the line
    then checks, and the last reading."""
    one_at_a_time = variant == "slots"
    heard_id, heard_zip = got
    if heard_id and heard_zip:
        fix = FIX_ID[part] if heard_id != cid else FIX_ZIP[part]
        again = say(fix, "fix" if one_at_a_time else "identity")
        return correction(normalise(again), heard_id, heard_zip), again
    if heard_id is None:
        if not one_at_a_time:
            return None, "(asked for both again: the same answer)"
        again = say(SAY_ID[part], "id")
        heard_id = verified_as(again)[0]
        if heard_id is None:
            return None, again
    if heard_zip is None:
        again = say(FIX_ZIP[part], "zip")
        heard_zip = verified_as(again)[1]
    return ((heard_id, heard_zip) if heard_zip else None), again


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--part", choices=sorted(SCRIPTS), default="dev")
    ap.add_argument("--bands", nargs="+", choices=["16k", "8k"], default=["16k", "8k"])
    ap.add_argument("--variants", nargs="+", choices=["base", "grammar", "line", "held", "digits", "file", "slots"], default=["file", "slots"])
    ap.add_argument("--voices", nargs="+", help="a subset of the part's voices")
    ap.add_argument("--customers", nargs="+", default=[c[0] for c in CUSTOMERS])
    ap.add_argument("--second", choices=["line", "readback"], default="line",
                    help="the second chance: the line's own next question (default), or always a read-back (sessions 8-10)")
    ap.add_argument("--show", action="store_true", help="print each miss (dev only)")
    ap.add_argument("--identity-model", choices=["line", "tiny", "base-8k", "base"], default="line",
                    help="the model for the identity answers: the line's (WhisperSTT.base_bands), tiny.en on both bands "
                         "(before session 14), Whisper base on the telephone band only (session 14) or on both bands "
                         "(local_stt.load_identity_whisper)")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    stt = WhisperSTT(prompt=recogniser_prompt(), identity_model=args.identity_model != "tiny")
    if args.identity_model.startswith("base"):
        stt.base_bands = frozenset({"8k"} if args.identity_model == "base-8k" else {"8k", "16k"})
    store = Store(Path(tempfile.mkdtemp()) / "store.sqlite3", schemas=registry.schemas())  # the demo customers
    voices = {k: v for k, v in VOICES[args.part].items() if not args.voices or k in args.voices}
    result: dict[str, Any] = {"load_average_start": list(os.getloadavg()),
                              "identity_model": f"whisper-base {sorted(stt.base_bands)}" if stt.base_model is not None else "tiny.en"}
    cpu0, started = time.process_time(), time.perf_counter()
    audio: dict[tuple[str, str, str], np.ndarray] = {}
    said_zip: list[str | None] = [None]  # the ZIP the caller's first answer gave, as the line keeps it

    def heard(voice: str, band: str, text: str, slot: str | None) -> str:
        key = (voice, band, text)
        if key not in audio:
            pcm, rate = voices[voice](text)
            if band == "8k":
                pcm, rate = telephone(pcm, rate)
            audio[key] = to_16k(pcm, rate)
        return stt.hear(audio[key], slot).text

    for variant in args.variants:
        slot = None if variant == "base" else "identity"
        stt.slot_prompts = SLOT_PROMPTS if variant in ("line", "held", "digits", "file", "slots") else {}
        stt.held_decode = variant in ("held", "digits", "file", "slots")
        stt.digit_grammar = variant in ("digits", "file", "slots")
        grammar_slots = frozenset(FORMS) if variant == "slots" else frozenset({"identity"})
        stt.grammar_slots = grammar_slots
        stt.on_file = on_file(store) if variant in ("file", "slots") else None
        # The number said alone is tried with the ZIP the first answer gave (meta/voice_slots.py).
        stt.number_on_file = (lambda readings: number_on_file(store, readings, said_zip[0])) if variant == "slots" else None
        for band in args.bands:
            turns = first = wrong = 0
            # The second chance, as the line asks it (--second) and, for `slots`, as the line
            # before it asked it: the first answer is read the same by both, so one run gives both.
            models = [args.second] + (["line-before", "readback-before"] if variant == "slots" else [])
            after = dict.fromkeys(models, 0)
            for voice in voices:
                for template in SCRIPTS[args.part]:
                    for cid in args.customers:
                        turns += 1
                        stt.grammar_slots = grammar_slots
                        text = heard(voice, band, fill(template, cid), slot)
                        got = verified_as(text)
                        if got == (cid, ZIPS[cid]):
                            first += 1
                            after = {m: n + 1 for m, n in after.items()}
                            continue
                        if got[0] and got[1] and got[0] in ZIPS and ZIPS[got[0]] == got[1]:
                            wrong += 1  # verified as another customer
                            continue
                        for model in models:
                            # The line before `slots` read one-value answers without their grammar.
                            stt.grammar_slots = frozenset({"identity"}) if model.endswith("before") else grammar_slots
                            said_zip[0] = None if model.endswith("before") else got[1]
                            fixed, again = second(model, variant, got, cid,
                                                  lambda t, s, v=voice, b=band, c=cid: heard(v, b, fill(t, c), s), args.part)
                            if fixed == (cid, ZIPS[cid]):
                                after[model] += 1
                            elif fixed and fixed[0] in ZIPS and ZIPS[fixed[0]] == fixed[1]:
                                wrong += 1
                            if args.show and args.part != "unseen" and model == args.second:
                                print(f"  miss {variant} {band} {voice}: {fill(template, cid)!r} -> {text!r}; then -> {again!r}"
                                      f" ({'fixed' if fixed == (cid, ZIPS[cid]) else 'still a miss'})")
            row = {"turns": turns, "first_answer": round(first / turns, 3), "after_read_back": round(after[args.second] / turns, 3),
                   "wrong_customer": wrong}
            row.update({f"after_{m}": round(after[m] / turns, 3) for m in models[1:]})
            result[f"{variant}/{band}"] = row
            print(f"{args.part} {variant:8s} {band}: {row}", flush=True)
    result["cpu_s"] = round(time.process_time() - cpu0, 1)
    result["wall_s"] = round(time.perf_counter() - started, 1)
    result["load_average_end"] = list(os.getloadavg())
    print(json.dumps({k: result[k] for k in ("identity_model", "cpu_s", "wall_s")}))
    if args.json:
        merged = json.loads(args.json.read_text()) if args.json.exists() else {}
        merged[f"identity/{args.part}"] = result
        args.json.write_text(json.dumps(merged, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
