"""`callcenter`: the one command for callers' lines, operators and SREs.

Subcommands: call (a text call in this terminal), worker (LiveKit rooms), and those that
other modules register: router (train/eval), temporal-worker, temporal-server, approvals,
tickets, console, operators, db, reset-demo, test (conversation suites). Expected problems print one line on stderr and exit non-zero.
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import contextlib
import logging
import os
import sys
from pathlib import Path
from typing import NoReturn

from callcenter import tracing
from callcenter.settings import SettingsError, get_settings
from callcenter.store import cli as store_cli


def _cmd_call(args: argparse.Namespace) -> int:
    from meta.session import UnknownCustomerError
    from meta.shell.repl import run_call

    settings = get_settings()
    if args.log_level is None and "CALLCENTER_LOG_LEVEL" not in os.environ:
        # The terminal is the caller's transcript: the dev server's and the worker's INFO
        # lines stay out of it unless a log level was asked for.
        logging.getLogger().setLevel(logging.WARNING)
    if args.voice or args.audio_in or args.audio_out:
        return _voice_call(args, settings)
    if hasattr(sys.stdin, "reconfigure"):
        # Undecodable bytes must not stop the call; repl replaces them and says so.
        sys.stdin.reconfigure(errors="surrogateescape")
    try:
        return asyncio.run(
            run_call(
                settings,
                customer_id=args.customer,
                as_json=args.json,
                metrics_port=args.metrics_port,
                durable=not args.no_durable,
            )
        )
    except UnknownCustomerError:
        print(f"error: --customer {args.customer!r} is not a known customer id (like C1001)", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def _voice_call(args: argparse.Namespace, settings: object) -> int:
    from meta.session import UnknownCustomerError
    from meta.shell.voice_cli import NoSoundDevice, run_voice_call
    from meta.voice_io import AudioFileError

    closed: list[bool] = []
    try:
        code = asyncio.run(
            run_voice_call(
                settings,  # type: ignore[arg-type]
                customer_id=args.customer,
                as_json=args.json,
                durable=not args.no_durable,
                audio_in=args.audio_in,
                audio_out=args.audio_out,
                metrics_port=args.metrics_port,
                on_closed=lambda: closed.append(True),
            )
        )
    except (AudioFileError, NoSoundDevice) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except UnknownCustomerError:
        print(f"error: --customer {args.customer!r} is not a known customer id (like C1001)", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        code = 130
    if closed and args.audio_in is None:
        _leave_now(code)
    return code


def _leave_now(code: int) -> NoReturn:
    """End a live call's process at once, once the call has closed cleanly.

    After Ctrl-C the interpreter's own teardown (finalising every module, a garbage collection
    over the loaded engines' objects: about 1 CPU-s) stretched the exit to 4 s on a quiet
    machine and 11 s at load average 13 (benchmarks/README.md, issue 26); a caller who hung up
    waits for nothing of it. What must still happen does: the exit handlers libraries
    registered (OpenTelemetry's span export, logging's flush, PortAudio's terminate) run, the
    output streams are flushed, then `os._exit` skips the rest. Only here: every other
    command, and a call that ended with an error, exits the ordinary way."""
    atexit._run_exitfuncs()  # the documented exit handlers, as a normal exit would run them
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe or stream: nothing more to say
            stream.flush()
    os._exit(code)


def _domain_schemas() -> tuple:
    from meta.actions import domain_schemas  # the domains are loaded only when `db` runs

    return domain_schemas()


def _cmd_worker(args: argparse.Namespace) -> int:
    from meta.shell import worker_help

    if worker_help.wants_help(args.worker_args):
        return worker_help.print_help(args.worker_args)  # without importing LiveKit (seconds)
    from meta.shell.livekit_worker import run

    return run(get_settings(), args.worker_args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="callcenter",
        description="A hierarchical voice call center: meta-supervisor, domain supervisors, specialists.",
        epilog="Settings come from CALLCENTER_* environment variables or .env; see README.",
    )
    _log_level_option(parser, default=None)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("call", help="call the line in this terminal: one caller turn per input line")
    p.add_argument("--json", action="store_true", help="print one JSON object per turn (turn, user, reply, hops, results)")
    p.add_argument("--customer", metavar="ID", help="start as this known, verified customer (e.g. C1001)")
    p.add_argument("--metrics-port", type=int, metavar="P", help="serve Prometheus /metrics on 127.0.0.1:P (0 = any free port)")
    p.add_argument("--no-durable", action="store_true", help="do not start Temporal; approvals wait in the store's outbox")
    p.add_argument("--voice", action="store_true", help="a spoken call: the microphone and speaker, or the files below")
    p.add_argument("--audio-in", type=Path, metavar="FILE|DIR", help="caller turns: a folder with one WAV (speech) or .dtmf file (keypad keys, e.g. 1001#) per turn, or one WAV with pauses (implies --voice)")
    p.add_argument("--audio-out", type=Path, metavar="FILE", help="write the agent's side of the call to this WAV (implies --voice)")
    p.set_defaults(func=_cmd_call)

    # add_help=False: `worker --help` and `worker start --help` reach meta.shell.livekit_worker, which
    # prints its own usage or LiveKit's, without needing any setting.
    p = sub.add_parser("worker", add_help=False, help="serve LiveKit rooms: worker start|dev|connect|selfcheck")
    p.add_argument("worker_args", nargs=argparse.REMAINDER, help="start, dev, connect, selfcheck (see `worker --help`)")
    p.set_defaults(func=_cmd_worker)

    for module in ("meta.shell.cli_router", "meta.shell.cli_temporal", "meta.shell.cli_console", "meta.shell.cli_demo",
                   "meta.shell.cli_test"):
        __import__(module, fromlist=["register"]).register(sub)
    store_cli.register(sub, database=lambda: get_settings().db_path, schemas=_domain_schemas)  # `db upgrade` brings the domains' tables too
    _accept_program_options_after(sub, skip=("worker",))
    return parser


LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


def _log_level_option(parser: argparse.ArgumentParser, default: object) -> None:
    parser.add_argument("--log-level", default=default, type=str.upper, choices=LEVELS, metavar="LEVEL",
                        help="DEBUG, INFO, WARNING or ERROR (default: CALLCENTER_LOG_LEVEL)")


def _accept_program_options_after(sub: argparse._SubParsersAction, skip: tuple[str, ...]) -> None:
    """`callcenter call --log-level INFO` as well as `callcenter --log-level INFO call`, at
    every depth (`approvals list --log-level DEBUG`). SUPPRESS: a subcommand that was not
    given it leaves the program's value alone. `worker` is skipped: LiveKit's CLI owns its
    options and has a --log-level of its own."""
    for name, parser in sub.choices.items():
        if name in skip:
            continue
        _log_level_option(parser, default=argparse.SUPPRESS)
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                _accept_program_options_after(action, skip=())


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    # LiveKit's CLI owns the worker's options, so unknown ones pass through to it only.
    args, unknown = parser.parse_known_args(argv)
    if unknown and args.command != "worker":
        parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    if args.command == "worker":
        args.worker_args = [*args.worker_args, *unknown]
    try:
        settings = get_settings()
    except SettingsError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=(args.log_level or settings.log_level).upper(),
        format=tracing.LOG_FORMAT,
        stream=sys.stderr,
    )
    tracing.install_log_filter()  # every line says which call it belongs to
    # LiveKit warns about its own deprecations on every call; operators cannot act on it.
    logging.getLogger("livekit.agents").setLevel(max(logging.ERROR, logging.getLogger().level))
    from callcenter.store import StoreError
    from callcenter.store.adapters import AdapterError

    try:
        return int(args.func(args) or 0)
    except SettingsError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except Exception as err:
        # Bad local state (database, data dir, router model, adapters): one line, never a traceback.
        if isinstance(err, (StoreError, AdapterError, *_router_errors())):
            print(f"error: {_one_line(str(err))}", file=sys.stderr)
            return 2
        raise


def _router_errors() -> tuple[type[Exception], ...]:
    """RouterModelError, if the router was loaded at all: importing it for an operator's
    command would load the classifier's libraries (seconds) for nothing."""
    routing = sys.modules.get("callcenter.routing.classifier")
    return (routing.RouterModelError,) if routing is not None else ()


def _one_line(text: str) -> str:
    return " ".join(text.split())


if __name__ == "__main__":
    sys.exit(main())
