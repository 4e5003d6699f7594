"""Profile updates: a new email or phone is read back, confirmed, then confirmed again by a call back."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from livekit.agents import function_tool

from callcenter.llm.embedded import user_texts
from callcenter.routing.slots import SlotReader, Slots
from callcenter.spoken import normalise, wordy_email
from domains.account.login_help import mask_email
from domains.account.step_up import STEP_UP_HOW, STEP_UP_WHY, request_step_up, step_up_follow_ups
from domains.frame import ActionFacts
from domains.identity import account_refusal
from domains.intent import ActionGate
from domains.results import SpecialistResult
from domains.specialist import SpecialistTask, guarded

ASK_EMAIL = "What's the new email address?"


@dataclass(frozen=True)
class ProfileSlots(SlotReader):
    """The line's slots, read where a new email or phone is what was asked for: an email whose
    domain was said as words ("linus at pauling lab dot org", callcenter/spoken.py), and a phone
    number read back and corrected at its end ("actually make that oh one two four")."""

    read_back_phone: str | None = None
    # Only in answer to "What's the new email address?": in the request itself, a multi-need turn
    # ("... at my new work dot com and also ...") may hold words no address is made of (a blind
    # part filed an unasked closure when this was read there, session 21)
    asked_email: bool = False
    # The new address read back: the answer it came from still reads as it once the read-back
    # is the last question ("yes" to it had asked for the address again, callers29)
    read_back_email: str | None = None

    def read(self, text: str) -> Slots:
        slots = super().read(text)
        if slots.email is None and slots.phone is None and (self.asked_email or self.read_back_email):
            wordy = wordy_email(text)
            slots.email = wordy if self.asked_email or wordy == self.read_back_email else None
        if slots.email is None and slots.phone is None and (to := _EMAIL_TO.search(text)):
            # "update my email to linus at pauling lab dot org": the address said as the new one,
            # right after the words that ask for it (read back before anything happens)
            slots.email = wordy_email(text[to.start():])
        tail = corrected_tail(text) if slots.phone is None and self.read_back_phone else None
        if tail and self.read_back_phone:
            slots.phone = self.read_back_phone[: -len(tail)] + tail
        return slots


# "actually make that 0124", "sorry, the last four are 0199": a few digits said as a correction
# of the number just read back replace as many at its end.
_TAIL = re.compile(
    r"^\W*(?:(?:no|sorry|wait|actually|oops|um|uh|oh|hmm|ah"
    # "oh wait i said it wrong, it ends 199 not 198"
    r"|i\s+(?:said|got|read|gave)\s+(?:it|that|you\s+(?:it|that))\s+wrong|my\s+(?:mistake|bad)|that'?s\s+(?:wrong|not\s+right))\W+)*"
    r"(?:(?:make\s+(?:that|it)|i\s+mean(?:t)?|change\s+(?:that|it)\s+to|it\s+should\s+(?:be|end\s+(?:in|with))"
    r"|(?:the\s+)?(?:last|end)\s+(?:two|three|four|2|3|4|bit|part|few|digits|numbers)(?:\s+(?:digits|numbers))?\s+(?:are|is|should\s+be|'re|'s)"
    r"|it\s+ends(?:\s+(?:in|with))?|ending\s+(?:in\s+)?)\W*)?"
    # "..., sorry, i always flip those": an aside after the digits, no digits in it; "..., not 198":
    # the digits it replaces
    r"(\d{2,4})(?:\W+(?:not|instead\s+of)\s+\d{2,4})?(?:[,.;!]\s*[a-z' ,]{0,40})?\W*$", re.I)
_CUE = re.compile(r"\b(?:no|sorry|wait|actually|oops|make|mean|meant|change|should|last|ends|ending)\b", re.I)


def grouped_phone(number: str) -> str:
    """"+19715550442" -> "+1 971 555 0442": read back in the groups a caller says it in (the
    voice reads each group digit by digit, callcenter/spoken.py)."""
    digits = number.lstrip("+")
    country, rest = (digits[:1], digits[1:]) if digits.startswith("1") and len(digits) == 11 else (digits[:2], digits[2:])
    head = rest[:-4]
    groups = [head[i:i + 3] for i in range(0, len(head), 3)]
    if len(groups) > 1 and len(groups[-1]) == 1:  # no group of one digit: "123 4" -> "1234"
        groups[-2:] = [groups[-2] + groups[-1]]
    return " ".join([f"+{country}", *groups, rest[-4:]])


def corrected_tail(text: str) -> str | None:
    """The digits of a correction to the end of a number just read back, or None."""
    said = normalise(text)
    m = _TAIL.match(said) or _TAIL_AFTER_WHY.search(said)
    return m.group(1) if m and _CUE.search(said) else None


# "sorry no, last digit's a nine not an eight, two one four nine": what changed, said in words
# of its own, then the new last digits after a pause; no longer number anywhere in the turn
_TAIL_AFTER_WHY = re.compile(r"^(?!.*\d{5})(?=.*\b(?:last|end|ending|digit|digits)\b).*[,:;]\s*(\d{2,4})\W*$", re.I)


_EMAIL = re.compile(r"^[a-z0-9._%+-]{1,64}@[a-z0-9.-]{1,200}\.[a-z]{2,24}$", re.I)
_PHONE = re.compile(r"^\+\d{10,15}$")
# Which value the caller means when they have not said the new one yet: "change my phone
# number", "the email on file". A customer number is no phone number.
_SAYS_PHONE = re.compile(r"\b(?:phone|mobile|cell|cellphone|landline)\b|\b(?<!customer )(?<!account )number\b", re.I)
# ... "the email on file changed to ...", "my email on the account updated to ..."
_EMAIL_TO = re.compile(r"\be-?mail(?:\s+address)?(?:\s+on\s+(?:file|record|the\s+account|my\s+account|our\s+account))?"
                       r"\s+(?:(?:changed|updated|switched|moved|set)\s+)?(?:to|is|should\s+be|as|over\s+to)\s+", re.I)
_CHANGE_ASKED = re.compile(r"\b(?:chang\w*|updat\w*|done|through|yet|finished|applied|new)\b", re.I)
_SAYS_EMAIL = re.compile(r"\b(?:e-?mail|mail\s+address|email\s+address)\b", re.I)


@dataclass(kw_only=True)
class UpdateProfileResult(SpecialistResult):
    changed: list[str] = field(default_factory=list)
    pending_change: str | None = None


class UpdateProfileTask(SpecialistTask[UpdateProfileResult]):
    result_type = UpdateProfileResult
    instructions = "You update the email address or phone number on file. Call update_profile with the new value."
    # "why can't you just change it now?" while the new value is asked for
    slot_why = ("For your security, a change of email or phone is never made on this call: once you give me the new one, "
                "a colleague calls you back at the number already on file to confirm it, and then it's changed.")

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.gate = ActionGate()
        self.read_back_phone: str | None = None  # the new number of the pending read-back
        self.read_back_email: str | None = None  # the new address of the pending read-back

    @function_tool
    @guarded
    async def update_profile(self, email: str | None = None, phone: str | None = None) -> str | None:
        """Change the email address or phone number on the caller's account (read back, then confirmed by a call back).

        Args:
            email: The new email address, if the caller wants to change it.
            phone: The new phone number in international format, like +14155550123, if the caller wants to change it.
        """
        refused = account_refusal(self)
        if refused is not None:
            self.finish(UpdateProfileResult(status="refused", summary=refused))
            return None
        customer = self.state.ports.customers.get_customer(self.customer_id)
        assert customer is not None
        if (email is None) == (phone is None):
            if not self.another_attempt():
                return None
            return self._ask_new_value()
        if email is not None and not _EMAIL.match(email.strip()):
            return "That doesn't sound like a valid email address. Could you spell it out again?"
        if phone is not None and not _PHONE.match(phone.strip()):
            return "That doesn't sound like a valid phone number. Could you say it again with the country code?"
        kind, value = ("email", email.strip().lower()) if email is not None else ("phone", (phone or "").strip())
        if value == (customer.email if kind == "email" else customer.phone):
            self.finish(UpdateProfileResult(status="info", summary=f"That {kind} is already on your account, so nothing needs changing."))
            return None
        # Whether another account uses the address is never said: that would let callers enumerate them.
        spoken = grouped_phone(value) if kind == "phone" else value
        self.read_back_phone = value if kind == "phone" else None
        self.read_back_email = value if kind == "email" else None
        go = self.gate.check(
            self, f"profile:{kind}:{value}",
            f"To confirm: change the {'email address' if kind == 'email' else 'phone number'} on account "
            f"{self.customer_id} to {spoken}. It isn't changed on this call: we'll call you back at the number on file "
            f"ending {customer.phone[-4:]} to confirm it first.",
            ActionFacts(
                what=f"the change of your {'email address' if kind == 'email' else 'phone number'} to {spoken}",
                how_long=STEP_UP_HOW, approval=STEP_UP_WHY,
                undo="You can change it again at any time, with the same call back to the number on file.",
            ),
        )
        if go is not True:
            return go
        ref, say = request_step_up(self.state, customer_id=customer.id, field=kind, new_value=value, what=f"a change of your {kind}")
        self.finish(UpdateProfileResult(status="queued" if ref else "refused", summary=say, pending_change=ref,
                                        follow_ups=step_up_follow_ups(customer.phone) if ref else {}))
        return None

    def _named_field(self) -> str | None:
        """The field the caller named and not the other ("change my phone number"), else None."""
        words = " ".join(user_texts(self.chat_ctx))
        phone, email = bool(_SAYS_PHONE.search(words)), bool(_SAYS_EMAIL.search(words))
        return "email" if email and not phone else "phone" if phone and not email else None

    @property
    def slot_reader(self) -> SlotReader:
        return ProfileSlots(patterns=self.state.slots.patterns, request_kinds=self.state.slots.request_kinds,
                            read_back_phone=self.read_back_phone, asked_email=self.last_question == ASK_EMAIL,
                            read_back_email=self.read_back_email)

    def _ask_new_value(self) -> str:
        """The question for the new value of the field the caller named (both or neither: which one)."""
        field = self._named_field()
        if field == "email":
            return ASK_EMAIL
        if field == "phone" and self.attempts > 1:
            # asked before and no whole number came back: not the same words again
            return "Sorry, I didn't get a whole phone number. Please say the new number digit by digit, with the country code first."
        if field == "phone":
            return "What's the new phone number, with the country code?"
        return "Which one should change, and to what: the email address or the phone number?"

    def corrects(self, words: str) -> bool:
        """At the read-back, the number's end corrected ("oh wait, it ends 199 not 198"): read back anew."""
        return self.read_back_phone is not None and corrected_tail(words) is not None

    def names_slot(self, words: str) -> bool:
        """A question names the field whose new value is asked for ("is that the email the invoices go to?")."""
        field = self._named_field()
        if _CHANGE_ASKED.search(words):  # "has my email changed yet?": about the change, not the field
            return False
        return bool((field == "email" and _SAYS_EMAIL.search(words)) or (field == "phone" and _SAYS_PHONE.search(words)))

    def slot_options(self) -> str | None:
        """What is on file, masked as every read-out is: the answer to "what email do you have
        on there now?" while the new value is asked for."""
        customer = self.state.ports.customers.get_customer(self.customer_id)
        if customer is None:
            return None
        field = self._named_field()
        on_email = f"The email on file is {mask_email(customer.email)}; invoices and notices go there."
        on_phone = f"The phone number on file ends {customer.phone[-4:]}."
        return on_email if field == "email" else on_phone if field == "phone" else f"{on_email} {on_phone}"
