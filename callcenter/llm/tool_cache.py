"""Tool schemas and tool discovery built once per tool and per class, not on every hop.

A text turn in this hierarchy activates two or three tasks and makes three or four tool
calls. LiveKit 1.8 re-derives, each time, things that cannot change once a class is
defined: every tool call builds the tool's pydantic argument model (signature, type hints,
a docstring parse, `create_model`) and its JSON schema; every task activation and every
`ToolContext` (several per hop) looks for `@function_tool` methods with
`inspect.getmembers`. A profile of text calls put about a fifth of the CPU per turn there
(benchmarks/README.md, "Capacity per pod").

The explicit half, which our own code calls:

- `tool(func, name=..., description=...)`: `function_tool` for tools built per instance
  (routing and transfer tools), with each docstring parsed once;
- `arguments_model(tool)` / `parameters_schema(tool)`: a tool's argument model and JSON
  schema, built once per distinct tool function (the embedded LLM reads them every turn).

The other half has no public hook, so `install()` puts the same caches under two LiveKit
internals, and only if their source is exactly what was checked (see CHECKED); a LiveKit
upgrade that changes them leaves LiveKit's own code in place, with a warning, and
tests/core/test_tool_cache.py fails until someone re-checks them:

- `livekit.agents.llm.utils.validated_arguments` (every tool call): the same body, with the
  model and schema taken from `arguments_model`;
- `find_function_tools` (each Agent, AgentTask, Toolset and ToolContext): the tool
  attribute names found once per class; each instance still gets its own bound tools.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import inspect
import logging
import threading
import weakref
from typing import Any

from docstring_parser import parse
from livekit.agents.llm import tool_context, utils
from livekit.agents.llm.tool_context import (
    FunctionTool,
    FunctionToolInfo,
    RawFunctionTool,
    ToolFlag,
)
from pydantic import BaseModel

log = logging.getLogger("callcenter.llm")

# The LiveKit internals `install` replaces: sha256 of `inspect.getsource` of each, as in
# livekit-agents 1.8.9. Update only after reading the new source and the replacement here.
CHECKED = {
    "livekit.agents.llm.utils.validated_arguments": "918256a552098cbd01dc48c383a3476b251fb0c5667557a3fe13ea0f84faf929",
    "livekit.agents.llm.tool_context.find_function_tools": "6f6f82512a75bd2146a85c7554430208f8c37350847ace4ea910756d134245bd",
}
_ORIGINAL_VALIDATED = utils.validated_arguments
_ORIGINAL_FIND = tool_context.find_function_tools


def source_hash(fn: Any) -> str:
    return hashlib.sha256(inspect.getsource(fn).encode()).hexdigest()


# --- explicit: tools built per instance ------------------------------------------------------
@functools.lru_cache(maxsize=512)
def _description(doc: str | None) -> str | None:
    return parse(doc or "").description  # what function_tool reads from a function's docstring


def tool(func: Any, *, name: str | None = None, description: str | None = None) -> FunctionTool:
    """`function_tool(func, name=..., description=...)`, with each docstring parsed once.

    The same FunctionTool LiveKit builds (a fresh info per tool: LiveKit owns it after this);
    only the docstring parse, which gives the same description for the same text, is shared.
    """
    info = FunctionToolInfo(name=name or func.__name__, description=description or _description(func.__doc__), flags=ToolFlag.NONE)
    return FunctionTool(func, info)


# --- explicit: argument models and schemas ---------------------------------------------------
_MODELS: dict[tuple[Any, ...], tuple[type[BaseModel], dict[str, Any]]] = {}
_MAX_MODELS = 4096  # distinct tool functions; a process has a few dozen


def _model_key(fnc: FunctionTool) -> tuple[Any, ...] | None:
    """Everything LiveKit's model builder reads from a tool, or None if it cannot be a key.

    Name and docstring (the model's name and field descriptions), the signature (parameters,
    defaults, annotations), the annotations `get_type_hints` resolves, and the module they
    resolve in. Closures of one `def` made per task instance share a key, which is the point.
    """
    inner = inspect.unwrap(fnc)
    try:
        key = (
            fnc.__name__, fnc.__doc__, inspect.signature(fnc),
            tuple(getattr(fnc, "__annotations__", {}).items()), id(getattr(inner, "__globals__", None)),
        )
        hash(key)
    except (TypeError, ValueError):  # an unhashable default or annotation: build it every time
        return None
    return key


def _build(fnc: FunctionTool) -> tuple[type[BaseModel], dict[str, Any]]:
    model = utils.function_arguments_to_pydantic_model(fnc)
    return model, model.model_json_schema()


def _cached(fnc: FunctionTool) -> tuple[type[BaseModel], dict[str, Any]]:
    key = _model_key(fnc)
    if key is None:
        return _build(fnc)
    hit = _MODELS.get(key)
    if hit is None:
        if len(_MODELS) >= _MAX_MODELS:
            _MODELS.clear()
        hit = _MODELS[key] = _build(fnc)
    return hit


def arguments_model(fnc: FunctionTool) -> type[BaseModel]:
    """LiveKit's pydantic argument model for this tool, built once per distinct tool function."""
    return _cached(fnc)[0]


def parameters_schema(fnc: FunctionTool) -> dict[str, Any]:
    """The tool's parameters JSON schema (the caller's own copy: it may change it)."""
    return copy.deepcopy(_cached(fnc)[1])


def _validated_arguments(fnc: FunctionTool | RawFunctionTool, args_dict: dict[str, Any]) -> dict[str, Any]:
    # livekit-agents 1.8.9's validated_arguments, line for line, but for where the model
    # and its schema come from. The schema is only read (_inject_schema_defaults copies).
    if isinstance(fnc, RawFunctionTool):
        return args_dict
    model_type, schema = _cached(fnc)
    args_dict = utils._inject_schema_defaults(args_dict, schema=schema, root=schema)  # noqa: SLF001
    model = model_type.model_validate(args_dict)
    return utils._shallow_model_dump(model)  # noqa: SLF001


# --- tool discovery, once per class ----------------------------------------------------------
_TOOL_NAMES: weakref.WeakKeyDictionary[type, tuple[str, ...]] = weakref.WeakKeyDictionary()


def _is_tool_like(value: Any) -> bool:
    """What LiveKit's discovery keeps: a tool, or a callable wrapping one (`_resolve_wrapped_tool`)."""
    if isinstance(value, FunctionTool | RawFunctionTool):
        return True
    if not callable(value):
        return False
    return isinstance(getattr(value, "__wrapped__", None), FunctionTool | RawFunctionTool) or isinstance(
        getattr(value, "__livekit_tool_info", None), FunctionToolInfo) or isinstance(
        getattr(value, "__livekit_raw_tool_info", None), tool_context.RawFunctionToolInfo)


def _class_tool_names(cls: type) -> tuple[str, ...]:
    names = _TOOL_NAMES.get(cls)
    if names is None:
        names = tuple(name for name, value in inspect.getmembers(cls) if _is_tool_like(value))
        _TOOL_NAMES[cls] = names
    return names


def find_function_tools(cls_or_obj: Any) -> list[FunctionTool | RawFunctionTool]:
    """LiveKit's `find_function_tools` for an instance, with the class's tool names found once.

    Same result and order (by attribute name) as `inspect.getmembers`: the class's tools,
    bound to this instance, and any tool stored on the instance itself. Unlike getmembers it
    does not evaluate the class's properties: a property that returns a tool is not found
    (neither LiveKit nor this project declares tools that way).
    """
    if isinstance(cls_or_obj, type) or not hasattr(cls_or_obj, "__dict__"):
        return _ORIGINAL_FIND(cls_or_obj)
    try:
        names = set(_class_tool_names(type(cls_or_obj)))
    except Exception:  # a class attribute that cannot be read: LiveKit's own way, as before
        return _ORIGINAL_FIND(cls_or_obj)
    names.update(name for name, value in vars(cls_or_obj).items() if _is_tool_like(value))
    tools: list[FunctionTool | RawFunctionTool] = []
    for name in sorted(names):
        member = getattr(cls_or_obj, name)
        if isinstance(member, FunctionTool | RawFunctionTool):
            tools.append(member)
        elif resolved := tool_context._resolve_wrapped_tool(member):  # noqa: SLF001
            tools.append(resolved)
    return tools


# --- install ---------------------------------------------------------------------------------
def _patch_sites() -> list[tuple[Any, str, Any, Any]]:
    """(module, attribute, LiveKit's function, ours): every place LiveKit looks each one up."""
    from livekit.agents.voice import agent as voice_agent
    from livekit.agents.voice import tool_executor

    return [
        (utils, "validated_arguments", _ORIGINAL_VALIDATED, _validated_arguments),
        (tool_executor, "validated_arguments", _ORIGINAL_VALIDATED, _validated_arguments),
        (tool_context, "find_function_tools", _ORIGINAL_FIND, find_function_tools),
        (voice_agent, "find_function_tools", _ORIGINAL_FIND, find_function_tools),
    ]


def changed_internals() -> list[str]:
    """The internals whose source no longer matches CHECKED (empty: safe to install)."""
    found = {
        "livekit.agents.llm.utils.validated_arguments": source_hash(_ORIGINAL_VALIDATED),
        "livekit.agents.llm.tool_context.find_function_tools": source_hash(_ORIGINAL_FIND),
    }
    return [name for name, digest in found.items() if CHECKED[name] != digest]


_INSTALL = threading.Lock()  # job threads of LiveKit's thread executor each build a line
_refused = False


def install() -> bool:
    """Put the caches under LiveKit's tool calls and tool discovery (once per process).

    Returns False, leaving LiveKit untouched, when its source differs from what was checked.
    """
    global _refused
    with _INSTALL:
        if not installed() and not _refused:
            _refused = not _install()  # checked and warned once per process
        return installed()


def _install() -> bool:
    changed = changed_internals()
    if changed:
        log.warning("LiveKit changed %s; tool schemas are rebuilt per call (slower, same behaviour)", ", ".join(changed))
        return False
    sites = _patch_sites()
    if any(getattr(module, attr) is not theirs for module, attr, theirs, _ in sites):
        log.warning("LiveKit's tool functions are already replaced; not caching tool schemas")
        return False
    for module, attr, _, ours in sites:
        setattr(module, attr, ours)
    return True


def installed() -> bool:
    return utils.validated_arguments is _validated_arguments

