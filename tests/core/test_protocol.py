"""The hierarchy's typed protocol: leave reasons, route decisions, one routing decision per
level per turn."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from callcenter.llm.protocol import Leave, LeaveReason, RouteDecision
from meta.router import decided_once
from meta.session import Line


@pytest.mark.parametrize(("said", "reason", "domain"), [
    ("belongs to billing", LeaveReason.MISROUTED, "billing"),
    ("Belongs to  technical ", LeaveReason.MISROUTED, "technical"),  # an LLM's spelling
    ("belongs to ", LeaveReason.UNCLEAR, None),
    ("goodbye", LeaveReason.GOODBYE, None),
    ("Human", LeaveReason.HUMAN, None),
    ("topic", LeaveReason.TOPIC, None),
    ("the caller seems confused", LeaveReason.UNCLEAR, None),
    ("", LeaveReason.UNCLEAR, None),
])
def test_leave_reasons_parse_what_a_fast_path_or_an_llm_sends(said: str, reason: LeaveReason, domain: str | None) -> None:
    leave = Leave.parse(said)
    assert (leave.reason, leave.domain) == (reason, domain)
    assert Leave.parse(leave.wire) == leave  # what the fast path sends reads back the same


def test_route_decision_travels_in_the_tool_call_extra() -> None:
    extra = RouteDecision("transfer_to_billing", "fast", 0.93).extra()
    assert RouteDecision.from_extra("billing", extra) == RouteDecision("billing", "fast", 0.93)
    # A hosted LLM's call carries no extra: it was decided by the LLM.
    assert RouteDecision.from_extra("billing", {}) == RouteDecision("billing", "llm", None)


class _Counting:
    threshold = 0.5

    def __init__(self) -> None:
        self.asked: Counter[tuple[Any, ...]] = Counter()

    def detect(self, text: str) -> list[str]:
        self.asked["detect", text] += 1
        return [text]

    def classify(self, text: str, *, within: str | None = None) -> str:
        self.asked["classify", text, within] += 1
        return f"{within}:{text}"


def test_decided_once_answers_each_question_once() -> None:
    inner = _Counting()
    router = decided_once(inner)  # type: ignore[arg-type]
    assert router.detect("my bill") == router.detect("my bill") == ["my bill"]
    assert router.classify("my bill", within="billing") == router.classify("my bill", within="billing")
    router.classify("my bill")
    assert inner.asked == Counter({("detect", "my bill"): 1, ("classify", "my bill", "billing"): 1, ("classify", "my bill", None): 1})
    router.threshold = 0.9  # a new threshold: earlier answers no longer hold
    router.detect("my bill")
    assert inner.threshold == 0.9 and inner.asked["detect", "my bill"] == 2


class _CountingProxy:
    """Stands between the line's memo and its router: counts what reaches the router."""

    def __init__(self, router: Any) -> None:
        self.router = router
        self.asked: Counter[tuple[Any, ...]] = Counter()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.router, name)

    def detect(self, text: str) -> Any:
        self.asked["detect", text] += 1
        return self.router.detect(text)

    def classify(self, text: str, *, within: str | None = None) -> Any:
        self.asked["classify", text, within] += 1
        return self.router.classify(text, within=within)


async def test_one_routing_decision_per_level_per_turn(line: Line, open_call) -> None:  # noqa: ANN001
    """An unsure turn falls through the fast path to the embedded LLM at both levels (meta:
    detect; billing: classify within billing, and overall); each question reaches the
    router once, though llm_node and the embedded policy both ask it."""
    inner = line.router._router  # type: ignore[attr-defined]
    counting = _CountingProxy(inner)
    object.__setattr__(line.router, "_router", counting)
    try:
        call = await open_call(customer_id="C1001")
        # billing, and balance well ahead of invoices below the threshold: routed on the margin
        # (callcenter/routing/clarify.py), not asked
        turn = await call.send("uh my bill")
        assert [h.to_agent for h in turn.hops] == ["billing", "billing.balance"], turn.hops
        assert counting.asked["detect", "uh my bill"] == 1, counting.asked
        assert counting.asked["classify", "uh my bill", "billing"] == 1, counting.asked
        assert max(counting.asked.values()) == 1, counting.asked
    finally:
        object.__setattr__(line.router, "_router", inner)
