"""Runs the operator commands the way `callcenter` does (argparse + register), standalone,
so the tests see exit codes and stderr exactly as an operator would."""

from __future__ import annotations

import argparse
import sys

from meta import cli_console, cli_temporal


def main() -> int:
    parser = argparse.ArgumentParser(prog="callcenter")
    sub = parser.add_subparsers(dest="cmd", required=True)
    cli_temporal.register(sub)
    cli_console.register(sub)
    args = parser.parse_args()
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
