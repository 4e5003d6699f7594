"""The LiveKit worker builds everything from settings without touching the network."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from livekit.agents import AgentServer

from callcenter.llm.embedded import EmbeddedLLM
from callcenter.settings import SettingsError, load_settings
from meta.session import build_line
from meta.worker import build_server, speech_kwargs


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_args, **_kwargs):
        raise AssertionError("the worker tried to open a network connection")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


def test_server_builds_from_settings_offline(tmp_path: Path, no_network: None) -> None:
    settings = load_settings(
        data_dir=tmp_path, livekit_url="wss://example.invalid", livekit_api_key="k", livekit_api_secret="s",
        metrics_port=9333, drain_timeout_s=42,
    )
    server = build_server(settings)
    assert isinstance(server, AgentServer)
    assert server._ws_url == "wss://example.invalid"
    assert server._drain_timeout == 42


def test_text_only_without_speech_providers(tmp_path: Path) -> None:
    assert speech_kwargs(load_settings(data_dir=tmp_path)) == {"vad": None}


def test_openai_speech_builds_plugins_offline(tmp_path: Path, no_network: None) -> None:
    settings = load_settings(data_dir=tmp_path, stt_provider="openai", tts_provider="openai", llm_api_key="sk-test", llm_base_url="http://127.0.0.1:9/v1")
    kwargs = speech_kwargs(settings)
    assert {"stt", "tts"} <= set(kwargs)


def test_openai_speech_needs_a_key(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="CALLCENTER_LLM_API_KEY"):
        speech_kwargs(load_settings(data_dir=tmp_path, tts_provider="openai"))


def test_llm_provider_is_a_setting(tmp_path: Path, no_network: None) -> None:
    embedded = build_line(load_settings(data_dir=tmp_path))
    assert isinstance(embedded.llm, EmbeddedLLM)
    hosted = build_line(load_settings(data_dir=tmp_path, llm_provider="openai", llm_base_url="http://127.0.0.1:9/v1", llm_model="m"))
    assert not isinstance(hosted.llm, EmbeddedLLM)
    assert hosted.llm.model == "m"


def test_livekit_env_names_are_accepted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LIVEKIT_URL", "wss://lk.example.invalid")
    monkeypatch.setenv("LIVEKIT_API_SECRET", "shh")
    settings = load_settings(data_dir=tmp_path)
    assert settings.livekit_url == "wss://lk.example.invalid"
    assert "shh" not in repr(settings)
