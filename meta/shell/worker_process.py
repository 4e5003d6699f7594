"""The worker process's surroundings: how its job processes are forked, where its logs go.

Kept apart from the worker (meta/shell/livekit_worker.py) because both are about the
operating system and LiveKit's CLI, not about calls.
"""

from __future__ import annotations

import logging
import multiprocessing
import signal
import sys

from livekit.agents import Plugin


def start_forkserver() -> None:
    """Start the job processes' forkserver now, immune to SIGTERM.

    On Linux LiveKit forks every job process from one forkserver. A SIGTERM sent to the
    whole process group (`timeout`, systemd's control group, `kill -- -PGID`) used to kill
    the forkserver with the worker: every idle job process then reported exit code 255 and
    one still loading its models logged "error initializing process". The worker itself
    drains on SIGTERM and closes its job processes; the forkserver exits on its own when
    the worker does (its end of the "alive" pipe closes). An ignored signal survives exec,
    so starting the forkserver while SIGTERM is ignored is enough; the job processes it
    forks ignore SIGTERM anyway (LiveKit's job main). The preload list is LiveKit's own,
    which it can no longer set once the forkserver runs.
    """
    if not sys.platform.startswith("linux"):
        return  # LiveKit uses spawn there: job processes are the worker's own children
    from multiprocessing import forkserver

    multiprocessing.get_context("forkserver").set_forkserver_preload(forkserver_preload())
    previous = signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        forkserver.ensure_running()
    finally:
        signal.signal(signal.SIGTERM, previous)


# What LiveKit's AgentServer.run appends after the plugins (livekit-agents 1.8; a test reads
# its source so an upgrade that changes the list fails CI instead of forking without it).
LIVEKIT_PRELOAD_TAIL = ("livekit.agents.ipc._preload", "livekit.agents.ipc._preload_freeze")  # the freeze stays last


def forkserver_preload() -> list[str]:
    """The modules LiveKit would preload in its forkserver (we start it first, so it can't)."""
    return list(dict.fromkeys(p.package for p in Plugin.registered_plugins)) + list(LIVEKIT_PRELOAD_TAIL)


def hand_logging_to_livekit() -> None:
    """LiveKit's CLI installs the worker's log handler (JSON lines on stdout for `start`,
    coloured text for `dev`): drop ours so no line is printed twice, and let LiveKit's
    `--log-level` govern its own logger, so "failed to connect to livekit" reaches the SRE.
    Call ids still reach every line: `install_log_filter` stamps them on each record."""
    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)
    logging.getLogger("livekit.agents").setLevel(logging.NOTSET)
