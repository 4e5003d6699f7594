"""Caps on what one caller may file: tickets, account changes waiting for a call back, call-backs.

A caller (or a script on a phone line) could otherwise open tickets, unlock requests or
call-backs without end, each one work for a person. Every place that files one at the
caller's request claims it here first; past a cap, nothing is filed and the caller is told
plainly why. The caps are settings (`CALLCENTER_MAX_*`): per call, and per customer per 24
hours (for a caller not verified, per calling line). What the line files on its own after a
failure (the call-back of `base.fallback`) is not the caller's to cap.

A caller not verified books a call-back only to the line they call from: with no calling
number known (a web or text session) there is nobody to call back, so they are asked to
verify or to call from their phone; nothing is filed under no one.
"""

from __future__ import annotations

from typing import Literal

from callcenter.logsafe import ref
from domains.state import CallState

Kind = Literal["ticket", "pending_change", "callback"]

_CAPPED: dict[Kind, str] = {
    "ticket": (
        "I've already opened as many tickets as I can for you {when}, so I haven't opened another. Our engineers "
        "are working through the ones you have; you can ask me about any of them by its number."
    ),
    "pending_change": (
        "I've already taken as many account changes as I can for you {when}, so I haven't filed another. The "
        "ones you asked for are waiting for our call back to the number on file."
    ),
    "callback": (
        "You already have a call back booked {when}, so I haven't booked another; a colleague will call you "
        "within one business day."
    ),
}
_WHEN = {"call": "on this call", "day": "today"}
NO_ONE_TO_CALL = (
    "I can't book a call back yet: I don't know who you are or which number to call. I'll book it as soon as I "
    "verify you (or call us from your own phone and ask again). What's your customer number, and the ZIP code on "
    "the account?"
)


def claim(state: CallState, kind: Kind) -> str | None:
    """None: the caller may file one more `kind` (it is counted now); else the sentence to say."""
    s = state.settings
    per_call, per_day = {
        "ticket": (s.max_tickets_per_call, s.max_tickets_per_day),
        "pending_change": (s.max_pending_changes_per_call, s.max_pending_changes_per_day),
        "callback": (s.max_callbacks_per_call, s.max_callbacks_per_day),
    }[kind]
    customer = state.caller.customer_id if state.caller.verified else None
    line = ref(state.caller.line) if state.caller.line else None
    if kind == "callback" and customer is None and line is None:
        return NO_ONE_TO_CALL
    hit = state.store.claim_request(kind=kind, call_id=state.call_id, customer_id=customer, line=line,
                                    per_call=per_call, per_day=per_day)
    return None if hit is None else _CAPPED[kind].format(when=_WHEN[hit])
