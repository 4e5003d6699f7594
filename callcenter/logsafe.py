"""Log references that let operators correlate lines without writing caller data.

Business ids embed customer and charge ids (`refund-CH-1002-D`); logs carry a stable short
digest instead, which an operator can recompute from an id to find its log lines.
"""

from __future__ import annotations

import hashlib


def ref(value: str) -> str:
    """A stable, non-reversible 10-character reference for an id that may name a customer."""
    return "ref:" + hashlib.sha256(value.encode()).hexdigest()[:10]
