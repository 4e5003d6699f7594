"""YAML that remembers where each value was written, so an error can name the line.

PyYAML's plain loaders return values without positions. Here the document is composed
into nodes (which carry their marks) and built by hand: scalars through the safe
constructor (so `49.00` is a number and `yes` a boolean, as everywhere else), mappings and
sequences walked here, each value's line kept under its path (`("calls", 0, "turns", 1)`).
Duplicate keys, which PyYAML would let the last one win silently, are errors.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

Path_ = tuple[str | int, ...]


class YamlError(ValueError):
    """The text is not YAML this loader accepts; `line` is 1-based."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


@dataclass
class Located:
    """A loaded document and the line of every value (and of every mapping key) in it."""

    data: Any
    lines: dict[Path_, int] = field(default_factory=dict)
    key_lines: dict[Path_, int] = field(default_factory=dict)

    def line(self, path: Path_) -> int:
        """The line of the value at `path`, or of its nearest enclosing value that has one."""
        path = tuple(path)
        while path:
            if path in self.key_lines:
                return self.key_lines[path]
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return self.lines.get((), 1)


def load(text: str) -> Located:
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return Located(None, {(): 1})
        out = Located(None)
        out.data = _build(loader, node, (), out)
        return out
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 1
        raise YamlError(line, f"not valid YAML: {exc.problem or exc.context}") from None
    except yaml.YAMLError as exc:
        raise YamlError(1, f"not valid YAML: {' '.join(str(exc).split())}") from None
    finally:
        loader.dispose()


def _build(loader: yaml.SafeLoader, node: yaml.Node, path: Path_, out: Located) -> Any:
    out.lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        loader.flatten_mapping(node)  # `<<: *defaults` merges, as safe_load does
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            if not isinstance(key, str | int | float | bool) or key is None:
                raise YamlError(key_node.start_mark.line + 1, "a mapping key must be a plain word")
            if key in result:
                raise YamlError(key_node.start_mark.line + 1, f"{key!r} is given twice in the same mapping")
            child = (*path, key)
            out.key_lines[child] = key_node.start_mark.line + 1
            result[key] = _build(loader, value_node, child, out)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_build(loader, item, (*path, i), out) for i, item in enumerate(node.value)]
    return loader.construct_object(node, deep=True)
