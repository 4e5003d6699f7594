"""Runs the operator commands the way `callcenter` does (argparse + register), standalone,
so the tests see exit codes and stderr exactly as an operator would."""

from __future__ import annotations

import argparse
import sys

from meta.cli_temporal import register


def main() -> int:
    parser = argparse.ArgumentParser(prog="callcenter")
    register(parser.add_subparsers(dest="cmd", required=True))
    args = parser.parse_args()
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
