"""LLM requests and tokens per turn type on the hosted path, fast path on and off.

    .venv/bin/python benchmarks/hosted/bench.py [--base-url URL --api-key K --model M] [--json FILE]

The line runs with the real livekit-plugins-openai client. Without --base-url it talks to
the scripted OpenAI-compatible server in openai_server.py beside it (real wire protocol, streaming and
tool calls); with one, to that endpoint. Counts are taken client-side from the LLM's own
metrics events, so they mean the same for both. "naive" is the same line with
CALLCENTER_FAST_PATH=false: every level asks the LLM to route, fill slots and speak.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from livekit.agents.metrics import LLMMetrics  # noqa: E402
from livekit.plugins import openai  # noqa: E402

from benchmarks.hosted.openai_server import ScriptedOpenAI  # noqa: E402
from callcenter.llm.embedded import EmbeddedPolicy  # noqa: E402
from callcenter.settings import load_settings  # noqa: E402
from callcenter.store import Store  # noqa: E402
from domains import registry
from meta.router import build_router, changing_labels, topics  # noqa: E402
from meta.session import build_line, line_slots, start_call  # noqa: E402

# turn type -> (customer, turns before it, the measured turn)
TURNS: dict[str, tuple[str, list[str], str]] = {
    "greeting": ("C1001", [], "hello there"),
    "single need (confident)": ("C1001", [], "whats my balance"),
    "single need with an action": ("C1001", [], "i was charged twice for my subscription"),
    "clarification": ("C1001", [], "my bill"),
    "multi-need (two domains)": ("C1001", [], "whats my balance and is the service down right now"),
    "follow-up": ("C1001", ["my api calls keep failing"], "how come"),
}


async def measure(base_url: str, api_key: str, model_name: str, fast: bool, data: Path) -> dict[str, dict[str, int]]:
    settings = load_settings(
        data_dir=data, hold_on_line_s=0, llm_provider="openai", llm_base_url=base_url,
        llm_api_key=api_key, llm_model=model_name, fast_path=fast,
    )
    out: dict[str, dict[str, int]] = {}
    for i, (name, (customer, before, turn_text)) in enumerate(TURNS.items()):
        counts = {"requests": 0, "prompt_tokens": 0, "completion_tokens": 0}

        def on_metrics(m: object, counts: dict[str, int] = counts) -> None:
            if isinstance(m, LLMMetrics):
                counts["requests"] += 1
                counts["prompt_tokens"] += m.prompt_tokens
                counts["completion_tokens"] += m.completion_tokens

        llm = openai.LLM(model=model_name, base_url=base_url, api_key=api_key)
        store = Store(data / f"{'fast' if fast else 'naive'}-{i}.sqlite3")
        call = await start_call(build_line(settings, store=store, llm_override=llm), customer_id=customer)
        for text in before:
            await call.send(text)
        llm.on("metrics_collected", on_metrics)
        await call.send(turn_text)
        await call.close()
        await llm.aclose()
        store.close()
        out[name] = counts
    return out


async def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--base-url")
    p.add_argument("--api-key", default="not-needed")
    p.add_argument("--model", default="scripted")
    p.add_argument("--json", type=Path)
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.CRITICAL)
    data = Path(tempfile.mkdtemp(prefix="hostedbench-"))
    server = None
    base_url = args.base_url
    if base_url is None:
        server = ScriptedOpenAI(EmbeddedPolicy(build_router(load_settings(data_dir=data)), topics(), registry.phrasebook(), line_slots(), changing_labels())).__enter__()
        base_url = server.base_url
    try:
        results = {mode: await measure(base_url, args.api_key, args.model, mode == "fast path", data) for mode in ("fast path", "naive")}
    finally:
        if server is not None:
            server.__exit__(None, None, None)
    print("| turn type | requests (fast path) | tokens in/out (fast path) | requests (naive) | tokens in/out (naive) |")
    print("|---|---|---|---|---|")
    for name in TURNS:
        f, n = results["fast path"][name], results["naive"][name]
        print(f"| {name} | {f['requests']} | {f['prompt_tokens']}/{f['completion_tokens']} | {n['requests']} | {n['prompt_tokens']}/{n['completion_tokens']} |")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
