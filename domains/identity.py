"""Identity verification, shared by every domain: required before any account data or change.

Remembered for the rest of the call in CallState. Guessing is throttled in the store, so it
holds across calls: every attempt is recorded under the *account* the identifier names
(customer number, email or phone: one count whichever is used), or under what was claimed
when it names none, and under the calling line (or call session). After a few failures for
one account or line, verification is refused for a while. The answer never says which fact
did not match, whether a number or an email exists, or that a lockout is in force: a guess
teaches the caller nothing.

A caller who says the account is someone else's ("i'm calling for my husband", "this is his
wife, his account is ...") is told what the account holder must do, and nothing is looked
at or filed: the account holder verifies and asks for themselves.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from livekit.agents import function_tool

from callcenter.llm.embedded import user_texts
from callcenter.logsafe import ref
from domains.holder import third_party
from domains.results import SpecialistResult
from domains.specialist import SpecialistTask, guarded
from domains.state import CallState

if TYPE_CHECKING:
    from callcenter.store.models import Customer

NO_MATCH = "Sorry, I couldn't verify those details. Could you give me your customer number and ZIP code again?"
ASK_BOTH = (
    "Before I can look at your account I need to verify who you are. Could you tell me "
    "your customer number, and the ZIP code on the account?"
)
ASK_ZIP = "Thank you. And the ZIP code on the account?"
# Who the caller is (customer number, email or phone) was said earlier in the call, before they
# turned to a need or began another answer: only the ZIP code is asked (CallState.caller.claimed).
ASK_ZIP_STILL = ("Before I can look at your account I need to verify who you are. I have your {what}; "
                 "what's the ZIP code on the account?")
ASK_ZIP_STILL_END = ASK_ZIP_STILL.rsplit("; ", 1)[-1]  # how every form of it ends
_CLAIMED_AS = {"customer_id": "customer number", "email": "email address", "phone": "phone number"}
# Asked instead of both again when an answer did not carry the customer number: one value
# at a time, as IVRs ask, so a recogniser hears a short answer of one known form (C and four
# digits; callcenter/speech/digit_grammar.py), then the ZIP alone (ASK_ZIP) if it is missing.
ASK_ID = "Let's take them one at a time. What's your customer number? It starts with a C."
# A failed check reads back what the line heard, digit by digit, so a misheard digit can be
# fixed ("no, it's one zero zero one"). Both values are read, so the caller learns nothing
# about which one did not match; each try is throttled like any other.
HEARD = (
    "Sorry, I couldn't verify those details. I heard customer number {id}, ZIP code {zip}. "
    "If I misheard, please say the right one again."
)
# The read-back's question: the caller says the misheard value again (meta/voice_slots.py).
READ_BACK_ASK = HEARD.rsplit(". ", 1)[-1]
HOLDER_MUST = (
    "I'm sorry, I can only help the account holder with their own account, so I haven't done or filed "
    "anything. The account holder needs to call us themselves: they verify with their customer "
    "number and ZIP code, and we'll take it from there."
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
    """The customer number in a caller's answer, reading an E-set letter as C; None if absent.
    Of two, the last: a caller who names two numbers corrects the first ("C1003, no sorry, mine is C1004")."""
    said = _E_SET_NUMBER.findall(text)
    return f"C{said[-1]}" if said else None


def asks_for_digits(reply: str) -> bool:
    """A reply of this task that a phone keypad can answer (meta offers the keypad then)."""
    return reply.rstrip().endswith((ASK_BOTH, ASK_ZIP, ASK_ZIP_STILL_END, ASK_ID, NO_MATCH, READ_BACK_ASK))


_BARE_NUMBER = re.compile(r"(?<![\w$.-])(\d{4,6})(?![\w-]|\.\d)")
_SAID_ZIP = re.compile(r"\b(?:zip|postal)\b", re.I)


_NEW_VALUE = re.compile(r"\b(?:change|changing|update|updating|new|switch|replace|set)\b", re.I)


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


def spoke_for_someone_else(agent: object) -> bool:
    """Anything the caller said on this call (the whole session, not only this task's part)
    disowns the account."""
    texts: list[str] = []
    try:
        history = agent.session.history  # type: ignore[attr-defined]
    except (AttributeError, RuntimeError):  # a task not running in a session (a unit test)
        history = None
    for ctx in (history, getattr(agent, "chat_ctx", None)):
        if ctx is not None:
            texts += user_texts(ctx)
    return any(third_party(t) for t in texts)


CLOSED = (
    "This account is closed, so I can't make changes, refunds or new requests on it. I can still tell you "
    "about its last invoices and any refund that was already on its way."
)


def account_refusal(task: SpecialistTask) -> str | None:
    """Why a specialist that changes something or files a request may not, for this caller:
    someone who is not the account holder spoke on this call, or the account is closed (a
    closure settles what was open; nothing new starts on a closed account). None: go on."""
    if spoke_for_someone_else(task):
        return HOLDER_MUST
    customer = task.state.ports.customers.get_customer(task.customer_id)
    if customer is not None and customer.closed:
        return CLOSED
    return None


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

    # Why the question is asked ("hm why do you need my zip"), said before it is asked again.
    slot_why = "It's how I make sure I'm speaking with the account holder before I look at the account or change anything."
    # Where the caller finds what is asked for ("where do i even find that? the customer number?").
    slot_where = ("Your customer number is at the top of every invoice and in the dashboard under Account settings; "
                  "it starts with a C. The ZIP code is the one on the account's billing address.")

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
        phone: str | None = None,
    ) -> str | None:
        """Check the caller's identity against the account on file.

        Args:
            customer_id: The customer number, like C1001.
            email: The email address on the account, if the caller gives that instead of the number.
            zip_code: The five-digit ZIP code on the account.
            birth_date: The account holder's date of birth, YYYY-MM-DD.
            phone: The phone number on the account, like +14155550101, if the caller gives that instead of the number.
        """
        store, settings, state = self.state.store, self.state.settings, self.state
        if spoke_for_someone_else(self):
            # Not the account holder: nothing is checked, recorded or filed; they hear what the holder must do.
            self.finish(VerifyIdentityResult(status="unverified", summary=HOLDER_MUST))
            return None
        if state.caller.verification_failures >= settings.verification_attempts:
            self._give_up()  # this call has had its guesses: a new request does not reset them
            return None
        if customer_id and not customer_id.strip().upper().startswith("C"):
            customer_id = heard_customer_number(customer_id) or customer_id  # a hosted LLM's "T1001"
        said = user_texts(self.chat_ctx)
        if not (customer_id or email or phone):
            customer_id = heard_customer_number(said[0]) if said else None
        earlier = not (customer_id or email or phone) and bool(state.caller.claimed)
        if earlier:
            customer_id, email, phone = (state.caller.claimed.get(k) for k in ("customer_id", "email", "phone"))
        read_back, self._read_back = self._read_back, None
        if read_back is not None and len(said) > read_back[2]:
            # The answer to a read-back: the value the caller fixed replaces the one misheard.
            fixed = correction(said[0], read_back[0], read_back[1])
            if fixed is not None:
                customer_id, zip_code, email, phone = fixed[0], fixed[1], None, None
        self._asked_zip = False
        if not (customer_id or email or phone) or not (zip_code or birth_date):
            if not self.another_attempt():
                return None
            named = customer_id or ((email or phone) and not (said and _NEW_VALUE.search(said[0])))
            if named and not birth_date:
                # "this is ada, a d a at example dot com": who, and only the ZIP code still to say
                # (not "change my email to ...": that address is the new one, nobody's yet)
                self._asked_zip = True
                state.caller.claimed = {k: v for k, v in (("customer_id", customer_id), ("email", email), ("phone", phone)) if v}
                what = _CLAIMED_AS[next(iter(state.caller.claimed))]
                return ASK_ZIP_STILL.format(what=what) if earlier else ASK_ZIP
            if self.attempts > 1 and not (customer_id or email or phone):
                return ASK_ID  # asked for both already: now the number alone
            return ASK_BOTH
        customer, claimed = _account(state, customer_id, email, phone)
        matches = customer is not None and (
            (zip_code is not None and zip_code.strip() == customer.zip_code)
            or (birth_date is not None and birth_date.strip() == customer.birth_date)
        )
        # Counted and recorded in one step, under the account whichever identifier named it
        # (or under the claim when it names none), and under the calling line.
        outcome = store.check_verification(
            key=customer.id if customer is not None else claimed, line=state.line_key, matched=matches,
            actor=f"call:{state.call_id}", window_s=settings.verification_lockout_s,
            limit=settings.verification_lockout_failures,
        )
        matches = outcome == "success"
        if matches and customer is not None:
            state.caller.verify(customer.id)
            closed = " " + CLOSED if customer.closed else ""
            self.finish(
                VerifyIdentityResult(
                    status="done", summary=f"Thank you, {customer.first_name}, you're verified.{closed}", customer_id=customer.id
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


def _account(state: CallState, customer_id: str | None, email: str | None, phone: str | None) -> tuple[Customer | None, str]:
    """The account the caller's identifier names (or None), and the throttle key of the claim
    itself, used when it names none: a lockout looks the same for known and unknown ones."""
    customers = state.ports.customers
    if customer_id:
        return customers.get_customer(customer_id), customer_id.strip().upper()
    if email:
        return customers.find_customer_by_email(email.strip()), "E:" + ref(email.strip().lower())
    digits = re.sub(r"\D", "", phone or "")
    # As said: "+1 415 555 0101", "415 555 0101", "1 415 555 0101"; kept on file in E.164.
    tried = [f"+{digits}", f"+1{digits}"] if len(digits) == 10 else [f"+{digits}"]
    found = next((c for c in (customers.find_customer_by_phone(n) for n in tried if digits) if c is not None), None)
    return found, "P:" + ref(tried[-1])
