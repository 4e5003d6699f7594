"""What `callcenter test` prints: one line per call, the failing turns with expected vs
actual, a line per suite and one for the run; and the same results as JUnit XML."""

from __future__ import annotations

import re
import textwrap
import xml.etree.ElementTree as ET
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from meta.suites.checks import Failure
from meta.suites.model import Suite
from meta.suites.runner import CallOutcome

_INDENT = "      "


def call_block(res: CallOutcome, *, show_transcript: bool = False) -> str:
    """`  PASS  name  (3 turns, 1.2 s)`, and for a failure what was expected and what came."""
    mode = ", voice" if res.mode == "voice" else ""
    head = f"  {'PASS' if res.ok else 'FAIL'}  {res.call}  ({len(res.turns)} turn{'s' if len(res.turns) != 1 else ''}{mode}, {res.seconds:.1f} s)"
    lines = [head]
    if res.error:
        lines.append(f"{_INDENT}error: the call stopped: {res.error}")
    for f in res.failures:
        lines += _failure(res, f)
    if show_transcript or not res.ok:
        if res.turns and (show_transcript or any(f.turn is None for f in res.failures) or res.error):
            lines.append(f"{_INDENT}transcript:")
            for t in res.turns:
                lines += _turn(t.number, t.say, t.heard, t.reached, t.reply)
    return "\n".join(lines)


def _failure(res: CallOutcome, f: Failure) -> list[str]:
    where = f"{res.file}:{f.line}" if f.line else res.file
    if f.turn is not None:
        t = res.turns[f.turn - 1] if f.turn <= len(res.turns) else None
        said = f' "{_short(t.say)}"' if t else ""
        title = f"turn {f.turn}{said}: {f.check} ({where})"
    else:
        title = f"call: {f.check} ({where})"
    out = [f"{_INDENT}{title}", f"{_INDENT}  expected: {f.expected}", f"{_INDENT}  actual:   {f.actual}"]
    if f.unsafe:
        out.append(f"{_INDENT}  unsafe effect: {', '.join(f.unsafe)}")
    return out


def _turn(number: int, say: str, heard: str | None, reached: Sequence[str], reply: str) -> list[str]:
    out = [f"{_INDENT}  {number}> {say}"]
    if heard is not None:
        out.append(f"{_INDENT}     heard: {heard or '(nothing)'}")
    if reached:
        out.append(f"{_INDENT}     [{' -> '.join(reached)}]")
    out.append(f"{_INDENT}     agent: {reply}")
    return out


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def suite_header(suite: Suite) -> str:
    desc = f": {suite.description}" if suite.description else ""
    return f"{suite.path}  {suite.name}{desc}"


def suite_line(suite: Suite, results: Sequence[CallOutcome]) -> str:
    passed = sum(r.ok for r in results)
    seconds = sum(r.seconds for r in results)
    line = f"  {suite.name}: {passed} of {len(results)} calls passed ({seconds:.1f} s)"
    classes = _by_class(results)
    if len(classes) > 1:
        line += "; by class: " + ", ".join(f"{k} {sum(r.ok for r in v)}/{len(v)}" for k, v in sorted(classes.items()))
    return line


def _by_class(results: Sequence[CallOutcome]) -> dict[str, list[CallOutcome]]:
    groups: dict[str, list[CallOutcome]] = defaultdict(list)
    for r in results:
        groups[r.klass or "-"].append(r)
    return groups


def total_line(suites: Sequence[Suite], results: Sequence[CallOutcome], seconds: float) -> str:
    failed = [r for r in results if not r.ok]
    unsafe = sum(len(r.unsafe) for r in results)
    text = (f"{len(suites)} suite{'s' if len(suites) != 1 else ''}, {len(results)} call{'s' if len(results) != 1 else ''}: "
            f"{len(results) - len(failed)} passed, {len(failed)} failed")
    if unsafe:
        text += f", {unsafe} unsafe effect{'s' if unsafe != 1 else ''}"
    return text + f" ({seconds:.0f} s)"


# --- JUnit XML ------------------------------------------------------------------------------
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")  # XML 1.0 cannot hold these


def _x(text: str) -> str:
    return _NOT_XML.sub("?", text)


def junit(suites: Sequence[Suite], results: Sequence[CallOutcome], path: Path) -> None:
    """The results as JUnit XML (the common Ant/Surefire form CI systems read): a
    <testsuite> per suite, a <testcase> per call, <failure> for unmet expectations and
    <error> for a call that could not run, with the transcript in <system-out>."""

    def counts(rs: Sequence[CallOutcome]) -> dict[str, str]:
        return {"tests": str(len(rs)), "failures": str(sum(1 for r in rs if r.failures and not r.error)),
                "errors": str(sum(1 for r in rs if r.error)), "time": f"{sum(r.seconds for r in rs):.3f}"}

    root = ET.Element("testsuites", name="callcenter test", **counts(results))
    for suite in suites:
        mine = [r for r in results if r.suite == suite.name]
        ts = ET.SubElement(root, "testsuite", name=_x(suite.name), skipped="0", file=str(suite.path), **counts(mine))
        for r in mine:
            tc = ET.SubElement(ts, "testcase", name=_x(r.call), time=f"{r.seconds:.3f}", file=r.file, line=str(r.line),
                               classname=_x(f"{suite.name}.{r.klass}" if r.klass else suite.name))
            if r.error:
                ET.SubElement(tc, "error", message=_x(r.error), type="call_error").text = _x(r.error)
            elif r.failures:
                first = r.failures[0]
                el = ET.SubElement(tc, "failure", message=_x(first.one_line()[:500]), type=first.check)
                el.text = _x(textwrap.dedent("\n".join(line for f in r.failures for line in _failure(r, f))))
            transcript = "\n".join(line for t in r.turns for line in _turn(t.number, t.say, t.heard, t.reached, t.reply))
            ET.SubElement(tc, "system-out").text = _x(textwrap.dedent(transcript))
    ET.indent(root)
    path.parent.mkdir(parents=True, exist_ok=True)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)
