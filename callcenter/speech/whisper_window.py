"""Whisper on a window cut to the utterance, instead of 30 s of padding.

Whisper's encoder always reads 30 s of audio: faster-whisper pads a 2 s caller turn with 28 s
of silence, and on tiny.en that padding is about 80% of the CPU of a turn (0.8 of 1.0
CPU-s on the development machine). CTranslate2's encoder accepts a shorter mel window (the
`audio_ctx` of whisper.cpp): a 15 s window (or the utterance plus 1 s, if longer) is
encoded, and the decoder attends to that (the encoder's cost grows faster than the window:
15 s costs about a quarter of 30 s). Windows under ~10 s made tiny.en restart the utterance
instead of ending it ("What is my balance? What is my balance? ..."); 15 s rarely does, and
`drop_repeats` keeps one copy when it does. It is an approximation of what the model was trained on, so the
word error rate is measured for it in benchmarks/voice (and the full window stays one
setting away). Utterances longer than the full window go through faster-whisper as before.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

FRAMES_PER_S = 100  # Whisper's mel frames per second
FULL_WINDOW = 3000  # 30 s
MARGIN_S = 1.0  # silence after the utterance, so the model hears that it ended
TOKENS_PER_S = 8  # callers say at most ~4 words a second; numbers take several tokens each


@dataclass
class Segment:
    """The fields of faster-whisper's Segment that the recogniser reads."""

    text: str
    avg_logprob: float
    no_speech_prob: float
    readings: tuple[str, ...] = ()  # every beam's text, most likely first (when asked for)
    scores: tuple[float, ...] = ()  # each reading's mean log-probability per token, as `readings`


def window_frames(n_frames: int, window_s: float) -> int:
    """Mel frames to encode: at least `window_s`, more if the utterance and its margin need it."""
    want = max(window_s * FRAMES_PER_S, n_frames + MARGIN_S * FRAMES_PER_S)
    return min(FULL_WINDOW, int(math.ceil(want / FRAMES_PER_S) * FRAMES_PER_S))


def window_features(features: np.ndarray, window_s: float, pad: str = "silence") -> np.ndarray | None:
    """The utterance's log-mel (n_mels, frames) in its short window; None when it needs the
    full 30 s. `pad` fills the rest: "silence" is the log-mel of digital silence, which is what
    Whisper was trained on (it pads the audio, then computes the mel: the floor, 2 below the
    normalised peak); "zero" is faster-whisper's padding of the mel itself, which reads as a
    faint noise right after the caller stops. On the spoken dev set (benchmarks/voice) the
    silence cut Piper's 8 kHz WER from 6.0 to 3.8% and hibari's 16 kHz from 2.9 to 1.8%."""
    if features.shape[-1] + MARGIN_S * FRAMES_PER_S > FULL_WINDOW:
        return None
    frames = window_frames(features.shape[-1], window_s)
    fill = max(float(features.max()) - 2.0, -1.5) if pad == "silence" and features.size else 0.0
    padded = np.full((features.shape[0], frames), fill, np.float32)
    padded[:, : min(frames, features.shape[-1])] = features[:, :frames]
    return padded


def transcribe_window(
    model: Any, audio: np.ndarray, *, prompt: str | None, window_s: float, beam_size: int = 1,
    pad: str = "silence", hypotheses: int = 1, spell_digits: bool = False, only: tuple[str, ...] = (),
    **generate: Any,
) -> list[Segment] | None:
    """Greedy (or beam) decode of one utterance on a short window; None when the audio needs
    the full window (the caller then uses faster-whisper's own loop). `pad`: see
    `window_features`. `hypotheses`: how many beams to return as `readings` (at most
    `beam_size`; the beams are searched anyway). `spell_digits`: numerals are suppressed, so
    the model writes "one zero zero zero one" in words (which `spoken.normalise` reads
    exactly) instead of numerals, where tiny.en drops zeros ("1001" for "one zero zero zero
    one"). `only`: a small grammar, as a vocabulary: the model may write these words (and
    punctuation) and nothing else. `generate`: more CTranslate2 decode options."""
    import ctranslate2
    from faster_whisper.tokenizer import Tokenizer
    from faster_whisper.transcribe import get_suppressed_tokens

    padded = window_features(model.feature_extractor(audio), window_s, pad)
    if padded is None:
        return None
    encoded = model.model.encode(ctranslate2.StorageView.from_array(np.ascontiguousarray(padded[None])), to_cpu=False)

    tokenizer = Tokenizer(model.hf_tokenizer, model.model.is_multilingual, task="transcribe", language="en")
    previous = tokenizer.encode(" " + prompt.strip()) if prompt else []
    tokens = model.get_prompt(tokenizer, previous, without_timestamps=True)
    # A cap on new tokens by duration: a turn the model cannot read must not loop for 400
    # tokens (Whisper repeats itself on audio it does not understand).
    seconds = audio.size / 16000
    max_length = min(model.max_length, len(tokens) + int(TOKENS_PER_S * seconds) + 10)
    result = model.model.generate(
        encoded, [tokens], beam_size=beam_size, max_length=max_length, return_scores=True,
        return_no_speech_prob=True, suppress_blank=True, num_hypotheses=max(1, min(hypotheses, beam_size)),
        suppress_tokens=[*get_suppressed_tokens(tokenizer, [-1]), *(numeral_tokens(tokenizer) if spell_digits else []),
                         *(tokens_except(tokenizer, only) if only else [])],
        **generate,
    )[0]
    ids = result.sequences_ids[0]
    readings = tuple(drop_repeats(tokenizer.decode(seq).strip()) for seq in result.sequences_ids)
    avg_logprob = result.scores[0] * len(ids) / (len(ids) + 1)  # as faster-whisper recovers it
    scores = tuple(float(s) * len(q) / (len(q) + 1) for s, q in zip(result.scores, result.sequences_ids, strict=True))
    return [Segment(text=readings[0], avg_logprob=avg_logprob, no_speech_prob=result.no_speech_prob, readings=readings,
                    scores=scores)]



_NUMERALS: dict[int, list[int]] = {}


def numeral_tokens(tokenizer: Any) -> list[int]:
    """Every text token that writes a digit (computed once per vocabulary, about 0.3 s)."""
    key = id(tokenizer.tokenizer)
    if key not in _NUMERALS:
        size = tokenizer.eot  # text tokens come before the special ones
        _NUMERALS[key] = [i for i in range(size) if any(c.isdigit() for c in tokenizer.decode([i]))]
    return _NUMERALS[key]


_EXCEPT: dict[tuple[int, tuple[str, ...]], list[int]] = {}


def tokens_except(tokenizer: Any, words: tuple[str, ...]) -> list[int]:
    """Every text token but those that write `words` (each with and without a leading space,
    in the cases given) and punctuation: suppressing them holds the decode to the words."""

    key = (id(tokenizer.tokenizer), words)
    if key not in _EXCEPT:
        allowed: set[int] = set()
        for w in words:
            for form in (w, " " + w):
                allowed.update(tokenizer.encode(form))
            if (whole := spaced_token(tokenizer, w)) is not None:
                allowed.add(whole)  # " two" in Whisper base (spaced_token)
        allowed.update(tokenizer.encode(p)[0] for p in (",", ".", "?", "-"))
        _EXCEPT[key] = [i for i in range(tokenizer.eot) if i not in allowed]
    return _EXCEPT[key]


def drop_repeats(text: str) -> str:
    """One copy of an utterance the model said again and again ("Is it down? Is it down?
    Is it"): on a cut window it sometimes starts over instead of ending. A run of at least
    three words that restarts from the first word counts once repeated; a one- or two-word
    turn only when said three times or more ("No? No? No?" -> "No?", a short answer the
    model looped on; "no, no" stays)."""
    words = text.split()
    for period in range(1, len(words) // 2 + 1):
        if period < 3 and len(words) < 3 * period:
            continue
        head = [_bare(w) for w in words[:period]]
        rest = [_bare(w) for w in words[period:]]
        if all(w == head[i % period] for i, w in enumerate(rest)):
            return " ".join(words[:period])
    return text


def _bare(word: str) -> str:
    return word.strip(".,?!").lower()


def spaced_token(tokenizer: Any, word: str) -> int | None:
    """The vocabulary's own token for `word` after a space, when it has one. Whisper base's
    tokenizer.json encodes " two" and " three" as a space and the word ([220, 20534]), though
    its vocabulary has " two" (732), which is what the model writes: without this the grammar
    could not write a 2 or a 3 (tiny.en's encodes each as one token)."""
    inner = getattr(tokenizer, "tokenizer", None)
    token = inner.token_to_id("\u0120" + word) if inner is not None and hasattr(inner, "token_to_id") else None
    return token if isinstance(token, int) and token < tokenizer.eot else None
