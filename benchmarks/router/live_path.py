"""The router's live path against its batch path, on any labelled data set.

`callcenter router eval` scores `IntentRouter.decisions`, the batch path; the line asks
`IntentRouter.classify` one turn at a time, which first applies the live-path rules (a negation
with nothing to negate, a person or a goodbye named outright, who the caller is and a phone
number's digits weighing nothing). This trains once (as `router eval` does) and reports, per test
item, where the two paths disagree and which one was right, so a rule added to `classify` is
measured on BANKING77 and CLINC150 too.

    .venv/bin/python -m benchmarks.router.live_path --train T --test T [--validation V] [--mapping M]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from callcenter.routing.evaluate import evaluate
from callcenter.routing.train import load_examples, train_from_file


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--train", type=Path, required=True, help="training file (jsonl or csv, as `router eval` reads)")
    p.add_argument("--test", type=Path, required=True, help="test file")
    p.add_argument("--validation", type=Path, help="validation file for the thresholds")
    p.add_argument("--mapping", type=Path, help="label mapping (CLINC150's mapping.json)")
    p.add_argument("--show", type=int, default=20, help="how many disagreements to list")
    args = p.parse_args(argv)
    report = train_from_file(args.train, mapping=args.mapping, validation=args.validation)
    router = report.router
    test = load_examples(args.test, mapping=args.mapping)
    batch = evaluate(router, test, latency_samples=200)
    texts, gold = [t for t, _ in test], [g for _, g in test]
    _, decided = router.decisions(texts)
    live = [router.classify(t).label for t in texts]
    apart = [(t, g, d, v) for t, g, d, v in zip(texts, gold, decided, live, strict=True) if d != v]
    out = {
        "n_test": len(test),
        "top1_accuracy": batch["accuracy"],
        "batch_decision_accuracy": round(sum(d == g for d, g in zip(decided, gold, strict=True)) / len(gold), 4),
        "live_decision_accuracy": round(sum(v == g for v, g in zip(live, gold, strict=True)) / len(gold), 4),
        "disagreements": len(apart),
        "right_in_batch_only": sum(d == g for _, g, d, _ in apart),
        "right_live_only": sum(v == g for _, g, _, v in apart),
        "train_seconds": round(report.seconds, 1),
    }
    print(json.dumps(out, indent=1))
    for text, g, d, v in apart[: args.show]:
        print(f"  gold {g} | batch {d} | live {v} | {text}")


if __name__ == "__main__":
    main()
