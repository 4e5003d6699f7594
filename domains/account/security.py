"""Security: review recent sign-ins; lock the account only when the caller asks and confirms."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from livekit.agents import function_tool

from callcenter.llm.embedded import user_texts
from callcenter.store.adapters import Ports
from domains.account.lock_words import LOCK_BY_EFFECT
from domains.frame import ActionFacts
from domains.identity import account_refusal
from domains.intent import ActionGate, is_question
from domains.results import SpecialistResult
from domains.specialist import SpecialistTask, guarded

# The caller asks for the lock itself: "lock it", "freeze my account", "block them", "shut it down".
# Any word of locking or stopping someone ("secure it", "kick them out"): broader than
# lock_words.asks_for_lock, which reads a request for the lock as a construction, for routing.
# "no that's fine, don't lock it, i'll keep an eye on it": a lock named to refuse it asks for none
_NOT_LOCK = re.compile(r"\b(?:don'?t|do\s+not|no\s+need\s+to|never|not)\s+(?:\w+\s+)?(?:lock|freez|block|shut|disabl|suspend)", re.I)
_LOCK_STEMS = re.compile(
    # "secure it" asks for the lock; "a security alert", "the security of my account" name the topic
    r"\b(?:lock|freez|froze|block|secur(?!ity\b)|security\s+hold|shut|disabl|suspend|deactivat|kick (?:them|him|her|whoever)"
    r"|stop (?:them|anyone|whoever|people))"
    rf"|{LOCK_BY_EFFECT}",
    re.I)


LOCK_DECLINED = "No problem, I won't lock your account; nothing was changed."


def asks_to_lock(text: str) -> bool:
    """The words ask for the lock itself (then the task reads it back), not about sign-ins."""
    return _names_lock(text) and not is_question(text)


def _names_lock(text: str) -> bool:
    """A word of locking, not "secure" said of how the account is ("... if my account is secure")."""
    return any(not _SECURE_AS_STATE.search(text[: m.end()]) for m in _LOCK_STEMS.finditer(text))


# "can you check if my account is secure": whether it is, asked as a request; "secure it" asks the lock
_SECURE_AS_STATE = re.compile(r"\b(?:is|are|was|were|be|being|it'?s|its|stays?|feels?|looks?|seems?|if|whether)\b[^,.;?]{0,25}\bsecur$", re.I)


def review(ports: Ports, customer_id: str | None) -> tuple[str, list[str]]:
    """Recent sign-ins from places this customer does not usually sign in from."""
    assert customer_id is not None, "a sign-in review needs a verified caller"
    logins = ports.customers.recent_logins(customer_id, days=14)
    usual = {e.country for e in logins if e.success} or {"US"}
    odd = sorted({e.country for e in logins if e.country not in usual})
    if odd:
        return f"I see sign-in attempts from unusual locations ({', '.join(odd)}) in the last two weeks.", odd
    return "I don't see any unusual sign-in attempts in the last two weeks.", odd


def where_from(ports: Ports, customer_id: str) -> str:
    """Where the recent sign-ins came from: the answer to "and where was it from?"."""
    logins = ports.customers.recent_logins(customer_id, days=14)
    if not logins:
        return "There were no sign-ins or attempts on your account in the last two weeks."
    wins = sorted({e.country for e in logins if e.success})
    usual = set(wins) or {"US"}  # as review() reads them
    odd = sorted({e.country for e in logins if e.country not in usual})
    said = f"Your successful sign-ins in the last two weeks came from {_places(wins)}." if wins else ""
    if odd:
        said += f" The unusual attempts came from {_places(odd)}."
    return said.strip()


# Country codes as they are said; others are read as their code.
_COUNTRIES = {"US": "the United States", "GB": "the United Kingdom", "RO": "Romania", "DE": "Germany", "FR": "France",
              "CA": "Canada", "IN": "India", "CN": "China", "RU": "Russia", "BR": "Brazil", "NG": "Nigeria"}


def _places(codes: list[str]) -> str:
    return ", ".join(_COUNTRIES.get(c, c) for c in codes)


def lookup_security(ports: Ports, customer_id: str | None, *, words: str = "") -> SecureAccountResult:
    """Read-only: the sign-in review and the offer of a lock, for a need that asks no lock, so
    a multi-need turn answers it with the others ("who's been signing into my account")."""
    said, odd = review(ports, customer_id)
    return SecureAccountResult(status="info", summary=f"{said} {OFFER_LOCK}", suspicious_countries=odd, offer=LOCK_OFFERED,
                               follow_ups={"where": where_from(ports, customer_id)})  # type: ignore[arg-type]


OFFER_LOCK = "If you'd like me to lock your account, just ask."
# The offer's request: a yes to the review ("yes please do") asks for the lock, which is read back
# first; a no ("nah don't bother locking it") changes nothing (meta/moves.py).
LOCK_OFFERED = "lock my account"
# "so how do i get back in myself then", once the account is locked
_GET_BACK_IN = ("To get back in yourself, ask me to unlock your account: I'll email a password reset link, and the unlock "
                "is confirmed with a call back to the number on file.")
_WHAT_NOW = ("If a sign-in or a change wasn't you, I can lock your account now so nobody can sign in, and open a security "
             "review: just say 'lock my account'. Then set a new password with the reset link on the sign-in page.")


@dataclass(kw_only=True)
class SecureAccountResult(SpecialistResult):
    locked: bool = False
    suspicious_countries: list[str] = field(default_factory=list)
    ticket_id: str | None = None


class SecureAccountTask(SpecialistTask[SecureAccountResult]):
    result_type = SecureAccountResult
    instructions = (
        "You secure accounts. Call secure_account: it reviews recent sign-ins, answers questions, and locks "
        "the account only after the caller confirms a read-back."
    )

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.gate = ActionGate()

    def _review(self) -> tuple[str, list[str]]:
        return review(self.state.ports, self.customer_id)

    @function_tool
    @guarded
    async def secure_account(self) -> str | None:
        """Review the caller's recent sign-ins; lock the account against sign-ins if the caller asks for that and confirms."""
        store = self.state.store
        review, odd = self._review()
        said = user_texts(self.chat_ctx)
        if said and _NOT_LOCK.search(said[-1]) and not is_question(said[-1]):
            # "no that's fine, don't lock it, i'll keep an eye on it" after the review: the answer
            # to its offer, not the review again
            self.finish(SecureAccountResult(status="info", summary=LOCK_DECLINED, suspicious_countries=odd))
            return None
        if said and (is_question(said[-1]) or not any(_names_lock(t) and not _NOT_LOCK.search(t) for t in said)):
            # A question is answered, never acted on; a report ("i got an alert about a sign-in i
            # don't recognise, can you check") is answered with the review: a lock is offered,
            # and read back only when the caller asks for it.
            self.finish(SecureAccountResult(
                status="info", summary=f"{review} {OFFER_LOCK}", suspicious_countries=odd, offer=LOCK_OFFERED,
                follow_ups={"where": where_from(self.state.ports, self.customer_id),  # type: ignore[arg-type]
                            # "oh dear. what do i do then?": what the caller can do about it now
                            "next_step": _WHAT_NOW},
            ))
            return None
        refused = account_refusal(self)
        if refused is not None:
            self.finish(SecureAccountResult(status="refused", summary=f"{review} {refused}", suspicious_countries=odd))
            return None
        customer = self.state.ports.customers.get_customer(self.customer_id)
        if customer is not None and customer.locked:  # asked again: no second lock, no second review ticket
            self.finish(SecureAccountResult(
                status="info", summary=f"{review} Your account is already locked, so nobody can sign in.", locked=True,
                suspicious_countries=odd, follow_ups={"next_step": _GET_BACK_IN},  # type: ignore[arg-type]
            ))
            return None
        go = self.gate.check(
            self, f"lock:{self.customer_id}",
            f"{review} To confirm: lock account {self.customer_id} so nobody can sign in, and open a security review.",
            ActionFacts(
                what="locking your account and opening a security review",
                how_long="It's locked as soon as you say yes; the security team then looks at the review.",
                undo="To unlock it later, call us or use the reset link; unlocking is confirmed with a call back to the number on file.",
                cost="Locking doesn't change your plan or your bill: billing carries on as usual, and nothing is charged for the lock.",
            ),
        )
        if go is not True:
            return go
        self.state.ports.customers.set_locked(self.customer_id, True)
        store.add_audit(subject=self.customer_id, action="lock", actor="agent:account.security", reason="caller request by phone, confirmed")
        ticket = self.state.ports.tickets.create_ticket(customer_id=self.customer_id, kind="security", summary="Security review after caller report")
        summary = (
            f"I've locked your account so nobody can sign in, and opened security review {ticket.id}. "
            "When you're ready, call us or use the reset link to unlock it."
        )
        self.finish(SecureAccountResult(status="done", summary=summary, locked=True, suspicious_countries=odd, ticket_id=ticket.id,
                                        follow_ups={"next_step": _GET_BACK_IN}))  # type: ignore[arg-type]
        return None
