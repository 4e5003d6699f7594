"""`callcenter worker --help` and `worker start|dev|connect --help`, printed without LiveKit.

Help must be instant: the worker module imports LiveKit Agents, the router and the speech
stack (20-30 s on a loaded 2-core machine), none of which a usage text needs. The options
below are LiveKit's CLI's for each command (livekit-agents 1.8; tests/core/test_worker.py
holds them against LiveKit's own CLI, so an upgrade that changes them fails there).
"""

from __future__ import annotations

USAGE = """usage: callcenter worker {start,dev,connect,selfcheck,download-files} [options]

  start       serve LiveKit rooms (production); runs the self-check first
  dev         serve LiveKit rooms with LiveKit's development defaults; self-check first
  connect     join one existing room (LiveKit's CLI)
  selfcheck   run one scripted, read-only call in a real job process and exit 0 or 1
  download-files  LiveKit's plugin model download (no plugin here needs it)

Needs CALLCENTER_LIVEKIT_URL (or LIVEKIT_URL) and the API key/secret for start/dev/connect.
For a call in this terminal, without LiveKit, use `callcenter call`.
Set CALLCENTER_WORKER_SELFCHECK=false to skip the start-up self-check.
`callcenter worker COMMAND --help` shows a command's options."""

_CONNECTION = (
    ("--url URL", "the WebSocket URL of the LiveKit server (env: LIVEKIT_URL; CALLCENTER_LIVEKIT_URL)"),
    ("--api-key KEY", "LiveKit API key (env: LIVEKIT_API_KEY; CALLCENTER_LIVEKIT_API_KEY)"),
    ("--api-secret SECRET", "LiveKit API secret (env: LIVEKIT_API_SECRET; CALLCENTER_LIVEKIT_API_SECRET)"),
)
_LEVEL = "trace, debug, info, warn, error or critical"

# command -> (what it does, its options as (option, help))
COMMANDS: dict[str, tuple[str, tuple[tuple[str, str], ...]]] = {
    "start": (
        "Serve LiveKit rooms in production, after a scripted self-check call in a job process.",
        (("--log-level LEVEL", f"{_LEVEL} (env: LIVEKIT_LOG_LEVEL; default info)"), *_CONNECTION,
         ("--drain-timeout S", "seconds to let calls finish before shutting down (default: CALLCENTER_DRAIN_TIMEOUT_S)")),
    ),
    "dev": (
        "Serve LiveKit rooms with LiveKit's development defaults, after the self-check.",
        (("--log-level LEVEL", f"{_LEVEL} (env: LIVEKIT_LOG_LEVEL; default debug)"),
         ("--reload / --no-reload", "restart when code files change (default: on)"), *_CONNECTION),
    ),
    "connect": (
        "Join one existing room (LiveKit's CLI).",
        (("--log-level LEVEL", f"{_LEVEL} (default debug)"), *_CONNECTION,
         ("--room NAME", "the room to join"), ("--participant-identity ID", "the identity to join as")),
    ),
    "selfcheck": ("Run one scripted, read-only call in a real job process; exit 0 if it passed, 1 if not.", ()),
    "download-files": ("LiveKit's plugin model download (no plugin here needs it).", ()),
}


def wants_help(argv: list[str]) -> bool:
    return not argv or argv[0] in ("-h", "--help", "help") or "--help" in argv or "-h" in argv


def print_help(argv: list[str]) -> int:
    """The usage for `worker [COMMAND] --help`; 2 for a bare `worker` (a usage error)."""
    command = argv[0] if argv else ""
    if command not in COMMANDS:
        print(USAGE)
        return 0 if command else 2
    what, options = COMMANDS[command]
    print(f"usage: callcenter worker {command} [options]\n\n{what}\n")
    if options:
        print("options:")
        width = max(len(o) for o, _ in options)
        for option, text in (*options, ("--help", "show this message and exit")):
            print(f"  {option.ljust(width)}  {text}")
    return 0
