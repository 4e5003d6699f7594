"""`callcenter test --record`: a real call's JSON transcript as a suite a person can edit.

The caller's turns come from the transcript (`callcenter call --json`: one object per turn).
The expectations come from playing those turns again on a fresh store, exactly as
`callcenter test` will: the specialists reached, the needs of each multi-need turn, and
every refund, request, ticket and profile change the call left. Each turn carries the
reply of the recorded call as a comment (and the replay's, where it differs), so the
person editing it can add the words a reply must or must not say. The file written is a
whole suite: it runs as it is, and its call can be pasted into another suite.
"""

from __future__ import annotations

import json
import re
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from meta.suites.checks import Effects, added
from meta.suites.loader import SuiteError
from meta.suites.model import Call, Turn
from meta.suites.runner import Drive

# What callcenter.redact.mask leaves in a transcript in place of caller data.
_MASKED = re.compile(r"\[card ending \d{4}\]|\[number\]|\[secret\]|\*\*\*@|_\[key\]")


@dataclass
class Recorded:
    says: list[str]  # caller turns
    replies: list[str]  # the recorded call's replies, one per turn


def read_transcript(text: str, source: str) -> Recorded:
    """The caller turns and replies of a JSON transcript (the greeting, turn 0, is skipped)."""
    says, replies = [], []
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except ValueError:
            raise SuiteError(source, number, "not a JSON object: record reads `callcenter call --json` output") from None
        if not isinstance(obj, dict) or "user" not in obj or "reply" not in obj:
            raise SuiteError(source, number, "a transcript line needs `user` and `reply` (from `callcenter call --json`)")
        if obj["user"] is None:
            continue  # the greeting
        says.append(str(obj["user"]))
        replies.append(str(obj["reply"]))
    if not says:
        raise SuiteError(source, None, "no caller turns in this transcript")
    return Recorded(says, replies)


def as_call(rec: Recorded, name: str, customer: str | None) -> Call:
    return Call(name=name, line=0, customer=customer, turns=tuple(Turn(say=s, line=0) for s in rec.says))


def suite_yaml(rec: Recorded, d: Drive, *, name: str, customer: str | None, fixture: str | None = None) -> str:
    """The recorded call as a suite file, expectations from the replay `d`."""
    out = [
        "# Recorded from a call transcript by `callcenter test --record`; edit freely (docs/suites.md).",
        f"suite: {_q(name)}",
        f"description: {_q('recorded call ' + name)}",
    ]
    if fixture:
        out.append(f"fixture: {_q(fixture)}")
    if d.error:
        out.append(f"# The replay stopped: {_one(d.error)}")
    out += ["calls:", f"  - name: {_q(name)}"]
    if customer:
        out.append(f"    customer: {_q(customer)}")
    else:
        out.append("    # no customer: an unknown caller, who must say who they are")
    out.append("    turns:")
    for i, say in enumerate(rec.says):
        played = d.turns[i] if i < len(d.turns) else None
        if _MASKED.search(say):
            out.append("      # masked in the transcript: write what the caller said")
        out.append(f"      - say: {_q(say)}")
        out += _comment("        ", f"agent (recorded): {rec.replies[i]}")
        if played is not None and _norm(played.reply) != _norm(rec.replies[i]):
            out += _comment("        ", f"agent (replay): {played.reply}")
        specialists = list(dict.fromkeys(a for a in (played.reached if played else ()) if "." in a))
        if len(specialists) > 1:
            out.append("        expect:")
            out.append(f"          needs: [{', '.join(specialists)}]")
    out += _expect(d)
    return "\n".join(out) + "\n"


def _expect(d: Drive) -> list[str]:
    reach = list(dict.fromkeys(a for t in d.turns for a in t.reached if "." in a))
    lines = ["    expect:"]
    lines.append(f"      reach: [{', '.join(reach)}]")
    refunds = added(d.before.refunds, d.after.refunds)
    lines.append("      refunds: [" + ", ".join(f"{{charge: {_q(c)}, amount: {cents // 100}.{cents % 100:02d}}}" for c, cents in refunds) + "]")
    lines.append(f"      requests: [{', '.join(_q(k) for k in added(d.before.requests, d.after.requests))}]")
    tickets = added(d.before.tickets, d.after.tickets)
    if tickets:
        lines.append(f"      tickets: [{', '.join(_q(k) for k in tickets)}]")
    else:
        lines.append("      # tickets: [engineering]   (not checked unless given)")
    changed = _profile_changes(d.before, d.after)
    if changed:
        lines.append("      profile:")
        for cid, fields in changed.items():
            lines.append(f"        {_q(cid)}: {{{', '.join(f'{k}: {_value(v)}' for k, v in fields.items())}}}")
    return lines


def _profile_changes(before: Effects, after: Effects) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for cid, now in after.profile.items():
        was = before.profile.get(cid, {})
        fields = {k: v for k, v in now.items() if was.get(k) != v and v is not None}
        if fields:
            out[cid] = fields
    return out


def _value(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else _q(str(v))


def _q(text: str) -> str:
    # A JSON string is a valid YAML double-quoted scalar: safe for any caller text.
    return json.dumps(text, ensure_ascii=False)


def _one(text: str) -> str:
    return " ".join(text.split())


def _norm(text: str) -> str:
    return _one(text).lower()


def _comment(indent: str, text: str) -> list[str]:
    return [f"{indent}# {line}" for line in textwrap.wrap(_one(text), 96) or [""]]


def default_name(path: Path | None) -> str:
    return path.stem if path is not None and path.stem else "recorded-call"
