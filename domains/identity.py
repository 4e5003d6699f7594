"""Identity verification, shared by every domain: required before any account data or change.

Remembered for the rest of the call in CallState. Guessing is throttled in the store, so it
holds across calls: every attempt is recorded, and after a few failures for one customer
number (or email) or from one calling line/session, verification is refused for a while.
The answer never says which fact did not match, whether a number or an email exists, or
that a lockout is in force for that number: a guess teaches the caller nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from livekit.agents import function_tool

from callcenter.llm.embedded import user_texts
from callcenter.logsafe import ref
from domains.results import SpecialistResult
from domains.specialist import SpecialistTask, guarded
from domains.state import CallState

NO_MATCH = "Sorry, I couldn't verify those details. Could you give me your customer number and ZIP code again?"
ASK_BOTH = (
    "Before I can look at your account I need to verify who you are. Could you tell me "
    "your customer number, and the ZIP code on the account?"
)
ASK_ZIP = "Thank you. And the ZIP code on the account?"
# A failed check reads back what the line heard, digit by digit, so a misheard digit can be
# fixed ("no, it's one zero zero one"). Both values are read, so the caller learns nothing
# about which one did not match; each try is throttled like any other.
HEARD = (
    "Sorry, I couldn't verify those details. I heard customer number {id}, ZIP code {zip}. "
    "If I misheard, please say the right one again."
)
GIVE_UP = (
    "I'm sorry, I couldn't verify your identity, so I can't make changes or share account details on this "
    "call. You can reset access from the sign-in page."
)


# Customer numbers all begin with C, and recognisers confuse the letters that rhyme with it
# (the "E-set": B C D E G P T V Z): a second voice's "C one zero zero one" comes back as
# "T1001". In answer to this task's own question, such a letter before four to six digits is
# the customer number. This grants nothing: the ZIP code or birth date must still match, and
# the attempt is throttled under that C number like any other guess.
_E_SET_NUMBER = re.compile(
    r"(?<![\w-])(?:[bcdegptvz]|bee|see|sea|cee|dee|gee|pee|tee|vee|zee)[\s.]?(\d{4,6})(?![\w-])", re.I)


def heard_customer_number(text: str) -> str | None:
    """The customer number in a caller's answer, reading an E-set letter as C; None if absent."""
    m = _E_SET_NUMBER.search(text)
    return f"C{m.group(1)}" if m else None


def asks_for_digits(reply: str) -> bool:
    """A reply of this task that a phone keypad can answer (meta offers the keypad then)."""
    return reply.rstrip().endswith((ASK_BOTH, ASK_ZIP, NO_MATCH, HEARD.rsplit(". ", 1)[-1]))


_BARE_NUMBER = re.compile(r"(?<![\w$.-])(\d{4,6})(?![\w-]|\.\d)")
_SAID_ZIP = re.compile(r"\b(?:zip|postal)\b", re.I)


def spaced(value: str) -> str:
    """'C1001' -> 'C 1 0 0 1': read aloud one character at a time."""
    return " ".join(value)


def _closer_to_id(digits: str, heard_id: str, heard_zip: str) -> bool:
    """A bare number said (or typed) to correct a read-back: the customer number or the ZIP?
    Only a five-digit number can be either; then it is the one it differs from least."""
    if len(digits) != 5:
        return True
    id_digits = heard_id[1:]

    def distance(a: str, b: str) -> int:
        return sum(x != y for x, y in zip(a, b, strict=False)) + abs(len(a) - len(b))

    return distance(digits, id_digits) < distance(digits, heard_zip)


def correction(text: str, heard_id: str, heard_zip: str) -> tuple[str, str] | None:
    """The (customer number, ZIP) a caller means after hearing them read back, or None when
    the answer fixes neither ("yes", "that's right")."""
    new_id, new_zip = heard_id, heard_zip
    said_id = heard_customer_number(text)
    rest = _E_SET_NUMBER.sub(" ", text)
    if said_id:
        new_id = said_id
    for digits in _BARE_NUMBER.findall(rest):
        if len(digits) == 5 and (_SAID_ZIP.search(rest) or said_id or not _closer_to_id(digits, heard_id, heard_zip)):
            new_zip = digits
        elif not said_id:
            new_id = f"C{digits}"
    return (new_id, new_zip) if (new_id, new_zip) != (heard_id, heard_zip) else None


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
        self._asked_zip = False  # the last question asked for the ZIP code alone
        self._read_back: tuple[str, str, int] | None = None  # (id, ZIP, caller turns) last read back

    def keypad_reading(self, keys: str) -> str | None:
        """Keys pressed in answer to this task's question, as the words a caller would say:
        the keypad has no C, so digits asked for as the customer number are read as one;
        '*' separates the customer number from the ZIP code. None: not an answer here."""
        groups = [g for g in keys.replace("#", "").split("*") if g]
        if not groups or not all(g.isdigit() for g in groups):
            return None
        if len(groups) >= 2:
            return f"customer number C{groups[0]}, ZIP code {groups[1]}"
        digits = groups[0]
        if self._read_back is not None:
            as_id = _closer_to_id(digits, *self._read_back[:2])
        else:
            as_id = not self._asked_zip
        return f"customer number C{digits}" if as_id else f"ZIP code {digits}"

    def _give_up(self) -> None:
        self.finish(VerifyIdentityResult(status="unverified", summary=GIVE_UP))

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
        store, settings, state = self.state.store, self.state.settings, self.state
        if state.caller.verification_failures >= settings.verification_attempts:
            self._give_up()  # this call has had its guesses: a new request does not reset them
            return None
        if customer_id and not customer_id.strip().upper().startswith("C"):
            customer_id = heard_customer_number(customer_id) or customer_id  # a hosted LLM's "T1001"
        said = user_texts(self.chat_ctx)
        if not (customer_id or email):
            customer_id = heard_customer_number(said[0]) if said else None
        read_back, self._read_back = self._read_back, None
        if read_back is not None and len(said) > read_back[2]:
            # The answer to a read-back: the value the caller fixed replaces the one misheard.
            fixed = correction(said[0], read_back[0], read_back[1])
            if fixed is not None:
                customer_id, zip_code, email = fixed[0], fixed[1], None
        self._asked_zip = False
        if not (customer_id or email) or not (zip_code or birth_date):
            if not self.another_attempt():
                return None
            if customer_id and not email and not birth_date:
                self._asked_zip = True
                return ASK_ZIP
            return ASK_BOTH
        customers = state.ports.customers
        customer = customers.get_customer(customer_id) if customer_id else customers.find_customer_by_email(email or "")
        # The throttle key is what the caller claimed, known or not, so a lockout looks the same either way.
        claimed = customer_id.strip().upper() if customer_id else "E:" + ref((email or "").strip().lower())
        window, limit = settings.verification_lockout_s, settings.verification_lockout_failures
        line = state.line_key
        locked_out = (
            store.verification_failures(customer_id=claimed, window_s=window) >= limit
            or store.verification_failures(line=line, window_s=window) >= limit
        )
        matches = not locked_out and customer is not None and (
            (zip_code is not None and zip_code.strip() == customer.zip_code)
            or (birth_date is not None and birth_date.strip() == customer.birth_date)
        )
        outcome = "success" if matches else ("locked_out" if locked_out else "failure")
        store.record_verification(customer_id=claimed, line=line, outcome=outcome, actor=f"call:{state.call_id}")
        if matches and customer is not None:
            state.caller.verify(customer.id)
            self.finish(
                VerifyIdentityResult(
                    status="done", summary=f"Thank you, {customer.first_name}, you're verified.", customer_id=customer.id
                )
            )
            return None
        state.caller.verification_failures += 1
        if state.caller.verification_failures >= settings.verification_attempts:
            self._give_up()
            return None
        if customer_id and zip_code and (read_back is None or read_back[:2] != (claimed, zip_code.strip())):
            self._read_back = (claimed, zip_code.strip(), len(said))
            return HEARD.format(id=spaced(claimed), zip=spaced(zip_code.strip()))
        return NO_MATCH
