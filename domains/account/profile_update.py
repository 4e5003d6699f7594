"""Profile updates: change the email or phone on file, and tell the old address."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from livekit.agents import function_tool

from domains.results import SpecialistResult
from domains.specialist import SpecialistTask, guarded

_EMAIL = re.compile(r"^[a-z0-9._%+-]{1,64}@[a-z0-9.-]{1,200}\.[a-z]{2,24}$", re.I)
_PHONE = re.compile(r"^\+\d{10,15}$")


@dataclass(kw_only=True)
class UpdateProfileResult(SpecialistResult):
    changed: list[str] = field(default_factory=list)


class UpdateProfileTask(SpecialistTask[UpdateProfileResult]):
    result_type = UpdateProfileResult
    instructions = "You update the email address or phone number on file. Call update_profile with the new value."

    @function_tool
    @guarded
    async def update_profile(self, email: str | None = None, phone: str | None = None) -> str | None:
        """Change the email address and/or phone number on the caller's account.

        Args:
            email: The new email address, if the caller wants to change it.
            phone: The new phone number in international format, like +14155550123, if the caller wants to change it.
        """
        store = self.state.store
        customer = store.get_customer(self.customer_id)
        assert customer is not None
        if email is None and phone is None:
            if not self.another_attempt():
                return None
            return "What's the new email address or phone number you'd like on the account?"
        if email is not None and not _EMAIL.match(email.strip()):
            return "That doesn't sound like a valid email address. Could you spell it out again?"
        if phone is not None and not _PHONE.match(phone.strip()):
            return "That doesn't sound like a valid phone number. Could you say it again with the country code?"
        if email is not None and (other := store.find_customer_by_email(email)) and other.id != customer.id:
            return "That email address is already used by another account. Could you give me a different one?"
        changed = []
        if email is not None and email.lower() != customer.email:
            store.update_email(customer.id, email.strip().lower())
            changed.append("email")
        if phone is not None and phone != customer.phone:
            store.update_phone(customer.id, phone.strip())
            changed.append("phone")
        if changed:
            store.add_notification(
                customer_id=customer.id, channel="email", body=f"Your {' and '.join(changed)} was changed",
                dedupe_key=f"profile-{customer.id}-{'-'.join(changed)}-{self.state.turn}",
            )
            summary = f"Done: I've updated your {' and '.join(changed)}. We've sent a notice to your previous email address."
        else:
            summary = "Those details are already on your account, so nothing needed changing."
        self.finish(UpdateProfileResult(status="done" if changed else "info", summary=summary, changed=changed))
        return None
