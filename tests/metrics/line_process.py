"""A long-lived line process for the Prometheus test: like the LiveKit agent worker, one
process serves many calls through meta.session and exposes /metrics the whole time.

    python tests/metrics/line_process.py PORT < calls.jsonl

Each stdin line is one whole call, {"customer": "C1001" | null, "turns": [...],
"outcome": "resolved"} (or "say": [...] for a spoken call: each text is synthesised by the
local TTS and spoken into the call through the local recogniser, as `--voice` does); each stdout line is that call's hop trail as JSON. The process keeps
serving /metrics until stdin closes (`callcenter call` stops serving when its one call ends,
so completed-call metrics such as call duration need a process that outlives its calls).
"""

from __future__ import annotations

import asyncio
import json
import sys

from callcenter import metrics
from callcenter.settings import get_settings
from meta.session import build_line, start_call
from meta.shell.cli_temporal import embedded_durable


async def main(port: int) -> int:
    settings = get_settings()
    line = build_line(settings)
    server = metrics.serve(port)
    loop = asyncio.get_running_loop()
    try:
        # With CALLCENTER_TEMPORAL_ADDRESS set this only connects: workers run elsewhere.
        async with embedded_durable(settings, line.store) as work:
            print(json.dumps({"ready": True, "port": server.port}), flush=True)
            while raw := await loop.run_in_executor(None, sys.stdin.readline):
                spec = json.loads(raw)
                if "say" in spec:
                    turns = await spoken_call(line, spec, work)
                else:
                    call = await start_call(line, customer_id=spec.get("customer"), durable=work)
                    turns = [await call.send(text) for text in spec["turns"]]
                    await call.close(spec.get("outcome", "resolved"))
                print(json.dumps({"hops": [[h.as_json() for h in t.hops] for t in turns],
                                  "results": [r.as_json() for t in turns for r in t.results]}),
                      flush=True)
    finally:
        server.close()
        line.store.close()
    return 0


async def spoken_call(line: object, spec: dict, work: object) -> list:
    import numpy as np

    from callcenter.speech.local_tts import load_hibari, pcm16
    from meta.voice import start_voice_call

    voice = await start_voice_call(line, customer_id=spec.get("customer"), durable=work, playout_speed=4.0)  # type: ignore[arg-type]
    turns = []
    for text in spec["say"]:
        said = await voice.speak(np.frombuffer(pcm16(load_hibari()(text, seed=1)), np.int16), 24000)
        if said.record is not None:
            turns.append(said.record)
    await voice.close(spec.get("outcome", "resolved"))
    return turns


if __name__ == "__main__":
    sys.exit(asyncio.run(main(int(sys.argv[1]))))
