"""Label the development call suites' first turns for the router's second reading.

    .venv/bin/python -m benchmarks.calls.harvest [--check]

A call whose first ask is for one need, and which had to reach exactly one specialist,
says in its caller's own words what that specialist is for: "we're paying way too much,
take me down to starter" is the plan change. Those first turns, one per distinct text, are
written to each domain's `utterances/calls.jsonl`, which trains the second reading only
(`IntentRouter.second`, meta/router.py). Left out: multi-need turns (the clause segmenter's
job), calls in another language (the glossaries' job), identity-first calls (the first turn
names no need), and any call that reaches several specialists or none.

Only the development parts `callers3` to `callers77` are read (HARVESTED). The blind parts are
never read, and `callers78` and later stay out so that the second reading can be measured on
calls it never learned from (benchmarks/README, "Session 41"; reading callers78-81 too lost a
call of each of callers78 and callers84 and gained none, "Session 42"). A greeting or small talk
before the need is passed over: the first turn that asks is the one labelled. `--check` exits 1 when the
shipped files differ from what the suites give, for CI to see a stale harvest.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from callcenter.routing.frames import is_small_talk  # noqa: E402
from callcenter.routing.segment import is_greeting  # noqa: E402
from domains import registry  # noqa: E402
from meta.suites.loader import load_suites  # noqa: E402
from meta.suites.model import Call, Turn  # noqa: E402

HERE = Path(__file__).parent
HARVESTED = range(3, 78)  # callers3 .. callers77; callers78 on are held out
SKIPPED_CLASSES = frozenset({"other_language", "language", "identity_first"})


def _first_ask(call: Call) -> Turn | None:
    """The call's first turn that is more than a greeting or small talk. A caller who opens
    with "hey there how are you" says the need in the next turn; labelling the greeting with
    that need taught the second reading that small talk is a balance question."""
    for turn in call.turns:
        if not (is_greeting(turn.say) or is_small_talk(turn.say)):
            return turn
    return None


def labelled(call: Call) -> tuple[str, str] | None:
    """(first ask, label) for a call whose first ask is for its one specialist, else None."""
    turn = _first_ask(call) if call.klass not in SKIPPED_CLASSES else None
    if turn is None or turn.expect.needs:
        return None
    reached = {agent for agent in call.expect.reach if "." in agent}  # specialists, not a domain or `identity`
    text = " ".join(turn.say.split())
    if len(reached) != 1 or not text:
        return None
    return text, reached.pop().replace(".", "/", 1)


def harvest(paths: list[Path]) -> list[tuple[str, str]]:
    """Every labelled first turn of the suites in `paths`, one per text (case-blind), in order."""
    suites, errors = load_suites(paths)
    if errors:
        raise SystemExit("\n".join(errors))
    rows: list[tuple[str, str]] = []
    seen: set[str] = set()
    for suite in suites:
        for call in suite.calls:
            row = labelled(call)
            if row is not None and row[0].lower() not in seen:
                seen.add(row[0].lower())
                rows.append(row)
    return rows


def by_domain(rows: list[tuple[str, str]]) -> dict[Path, str]:
    """Each domain's calls.jsonl text."""
    out: dict[Path, str] = {}
    for domain in registry.DOMAINS:
        mine = [(text, label) for text, label in rows if label.startswith(f"{domain.name}/")]
        out[domain.utterances / "calls.jsonl"] = "".join(
            json.dumps({"text": text, "label": label}, ensure_ascii=False) + "\n" for text, label in mine)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the shipped calls.jsonl files are stale")
    args = parser.parse_args(argv)
    files = by_domain(harvest([HERE / f"callers{n}.yaml" for n in HARVESTED]))
    stale = [path for path, text in files.items() if not path.exists() or path.read_text(encoding="utf-8") != text]
    if args.check:
        for path in stale:
            print(f"stale: {path} (run python -m benchmarks.calls.harvest)", file=sys.stderr)
        return 1 if stale else 0
    for path, text in files.items():
        path.write_text(text, encoding="utf-8")
        print(f"{path}: {text.count(chr(10))} calls")
    return 0


if __name__ == "__main__":
    sys.exit(main())
