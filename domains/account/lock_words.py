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


# Sign-ins someone else made: "who's been signing into my account", "logins from romania that
# weren't me", "alerts about sign ins". A question about them is security's, not a sign-in problem.
_SOMEONE_ELSES = re.compile(
    r"\b(?:who(?:'?s|\s+is|\s+has|\s+have)?|someone|somebody|strange|weird|unusual|suspicious|unknown|unrecogni[sz]ed|alerts?"
    r"|notifications?)\b.{0,40}\b(?:sign(?:ing|ed)?[-\s]?(?:in|ins|into)|log(?:ging|ged)?[-\s]?(?:in|ins|into)|logins?)\b"
    r"|\b(?:sign[-\s]?ins?|log[-\s]?ins?|logins?)\b.{0,30}\b(?:from|not\s+me|wasn'?t\s+me|weren'?t\s+me"
    # "a sign in yesterday i don't totally remember", "a login i never made"
    r"|i\s+(?:don'?t|do\s+not|can'?t)\s+(?:\w+\s+)?(?:recogni[sz]e|remember|recall)|i\s+(?:never|didn'?t)\s+(?:make|made|do|did))\b",
    re.I,
)


def sign_ins_by_someone_else(text: str) -> bool:
    """The caller asks about sign-ins they did not make ("who's been signing into my account")."""
    return bool(_SOMEONE_ELSES.search(text))


def asks_for_lock(text: str) -> bool:
    """The caller asks for the account to be locked ("lock it now", "i want it frozen")."""
    return bool(_ASKS_LOCK.search(text))


def locked_out(text: str) -> bool:
    """The caller says they cannot get in ("my account's locked", "i'm locked out")."""
    return bool(_LOCKED_OUT.search(text))



# "so my phone died, like completely", "dropped my phone in the lake": the phone that holds the
# authenticator is gone, which is the two-factor reset's need ("completely" alone reads as a
# closure to the router), unless the caller names the account's closure outright.
_PHONE_GONE = re.compile(
    r"\b(?:phone|mobile|cell|device|authenticator)\b.{0,30}?\b(?:died|dead|broke|broken|lost|stolen|gone|wiped|smashed|"
    r"fell|dropped|replaced|reset|factory)\b"
    r"|\b(?:lost|broke|dropped|replaced|smashed|wiped|reset)\s+(?:my|our|the)\s+(?:phone|mobile|cell|device)\b", re.I)
_CLOSES = re.compile(r"\b(?:close|cancel|terminate|delete|shut\s+down|end)\b.{0,30}\b(?:account|subscription|everything)\b", re.I)


def phone_gone(text: str) -> bool:
    """The caller's phone (the authenticator's) is lost, broken or replaced."""
    return bool(_PHONE_GONE.search(text))


def closes_account(text: str) -> bool:
    """The words ask for the account's closure outright."""
    return bool(_CLOSES.search(text))
