"""Which value the line is waiting for, told to the recogniser (callcenter/speech/slot_grammar.py).

After the line asks for the customer number and ZIP code, the caller's next words are most
likely an id and five digits; after "what's your customer number?" an id; after "and the ZIP
code?" five digits; after the read-back of an id and ZIP, one of them again ("fix"); after a
yes-or-no read-back, a yes or a no; after "how much", an amount.
The pending slot is read from the line's own last question, so no domain has to report it:
the identity task's questions (domains/identity.py), the read-back gate's "Please say yes or
no.", a "how much" question. Any other reply leaves the recogniser open.
"""

from __future__ import annotations

import re
from typing import Any

from livekit.agents import AgentSession
from livekit.agents.voice.events import ConversationItemAddedEvent

from callcenter.routing import IntentRouter
from callcenter.routing.frames import GOODBYE
from callcenter.routing.slots import extract_slots
from callcenter.spoken import normalise
from callcenter.store.ports import Customers
from domains.identity import ASK_ID, ASK_ZIP, ASK_ZIP_STILL_END, READ_BACK_ASK, asks_for_digits
from domains.identity_readings import number_on_file_with, on_file
from meta.router import undecorated
from meta.voice_keypad import asks_amount
from meta.voice_prompt import SLOT_PROMPTS, telephone_prompt
from meta.voice_readback import choose as choose_answer
from meta.voice_readback import veto_held

# The ZIP in the line's read-back (domains/identity.py HEARD: "ZIP code 6 0 6 0 1."): the one
# a corrected number is checked with.
_READ_BACK_ZIP = re.compile(r"\bZIP code ((?:\d ){4}\d)\.")
_YES_OR_NO = re.compile(r"\byes or no[.?!]?\s*$", re.I)


def pending_slot(reply: str) -> str | None:
    """The slot a reply asks the caller to fill, or None for an open question."""
    reply = reply.rstrip()
    if asks_for_digits(reply):
        if reply.endswith((ASK_ZIP, ASK_ZIP_STILL_END)):
            return "zip"
        if reply.endswith(ASK_ID):
            return "id"
        return "fix" if reply.endswith(READ_BACK_ASK) else "identity"
    if _YES_OR_NO.search(reply):
        return "yesno"
    if asks_amount(reply):
        return "amount"
    return None


class OpenReading:
    """When an open turn on the telephone band is read again, and which reading is taken, by
    the line's own router (no second model per call), undecorated: the recogniser asks from its
    own thread, and the line's `decided_once` cache is the event loop's.

    Read again when the router is unsure of the reading: out of scope, or under its fast-path
    threshold (the line would ask a clarifying question or act on a guess). Most misheard
    requests at 8 kHz are placed, wrongly, not put out of scope ("Um, well, it's Mike Martin."
    for "um whats my balance", small talk at 0.7). The second reading is taken when the router
    is surer of it; never a goodbye the first reading did not make out of a turn it placed: a
    goodbye ends the call, and a second guess should not end a call the first kept going."""

    def __init__(self, router: IntentRouter) -> None:
        self.router = undecorated(router)

    def _read(self, text: str) -> tuple[str, float]:
        intent = self.router.classify(text)
        return intent.label, (0.0 if intent.label == "oos" else intent.confidence)

    def retry(self, text: str) -> bool:
        return self._read(text)[1] < self.router.threshold

    def prefer(self, first: str, second: str) -> bool:
        (was, sure), (now, surer) = self._read(first), self._read(second)
        if now == GOODBYE and was not in ("oos", GOODBYE):
            return False
        return surer > sure


def _recogniser(stt: Any) -> Any | None:
    """The innermost recogniser that takes a slot (through EarlySTT, NormalisedSTT wrappers)."""
    while stt is not None and not hasattr(stt, "slot"):
        stt = getattr(stt, "inner", None)
    return stt


class SlotWatcher:
    """Keeps the session's recogniser told of the slot the line's last question asked for."""

    def __init__(self, session: AgentSession, customers: Customers | None = None,
                 router: IntentRouter | None = None) -> None:
        self.session = session
        self.slot: str | None = None
        # The ZIP code the caller said last, or the line read back: the one the identity task
        # checks a customer number said alone, or corrected, with (it reads the newest message
        # that has one, or keeps the read-back's).
        self.zip: str | None = None
        self.recogniser = _recogniser(session.stt)
        if self.recogniser is not None:
            self.recogniser.slot = lambda: self.slot
            self.recogniser.slot_prompts = SLOT_PROMPTS
            if router is not None and hasattr(self.recogniser, "open_retry"):
                # An open turn on the telephone band the line is unsure of is read again with
                # caller requests as the call so far, and the reading the router is surer of
                # is taken (local_stt.py; benchmarks/README.md, sessions 21 and 22).
                reading = OpenReading(router)
                self.recogniser.narrowband_prompt = telephone_prompt()
                self.recogniser.open_retry = reading.retry
                self.recogniser.open_prefer = reading.prefer
            if hasattr(self.recogniser, "answer_check"):
                # The answer to a read-back checked against set yes and no answers (voice_readback.py).
                self.recogniser.answer_check = choose_answer
            if hasattr(self.recogniser, "plain_check"):
                # A yes read with the answers' prompt stands only when the line's prompt's
                # reading of it holds no no and no hedge (voice_readback.veto_held, session 24).
                self.recogniser.plain_check = veto_held
            if customers is not None and hasattr(self.recogniser, "on_file"):
                # Of several readings of an id and ZIP, the one that names an account (identity_readings.py).
                self.recogniser.on_file = on_file(customers)
                # Of several readings of the number said alone, the one that names an account with that ZIP.
                self.recogniser.number_on_file = number_on_file_with(customers, lambda: self.zip)
            session.on("conversation_item_added", self._on_item)

    def _on_item(self, ev: ConversationItemAddedEvent) -> None:
        item = ev.item
        if getattr(item, "type", None) != "message":
            return
        if item.role == "assistant":
            self.slot = pending_slot(item.text_content or "")
            read_back = _READ_BACK_ZIP.search(item.text_content or "")
            self.zip = read_back.group(1).replace(" ", "") if read_back else self.zip
        elif item.role == "user":
            self.zip = extract_slots(normalise(item.text_content or "")).zip_code or self.zip

    def close(self) -> None:
        if self.recogniser is not None:
            self.session.off("conversation_item_added", self._on_item)
            self.recogniser.slot = lambda: None
            if hasattr(self.recogniser, "answer_check"):
                self.recogniser.answer_check = None
            if hasattr(self.recogniser, "plain_check"):
                self.recogniser.plain_check = None
            if hasattr(self.recogniser, "open_retry"):
                self.recogniser.narrowband_prompt = None
                self.recogniser.open_retry = None
                self.recogniser.open_prefer = None
            if hasattr(self.recogniser, "on_file"):
                self.recogniser.on_file = None
            if hasattr(self.recogniser, "number_on_file"):
                self.recogniser.number_on_file = None
