"""Identity verification, shared by every domain: required before any account data or change.

Remembered for the rest of the call in CallState. Which fact did not match is never
said, so the line cannot be used to guess a customer's details one field at a time.
"""

from __future__ import annotations

from dataclasses import dataclass

from livekit.agents import function_tool

from domains.results import SpecialistResult
from domains.specialist import SpecialistTask, guarded
from domains.state import CallState


@dataclass(kw_only=True)
class VerifyIdentityResult(SpecialistResult):
    customer_id: str | None = None


class VerifyIdentityTask(SpecialistTask[VerifyIdentityResult]):
    result_type = VerifyIdentityResult
    instructions = (
        "Verify the caller's identity before anything else: ask for their customer number "
        "(or the email on the account) and the ZIP code (or date of birth) on the account, "
        "then call verify_identity. Never reveal which detail did not match."
    )

    def __init__(self, *, state: CallState, chat_ctx=None, agent_id: str = "identity") -> None:
        super().__init__(state=state, agent_id=agent_id, chat_ctx=chat_ctx)

    @function_tool
    @guarded
    async def verify_identity(
        self,
        customer_id: str | None = None,
        email: str | None = None,
        zip_code: str | None = None,
        birth_date: str | None = None,
    ) -> str | None:
        """Check the caller's identity against the account on file.

        Args:
            customer_id: The customer number, like C1001.
            email: The email address on the account, if the caller gives that instead of the number.
            zip_code: The five-digit ZIP code on the account.
            birth_date: The account holder's date of birth, YYYY-MM-DD.
        """
        store = self.state.store
        if not (customer_id or email) or not (zip_code or birth_date):
            if not self.another_attempt():
                return None
            return (
                "Before I can look at your account I need to verify who you are. Could you tell me "
                "your customer number, and the ZIP code on the account?"
            )
        customer = store.get_customer(customer_id) if customer_id else store.find_customer_by_email(email or "")
        matches = customer is not None and (
            (zip_code is not None and zip_code.strip() == customer.zip_code)
            or (birth_date is not None and birth_date.strip() == customer.birth_date)
        )
        if matches and customer is not None:
            self.state.verify(customer.id)
            self.finish(
                VerifyIdentityResult(
                    status="done", summary=f"Thank you, {customer.first_name}, you're verified.", customer_id=customer.id
                )
            )
            return None
        self.state.verification_failures += 1
        if self.state.verification_failures >= self.state.settings.verification_attempts:
            self.finish(
                VerifyIdentityResult(
                    status="unverified",
                    summary=(
                        "I'm sorry, I couldn't verify your identity, so I can't make changes or share "
                        "account details on this call. You can reset access from the sign-in page."
                    ),
                )
            )
            return None
        return "Sorry, those details don't match our records. Could you give me your customer number and ZIP code again?"
