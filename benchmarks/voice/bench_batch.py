"""Does one decoder serving several calls' utterances in a batch cost less CPU per utterance?

    .venv/bin/python benchmarks/voice/bench_batch.py

Eight caller utterances (hibari), each on the line's 15 s window, encoded and beam-decoded by
Whisper tiny.en (CTranslate2, int8, 2 threads) in batches of 1, 2, 4 and 8; CPU seconds per
utterance (process time, all threads), which the shared machine's load does not distort.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchmarks.voice.voices import hibari, to_16k  # noqa: E402
from callcenter.speech.local_stt import BEAM, load_whisper  # noqa: E402
from callcenter.speech.whisper_window import window_features  # noqa: E402
from meta.voice_prompt import recogniser_prompt  # noqa: E402

TEXTS = [
    "What is my balance?", "I was charged twice for my subscription.", "Is the service down right now?",
    "C one zero zero one, zip nine four one oh seven.", "My API calls fail with four twenty nine errors.",
    "Yes, please.", "Can I get a copy of my invoice?", "I can't log in to my account.",
]


def main() -> int:
    import ctranslate2
    from faster_whisper.tokenizer import Tokenizer
    from faster_whisper.transcribe import get_suppressed_tokens

    model = load_whisper(2)
    tok = Tokenizer(model.hf_tokenizer, model.model.is_multilingual, task="transcribe", language="en")
    feats = [window_features(model.feature_extractor(to_16k(*hibari(t))), 15.0) for t in TEXTS]
    prompt = model.get_prompt(tok, tok.encode(" " + recogniser_prompt()), without_timestamps=True)
    suppress = list(get_suppressed_tokens(tok, [-1]))

    def run(batch: int) -> None:
        x = np.ascontiguousarray(np.stack([feats[i % len(feats)] for i in range(batch)]))
        encoded = model.model.encode(ctranslate2.StorageView.from_array(x), to_cpu=False)
        model.model.generate(encoded, [prompt] * batch, beam_size=BEAM, max_length=len(prompt) + 40,
                             suppress_blank=True, suppress_tokens=suppress, return_scores=True)

    run(1)  # warm up
    for batch in (1, 2, 4, 8):
        cpu0, repeats = time.process_time(), 3
        for _ in range(repeats):
            run(batch)
        cpu = (time.process_time() - cpu0) / repeats
        print(f"batch {batch}: {cpu:.2f} CPU-s, {cpu / batch:.3f} CPU-s per utterance", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
