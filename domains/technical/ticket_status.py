"""Ticket status: where an engineering ticket stands."""

from __future__ import annotations

from dataclasses import dataclass, field

from livekit.agents import function_tool

from domains.base import CALLBACK_KIND, CALLBACK_WHEN, CallbackResult
from domains.results import SpecialistResult
from domains.specialist import SpecialistTask, guarded
from domains.technical.escalation import STATE_WORDS as _WORDS
from domains.technical.escalation import TICKET_KIND, answer_promise


@dataclass(kw_only=True)
class CheckTicketStatusResult(SpecialistResult):
    tickets: list[dict[str, str]] = field(default_factory=list)


class CheckTicketStatusTask(SpecialistTask[CheckTicketStatusResult]):
    result_type = CheckTicketStatusResult
    idempotent = True  # read-only: safe to retry once
    instructions = "You report ticket status. Call check_ticket_status with the ticket number if the caller gave one."

    @function_tool
    @guarded
    async def check_ticket_status(self, ticket_id: str | None = None) -> str | None:
        """Look up the status of the caller's engineering tickets.

        Args:
            ticket_id: The ticket number, like T-1A2B3C, if the caller gave one.
        """
        tickets = self.state.ports.tickets.list_tickets(self.customer_id, kind=TICKET_KIND)
        if ticket_id:
            tickets = [t for t in tickets if t.id == ticket_id.upper()]
            if not tickets:
                if not self.another_attempt():
                    return None
                return "I can't find that ticket on your account. Could you read me the ticket number again?"
        out: list[dict[str, str]] = []
        for t in tickets[:3]:
            state = t.status
            if self.state.durable is not None:
                live = await self.state.durable.ticket_status(t.id)
                state = live.state if live.state not in ("unknown", "") else state
            out.append({"ticket_id": t.id, "status": state})
        if not out:
            summary = "I don't see any open tickets on your account."
        else:
            summary = "; ".join(f"Ticket {o['ticket_id']} is {_WORDS.get(o['status'], o['status'])}" for o in out) + "."
            if any(o["status"] in ("open", "pending") for o in out):
                # "when do i hear back on the ticket": the promise made when it was opened
                summary += f" {answer_promise(self.state.settings.ticket_sla_s)}"
        follow_ups = {}
        if not ticket_id and (booked := self._call_backs()):
            # "when will they ring me?" after asking for a person: the booked call back is
            # what the caller is waiting on, not an engineering ticket
            summary = f"{summary if out else ''} Your call back {booked} is booked. {CALLBACK_WHEN}".strip()
            # "and what number will they call?" next: the booking's own answers
            booking = next((r.result for r in reversed(self.state.caller.results) if isinstance(r.result, CallbackResult)), None)
            follow_ups = dict(booking.follow_ups) if booking is not None else {}
        self.finish(CheckTicketStatusResult(status="info", summary=summary, tickets=out, follow_ups=follow_ups))
        return None

    def _call_backs(self) -> str:
        """The open call backs booked for this caller, by reference ("T-1A2B3C and T-4D5E6F")."""
        booked = [t.id for t in self.state.ports.tickets.list_tickets(self.customer_id, kind=CALLBACK_KIND) if t.status == "open"]
        return " and ".join(booked[:2])  # newest first
