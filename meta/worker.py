"""The LiveKit worker: `callcenter worker dev|start` serves real rooms with the same hierarchy.

Everything is built from settings; nothing here touches the network until LiveKit's CLI
connects to `LIVEKIT_URL`. Speech providers are settings too; with none configured, rooms
are served as text chat.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

from livekit.agents import AgentServer, JobContext, cli

from callcenter.settings import Settings, SettingsError
from meta.session import Line, build_line, start_call

log = logging.getLogger("callcenter.worker")
_line: Line | None = None


def speech_kwargs(settings: Settings) -> dict[str, Any]:
    """STT/TTS for the session from settings; omitted providers mean text-only rooms."""
    kwargs: dict[str, Any] = {}
    if settings.stt_provider == "openai" or settings.tts_provider == "openai":
        if settings.llm_api_key is None:
            raise SettingsError("CALLCENTER_LLM_API_KEY is required for the openai speech providers")
        from livekit.plugins import openai

        key = settings.llm_api_key.get_secret_value()
        if settings.stt_provider == "openai":
            kwargs["stt"] = openai.STT(model=settings.stt_model, api_key=key, base_url=settings.llm_base_url)
        if settings.tts_provider == "openai":
            kwargs["tts"] = openai.TTS(model=settings.tts_model, voice=settings.tts_voice, api_key=key, base_url=settings.llm_base_url)
    if "stt" not in kwargs:
        kwargs["vad"] = None  # text chat: no audio to detect speech in
    return kwargs


def build_server(settings: Settings) -> AgentServer:
    server = AgentServer(
        ws_url=settings.livekit_url,
        api_key=settings.livekit_api_key.get_secret_value() if settings.livekit_api_key else None,
        api_secret=settings.livekit_api_secret.get_secret_value() if settings.livekit_api_secret else None,
        drain_timeout=settings.drain_timeout_s,
        prometheus_port=settings.metrics_port or None,
        # Each call runs in its own job process; they share metrics through this folder.
        prometheus_multiproc_dir=str(settings.data_dir / "prometheus-multiproc") if settings.metrics_port else None,
    )
    session_kwargs = speech_kwargs(settings)

    @server.rtc_session(agent_name=settings.agent_name)
    async def entrypoint(ctx: JobContext) -> None:
        global _line
        if _line is None:  # one line (store, router, LLM) per worker process
            _line = build_line(settings)
        await ctx.connect()
        durable = None
        if settings.temporal_address:
            from workflows.client import DurableWork

            durable = DurableWork(settings, _line.store)
        kwargs = dict(session_kwargs)
        if "stt" in kwargs:
            kwargs["turn_handling"] = {"interruption": {"mode": "vad"}}
        call = await start_call(_line, durable=durable, session_kwargs=kwargs, room=ctx.room)
        ctx.add_shutdown_callback(lambda: call.close("completed"))

    return server


def run(settings: Settings, argv: list[str]) -> int:
    if not settings.livekit_url and argv[:1] in (["dev"], ["start"]):
        print("error: CALLCENTER_LIVEKIT_URL (or LIVEKIT_URL) is required for the worker", file=sys.stderr)
        return 2
    server = build_server(settings)
    sys.argv = ["callcenter worker", *argv]
    cli.run_app(server)
    return 0
