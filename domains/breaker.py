"""A per-process circuit breaker for specialists: stop sending callers to one that keeps failing.

After `threshold` failures in a row a specialist's circuit opens for `cooldown_s`: callers
routed to it get the fallback (a call back booked, with what they asked) at once instead of
waiting on a broken backend. After the cool-down one call is let through (half-open); its
success closes the circuit, its failure opens it again. One breaker per process is right:
each LiveKit job process or line sees its own backends' health, and the metrics and alert
aggregate them.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from callcenter import metrics


@dataclass
class _Circuit:
    failures: int = 0
    opened_at: float | None = None


class Breaker:
    def __init__(self, threshold: int = 3, cooldown_s: float = 60.0) -> None:
        self.threshold = threshold
        self.cooldown_s = cooldown_s
        self._circuits: dict[str, _Circuit] = {}
        self._lock = threading.Lock()

    def allows(self, agent: str) -> bool:
        """False while the circuit is open; True when closed or (once) half-open."""
        with self._lock:
            c = self._circuits.get(agent)
            if c is None or c.opened_at is None:
                return True
            if time.monotonic() - c.opened_at >= self.cooldown_s:
                c.opened_at = time.monotonic()  # half-open: one caller through, the rest wait again
                return True
            return False

    def success(self, agent: str) -> None:
        with self._lock:
            c = self._circuits.pop(agent, None)
        if c is not None and c.opened_at is not None:
            metrics.circuit_state(specialist=agent, open_=False)

    def failure(self, agent: str) -> None:
        with self._lock:
            c = self._circuits.setdefault(agent, _Circuit())
            c.failures += 1
            tripped = c.opened_at is None and c.failures >= self.threshold
            reopened = c.opened_at is not None
            if tripped or reopened:
                c.opened_at = time.monotonic()
        if tripped:
            metrics.circuit_state(specialist=agent, open_=True)

    def reset(self) -> None:
        with self._lock:
            for agent in list(self._circuits):
                metrics.circuit_state(specialist=agent, open_=False)
            self._circuits.clear()


BREAKER = Breaker()
