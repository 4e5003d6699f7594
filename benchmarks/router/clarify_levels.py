"""How often each clarification level asks, and how accurate the routes it allows are.

    .venv/bin/python -m benchmarks.router.clarify_levels [--json FILE]

Two sets, both of clear single-need turns (one need, said plainly):
- validation: the near-duplicate-aware 20% hold-out of the shipped training utterances
  (`callcenter.routing.split.holdout`, seed 0), scored by a router trained on the other 80%.
  ``callcenter.routing.clarify.ASK_MARGIN`` is chosen here.
- test: the shipped test files' in-scope utterances and the call suite's single-need phrasings
  (every part of `benchmarks/calls/phrases.yaml`; blind parts are never read), scored by the
  line's router (trained on all training utterances). Reported, never tuned on.

For each margin level: the share of turns the slow path would ask about at the front desk
(department) and at the supervisor (specialist within the right department), and the
accuracy of the turns below the fast-path threshold that it routes without asking.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from callcenter.routing import IntentRouter, read_labelled  # noqa: E402
from callcenter.routing.clarify import ASK_MARGIN, domain_of, reading, should_ask  # noqa: E402
from callcenter.routing.split import holdout  # noqa: E402
from meta.router import training_examples  # noqa: E402

LEVELS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
ROOT = Path(__file__).resolve().parents[2]


def _clear_single(pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(t, lab) for t, lab in pairs if "/" in lab and not lab.startswith("meta/")]


def table(router: IntentRouter, items: list[tuple[str, str]]) -> list[dict[str, float]]:
    rows = []
    meta = [(router.classify(t), lab) for t, lab in items]
    sup = [(router.classify(t, within=domain_of(lab)), lab) for t, lab in items]
    for m in LEVELS:
        row: dict[str, float] = {"margin": m}
        for name, decided, by_domain in (("front_desk", meta, True), ("supervisor", sup, False)):
            asked = routed = right = 0
            for intent, gold in decided:
                if not intent.in_scope:
                    continue
                r = reading(intent.label, intent.confidence, intent.alternatives, by_domain=by_domain)
                want = domain_of(gold) if by_domain else gold
                if should_ask(r, router.threshold, m):
                    asked += 1
                elif r.confidence < router.threshold:
                    routed += 1
                    right += r.label == want
            row[f"{name}_asks"] = asked / len(decided)
            row[f"{name}_slow_routes"] = routed / len(decided)
            row[f"{name}_slow_accuracy"] = right / routed if routed else float("nan")
        rows.append(row)
    return rows


def suite_singles() -> list[tuple[str, str]]:
    bank = yaml.safe_load((ROOT / "benchmarks/calls/phrases.yaml").read_text())
    out = []
    for part, content in bank.items():
        if part.startswith("blind"):
            continue
        for need, phrasings in content.get("needs", {}).items():
            out.extend((p, need.replace(".", "/", 1)) for p in phrasings)
    return out


def render(name: str, rows: list[dict[str, float]], n: int, threshold: float) -> str:
    lines = [f"{name} ({n} clear single-need turns, fast-path threshold {threshold:.2f})",
             "| margin | asks (front desk) | asks (supervisor) | slow routes, accuracy (front desk) | slow routes, accuracy (supervisor) |",
             "|---|---|---|---|---|"]
    for r in rows:
        lines.append(
            f"| {r['margin']:.1f}{' *' if abs(r['margin'] - ASK_MARGIN) < 1e-9 else ''} | {r['front_desk_asks']:.1%} | {r['supervisor_asks']:.1%} "
            f"| {r['front_desk_slow_routes']:.1%}, {r['front_desk_slow_accuracy']:.1%} | {r['supervisor_slow_routes']:.1%}, {r['supervisor_slow_accuracy']:.1%} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--json", type=Path)
    args = p.parse_args(argv)
    examples = training_examples()
    fit_idx, val_idx = holdout(examples, seed=0)
    probe = IntentRouter.train([examples[i] for i in fit_idx])
    val = _clear_single([examples[i] for i in val_idx])
    out = {"validation": table(probe, val)}
    print(render("validation: hold-out of the training utterances", out["validation"], len(val), probe.threshold))
    line = IntentRouter.train(examples)
    tests = _clear_single([x for d in sorted(ROOT.glob("domains/*/utterances/test.jsonl")) for x in read_labelled(d)])
    suite = suite_singles()
    out["test"] = table(line, tests)
    out["call_suite"] = table(line, suite)
    print()
    print(render("test: shipped test files", out["test"], len(tests), line.threshold))
    print()
    print(render("call suite single-need phrasings (dev + holdouts)", out["call_suite"], len(suite), line.threshold))
    if args.json:
        args.json.write_text(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
