"""Step-up before risky account changes: a call back to the number already on file.

Unlocking an account or changing its contact details is how a takeover ends, so knowing a
customer number and a ZIP code is not enough: the change waits in `pending_changes` and a
callback ticket asks a colleague to call the number on file (not one the caller gives) and
apply it only if the account holder confirms there.
"""

from __future__ import annotations

from callcenter.routing.discourse import FollowUp
from domains.caps import claim
from domains.state import CallState

# What a caller hears when they ask about a change that waits for this call back.
STEP_UP_HOW = (
    "It isn't changed on this call: for your security we call you back at the number on file to confirm, usually within one business day, and make the change then."
)
STEP_UP_WHY = (
    "changes like this are how accounts get taken over, so knowing the customer number and ZIP code isn't enough: "
    "we confirm with a call to the number already on file."
)


def step_up_follow_ups(phone: str) -> dict[FollowUp, str]:
    """What a caller asks next about a change waiting for its call back ("how long until you
    call", "which number will they ring"): the call back's own facts."""
    called = f"the number on file ending {last_digits(phone)}"
    return {
        "how_long": f"We'll call you back at {called}, usually within one business day, and make the change then.",
        "where": f"We'll call {called}, not a number given on this call.",
        "next_step": f"Nothing more from you: answer our call to {called}, usually within one business day.",
        "done": f"Not yet: it waits for our call back to {called} to confirm it.",
    }


def last_digits(phone: str) -> str:
    return phone[-4:] if len(phone) >= 4 else "on file"


def already_waiting(
    state: CallState, *, customer_id: str, field: str, new_value: str | None, what: str,
) -> tuple[str, str] | None:
    """The same change already waiting for its call back: (reference, what to tell the caller).

    Checked before a read-back too, so a caller who asks again hears it is already asked for,
    not the same read-back a second time."""
    customer = state.ports.customers.get_customer(customer_id)
    assert customer is not None
    same = [c for c in state.store.list_pending_changes(customer_id)
            if c.status == "awaiting_callback" and c.field == field and c.new_value == new_value]
    if not same:
        return None
    return same[-1].id, (
        f"You've already asked for {what}: it's waiting for our call back to the number on file ending "
        f"{last_digits(customer.phone)}, so I haven't filed it again. Your reference is {same[-1].id}."
    )


def request_step_up(
    state: CallState, *, customer_id: str, field: str, new_value: str | None, what: str,
) -> tuple[str | None, str]:
    """File the change for a call back; returns (reference, what to tell the caller).

    The same change already waiting is not filed twice (its reference is said again), and a
    new one counts against the caps on pending changes (`domains/caps.py`): past them the
    reference is None and the caller hears why nothing was filed."""
    store, ports = state.store, state.ports
    customer = ports.customers.get_customer(customer_id)
    assert customer is not None
    same = already_waiting(state, customer_id=customer_id, field=field, new_value=new_value, what=what)
    if same is not None:
        return same
    capped = claim(state, "pending_change")
    if capped is not None:
        return None, capped
    change = store.add_pending_change(customer_id=customer_id, field=field, new_value=new_value)
    ports.tickets.create_ticket(
        customer_id=customer_id, kind="step_up_callback",
        summary=f"Call the number on file to confirm {what} ({change.id}); apply it only if the account holder confirms.",
    )
    store.add_audit(subject=customer_id, action=f"step_up:{field}", actor="agent:account", reason=f"pending change {change.id}")
    store.add_notification(
        customer_id=customer_id, channel="email", body=f"We received a request for {what}. We'll call the number on file to confirm it.",
        dedupe_key=f"step-up-{change.id}",
    )
    say = (
        f"For your security I can't do that on this call: we'll call you back at the number on file ending "
        f"{last_digits(customer.phone)} to confirm, and make the change then. Your reference is {change.id}."
    )
    return change.id, say
