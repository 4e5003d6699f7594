"""A decode of Whisper held to a small grammar, token by token: a customer number (C and
exactly four digits) and a ZIP code (exactly five digits), with a few words around them.

tiny.en hears the digits of an id but drops repeated ones when it writes them ("C one oh oh
three" -> "C one oh three"): a reading with three digits does not fit and the caller is asked
again. Here the decoder may only write what the grammar allows next, and a digit run ends
only at its length, so the model has to place the digit it heard but skipped. CTranslate2 has
no logits hook, so each step asks the decoder for the next token's scores over the encoded
audio (`return_logits_vocab`, the encoder runs once), keeps the best token the grammar
allows, and goes on: about 30 small decoder steps for an answer.

Only used when the recogniser's own readings do not fit the slot (local_stt.py), and its
reading is taken only when the model was sure enough of it (`MIN_LOGPROB`): a caller who said
something else must not be turned into an id. A first answer's reading under it is taken
only when its number and ZIP are an account's (`WhisperSTT.hear`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from callcenter.speech.dropped import check as check_dropped
from callcenter.speech.whisper_window import spaced_token, window_features

DIGITS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "oh")
LETTER = ("C", "c", "See", "see")
FILLER = ("zip", "Zip", "ZIP", "code", "Code", "and", "And", "my", "My", "is", "it", "It", "it's", "It's", "the", "The",
          "customer", "Customer", "number", "Number", "yes", "Yes", "yeah", "Yeah", "no", "No", "sure", "Sure",
          "uh", "Uh", "um", "Um", "Okay", "okay", "So", "so")
ID_DIGITS, ZIP_DIGITS = 4, 5
# Tokens of words in each stretch before and between the numbers. Counted per stretch: over the
# whole answer, "My customer number is C ... and my ZIP code is ..." has 10 and its ZIP could
# never be written, and the id-alone reading ended the search (session 12).
MAX_FILLER = 8
# Mean log-probability per token under which the held reading is not taken: chosen on the
# dev identity turns (benchmarks/voice/bench_identity.py --part dev --variants digits).
MIN_LOGPROB = -1.0
# The same for an answer of one value (the number alone, the ZIP alone, a read-back's fix):
# its few words around the digits are what the prompt did not expect ("The zip is" before a
# ZIP a caller was asked for), and pull a right reading under -1.0 (hibari, "It's one oh oh
# oh one.": -1.34). Chosen on 200 one-value answers and non-answers in five dev and devx
# voices at both bands (session 11): right readings scored -0.03 to -1.33 (one -1.63),
# answers that hold no value ("Yes, that's right.", "I don't know it.") -1.65 and below; at
# -1.5, 114 of 115 right readings kept and 0 of 60 non-answers given a value.
MIN_LOGPROB_ONE = -1.5
BEAM = 8


@dataclass(frozen=True)
class Vocab:
    digits: frozenset[int]
    letter: frozenset[int]
    filler: frozenset[int]
    stop: frozenset[int]  # "." and end of text
    eot: int
    zip_word: frozenset[int] = frozenset()  # "zip": the digits after it are a ZIP code
    comma: int = -1

def _single(tokenizer: Any, words: tuple[str, ...]) -> set[int]:
    """Tokens of words written as one token (with a leading space): a digit is one step."""
    out: set[int] = set()
    for w in words:
        ids = tokenizer.encode(" " + w)
        if len(ids) == 1:
            out.add(ids[0])
        elif (whole := spaced_token(tokenizer, w)) is not None:
            out.add(whole)
    return out


@lru_cache(maxsize=2)
def vocab(tokenizer: Any) -> Vocab:
    filler: set[int] = set()
    for w in FILLER:
        filler.update(tokenizer.encode(" " + w))
    filler.update(tokenizer.encode(p)[0] for p in (",", "."))
    digits, letter = _single(tokenizer, DIGITS), _single(tokenizer, LETTER)
    zip_word = {tokenizer.encode(" " + w)[-1] for w in ("zip", "Zip", "ZIP")}
    return Vocab(frozenset(digits), frozenset(letter), frozenset(filler - digits - letter),
                 frozenset({tokenizer.encode(".")[0], tokenizer.eot}), tokenizer.eot, frozenset(zip_word),
                 tokenizer.encode(",")[0])


def written(v: Vocab, seq: tuple[int, ...], form: str) -> list[int]:
    """The reading's tokens with a comma where the ZIP's digits follow the number's at once:
    "C one oh oh two one oh oh oh one" is one run of nine digits to `spoken.normalise`
    ("C 100210001", no number and no ZIP), "C one oh oh two, one oh oh oh one" is C1002, 10001."""
    out: list[int] = []
    state, count, fillers = "pre", 0, 0
    for token in seq:
        if state == "mid" and token in v.digits and out and out[-1] in v.digits:
            out.append(v.comma)
        out.append(token)
        state, count, fillers = step(v, state, count, fillers, token, form)
    return out


# What a pending question's answer may be (meta/voice_slots.py names the slot): "identity"
# the customer number then the ZIP (or the number alone); "id" the customer number (a ZIP
# may follow it); "zip" the ZIP code alone; "fix" the answer to a read-back: the number, the
# ZIP or both, or the number said without its C ("no, it's one zero zero one").
FORMS = ("identity", "id", "zip", "fix")


def allowed(v: Vocab, state: str, count: int, fillers: int, form: str = "identity") -> set[int]:
    """The tokens the grammar allows next. States: pre (words before), id (digits after C),
    mid (words between), zip (digits), bare (a fix's digits said without a C), prezip (a
    fix's words after "zip"), end."""
    words = set(v.filler) if fillers < MAX_FILLER else set()
    if state == "prezip":
        return words | v.digits
    if state == "pre":
        # A first answer starts with the customer number: "C one oh oh one" is not a ZIP "six one oh oh one".
        return words | (v.letter if form != "zip" else set()) | (v.digits if form in ("zip", "fix") else set())
    if state == "mid":  # an id alone may end here (a caller correcting only the number), not a first answer
        return words | v.digits | ({v.eot} if form != "identity" else set())
    if state == "bare" and count == ID_DIGITS:  # a number of four digits ends, or a ZIP goes on
        return set(v.digits) | set(v.stop)
    if state in ("id", "zip", "bare"):
        return set(v.digits)
    return set(v.stop)


def ends(state: str, count: int, token: int, v: Vocab) -> bool:
    """Whether `token` finishes a reading in this state."""
    return token == v.eot or (token in v.stop and (state == "end" or (state == "bare" and count == ID_DIGITS)))


def step(v: Vocab, state: str, count: int, fillers: int, token: int, form: str = "identity") -> tuple[str, int, int]:
    if token in v.letter and state == "pre":
        return "id", 0, 0
    if token in v.zip_word and state == "pre" and form == "fix":
        return "prezip", 0, 0  # "the zip is one oh oh oh one": five digits, not a number without its C
    if token in v.digits:
        if state == "pre":
            state, count = ("bare" if form == "fix" else "zip"), 0
        elif state in ("mid", "prezip"):
            state, count = "zip", 0
        count, fillers = count + 1, 0
        if state == "id" and count == ID_DIGITS:
            return "mid", 0, 0  # a new stretch of words
        if state in ("zip", "bare") and count == ZIP_DIGITS:
            return "end", 0, fillers
        return state, count, fillers
    return state, count, fillers + 1


@dataclass(frozen=True)
class Hyp:
    seq: tuple[int, ...] = ()
    state: str = "pre"
    count: int = 0
    fillers: int = 0
    score: float = 0.0
    done: bool = False


def _diverse(ranked: list[Hyp], v: Vocab, beam: int) -> list[Hyp]:
    """The best `beam` hypotheses with different numbers so far: "C one oh, oh" and "C one oh oh"
    (a comma) are one reading of the digits, and a beam full of such twins has no room for the
    reading that places a repeated digit elsewhere."""
    kept: dict[tuple[int, ...], Hyp] = {}
    for h in ranked:
        key = tuple(t for t in h.seq if t in v.digits or t in v.letter)
        if key not in kept:
            kept[key] = h
            if len(kept) == beam:
                break
    return list(kept.values())


def log_softmax(logits: Any) -> np.ndarray:
    x = np.asarray(logits, dtype=np.float32)
    top = x.max()
    return x - (np.log(np.exp(x - top).sum()) + top)


def held_identity(model: Any, encoded: np.ndarray, prompt_tokens: list[int], tokenizer: Any,
                  beam: int = BEAM, form: str = "identity") -> list[tuple[str, float]]:
    """The grammar's readings of the encoded answer (a beam over what the grammar allows),
    best first, each with its mean log-probability per token; empty if none finished."""
    import ctranslate2

    v = vocab(tokenizer)
    hyps = [Hyp()]
    finished: list[Hyp] = []
    for _ in range(ID_DIGITS + ZIP_DIGITS + 3 * MAX_FILLER + 2):
        check_dropped()  # about 0.25 CPU-s a step with Whisper base: a dropped guess stops here (dropped.py)
        live = [h for h in hyps if not h.done]
        if not live:
            break
        prompts = [prompt_tokens + list(h.seq) for h in live]
        batch = ctranslate2.StorageView.from_array(np.ascontiguousarray(np.repeat(encoded, len(live), axis=0)))
        # The tokens already chosen come back as forced steps, with their own scores; the
        # next token's scores follow them (max_length also counts the prompt). One new token
        # is all a step reads: two more (as before session 16) cost 12% more CPU for the same
        # readings and scores.
        results = model.generate(batch, prompts, beam_size=1, max_length=max(map(len, prompts)) + 1,
                                 return_logits_vocab=True, suppress_blank=False)
        grown: list[Hyp] = []
        for h, r in zip(live, results, strict=True):
            if len(r.logits[0]) <= len(h.seq):
                continue
            logprobs = log_softmax(r.logits[0][len(h.seq)])
            options = sorted(allowed(v, h.state, h.count, h.fillers, form), key=lambda t: -logprobs[t])[:beam]
            for t in options:
                score = h.score + float(logprobs[t])
                if ends(h.state, h.count, t, v):
                    finished.append(Hyp(h.seq, "end", 0, h.fillers, score, True))
                    continue
                grown.append(Hyp((*h.seq, t), *step(v, h.state, h.count, h.fillers, t, form), score))
        hyps = _diverse(sorted(grown, key=lambda h: -h.score), v, beam)
        best_done = max((f.score for f in finished), default=None)
        if best_done is not None and all(h.score < best_done for h in hyps):
            break  # scores only fall: nothing live can beat what has finished
    ranked = sorted(finished, key=lambda h: -h.score / (len(h.seq) + 1))
    readings: dict[str, float] = {}
    for h in ranked:
        readings.setdefault(tokenizer.decode(written(v, h.seq, form)).strip(), h.score / (len(h.seq) + 1))
    return list(readings.items())


def encode_turn(whisper: Any, audio: np.ndarray, *, prompt: str | None, window_s: float) -> tuple[np.ndarray, Any, list[int]] | None:
    """One utterance (a faster-whisper `WhisperModel`, 16 kHz float audio) encoded once on its
    short window, with the English tokenizer and the decoder's start tokens (the prompt's words
    first): what every decode of it over the same encoder output starts from (the grammar here,
    forced.py's set answers). None when the audio needs the full window."""
    import ctranslate2
    from faster_whisper.tokenizer import Tokenizer

    check_dropped()
    padded = window_features(whisper.feature_extractor(audio), window_s)
    if padded is None:
        return None
    encoded = np.asarray(whisper.model.encode(ctranslate2.StorageView.from_array(np.ascontiguousarray(padded[None])),
                                              to_cpu=True))
    tokenizer = Tokenizer(whisper.hf_tokenizer, whisper.model.is_multilingual, task="transcribe", language="en")
    previous = tokenizer.encode(" " + prompt.strip()) if prompt else []
    return encoded, tokenizer, whisper.get_prompt(tokenizer, previous, without_timestamps=True)


def read_identity(whisper: Any, audio: np.ndarray, *, prompt: str | None, window_s: float,
                  form: str = "identity") -> list[tuple[str, float]]:
    """Encode one utterance on its short window and read it with the grammar, best reading
    first; empty when it needs the full window or nothing finished."""
    turn = encode_turn(whisper, audio, prompt=prompt, window_s=window_s)
    if turn is None:
        return []
    encoded, tokenizer, start = turn
    return held_identity(whisper.model, encoded, start, tokenizer, form=form)
