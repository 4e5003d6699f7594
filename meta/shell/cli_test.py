"""`callcenter test PATH...`: run a company's own conversation suites through the real line.

    callcenter test examples/                      every *.yaml under the folder
    callcenter test suites/billing.yaml -j 4       four calls at a time (worker processes)
    callcenter test suites/ --junit out/junit.xml  also JUnit XML for a CI system
    callcenter test suites/ --voice                speak the turns that have `audio:` files
    callcenter call --json --customer C1001 < script.txt > call.jsonl
    callcenter test --record call.jsonl --customer C1001 > my-suite.yaml

Exit status: 0 when every call passed, 1 when any failed, 2 when a suite cannot run
(each such file gets one line: file:line: what is wrong). The format: docs/suites.md.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path

from callcenter.settings import get_settings

_USAGE_ERROR = 2


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "test", help="run conversation test suites (YAML) through the line and check every expectation",
        description="Run each call of the suites in PATH (files, or folders searched for *.yaml) on a fresh "
        "copy of the demo store (or the suite's fixture), with the configured LLM (embedded by default), "
        "and check what each turn said and what each call changed. Exit status 0 only if all pass. "
        "Format: docs/suites.md.",
    )
    p.add_argument("paths", nargs="*", type=Path, metavar="PATH", help="suite files or folders of them")
    p.add_argument("-j", "--jobs", type=int, default=1, metavar="N", help="calls run at once, each in its own process (default 1)")
    p.add_argument("--junit", type=Path, metavar="FILE", help="also write the results as JUnit XML")
    p.add_argument("--voice", action="store_true", help="speak the calls whose turns have `audio:` files (the voice extra)")
    p.add_argument("-v", "--verbose", action="store_true", help="print every call's transcript, not only failed ones")
    rec = p.add_argument_group("recording", "--record FILE turns a `callcenter call --json` transcript into a suite")
    rec.add_argument("--record", type=Path, metavar="FILE", help="the transcript to record ('-' = stdin); writes YAML to stdout or -o")
    rec.add_argument("--customer", metavar="ID", help="with --record: the known caller of that call (as `call --customer`)")
    rec.add_argument("--name", help="with --record: the suite's and the call's name (default: the file's name)")
    rec.add_argument("--fixture", type=Path, metavar="FILE", help="with --record: the store the replay starts from")
    rec.add_argument("-o", "--output", type=Path, metavar="FILE", help="with --record: write the suite here instead of stdout")
    p.set_defaults(func=cmd_test)


def cmd_test(args: argparse.Namespace) -> int:
    if args.record is not None:
        if args.paths:
            return _usage("--record takes no suite paths")
        return _record(args)
    if any(v is not None for v in (args.customer, args.name, args.fixture, args.output)):
        return _usage("--customer, --name, --fixture and -o go with --record")
    if not args.paths:
        return _usage("name suite files or folders, e.g. `callcenter test examples/`")
    if args.jobs < 1:
        return _usage("-j needs 1 or more")
    from meta.suites.loader import SuiteError, load_suites
    from meta.suites.report import call_block, junit, suite_header, suite_line, total_line
    from meta.suites.runner import CallOutcome, run_suites

    try:
        suites, errors = load_suites(args.paths)
    except SuiteError as err:
        errors, suites = [str(err)], []
    if errors:
        for line in errors:
            print(f"error: {line}", file=sys.stderr)
        return _USAGE_ERROR
    started = time.perf_counter()
    done: dict[str, list[CallOutcome]] = {s.name: [] for s in suites}
    shown = 0

    def show(res: CallOutcome) -> None:
        # Suites print whole and in order, each as soon as all its calls are in.
        nonlocal shown
        done[res.suite].append(res)
        while shown < len(suites) and len(done[suites[shown].name]) == len(suites[shown].calls):
            suite = suites[shown]
            order = {c.name: i for i, c in enumerate(suite.calls)}
            mine = sorted(done[suite.name], key=lambda r: order[r.call])
            print(suite_header(suite))
            for r in mine:
                print(call_block(r, show_transcript=args.verbose))
            print(suite_line(suite, mine) + "\n", flush=True)
            shown += 1

    results = run_suites(suites, get_settings(), jobs=args.jobs, voice=args.voice, on_result=show)
    print(total_line(suites, results, time.perf_counter() - started))
    if args.junit is not None:
        junit(suites, results, args.junit)
        print(f"JUnit XML: {args.junit}")
    return 0 if all(r.ok for r in results) else 1


def _record(args: argparse.Namespace) -> int:
    from meta.suites.loader import SuiteError
    from meta.suites.record import as_call, default_name, read_transcript, suite_yaml
    from meta.suites.runner import CallRunner, StoreSetupError, drive, suite_settings

    source = "<stdin>" if str(args.record) == "-" else str(args.record)
    try:
        text = sys.stdin.read() if source == "<stdin>" else args.record.read_text(encoding="utf-8")
        rec = read_transcript(text, source)
    except OSError as exc:
        return _usage(f"{source}: cannot read it ({exc.strerror})")
    except UnicodeDecodeError:
        return _usage(f"{source}: not UTF-8 text")
    except SuiteError as err:
        return _usage(str(err))
    if args.fixture is not None and not args.fixture.is_file():
        return _usage(f"--fixture {args.fixture}: no such file")
    name = args.name or default_name(None if source == "<stdin>" else args.record)
    call = as_call(rec, name, args.customer)

    async def replay() -> object:
        import tempfile

        with tempfile.TemporaryDirectory(prefix="callcenter-record-") as tmp:
            worker = CallRunner(suite_settings(get_settings()), Path(tmp), voice=False)
            async with worker.line(args.fixture.resolve() if args.fixture else None) as line:
                return await drive(line, call)

    try:
        played = asyncio.run(replay())
    except StoreSetupError as err:
        return _usage(f"--fixture {args.fixture}: {err}")
    if played.error and "is not in the store" in played.error:  # type: ignore[attr-defined]
        return _usage(f"--customer {args.customer!r} is not a customer in the store the replay starts from")
    # The suite names its fixture relative to itself.
    fixture = os.path.relpath(args.fixture.resolve(), (args.output or Path("x")).resolve().parent) if args.fixture else None
    out = suite_yaml(rec, played, name=name, customer=args.customer, fixture=fixture)  # type: ignore[arg-type]
    if args.output is not None:
        args.output.write_text(out, encoding="utf-8")
        print(f"wrote {args.output}: {len(rec.says)} turns; edit it, then `callcenter test {args.output}`", file=sys.stderr)
    else:
        sys.stdout.write(out)
    return 0


def _usage(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return _USAGE_ERROR
