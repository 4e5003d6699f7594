"""Answers to a read-back, scored under forced readings: which yes-like or no-like words the audio
holds best, and whether choosing by that likelihood reads more answers right without making a
yes from a no or from a turn that said none.

    .venv/bin/python benchmarks/voice/bench_readback_forced.py --dump /tmp/forced.json   # decode + score (slow)
    .venv/bin/python benchmarks/voice/bench_readback_forced.py --load /tmp/forced.json   # the rules, from the dump

Turns: `bench_yes_no.py`'s (the dev calls' yes and no answers, asides, every other dev turn),
ten more noes and eight hedged yeses ("yeah hold on", "yes but later"), in the dev and devx
voices (never the unseen ones), through the 8 kHz band (or 16 kHz), read by tiny.en with the
yes/no slot pending as the line reads them (five beam readings, `slot_grammar.pick`). Then every
answer of `voice_readback.CANDIDATES` and every beam reading is forced through the decoder over
the same audio (`forced.forced_scores`). The rule (`voice_readback.choose`) decides from those
scores; counted: answers read right, noes read as a yes (must stay 0), non-answers and hedged
yeses read as a yes. `--goodbyes` adds set goodbyes' scores (the goodbye probe of session 20,
README), `--add-scores` the scores of answers added to the set since a dump was made.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from benchmarks.voice.bench_calls import DEVX, VOICES, sample  # noqa: E402
from benchmarks.voice.bench_yes_no import ASIDES, NO, YES  # noqa: E402
from benchmarks.voice.voices import telephone, to_16k  # noqa: E402
from callcenter.speech.forced import forced_scores  # noqa: E402
from callcenter.speech.local_stt import WhisperSTT  # noqa: E402
from callcenter.speech.slot_grammar import pick  # noqa: E402
from callcenter.speech.whisper_window import transcribe_window  # noqa: E402
from domains.intent import yes_or_no  # noqa: E402
from meta import voice_readback as readback  # noqa: E402
from meta.voice_prompt import YESNO_PROMPT, recogniser_prompt  # noqa: E402

# More noes than bench_yes_no.py's three: a rule that reads a no as a yes moves money.
MORE_NO = ["no that's not right", "no not that one", "no wait", "nah leave it", "no that's wrong", "not now thanks",
           "no sorry", "no please don't", "no i changed my mind", "no, cancel that"]
# Yeses the caller hedges, which the read-back gate asks again typed: none may become a yes.
HEDGED = ["yes wait", "yeah wait a second", "yes but not now", "yes but make it twenty", "yes not right now",
          "yeah hold on", "yes but later", "yes no wait"]
DEV_VOICES = ("hibari", "piper-joe", "espeak-ng", *DEVX)


def turns() -> list[tuple[str, bool | None]]:
    others = sorted({t.say for c in sample("dev", 30, 11) for t in c.turns
                     if t.say not in YES + NO + MORE_NO and t.say.isascii()} | set(ASIDES))
    return [(s, True) for s in YES] + [(s, False) for s in NO + MORE_NO] + [(s, None) for s in others + HEDGED]


def answer_prompt(band: str, which: str = "line") -> str:
    """The prompt the answers are read and scored with: the line's ("line": at 8 kHz the yes/no
    answers' prompt since session 23, at 16 kHz the topic prompt), or the topic prompt ("topic",
    the line before session 23)."""
    return YESNO_PROMPT if which == "line" and band == "8k" else recogniser_prompt()


def dump(band: str, voices: tuple[str, ...], only: list[str] | None = None, which: str = "line",
         plain: bool = True) -> list[dict]:
    prompt = answer_prompt(band, which)
    stt = WhisperSTT(prompt=prompt, identity_model=False)
    rows = []
    for voice in voices:
        for say, want in turns():
            if only and say not in only:
                continue
            pcm, rate = VOICES[voice](say)
            if band == "8k":
                pcm, rate = telephone(pcm, rate)
            audio = to_16k(pcm, rate)
            segments = transcribe_window(stt._model, audio, prompt=prompt, window_s=15.0, beam_size=5, hypotheses=5)
            readings = list(segments[0].readings) if segments else [""]
            texts = list(dict.fromkeys([*readback.CANDIDATES, *readings]))
            scores = {f.text: f.total for f in forced_scores(stt._model, audio, texts, prompt=prompt, window_s=15.0)}
            row = {"voice": voice, "say": say, "want": want, "readings": readings, "scores": scores}
            if plain and prompt != recogniser_prompt():
                # The same audio read (and its set answers scored) with the line's topic prompt,
                # as the line read every answer before session 23: what the veto reads (session 24).
                topic = recogniser_prompt()
                again = transcribe_window(stt._model, audio, prompt=topic, window_s=15.0, beam_size=5, hypotheses=5)
                row["plain"] = list(again[0].readings) if again else [""]
                texts = list(dict.fromkeys([*readback.CANDIDATES, *row["plain"]]))
                row["plain_scores"] = {f.text: f.total for f in
                                       forced_scores(stt._model, audio, texts, prompt=topic, window_s=15.0)}
            rows.append(row)
        print(f"{voice}: {len(rows)} turns so far", file=sys.stderr, flush=True)
    return rows


GOODBYES = ("Thanks, bye.", "Thank you, bye.", "Bye.", "Goodbye.", "Thank you, goodbye.", "Okay, that's all, thank you.",
            "That's all, thanks.", "Great, thanks, have a good one.", "Thanks a lot.", "Thank you very much.")


def dump_goodbyes(rows: list[dict], band: str) -> None:
    """Adds each turn's scores under set goodbyes (open turns: the line has just answered)."""
    stt = WhisperSTT(prompt=recogniser_prompt(), identity_model=False)
    prompt = recogniser_prompt()
    for row in rows:
        pcm, rate = VOICES[row["voice"]](row["say"])
        if band == "8k":
            pcm, rate = telephone(pcm, rate)
        audio = to_16k(pcm, rate)
        texts = [*GOODBYES, row["readings"][0]]
        row["goodbye"] = {f.text: f.total for f in forced_scores(stt._model, audio, texts, prompt=prompt, window_s=15.0)}


def evaluate_goodbyes(rows: list[dict]) -> None:
    """The goodbye probe (not adopted): an open turn the router does not read as a goodbye is
    taken as the likeliest set goodbye when that scores within `margin` of the reading itself
    and the reading has at most `words` words. Counted: turns typed as a goodbye that become
    one, and turns typed as anything else that become one (a call ended on a request)."""
    from callcenter.settings import load_settings
    from meta.router import build_router

    router = build_router(load_settings())
    labels: dict[str, str] = {}

    def label(text: str) -> str:
        if text not in labels:
            labels[text] = router.classify(text).label
        return labels[text]

    for margin in (-1.0, 0.0, 1.0, 2.0, 3.0):
        for most in (4, 6, 8, 99):
            gained = lost = 0
            for row in rows:
                top, scored = row["readings"][0], row["goodbye"]
                if label(top) == "meta/goodbye" or len(top.split()) > most:
                    continue
                if max(v for k, v in scored.items() if k != top) >= scored[top] - margin:
                    if label(row["say"]) == "meta/goodbye":
                        gained += 1
                    else:
                        lost += 1
            print(f"goodbye within {margin} of the reading, at most {most} words: goodbyes gained {gained}, "
                  f"other turns made a goodbye {lost}")


def evaluate_readback_goodbyes(rows: list[dict], show: bool) -> None:
    """Session 22: a goodbye while a read-back waits ("ok thats all thank you" -> scotland's
    "Okay, not solved, aren't you?", asked again). These rows are read with the yes/no slot
    pending, so the set goodbyes' scores are comparable with the set answers'. A turn the line
    reads as neither a yes nor a no (after `voice_readback.choose`), and the router not as a
    goodbye, is taken as the likeliest set goodbye when that is likelier than every yes-like,
    no-like and held-back answer by `lead`. Counted: turns typed as a goodbye that become one,
    yes/no answers made a goodbye, other turns made a goodbye (a request ends the call)."""
    from callcenter.settings import load_settings
    from meta.router import build_router

    router = build_router(load_settings())
    labels: dict[str, str] = {}

    def label(text: str) -> str:
        if text not in labels:
            labels[text] = router.classify(text).label
        return labels[text]

    bye_typed = sum(label(r["say"]) == "meta/goodbye" and r["want"] is None for r in rows)
    for lead in (-1.0, 0.0, 0.5, 1.0, 2.0, 3.0):
        gained = answers_lost = others_lost = 0
        lines = []
        for row in rows:
            readings = row["readings"]
            heard = pick("yesno", readings)
            taken = readback.choose(heard, readings, lambda texts, s=row["scores"]: s) or heard
            if yes_or_no(taken) is not None or label(taken) == "meta/goodbye":
                continue
            bye = max(row["goodbye"][g] for g in GOODBYES)
            answer = max(row["scores"][t] for t in readback.CANDIDATES)
            if bye - answer <= lead:
                continue
            typed_bye = label(row["say"]) == "meta/goodbye"
            gained += typed_bye
            answers_lost += row["want"] is not None
            others_lost += row["want"] is None and not typed_bye
            lines.append(f"    {'+' if typed_bye else '-'} {row['voice']}: {row['say']!r} -> {taken!r} ({bye - answer:+.1f})")
        print(f"read-back pending, a set goodbye likelier by {lead}: goodbyes gained {gained} of {bye_typed} typed, "
              f"yes/no answers made a goodbye {answers_lost}, other turns made a goodbye {others_lost}")
        if show:
            print("\n".join(lines))


def add_scores(rows: list[dict], band: str) -> None:
    """Scores the candidates a dump made with fewer lacks (no new beam decode)."""
    stt = WhisperSTT(prompt=recogniser_prompt(), identity_model=False)
    prompt = recogniser_prompt()
    for row in rows:
        missing = [t for t in readback.CANDIDATES if t not in row["scores"]]
        if not missing:
            continue
        pcm, rate = VOICES[row["voice"]](row["say"])
        if band == "8k":
            pcm, rate = telephone(pcm, rate)
        audio = to_16k(pcm, rate)
        row["scores"].update({f.text: f.total for f in forced_scores(stt._model, audio, missing, prompt=prompt, window_s=15.0)})


VETOES = ("none", "line", "top", "any", "forced", "line+forced")


def vetoed(row: dict, taken: str, veto: str) -> str:
    """Session 24: a yes read with the answers' prompt, checked against the same audio read
    with the topic prompt (the dump's "plain" readings and scores). "line": the line's rule
    (`voice_readback.veto_held`, the likeliest plain reading holds a no or a hedge); "top": the
    same on the plain reading the line took before session 23 (`pick`, then session 20's
    `choose` under the plain scores): not a yes there; "any": any of the five plain readings
    holds a no or a hedge; "forced": session 20's veto under the plain scores (a no-like or
    held-back set answer likelier by `LEAD` than every yes-like one)."""
    if veto == "none" or "plain" not in row or yes_or_no(taken) is not True:
        return taken
    plain = row["plain"]
    if veto in ("line", "line+forced"):
        if (out := readback.veto_held(taken, lambda: plain)) is not None:
            return out
    if veto == "top":
        before = pick("yesno", plain)
        before = readback.choose(before, plain, lambda texts, s=row["plain_scores"]: s) or before
        if yes_or_no(before) is not True:
            return before
    if veto == "any" and any(readback.holds_back(r) for r in plain):
        return next(r for r in plain if readback.holds_back(r))
    if veto in ("forced", "line+forced"):
        got = row["plain_scores"]
        y = max(got[t] for t in readback.YES_LIKE)
        held = max((*readback.NO_LIKE, *readback.HELD_LIKE), key=lambda t: got[t])
        if got[held] - y > readback.LEAD:
            return held
    return taken


def evaluate(rows: list[dict], show: bool, veto: str = "none", plain: bool = False, **rule: object) -> None:
    """`plain`: the line before session 23 (the topic prompt's readings and scores alone)."""
    right = answers = no_as_yes = noes = other_yes = others = changed = hedged_yes = other_no = 0
    for row in rows:
        readings, want = (row["plain"], row["want"]) if plain else (row["readings"], row["want"])
        scored = row["plain_scores"] if plain else row["scores"]
        heard = pick("yesno", readings)
        taken = (readback.choose(heard, readings, lambda texts, s=scored: s, **rule) if rule else None) or heard
        taken = vetoed(row, taken, veto)
        got = yes_or_no(taken)
        changed += taken != heard
        if want is not None:
            answers += 1
            right += got is want
        if want is False:
            noes += 1
            no_as_yes += got is True
        if want is None:
            others += 1
            other_yes += got is True
            hedged_yes += got is True and row["say"] in HEDGED
            other_no += got is False
        bad = (want is not None and got is not want) or (want is None and got is True)
        if show and (bad or taken != heard):
            print(f"  {'BAD ' if bad else 'ok  '}{row['voice']:28s} {row['say']!r} -> {heard!r} -> {taken!r} ({got})")
    print(f"{'topic prompt' if plain else 'veto ' + veto} {rule}: answers right {right}/{answers}, noes read as yes {no_as_yes}/{noes}, "
          f"non-answers read as yes {other_yes}/{others} (hedged yeses {hedged_yes}), as no {other_no}, "
          f"readings changed {changed}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--band", choices=["16k", "8k"], default="8k")
    ap.add_argument("--voices", nargs="+", default=list(DEV_VOICES), choices=list(DEV_VOICES))
    ap.add_argument("--dump", type=Path)
    ap.add_argument("--load", type=Path)
    ap.add_argument("--show", action="store_true")
    ap.add_argument("--only", nargs="+", help="dump only these turns")
    ap.add_argument("--prompt", choices=["line", "topic"], default="line",
                    help="--dump: read with the line's prompt for the band, or the topic prompt (before session 23)")
    ap.add_argument("--goodbyes", type=Path, help="add the set goodbyes' scores to the loaded dump, written here")
    ap.add_argument("--add-scores", type=Path, help="add the scores of candidates the loaded dump lacks, written here")
    ap.add_argument("--vetoes", nargs="+", choices=VETOES, default=list(VETOES),
                    help="a dump with the topic prompt's readings: the yes vetoes to score (session 24)")
    ap.add_argument("--leads", nargs="+", type=float, default=[readback.LEAD])
    args = ap.parse_args()
    if args.load:
        rows = json.loads(args.load.read_text())
    else:
        rows = dump(args.band, tuple(args.voices), args.only, args.prompt)
        if args.dump:
            args.dump.write_text(json.dumps(rows))
    if args.add_scores:
        add_scores(rows, args.band)
        args.add_scores.write_text(json.dumps(rows))
        return 0
    if args.goodbyes:
        dump_goodbyes(rows, args.band)
        args.goodbyes.write_text(json.dumps(rows))
        return 0
    if rows and "goodbye" in rows[0]:
        evaluate_goodbyes(rows)
        evaluate_readback_goodbyes(rows, args.show)
        return 0
    if "plain" in rows[0]:
        evaluate(rows, args.show, plain=True, lead=readback.LEAD)  # the line before session 23
        for veto in args.vetoes:
            evaluate(rows, args.show, veto=veto, lead=readback.LEAD)
        return 0
    evaluate(rows, False)  # the line as it is: no forced choice
    for lead in args.leads:
        for rescue, veto in ((True, False), (False, True), (True, True)):
            evaluate(rows, args.show, lead=lead, rescue=rescue, veto=veto)
    return 0


if __name__ == "__main__":
    sys.exit(main())
