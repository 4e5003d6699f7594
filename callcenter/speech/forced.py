"""How likely the model finds given words for one utterance: each text forced through Whisper's
decoder over the encoded audio (teacher forcing), scored token by token, the end of text included.

A beam search writes what the model finds likeliest word by word; a short, nasal or
telephone-band answer can come out as words nobody said ("Yes, not right." for "yep, that's
right"). Scoring a few whole readings of the same audio instead asks which of them the audio
holds best. The encoder runs once; every text is one forced pass of the decoder, all texts in
one batch (as `digit_grammar.held_identity` reads its next-token scores).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from callcenter.speech.digit_grammar import encode_turn, log_softmax


@dataclass(frozen=True)
class Forced:
    """One text's score: the sum of its tokens' log-probabilities and the end of text's, and
    how many tokens that is (the end of text counted)."""

    text: str
    total: float
    tokens: int

    @property
    def mean(self) -> float:
        return self.total / self.tokens


def forced_scores(whisper: Any, audio: np.ndarray, texts: list[str], *, prompt: str | None,
                  window_s: float) -> list[Forced]:
    """Each text's score as the reading of `audio` (16 kHz float) by a faster-whisper
    `WhisperModel`, in the order given; empty when the audio needs the full window."""
    import ctranslate2

    if not texts:
        return []
    turn = encode_turn(whisper, audio, prompt=prompt, window_s=window_s)
    if turn is None:
        return []
    encoded, tokenizer, start = turn
    said = [tokenizer.encode(" " + t.strip()) for t in texts]
    prompts = [start + s for s in said]
    batch = ctranslate2.StorageView.from_array(np.ascontiguousarray(np.repeat(encoded, len(texts), axis=0)))
    # The forced tokens come back as steps with their own scores, and the next token's after them.
    results = whisper.model.generate(batch, prompts, beam_size=1, max_length=max(map(len, prompts)) + 1,
                                     return_logits_vocab=True, suppress_blank=False)
    out: list[Forced] = []
    for text, tokens, r in zip(texts, said, results, strict=True):
        steps = r.logits[0]
        total = 0.0
        for i, t in enumerate([*tokens, tokenizer.eot]):
            if i >= len(steps):
                total = float("-inf")
                break
            total += float(log_softmax(steps[i])[t])
        out.append(Forced(text, total, len(tokens) + 1))
    return out
