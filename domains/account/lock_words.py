"""How callers ask for a lock, as against saying they are locked out.

"i want my account locked right now" asks the security specialist for a lock; "my account is
locked" / "i'm locked out" is a sign-in problem. The router reads both by the word "locked".
"""

from __future__ import annotations

import re

_ASKS_LOCK = re.compile(
    r"\b(?:want|need|like|please|can\s+you|could\s+you|go\s+ahead\s+and|just)\b.{0,30}\b(?:lock|freeze|block|disable|suspend)"
    r"|\b(?:lock|freeze|block|disable|suspend)\s+(?:it|my|the|our|this|everything)\b"
    r"|\b(?:have|get|keep)\s+(?:it|my\s+account|the\s+account)\s+(?:locked|frozen|blocked)\b",
    re.I,
)
_LOCKED_OUT = re.compile(
    r"\b(?:i'?m|i\s+am|we'?re|got|been|get|getting|keep\s+getting)\s+locked\s+out|\b(?:is|was|got|been|it'?s|account'?s)\s+locked\b"
    r"|\bcan'?t\s+(?:log|sign|get)\b|\bcannot\s+(?:log|sign|get)\b",
    re.I,
)


def asks_for_lock(text: str) -> bool:
    """The caller asks for the account to be locked ("lock it now", "i want it frozen")."""
    return bool(_ASKS_LOCK.search(text))


def locked_out(text: str) -> bool:
    """The caller says they cannot get in ("my account's locked", "i'm locked out")."""
    return bool(_LOCKED_OUT.search(text))


def never(_text: str) -> bool:
    return False
