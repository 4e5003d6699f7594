"""The hosted-LLM path: the real livekit-plugins-openai client against an OpenAI-compatible server.

By default the server is the scripted one in `benchmarks/hosted/openai_server.py`, started here. Set
CALLCENTER_TEST_LLM_BASE_URL (and CALLCENTER_TEST_LLM_API_KEY, CALLCENTER_TEST_LLM_MODEL)
to run the same tests, unchanged, against a real endpoint.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from livekit.agents import llm
from livekit.agents.metrics import LLMMetrics

from benchmarks.hosted.openai_server import ScriptedOpenAI
from callcenter.llm.embedded import EmbeddedPolicy
from callcenter.settings import load_settings
from callcenter.store import Store
from domains import registry
from meta.router import build_router, changing_labels, topics
from meta.session import Call, build_line, line_slots, start_call


@dataclass
class Endpoint:
    base_url: str
    api_key: str
    model: str
    scripted: ScriptedOpenAI | None


@pytest.fixture(scope="session")
def endpoint(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Endpoint]:
    url = os.environ.get("CALLCENTER_TEST_LLM_BASE_URL")
    if url:
        yield Endpoint(url, os.environ.get("CALLCENTER_TEST_LLM_API_KEY", "not-needed"), os.environ.get("CALLCENTER_TEST_LLM_MODEL", "gpt-4.1-mini"), None)
        return
    settings = load_settings(data_dir=tmp_path_factory.mktemp("hosted-router"))
    with ScriptedOpenAI(EmbeddedPolicy(build_router(settings), topics(), registry.phrasebook(), line_slots(), changing_labels())) as server:
        yield Endpoint(server.base_url, "not-needed", "scripted", server)


@pytest.fixture(scope="session")
def scripted_endpoint(endpoint: Endpoint, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Endpoint]:
    """Always the scripted server: for what only it can see (the request bodies), even when
    the other tests run against a real endpoint."""
    if endpoint.scripted is not None:
        yield endpoint
        return
    settings = load_settings(data_dir=tmp_path_factory.mktemp("hosted-scripted"))
    with ScriptedOpenAI(EmbeddedPolicy(build_router(settings), topics(), registry.phrasebook(), line_slots(), changing_labels())) as server:
        yield Endpoint(server.base_url, "not-needed", "scripted", server)


@dataclass
class Counter:
    """Client-side counts: what the line asked of the LLM, whichever endpoint answers."""

    requests: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    per_turn: list[tuple[int, int]] = field(default_factory=list)

    def on_metrics(self, m: Any) -> None:
        if isinstance(m, LLMMetrics):
            self.requests += 1
            self.prompt_tokens += m.prompt_tokens
            self.completion_tokens += m.completion_tokens


@pytest.fixture
async def hosted_call(endpoint: Endpoint, tmp_path: Path) -> AsyncIterator[Any]:
    from livekit.plugins import openai

    settings = load_settings(
        data_dir=tmp_path, hold_on_line_s=0, llm_provider="openai", llm_base_url=endpoint.base_url,
        llm_api_key=endpoint.api_key, llm_model=endpoint.model,
    )
    counter = Counter()
    model: llm.LLM = openai.LLM(model=endpoint.model, base_url=endpoint.base_url, api_key=endpoint.api_key)
    model.on("metrics_collected", counter.on_metrics)
    store = Store(tmp_path / "store.sqlite3")
    line = build_line(settings, store=store, llm_override=model)
    line.provider = "openai"
    calls: list[Call] = []

    async def _open(customer_id: str | None = None) -> tuple[Call, Counter]:
        call = await start_call(line, customer_id=customer_id)
        calls.append(call)
        return call, counter

    yield _open
    for call in calls:
        await call.close()
    store.close()
    await model.aclose()
