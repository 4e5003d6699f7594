"""`callcenter`: the one command for callers' lines, operators and SREs.

Subcommands: call (a text call in this terminal), worker (LiveKit rooms), and those that
other modules register: router (train/eval), temporal-worker, temporal-server, approvals,
tickets, console, operators. Expected problems print one line on stderr and exit non-zero.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from callcenter.settings import SettingsError, get_settings


def _cmd_call(args: argparse.Namespace) -> int:
    from meta.repl import run_call
    from meta.session import UnknownCustomerError

    settings = get_settings()
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


def _cmd_worker(args: argparse.Namespace) -> int:
    from meta.worker import run

    return run(get_settings(), args.worker_args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="callcenter",
        description="A hierarchical voice call center: meta-supervisor, domain supervisors, specialists.",
        epilog="Settings come from CALLCENTER_* environment variables or .env; see README.",
    )
    parser.add_argument("--log-level", default=None, help="DEBUG, INFO, WARNING or ERROR (default: CALLCENTER_LOG_LEVEL)")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("call", help="call the line in this terminal: one caller turn per input line")
    p.add_argument("--json", action="store_true", help="print one JSON object per turn (turn, user, reply, hops, results)")
    p.add_argument("--customer", metavar="ID", help="start as this known, verified customer (e.g. C1001)")
    p.add_argument("--metrics-port", type=int, metavar="P", help="serve Prometheus /metrics on 127.0.0.1:P (0 = any free port)")
    p.add_argument("--no-durable", action="store_true", help="do not start Temporal; approvals wait in the store's outbox")
    p.set_defaults(func=_cmd_call)

    # add_help=False: `worker --help` and `worker start --help` reach meta.worker, which
    # prints its own usage or LiveKit's, without needing any setting.
    p = sub.add_parser("worker", add_help=False, help="serve LiveKit rooms: worker start|dev|connect|selfcheck")
    p.add_argument("worker_args", nargs=argparse.REMAINDER, help="start, dev, connect, selfcheck (see `worker --help`)")
    p.set_defaults(func=_cmd_worker)

    for module in ("meta.cli_router", "meta.cli_temporal", "meta.cli_console"):
        __import__(module, fromlist=["register"]).register(sub)
    return parser


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
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    # LiveKit warns about its own deprecations on every call; operators cannot act on it.
    logging.getLogger("livekit.agents").setLevel(max(logging.ERROR, logging.getLogger().level))
    try:
        return int(args.func(args) or 0)
    except SettingsError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
