"""Tool schemas and tool discovery are built once per tool and per class (callcenter/llm/tool_cache.py).

The caches must change nothing but the CPU: same tools, same order, bound to the right
task; same validation and errors; and two tools that differ never share a model.
"""

from __future__ import annotations

import inspect
from typing import Any

import pytest
from livekit.agents import AgentTask, function_tool, llm
from livekit.agents.llm import utils
from livekit.agents.llm.tool_context import FunctionTool, ToolError

from callcenter.llm import tool_cache
from domains import registry
from domains.identity import VerifyIdentityTask
from domains.state import CallState
from meta.agent import MetaSupervisor
from meta.session import Line


class LookupOrderTask(AgentTask[None]):
    def __init__(self) -> None:
        super().__init__(instructions="look up an order")

    @function_tool
    async def lookup(self, order_id: str, urgent: bool = False) -> str:
        """Look up an order.

        Args:
            order_id: The order's id, as the caller said it.
            urgent: Whether the caller needs it today.
        """
        return f"order {order_id} urgent={urgent}"


class RefundAmountTask(AgentTask[None]):
    def __init__(self) -> None:
        super().__init__(instructions="refund an amount")

    @function_tool
    async def lookup(self, amount: int) -> str:  # same tool name as above, other arguments
        """Look up a refund amount.

        Args:
            amount: The amount in cents.
        """
        return f"amount {amount}"


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The argument models actually built (LiveKit's builder), by tool name; caches emptied."""
    built: list[str] = []
    original = utils.function_arguments_to_pydantic_model

    def counting(fnc: Any) -> Any:
        built.append(fnc.__name__)
        return original(fnc)

    monkeypatch.setattr(utils, "function_arguments_to_pydantic_model", counting)
    tool_cache._MODELS.clear()  # noqa: SLF001
    return built


def _args(tool: FunctionTool, raw: str) -> dict[str, Any]:
    """The arguments LiveKit's tool-call path would call the tool with, by name."""
    args, kwargs = utils.prepare_function_arguments(fnc=tool, json_arguments=raw)
    return dict(inspect.signature(tool).bind(*args, **kwargs).arguments)


def test_livekit_internals_are_the_ones_checked(line: Line) -> None:
    # Fails after a LiveKit upgrade that changed what tool_cache replaces: read the new
    # source, adapt tool_cache's copies, then update CHECKED.
    assert tool_cache.changed_internals() == []
    assert tool_cache.installed(), "build_line installs the caches"


async def test_two_activations_of_one_task_class_build_its_schema_once(line: Line, builds: list[str]) -> None:
    first, second = LookupOrderTask(), LookupOrderTask()
    (tool_a,) = [t for t in first.tools if isinstance(t, FunctionTool)]
    (tool_b,) = [t for t in second.tools if isinstance(t, FunctionTool)]
    assert tool_a is not tool_b and tool_a._instance is first and tool_b._instance is second  # noqa: SLF001

    # The tool-call path LiveKit runs: parse, validate and coerce, defaults filled in.
    assert _args(tool_a, '{"order_id": "A-17"}') == {"order_id": "A-17", "urgent": False}
    assert _args(tool_b, '{"order_id": "B-2", "urgent": "true"}') == {"order_id": "B-2", "urgent": True}
    assert _args(tool_b, '{"order_id": "B-2", "urgent": null}') == {"order_id": "B-2", "urgent": False}
    with pytest.raises(ToolError, match="order_id"):
        _args(tool_a, '{"urgent": true}')
    assert builds == ["lookup"]
    assert await tool_b(**_args(tool_b, '{"order_id": "B-2"}')) == "order B-2 urgent=False"  # bound to second

    schema = tool_cache.parameters_schema(tool_a)
    assert schema["required"] == ["order_id"]
    assert schema["properties"]["order_id"]["description"] == "The order's id, as the caller said it."
    schema["required"].append("changed by a caller")  # each caller gets its own copy
    assert tool_cache.parameters_schema(tool_b)["required"] == ["order_id"]
    assert builds == ["lookup"]


async def test_two_classes_with_a_same_named_tool_do_not_share_a_model(line: Line, builds: list[str]) -> None:
    order = next(t for t in LookupOrderTask().tools if isinstance(t, FunctionTool))
    refund = next(t for t in RefundAmountTask().tools if isinstance(t, FunctionTool))
    assert tool_cache.arguments_model(order) is not tool_cache.arguments_model(refund)
    assert _args(refund, '{"amount": "250"}') == {"amount": 250}
    with pytest.raises(ToolError, match="amount"):
        _args(refund, '{"order_id": "A-17"}')
    assert builds == ["lookup", "lookup"]
    assert list(tool_cache.parameters_schema(refund)["properties"]) == ["amount"]


def _named(tools: list[Any]) -> list[tuple[str, Any]]:
    return [(t.info.name, t._instance) for t in tools]  # noqa: SLF001


def _agents(state: CallState) -> list[Any]:
    agents: list[Any] = [MetaSupervisor(state=state), VerifyIdentityTask(state=state)]
    for domain in registry.DOMAINS:
        agents.append(domain.supervisor(state=state, request="my bill"))
        agents.extend(s.task(state=state, agent_id=f"{domain.name}.{s.name}") for s in domain.specialists)
    return agents


async def test_every_agent_of_the_line_gets_the_tools_livekit_would_give_it(
    line: Line, monkeypatch: pytest.MonkeyPatch,
) -> None:
    from livekit.agents.voice import agent as voice_agent

    state = CallState(store=line.store, settings=line.settings, router=line.router, ports=line.ports)
    ours = _agents(state)
    with monkeypatch.context() as m:  # LiveKit's own discovery, as without the cache
        m.setattr(voice_agent, "find_function_tools", tool_cache._ORIGINAL_FIND)  # noqa: SLF001
        theirs = _agents(state)
    assert len(ours) == len(theirs) > 10
    for mine, livekit in zip(ours, theirs, strict=True):
        assert [t.info.name for t in mine.tools] == [t.info.name for t in livekit.tools], type(mine).__name__
        assert all(t._instance in (None, mine) for t in mine.tools)  # noqa: SLF001
    # A specialist's own tools, bound to it: by attribute name, _leave_topic then get_balance.
    balance = next(a for a in ours if type(a).__name__ == "GetBalanceTask")
    assert [(t.info.name, t._instance is balance) for t in balance.tools] == [  # noqa: SLF001
        ("leave_topic", True), ("get_balance", True)]
    # A ToolContext holds exactly the tools it is given, as LiveKit's does.
    ctx = llm.ToolContext(balance.tools)
    assert sorted(ctx.function_tools) == ["get_balance", "leave_topic"]
    assert tool_cache.find_function_tools(ctx) == tool_cache._ORIGINAL_FIND(ctx) == []  # noqa: SLF001


class Desk:
    """A plain object with tools: LiveKit's discovery can be run on it at any time."""

    @function_tool
    async def lookup(self, order_id: str) -> str:
        """Look up an order."""
        return order_id

    @property
    def busy(self) -> bool:
        return False


def test_a_tool_stored_on_one_instance_is_found_on_that_instance_only() -> None:
    @function_tool
    async def extra(note: str) -> str:
        """Keep a note."""
        return note

    first, second = Desk(), Desk()
    first.extra_tool = extra  # type: ignore[attr-defined]
    names = [t.info.name for t in tool_cache.find_function_tools(first)]
    assert names == [t.info.name for t in tool_cache._ORIGINAL_FIND(first)] == ["extra", "lookup"]  # noqa: SLF001
    assert [t.info.name for t in tool_cache.find_function_tools(second)] == ["lookup"]
    assert tool_cache.find_function_tools(second)[0]._instance is second  # noqa: SLF001


def test_per_instance_tools_match_function_tool() -> None:
    async def route(reason: str) -> None:
        """Hand the request back.

        Args:
            reason: Why.
        """

    for kwargs in ({"name": "return_to_front_desk"}, {"name": "route_to_x", "description": "Route to x."}, {}):
        ours, theirs = tool_cache.tool(route, **kwargs), function_tool(route, **kwargs)
        assert ours.info == theirs.info and ours.info is not theirs.info
        assert tool_cache.arguments_model(ours).model_json_schema() == utils.function_arguments_to_pydantic_model(theirs).model_json_schema()


def test_a_changed_livekit_internal_is_left_alone(
    line: Line, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setitem(tool_cache.CHECKED, "livekit.agents.llm.utils.validated_arguments", "0" * 64)
    assert tool_cache.changed_internals() == ["livekit.agents.llm.utils.validated_arguments"]
    assert tool_cache._install() is False  # noqa: SLF001
    assert "LiveKit changed livekit.agents.llm.utils.validated_arguments" in caplog.text
