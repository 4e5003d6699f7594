"""The layers as the code has them: imports run downward only (meta -> domains -> workflows
-> callcenter), no domain imports another, and the foundation's modules import each other
without a circle. Read from the source (every import statement, also inside functions)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("meta", "domains", "workflows", "callcenter")  # top to bottom
DOMAINS = sorted(p.name for p in (ROOT / "domains").iterdir() if (p / "__init__.py").is_file())


def _imports(path: Path) -> Iterator[str]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module
            yield from (f"{node.module}.{a.name}" for a in node.names)


def _sources(package: str) -> Iterator[Path]:
    yield from (p for p in (ROOT / package).rglob("*.py") if "__pycache__" not in p.parts)


def test_imports_run_downward_only() -> None:
    upward = []
    for i, layer in enumerate(LAYERS):
        above = LAYERS[:i]
        for path in _sources(layer):
            upward += [f"{path.relative_to(ROOT)} -> {m}" for m in _imports(path) if m.split(".")[0] in above]
    assert upward == []


def test_no_domain_imports_another() -> None:
    crossing = []
    for domain in DOMAINS:
        for path in _sources(f"domains/{domain}"):
            for m in _imports(path):
                parts = m.split(".")
                if parts[0] == "domains" and len(parts) > 1 and parts[1] in DOMAINS and parts[1] != domain:
                    crossing.append(f"{path.relative_to(ROOT)} -> {m}")
    assert DOMAINS == ["account", "billing", "technical"]
    assert crossing == []


def _room(module: str, folder: str) -> str | None:
    """The room of `folder` a module belongs to: a file directly in it, or a sub-folder."""
    parts = module.split(".")
    depth = folder.count("/") + 1
    return ".".join(parts[: depth + 1]) if parts[:depth] == folder.split("/") and len(parts) > depth else None


def _circles(folder: str) -> list[str]:
    edges: dict[str, set[str]] = {}
    for path in _sources(folder):
        mod = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        here = _room(mod, folder)
        if here is None or here.endswith(".__init__"):
            continue
        for m in _imports(path):
            there = _room(m, folder)
            if there and there != here and not there.endswith(".__init__"):
                edges.setdefault(here, set()).add(there)

    def reaches(a: str, b: str) -> bool:
        seen, todo = set(), [a]
        while todo:
            n = todo.pop()
            if n == b:
                return True
            if n not in seen:
                seen.add(n)
                todo.extend(edges.get(n, ()))
        return False

    return sorted(f"{a} <-> {b}" for a in edges for b in edges[a] if reaches(b, a))


def test_no_circles_between_the_rooms_of_a_folder() -> None:
    """A folder's files and sub-folders (e.g. callcenter/settings.py and callcenter/store/)
    never import each other in a loop; `callcenter/store/cli.py` and `settings.py` did."""
    for folder in ("callcenter", "callcenter/store", "callcenter/routing", "domains", "workflows", "meta"):
        assert _circles(folder) == [], folder
