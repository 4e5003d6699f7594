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


TEAM = "our engineers"


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
