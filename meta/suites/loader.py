"""Find, read and validate suite files; every problem is one line: `file:line: what is wrong`.

A file is checked against the documented JSON Schema (`suite.schema.json`, the same file as
docs/suite.schema.json) and then against the line it will run on: specialist ids and
request kinds the registry knows, amounts in whole cents, audio and fixture files that
exist. Nothing runs until every file is valid.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Sequence
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, ValidationError

from meta.suites.model import Call, CallExpect, Suite, Turn, TurnExpect
from meta.suites.yamlines import Located, YamlError, load

SCHEMA_FILE = Path(__file__).with_name("suite.schema.json")
SUFFIXES = (".yaml", ".yml")
FIXTURE_SUFFIXES = (".sqlite3", ".sqlite", ".db", ".sql")
_TYPES = {"string": "a string", "number": "a number", "integer": "a whole number", "boolean": "true or false",
          "array": "a list", "object": "a mapping", "null": "null"}


class SuiteError(ValueError):
    """A suite that cannot run; str() is the one line to print."""

    def __init__(self, path: Path | str, line: int | None, message: str) -> None:
        where = f"{path}:{line}" if line else str(path)
        super().__init__(f"{where}: {message}")


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    return json.loads(SCHEMA_FILE.read_text())


@lru_cache(maxsize=1)
def _validator() -> Draft202012Validator:
    return Draft202012Validator(schema())


def find_files(paths: Iterable[Path]) -> list[Path]:
    """Suite files named or found (recursively, in name order) in the folders named."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.suffix in SUFFIXES and p.is_file())
            if not found:
                raise SuiteError(path, None, "no suite files (*.yaml, *.yml) in this folder")
            files.extend(found)
        elif path.is_file():
            files.append(path)
        else:
            raise SuiteError(path, None, "no such file or folder")
    return list(dict.fromkeys(files))


def load_suites(paths: Iterable[Path], *, agents: Sequence[str] | None = None,
                kinds: Sequence[str] | None = None) -> tuple[list[Suite], list[str]]:
    """Every suite under `paths`, and one error line per file that cannot run (plus one per
    suite name used twice). Agent ids and request kinds default to the registry's."""
    agents = list(agents) if agents is not None else _agents()
    kinds = list(kinds) if kinds is not None else _kinds()
    suites: list[Suite] = []
    errors: list[str] = []
    for path in find_files(paths):
        try:
            suite = load_suite(path, agents=agents, kinds=kinds)
        except SuiteError as err:
            errors.append(str(err))
            continue
        twin = next((s for s in suites if s.name == suite.name), None)
        if twin is not None:
            errors.append(str(SuiteError(path, 1, f"suite name {suite.name!r} is also used by {twin.path}")))
            continue
        suites.append(suite)
    return suites, errors


def load_suite(path: Path, *, agents: Sequence[str], kinds: Sequence[str]) -> Suite:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise SuiteError(path, None, "not UTF-8 text") from None
    except OSError as exc:
        raise SuiteError(path, None, f"cannot read it ({exc.strerror})") from None
    try:
        doc = load(text)
    except YamlError as err:
        raise SuiteError(path, err.line, err.message) from None
    if not isinstance(doc.data, dict):
        raise SuiteError(path, doc.line(()), "a suite is a mapping with `suite:` and `calls:` (see docs/suites.md)")
    error = _first_schema_error(doc)
    if error is not None:
        raise SuiteError(path, *error)
    return _build(path, doc, agents=agents, kinds=kinds)


# --- schema errors, one line each -------------------------------------------------------
def _first_schema_error(doc: Located) -> tuple[int, str] | None:
    found = []
    for err in _validator().iter_errors(doc.data):
        path = tuple(err.absolute_path)
        if err.validator == "additionalProperties" and isinstance(err.instance, dict):
            allowed = list(err.schema.get("properties", {}))
            extra = next(k for k in err.instance if k not in allowed)
            text = f"{_where(doc.data, path)}unknown field {extra!r}{_close(str(extra), allowed)}; expected: {', '.join(allowed)}"
            # First on its line: a misspelt key explains the "missing" one it also causes.
            found.append((doc.line((*path, extra)), 0, text))
        else:
            found.append((doc.line(path), 1, f"{_where(doc.data, path)}{_message(err)}"))
    if not found:
        return None
    line, _, text = min(found)
    return line, text


def _message(err: ValidationError) -> str:
    v = err.validator
    if v == "required":
        missing = next(k for k in err.validator_value if k not in err.instance)
        return f"missing {missing!r}"
    if v == "type":
        want = err.validator_value if isinstance(err.validator_value, list) else [err.validator_value]
        return f"expected {' or '.join(_TYPES[t] for t in want)}, got {_kind(err.instance)}"
    if v == "minItems":
        return "must list at least one item" if err.validator_value == 1 else f"must list at least {err.validator_value} items"
    if v == "minLength":
        return "must not be empty"
    if v == "minProperties":
        return "must name at least one field"
    if v == "exclusiveMinimum":
        return f"must be more than {err.validator_value}"
    if v == "pattern":
        return f"{err.instance!r} is not a valid value here (expected like billing.refund)" if "\\." in str(err.validator_value) \
            else "must not start or end with spaces"
    return " ".join(err.message.split())


def _kind(value: Any) -> str:
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return f"{str(value).lower()}"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text {value!r}"
    return _TYPES["array" if isinstance(value, list) else "object"]


def _where(data: Any, path: Sequence[str | int]) -> str:
    """`call 'refund-dup', turn 2, expect.says: ` for ("calls", 3, "turns", 1, "expect", "says")."""
    parts: list[str] = []
    node = data
    i = 0
    path = list(path)
    while i < len(path):
        key = path[i]
        nxt = path[i + 1] if i + 1 < len(path) else None
        if key in ("calls", "turns") and isinstance(nxt, int):
            item = node[key][nxt] if isinstance(node, dict) and isinstance(node.get(key), list) else None
            if key == "calls":
                name = item.get("name") if isinstance(item, dict) else None
                parts.append(f"call {name!r}" if isinstance(name, str) else f"call {nxt + 1}")
            else:
                parts.append(f"turn {nxt + 1}")
            node, i = item, i + 2
            continue
        dotted = [str(key) if not isinstance(key, int) else f"[{key}]"]
        node = node[key] if isinstance(node, dict | list) and _has(node, key) else None
        i += 1
        while i < len(path) and path[i] not in ("calls", "turns"):
            k = path[i]
            dotted.append(f"[{k}]" if isinstance(k, int) else f".{k}")
            node = node[k] if isinstance(node, dict | list) and _has(node, k) else None
            i += 1
        parts.append("".join(dotted))
    text = ", ".join(parts)
    return f"{text}: " if text else ""


def _has(node: dict | list, key: str | int) -> bool:
    return key in node if isinstance(node, dict) else isinstance(key, int) and 0 <= key < len(node)


def _close(word: str, choices: Sequence[str]) -> str:
    match = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {match[0]!r}?)" if match else ""


# --- from checked data to the model ---------------------------------------------------------
def _build(path: Path, doc: Located, *, agents: Sequence[str], kinds: Sequence[str]) -> Suite:
    data = doc.data
    base = path.parent

    def fail(at: tuple[str | int, ...], message: str) -> SuiteError:
        return SuiteError(path, doc.line(at), f"{_where(data, at)}{message}")

    def agent_ids(at: tuple[str | int, ...], ids: list[str]) -> tuple[str, ...]:
        for j, agent in enumerate(ids):
            if agent not in agents:
                raise fail((*at, j), f"unknown specialist {agent!r}{_close(agent, agents)}")
        return tuple(ids)

    fixture = None
    if "fixture" in data:
        fixture = (base / data["fixture"]).resolve()
        if fixture.suffix not in FIXTURE_SUFFIXES:
            raise fail(("fixture",), f"a fixture is a SQLite database or an SQL script ({', '.join(FIXTURE_SUFFIXES)})")
        if not fixture.is_file():
            raise fail(("fixture",), f"no such file {data['fixture']!r} (relative to this suite)")
    default_customer = data.get("customer")
    calls: list[Call] = []
    seen: dict[str, int] = {}
    for i, c in enumerate(data["calls"]):
        at = ("calls", i)
        if c["name"] in seen:
            raise fail((*at, "name"), f"the name {c['name']!r} is also used by the call on line {seen[c['name']]}")
        seen[c["name"]] = doc.line((*at, "name"))
        turns = []
        audio_count = 0
        for j, t in enumerate(c["turns"]):
            tat = (*at, "turns", j)
            audio = None
            if "audio" in t:
                audio_count += 1
                audio = (base / t["audio"]).resolve()
                if not audio.is_file():
                    raise fail((*tat, "audio"), f"no such audio file {t['audio']!r} (relative to this suite)")
            e = t.get("expect", {})
            needs = agent_ids((*tat, "expect", "needs"), e.get("needs", []))
            turns.append(Turn(say=t["say"], line=doc.line(tat), audio=audio,
                              expect=TurnExpect(tuple(e.get("says", ())), tuple(e.get("not_says", ())), needs)))
        if audio_count not in (0, len(turns)):
            raise fail(at, "give `audio:` on every turn of a call or on none")
        e = c.get("expect", {})
        reach = agent_ids((*at, "expect", "reach"), e.get("reach", []))
        for j, kind in enumerate(e.get("requests", [])):
            if kind not in kinds:
                raise fail((*at, "expect", "requests", j), f"unknown request kind {kind!r}{_close(kind, kinds)}; kinds: {', '.join(kinds)}")
        refunds = []
        for j, r in enumerate(e.get("refunds", [])):
            cents = Decimal(str(r["amount"])) * 100
            if cents != cents.to_integral_value():
                raise fail((*at, "expect", "refunds", j, "amount"), f"{r['amount']} has more than two decimals (USD)")
            refunds.append((r["charge"].upper(), int(cents)))
        expect = CallExpect(
            reach=reach, refunds=tuple(refunds), requests=tuple(e.get("requests", ())),
            tickets=tuple(e["tickets"]) if "tickets" in e else None,
            profile={cid.upper(): dict(fields) for cid, fields in e.get("profile", {}).items()},
        )
        calls.append(Call(
            name=c["name"], line=doc.line(at), turns=tuple(turns), customer=c.get("customer", default_customer),
            klass=c.get("class"), expect=expect, expect_line=doc.line((*at, "expect")) if "expect" in c else None,
        ))
    return Suite(name=data["suite"], path=path, calls=tuple(calls), description=data.get("description", ""), fixture=fixture)


def _agents() -> list[str]:
    from meta.session import agent_ids

    return [a for a in agent_ids() if a != "meta"]


def _kinds() -> list[str]:
    from meta.actions import durable_actions

    return list(durable_actions().kinds)
