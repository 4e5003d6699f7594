"""Engineering escalation: a ticket the caller can ask about later, tracked durably when configured."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from livekit.agents import function_tool

from callcenter.redact import mask
from domains.caps import claim
from domains.identity import account_refusal
from domains.results import SpecialistResult
from domains.specialist import SpecialistTask, guarded

log = logging.getLogger("callcenter.technical")


@dataclass(kw_only=True)
class OpenEscalationResult(SpecialistResult):
    ticket_id: str | None = None


# This domain's words for its tickets, handed to the ticket workflow with each request.
TICKET_KIND = "engineering"


def answer_hours(sla_s: int) -> int:
    """The hours engineers promise to answer a ticket in, as callers hear it (at least one)."""
    return max(1, round(sla_s / 3600))


def answer_promise(sla_s: int) -> str:
    """The promise said with an open ticket's status."""
    return f"Engineers answer within {answer_hours(sla_s)} hours of a ticket being opened."


TEAM = "our engineers"

# Store states (open/resolved/breached) and live workflow states (pending/escalated/completed/queued).
STATE_WORDS = {
    "open": "open and with our engineers",
    "pending": "open and with our engineers",
    "queued": "recorded and waiting to be picked up by our engineers",
    "resolved": "resolved",
    "completed": "resolved",
    "breached": "past its target time and escalated",
    "escalated": "past its target time and escalated",
}


class OpenEscalationTask(SpecialistTask[OpenEscalationResult]):
    result_type = OpenEscalationResult
    instructions = "You open engineering tickets. Call open_escalation with a one-line description of the problem."

    @function_tool
    @guarded
    async def open_escalation(self, details: str) -> None:
        """Open an engineering ticket for a problem the caller cannot solve themselves.

        Args:
            details: One line describing the problem, in the caller's words.
        """
        refused = account_refusal(self) or claim(self.state, "ticket")  # not the holder, closed, or past a cap
        if refused is not None:
            self.finish(OpenEscalationResult(status="refused", summary=refused))
            return
        if self.asks_what_if:
            # "have your engineers looked at our problem yet", "is there anything open with your
            # engineers for us": a question about what was done, which a new ticket does not
            # answer; what is on file is told and a new one offered (a yes opens it)
            self.finish(self._on_file(details))
            return
        ticket = self.state.ports.tickets.create_ticket(customer_id=self.customer_id, kind=TICKET_KIND, summary=details[:300])
        status = "done"
        if self.state.durable is not None:
            from workflows.client import EscalationRequest

            with self.state.trace.active():  # Temporal's spans go under this specialist's
                submitted = await self.state.durable.open_escalation(
                    EscalationRequest(ticket_id=ticket.id, customer_id=self.customer_id, summary=mask(details)[:300],
                                      call_id=self.state.call_id, kind=TICKET_KIND, team=TEAM)
                )
            status = "queued" if submitted.status == "queued" else "done"
        hours = answer_hours(self.state.settings.ticket_sla_s)
        summary = (
            f"I've opened ticket {ticket.id} with {TEAM}. They'll get back to you within {hours} hours, "
            "and you can ask me about it any time with that number."
        )
        # "when will somebody get back to me?": the ticket's promise, not "no firm time"
        follow_ups = {"how_long": f"Our engineers will get back to you about ticket {ticket.id} within {hours} hours."}
        self.finish(OpenEscalationResult(status=status, summary=summary, ticket_id=ticket.id, follow_ups=follow_ups))

    def _on_file(self, details: str) -> OpenEscalationResult:
        """The caller's engineering tickets, with the time engineers answer in; none, one offered."""
        tickets = self.state.ports.tickets.list_tickets(self.customer_id, kind=TICKET_KIND)[:3]
        if not tickets:
            return OpenEscalationResult(
                status="info", summary=f"I don't see any open tickets on your account. Would you like me to open one with {TEAM}?",
                offer=f"please open an engineering ticket: {details[:200]}")
        found = "; ".join(f"Ticket {t.id} is {STATE_WORDS.get(t.status, t.status)}" for t in tickets)
        return OpenEscalationResult(status="info", summary=f"{found}. {answer_promise(self.state.settings.ticket_sla_s)}")
