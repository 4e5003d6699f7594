"""Turn latency by depth, per-hop cost, the flat-agent baseline, and routed turns per second.

Run:  .venv/bin/python benchmarks/hierarchy/bench_turns.py [--turns 200]

Everything runs in one process on the embedded LLM (offline). Reported, not asserted:
the numbers go to benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import tempfile
import time
from pathlib import Path
from typing import Any

from livekit.agents import Agent, AgentSession, ModelSettings, RunContext, function_tool, llm

from callcenter import metrics
from callcenter.llm.embedded import EmbeddedLLM, route_call
from callcenter.settings import load_settings
from callcenter.store import Store
from domains.registry import DOMAINS
from domains.state import CallState
from meta.session import Line, build_line, start_call

LEVEL_1 = "hello"  # the meta-supervisor answers itself
LEVEL_2 = "my bill"  # meta -> billing (sure of the domain), which asks: balance or invoices?
LEVEL_3 = "what's my balance"  # meta -> billing -> billing.balance -> back
MULTI = "My API calls fail with 429, what's my balance, and is the service down"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def summary(values: list[float]) -> dict[str, float]:
    return {"p50_ms": round(pct(values, 0.5) * 1000, 2), "p95_ms": round(pct(values, 0.95) * 1000, 2), "n": len(values)}


async def depth_latency(line: Line, text: str, turns: int, customer: str = "C1005") -> dict[str, Any]:
    samples: list[float] = []
    hops: list[float] = []
    for _ in range(turns):
        call = await start_call(line, customer_id=customer)
        t0 = time.perf_counter()
        turn = await call.send(text)
        samples.append(time.perf_counter() - t0)
        hops.extend(h.seconds for h in call.state.log.hops)
        await call.close()
    out = {"turn": summary(samples)}
    if hops:
        out["hop"] = summary(hops)
    out["hops_per_turn"] = len(hops) / turns
    out["levels"] = turn.hops and len({h.to_agent for h in turn.hops}) + 1 or 1
    return out


def fast_path_overhead(line: Line, n: int = 2000) -> dict[str, Any]:
    """What the fast path adds to a hop: the classifier decision in each llm_node (the
    router itself: the line's per-turn memo would answer these repeated texts from memory)."""
    router = getattr(line.router, "_router", line.router)
    texts = [LEVEL_3, "I was charged twice", "my api calls fail with 429", "I can't log in", "is the service down"]
    meta, domain = [], []
    for i in range(n):
        text = texts[i % len(texts)]
        t0 = time.perf_counter()
        router.detect(text)
        t1 = time.perf_counter()
        router.classify(text, within="billing")
        t2 = time.perf_counter()
        meta.append(t1 - t0)
        domain.append(t2 - t1)
    return {"meta_detect": summary(meta), "domain_classify": summary(domain)}


class FlatAgent(Agent):
    """One agent holding every specialist's routing tool: the no-hierarchy baseline."""

    def __init__(self, state: CallState) -> None:
        self.state = state
        self.last_text = ""
        tools = []
        for d in DOMAINS:
            for s in d.specialists:
                tools.append(self._tool(d.name, s))
        super().__init__(instructions="Route the caller to the right specialist.", tools=tools, id="flat")

    def _tool(self, domain: str, spec: Any) -> llm.Tool:
        async def route(context: RunContext) -> str:
            from domains.base import said

            result = await spec.task(state=self.state, agent_id=f"{domain}.{spec.name}", chat_ctx=said((self.last_text, None)))
            return result.summary

        return function_tool(route, name=f"to_{domain}_{spec.name}", description=spec.description)

    async def llm_node(self, chat_ctx: llm.ChatContext, tools: list[llm.Tool], model_settings: ModelSettings):
        last = chat_ctx.items[-1]
        if last.type == "message" and last.role == "user":
            text = last.text_content or ""
            self.last_text = text
            intent = self.state.router.classify(text)
            if intent.in_scope and "/" in intent.label:
                call = route_call(f"to_{intent.label.replace('/', '_')}", {}, path="fast", confidence=intent.confidence)
                yield llm.ChatChunk(id=call.call_id, delta=llm.ChoiceDelta(role="assistant", tool_calls=[call]))
                return
        async for chunk in Agent.default.llm_node(self, chat_ctx, tools, model_settings):
            yield chunk


async def flat_latency(line: Line, text: str, turns: int) -> dict[str, Any]:
    samples = []
    for _ in range(turns):
        state = CallState(store=line.store, settings=line.settings, router=line.router, ports=line.ports)
        state.caller.verify("C1005")
        session = AgentSession(llm=line.llm, vad=None, turn_handling={"turn_detection": "manual"}, userdata=state, max_tool_steps=8)
        await session.start(FlatAgent(state))
        t0 = time.perf_counter()
        await session.run(user_input=text)
        samples.append(time.perf_counter() - t0)
        await session.aclose()
    return {"turn": summary(samples)}


async def throughput(line: Line, seconds: float, concurrency: int) -> dict[str, Any]:
    done = 0
    deadline = time.perf_counter() + seconds

    async def worker() -> None:
        nonlocal done
        call = await start_call(line, customer_id="C1005")
        while time.perf_counter() < deadline:
            await call.send(LEVEL_3)
            done += 1
        await call.close()

    t0 = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return {"concurrency": concurrency, "turns": done, "turns_per_s": round(done / (time.perf_counter() - t0), 1)}


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--no-metrics", action="store_true", help="disable metric recording (overhead baseline)")
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    metrics.set_enabled(not args.no_metrics)
    data = Path(tempfile.mkdtemp())
    settings = load_settings(data_dir=data, hold_on_line_s=0)
    line = build_line(settings, store=Store(data / "bench.sqlite3"))
    counting = line.llm
    assert isinstance(counting, EmbeddedLLM)
    await depth_latency(line, LEVEL_3, 10)  # warm-up
    report: dict[str, Any] = {}
    for name, text in (("level_1", LEVEL_1), ("level_2", LEVEL_2), ("level_3", LEVEL_3)):
        counting.decisions.clear()
        report[name] = await depth_latency(line, text, args.turns)
        report[name]["llm_decisions_per_turn"] = {k: round(v / args.turns, 2) for k, v in counting.decisions.items()}
    report["multi_intent_3_needs"] = await depth_latency(line, MULTI, max(20, args.turns // 4))
    report["flat_level_3"] = await flat_latency(line, LEVEL_3, args.turns)
    report["ratio_hierarchy_vs_flat_p50"] = round(report["level_3"]["turn"]["p50_ms"] / report["flat_level_3"]["turn"]["p50_ms"], 2)
    report["fast_path_overhead"] = fast_path_overhead(line)
    report["throughput"] = [await throughput(line, args.seconds, c) for c in (1, 10)]
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    asyncio.run(main())
