"""Exact metric values after scripted calls through the real hierarchy (embedded LLM).

Calls run in-process through meta.session (the same composition root as `callcenter call`
and the LiveKit worker), so every number below was recorded by meta/observer.py from
LiveKit's own session events. Values are compared as deltas of the default registry.
"""

from __future__ import annotations

import random
import string
from pathlib import Path

import pytest
from prometheus_client import REGISTRY

from callcenter.settings import Settings

Key = tuple[str, tuple[tuple[str, str], ...]]


def snapshot() -> dict[Key, float]:
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for fam in REGISTRY.collect() if fam.name.startswith("callcenter_") for s in fam.samples}


def delta(before: dict[Key, float], after: dict[Key, float], *, prefix: str = "") -> dict[Key, float]:
    return {k: v - before.get(k, 0.0) for k, v in after.items()
            if k[0].startswith(prefix) and v != before.get(k, 0.0)}


def counts(d: dict[Key, float], name: str) -> dict[tuple[tuple[str, str], ...], float]:
    return {labels: v for (n, labels), v in d.items() if n == name}


def L(**kw: str) -> tuple[tuple[str, str], ...]:  # noqa: N802 - reads like a label set
    return tuple(sorted(kw.items()))


@pytest.fixture(scope="module")
def line(tmp_path_factory: pytest.TempPathFactory):
    from meta.session import build_line

    settings = Settings(data_dir=Path(tmp_path_factory.mktemp("metrics-line")))
    line = build_line(settings)
    yield line
    line.store.close()


async def run_call(line, customer: str | None, *turns: str) -> tuple[dict[Key, float], list]:
    from meta.session import start_call

    before = snapshot()
    call = await start_call(line, customer_id=customer)
    records = [await call.send(t) for t in turns]
    await call.close("resolved")
    return delta(before, snapshot()), records


def hop(f: str, t: str, path: str, outcome: str = "ok") -> tuple[tuple[str, str], ...]:
    return L(from_agent=f, to_agent=t, path=path, outcome=outcome)


async def test_one_request_down_two_levels_and_back(line) -> None:
    d, (turn,) = await run_call(line, "C1001", "what is my balance?")
    # meta -> billing -> billing.balance, then both returns: every transfer of control.
    assert counts(d, "callcenter_hops_total") == {
        hop("meta", "billing", "fast"): 1,
        hop("billing", "billing.balance", "fast"): 1,
        hop("billing.balance", "billing", "return"): 1,
        hop("billing", "meta", "return"): 1,
    }
    hist_counts = counts(d, "callcenter_hop_duration_seconds_count")
    expected_hist = {}
    for labels in counts(d, "callcenter_hops_total"):
        kw = dict(labels)
        expected_hist[L(from_agent=kw["from_agent"], to_agent=kw["to_agent"], path=kw["path"])] = 1
    assert hist_counts == expected_hist
    for labels in hist_counts:
        # every hop is in the +Inf and the 10 s bucket (in-process hops take milliseconds)
        assert d[("callcenter_hop_duration_seconds_bucket", tuple(sorted((*labels, ("le", "+Inf")))))] == 1
        assert d[("callcenter_hop_duration_seconds_bucket", tuple(sorted((*labels, ("le", "10.0")))))] == 1
        assert 0 < d[("callcenter_hop_duration_seconds_sum", labels)] < 10
    assert counts(d, "callcenter_routing_decisions_total") == {
        L(level="meta", decision="fast"): 1, L(level="domain", decision="fast"): 1}
    assert counts(d, "callcenter_routing_confidence_count") == {
        L(level="meta", decision="fast"): 1, L(level="domain", decision="fast"): 1}
    assert counts(d, "callcenter_specialist_results_total") == {
        L(domain="billing", specialist="billing.balance", status="info"): 1}
    assert d[("callcenter_turns_total", ())] == 1
    assert d[("callcenter_turn_duration_seconds_count", ())] == 1
    assert d[("callcenter_calls_started_total", ())] == 1
    assert counts(d, "callcenter_calls_total") == {L(outcome="resolved"): 1}
    assert ("callcenter_calls_active", ()) not in d  # back to where it was
    assert counts(d, "callcenter_fallbacks_total") == {}
    assert counts(d, "callcenter_clarifications_total") == {}
    assert counts(d, "callcenter_loop_guard_trips_total") == {}
    # A confident single need is routed, filled and spoken by the fast path: no LLM call.
    assert counts(d, "callcenter_llm_calls_total") == {}
    assert counts(d, "callcenter_llm_tokens_total") == {}
    # the per-turn trail `callcenter call --json` prints agrees with the counters
    assert [(h.from_agent, h.to_agent, h.path) for h in turn.hops] == [
        ("meta", "billing", "fast"), ("billing", "billing.balance", "fast")]


async def test_multi_intent_call_fans_out_to_two_domains(line) -> None:
    # The refund is read back and confirmed ("yes") before it is paid: two turns.
    # The LLM finds both needs; the second is taken from the line's agenda (meta/agenda.py)
    # once the first is done, with no second LLM request: its hop is on the fast path.
    d, (asked, turn) = await run_call(
        line, "C1001", "I was charged twice and also the API keeps returning 500 errors", "yes")
    assert counts(d, "callcenter_hops_total") == {
        hop("meta", "billing", "embedded"): 1,
        hop("billing", "billing.refund", "fast"): 1,
        hop("billing.refund", "billing", "return"): 1,
        hop("billing", "meta", "return"): 1,
        hop("meta", "technical", "fast"): 1,
        hop("technical", "technical.api_errors", "fast"): 1,
        hop("technical.api_errors", "technical", "return"): 1,
        hop("technical", "meta", "return"): 1,
    }
    assert sum(counts(d, "callcenter_hop_duration_seconds_count").values()) == 8
    # One LLM decision found both needs; the refund's supervisor routed on the fast path, and
    # the API lookup ran as the agenda's read-only branch (meta/fanout.py), decided already.
    assert counts(d, "callcenter_routing_decisions_total") == {
        L(level="meta", decision="embedded"): 1, L(level="domain", decision="fast"): 1}
    assert counts(d, "callcenter_specialist_results_total") == {
        L(domain="billing", specialist="billing.refund", status="done"): 1,
        L(domain="technical", specialist="technical.api_errors", status="info"): 1}
    assert d[("callcenter_turns_total", ())] == 2
    assert counts(d, "callcenter_calls_total") == {L(outcome="resolved"): 1}
    assert len(asked.hops) + len(turn.hops) == 4


@pytest.fixture(scope="module")
def strict_line(tmp_path_factory: pytest.TempPathFactory):
    # A fast-path threshold of 0.999 makes any less-than-certain request a clarifying
    # question, so the clarification counter can be checked whatever the router model is.
    from meta.session import build_line

    settings = Settings(data_dir=Path(tmp_path_factory.mktemp("metrics-strict")), router_confidence=0.999,
                        router_ask_margin=1.0)  # and asks on every reading below it
    line = build_line(settings)
    yield line
    line.store.close()


async def test_out_of_scope_and_unclear_turns_count_fallbacks_and_clarifications(strict_line) -> None:
    d, _ = await run_call(strict_line, "C1001", "what's the weather in Paris tomorrow?",
                          "I have a question about my bill")
    assert counts(d, "callcenter_hops_total") == {}
    assert counts(d, "callcenter_fallbacks_total") == {L(reason="oos"): 1}
    assert counts(d, "callcenter_clarifications_total") == {L(reason="low_confidence"): 1}
    assert counts(d, "callcenter_routing_decisions_total") == {
        L(level="meta", decision="oos"): 1, L(level="meta", decision="clarify"): 1}
    assert d[("callcenter_turns_total", ())] == 2


async def test_customer_ids_and_free_text_leave_series_count_unchanged(line) -> None:
    # The same conversations again and again with different caller data in them: customer
    # numbers, ZIP codes, e-mail addresses, charge ids, request ids, place names. Routing sees
    # the same requests, so after the first round not a single series may be added, and no
    # label anywhere may carry caller data.
    rnd = random.Random(44)

    def rand(chars: str, n: int) -> str:
        return "".join(rnd.choice(chars) for _ in range(n))

    def script() -> tuple[list[str], list[str]]:
        cid, word = "C" + rand(string.digits, 6), rand(string.ascii_lowercase, 9)
        known = [f"please change my email to {word}@{rand(string.ascii_lowercase, 6)}.com",
                 f"I was charged twice, the charge id is CH-{rnd.randint(1000, 9999)}-{rnd.randint(1, 9)}",
                 f"the API keeps returning 500 errors for request {rand(string.ascii_uppercase + string.digits, 10)}",
                 f"what's the weather in {word} tomorrow?"]
        unknown = [f"hi, what is my balance? I'm {cid}",
                   f"my customer number is {cid} and zip {rnd.randint(10000, 99999)}"]
        return known, unknown

    async def round_() -> tuple[list, list[str]]:
        known, unknown = script()
        trail = []
        for customer, texts in [("C1002", [t]) for t in known] + [(None, unknown)]:
            _, recs = await run_call(line, customer, *texts)
            trail += [[(h.from_agent, h.to_agent, h.path) for h in r.hops] for r in recs]
        return trail, known + unknown

    first_trail, _ = await round_()
    series = set(snapshot())
    texts: list[str] = []
    for _ in range(3):
        trail, said = await round_()
        assert trail == first_trail, "routing changed with caller data; the test needs other junk"
        texts += said
    assert set(snapshot()) == series
    tokens = {t.strip(",.?").lower() for text in texts for t in text.split() if len(t) > 4}
    values = {v.lower() for (_, labels) in series for _, v in labels}
    assert not tokens & values, tokens & values
