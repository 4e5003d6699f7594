"""``callcenter router train|eval``: train the fast-path router on your own intents, measure it.

Wired into the main CLI by ``register``; every handler returns an exit code, and expected
failures (missing file, bad row, corrupt model) print one line to stderr, no traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``router`` with its ``train`` and ``eval`` subcommands to the main CLI."""
    router = subparsers.add_parser(
        "router",
        help="train or evaluate the fast-path intent router",
        description="Train the fast-path intent router from labelled utterances, or measure it.",
    )
    sub = router.add_subparsers(dest="router_command", metavar="{train,eval}")
    router.set_defaults(func=lambda _args: _no_subcommand(router))

    train = sub.add_parser(
        "train",
        help="train a router model from a labelled CSV or JSONL file",
        description=(
            "Train a router from labelled utterances: CSV with a header (a 'text' column and a "
            "'label', 'intent' or 'category' column) or JSONL ({\"text\", \"label\"} or "
            "{\"text\", \"labels\": [...]}). Thresholds are chosen on held-out data and stored "
            "with the model; point CALLCENTER_ROUTER_MODEL at the result."
        ),
    )
    train.add_argument("--data", type=Path, required=True, help="labelled utterances (.csv or .jsonl)")
    train.add_argument("--out", type=Path, help="model file to write (default: router-model.npz in the data folder)")
    _common(train)
    train.add_argument("--validation", type=Path, help="held-out labelled file for thresholds and calibration")
    train.add_argument("--seed", type=int, default=0, help="seed of the validation folds (default 0)")
    train.set_defaults(func=cmd_train)

    ev = sub.add_parser(
        "eval",
        help="measure a router on a labelled test file",
        description="Train on --train (or load --model) and report accuracy, calibration, coverage, "
        "out-of-scope detection and latency on --test.",
    )
    ev.add_argument("--test", type=Path, required=True, help="labelled test utterances")
    src = ev.add_mutually_exclusive_group(required=True)
    src.add_argument("--train", type=Path, help="labelled training utterances")
    src.add_argument("--model", type=Path, help="a model written by 'router train'")
    _common(ev)
    ev.add_argument("--validation", type=Path, help="held-out labelled file (with --train)")
    ev.add_argument("--multi", type=Path, help="multi-intent JSONL ({\"text\", \"labels\": [...]}) to score detection")
    ev.add_argument("--seed", type=int, default=0, help="seed of the validation folds (default 0)")
    ev.add_argument("--json", action="store_true", help="print one JSON object instead of a report")
    ev.set_defaults(func=cmd_eval)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--label-column", help="CSV column holding the label (default: label, intent or category)")
    p.add_argument(
        "--max-reject", type=_share, metavar="SHARE",
        help="at most this share of in-scope validation utterances may be rejected as out of scope "
        "(e.g. 0.02, what the line's own router uses; default: only the accuracy budget bounds the floor)")
    p.add_argument("--mapping", type=Path, help="JSON or CSV mapping flat intents to domain/specialist")


def _share(value: str) -> float:
    try:
        share = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {value!r}") from None
    if not 0.0 <= share <= 1.0:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, got {value}")
    return share


def _no_subcommand(parser: argparse.ArgumentParser) -> int:
    parser.print_usage(sys.stderr)
    print("callcenter router: choose a subcommand: train or eval", file=sys.stderr)
    return EXIT_USAGE


def _fail(message: str) -> int:
    print(f"callcenter router: {message}", file=sys.stderr)
    return EXIT_ERROR


def _default_out() -> Path:
    from callcenter.settings import load_settings

    settings = load_settings()
    return settings.router_model or settings.data_dir / "router-model.npz"


def cmd_train(args: argparse.Namespace) -> int:
    from callcenter.routing import DataError, RouterModelError
    from callcenter.routing.train import train_from_file

    try:
        out = args.out or _default_out()
        report = train_from_file(
            args.data,
            label_column=args.label_column,
            mapping=args.mapping,
            validation=args.validation,
            seed=args.seed,
            max_reject=args.max_reject,
        )
        report.router.save(out)
    except (DataError, RouterModelError, ValueError) as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(f"cannot write the model: {exc}")
    r = report.router
    print(
        f"trained on {report.examples} utterances, {len(report.labels)} labels "
        f"in {report.seconds:.1f}s; threshold {r.threshold:.2f}, "
        f"out-of-scope threshold {r.oos_threshold:.3f} (at T={r.oos_temperature:.2f})"
    )
    print(f"wrote {out}  (use it with CALLCENTER_ROUTER_MODEL={out})")
    return EXIT_OK


def cmd_eval(args: argparse.Namespace) -> int:
    from callcenter.routing import DataError, RouterModelError
    from callcenter.routing.evaluate import format_report
    from callcenter.routing.train import evaluate_files

    try:
        metrics = evaluate_files(
            args.test,
            train=args.train,
            model=args.model,
            validation=args.validation,
            multi=args.multi,
            label_column=args.label_column,
            mapping=args.mapping,
            seed=args.seed,
            max_reject=args.max_reject,
        )
    except (DataError, RouterModelError, ValueError) as exc:
        return _fail(str(exc))
    if args.json:
        print(json.dumps(metrics, sort_keys=True))
    else:
        print(format_report(metrics))
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    """Stand-alone entry (``python -m meta.shell.cli_router ...``) for use before the main CLI exists."""
    parser = argparse.ArgumentParser(prog="callcenter")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    handler = getattr(args, "func", None)
    if handler is None:
        parser.print_usage(sys.stderr)
        return EXIT_USAGE
    return int(handler(args))


if __name__ == "__main__":
    raise SystemExit(main())
