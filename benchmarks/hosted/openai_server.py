"""A scripted OpenAI-compatible chat-completions server for measuring the hosted-LLM path.

No hosted model is reachable here and no small local model calls tools usefully, so this
server stands in for one, on the real wire protocol: `POST /v1/chat/completions` with
`messages`, `tools` and `stream: true`, answered as server-sent `chat.completion.chunk`
events with text deltas, streamed tool calls and a final usage chunk. Its decisions come
from the same policy as the embedded LLM, applied to the JSON it receives, so it behaves
like a competent model that follows the tool docstrings. It counts every request.
"""

from __future__ import annotations

import json
import socket
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web
from livekit.agents import llm

from callcenter.llm.embedded import EmbeddedPolicy


@dataclass
class Recorded:
    requests: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    tool_names: list[list[str]] = field(default_factory=list)
    history_chars: list[int] = field(default_factory=list)  # non-system message text per request


def chat_context(messages: list[dict[str, Any]]) -> llm.ChatContext:
    """OpenAI messages back into a LiveKit chat context (the policy's input)."""
    ctx = llm.ChatContext.empty()
    for m in messages:
        role = m.get("role")
        content = m.get("content")
        if isinstance(content, list):
            content = " ".join(part.get("text", "") for part in content if isinstance(part, dict))
        if role in ("system", "developer", "user") or (role == "assistant" and content):
            ctx.add_message(role="system" if role == "developer" else role, content=content or "")
        if role == "assistant":
            for call in m.get("tool_calls") or []:
                fn = call["function"]
                ctx.items.append(llm.FunctionCall(call_id=call["id"], name=fn["name"], arguments=fn.get("arguments") or "{}"))
        elif role == "tool":
            name = next(
                (it.name for it in ctx.items if it.type == "function_call" and it.call_id == m["tool_call_id"]), ""
            )
            ctx.items.append(llm.FunctionCallOutput(call_id=m["tool_call_id"], name=name, output=str(content or ""), is_error=False))
    return ctx


def tools_of(specs: list[dict[str, Any]]) -> list[llm.Tool]:
    async def _never(raw_arguments: dict[str, object]) -> None:  # the server only decides
        return None

    out: list[llm.Tool] = []
    for spec in specs or []:
        fn = spec.get("function") or {}
        params = dict(fn.get("parameters") or {"type": "object", "properties": {}})
        # Strict schemas list every parameter as required and mark optional ones nullable;
        # a competent model passes null for those rather than asking the caller for them.
        props = params.get("properties") or {}
        params["required"] = [p for p in params.get("required", []) if not _nullable(props.get(p, {}))]
        raw = {"name": fn["name"], "description": fn.get("description", ""), "parameters": params}
        out.append(llm.function_tool(_never, raw_schema=raw))
    return out


def _nullable(schema: dict[str, Any]) -> bool:
    kinds = schema.get("type")
    if kinds == "null" or (isinstance(kinds, list) and "null" in kinds):
        return True
    return any(_nullable(s) for s in schema.get("anyOf", []) if isinstance(s, dict))


def _words(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> int:
    # A rough token count (what a tokenizer would see): words of the whole request.
    return len(json.dumps(messages).split()) + len(json.dumps(tools).split())


class ScriptedOpenAI:
    """Start with `with ScriptedOpenAI(policy) as server:`; `server.base_url` is the /v1 URL."""

    def __init__(self, policy: EmbeddedPolicy) -> None:
        self.policy = policy
        self.recorded = Recorded()
        self._runner: web.AppRunner | None = None
        self._thread: threading.Thread | None = None
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.base_url = f"http://127.0.0.1:{self.port}/v1"

    async def _completions(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        messages, tool_specs = body.get("messages") or [], body.get("tools") or []
        decision = self.policy.decide(chat_context(messages), tools_of(tool_specs))
        rec = self.recorded
        rec.requests += 1
        rec.tool_names.append([t["function"]["name"] for t in tool_specs])
        rec.history_chars.append(sum(len(json.dumps(m.get("content") or "")) + len(json.dumps(m.get("tool_calls") or "")) for m in messages if m.get("role") not in ("system", "developer")))
        prompt = _words(messages, tool_specs)
        completion = len((decision.text or "").split()) + sum(8 + len(c.arguments.split()) for c in decision.calls)
        rec.prompt_tokens += prompt
        rec.completion_tokens += completion
        rid = f"chatcmpl-{uuid.uuid4().hex[:12]}"
        resp = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await resp.prepare(request)

        async def send(delta: dict[str, Any] | None, finish: str | None = None, usage: dict | None = None) -> None:
            chunk: dict[str, Any] = {"id": rid, "object": "chat.completion.chunk", "created": int(time.time()), "model": body.get("model", "scripted")}
            chunk["choices"] = [] if delta is None else [{"index": 0, "delta": delta, "finish_reason": finish}]
            if usage is not None:
                chunk["usage"] = usage
            await resp.write(f"data: {json.dumps(chunk)}\n\n".encode())

        await send({"role": "assistant", "content": ""})
        if decision.text:
            for piece in decision.text.split(" "):  # streamed word by word, like a model
                await send({"content": piece + " "})
        for i, call in enumerate(decision.calls):
            await send({"tool_calls": [{"index": i, "id": call.call_id, "type": "function", "function": {"name": call.name, "arguments": ""}}]})
            await send({"tool_calls": [{"index": i, "function": {"arguments": call.arguments}}]})
        await send({}, finish="tool_calls" if decision.calls else "stop")
        await send(None, usage={"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion})
        await resp.write(b"data: [DONE]\n\n")
        await resp.write_eof()
        return resp

    def __enter__(self) -> ScriptedOpenAI:
        import asyncio

        ready = threading.Event()

        def serve() -> None:
            loop = asyncio.new_event_loop()
            app = web.Application()
            app.router.add_post("/v1/chat/completions", self._completions)
            self._runner = web.AppRunner(app)
            loop.run_until_complete(self._runner.setup())
            loop.run_until_complete(web.TCPSite(self._runner, "127.0.0.1", self.port).start())
            self._loop = loop
            ready.set()
            loop.run_forever()
            loop.run_until_complete(self._runner.cleanup())
            loop.close()

        self._thread = threading.Thread(target=serve, daemon=True)
        self._thread.start()
        ready.wait(10)
        return self

    def __exit__(self, *exc: object) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        if self._thread is not None:
            self._thread.join(5)
