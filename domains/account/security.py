"""Security: review recent sign-ins and lock the account at the caller's request."""

from __future__ import annotations

from dataclasses import dataclass, field

from livekit.agents import function_tool

from domains.results import SpecialistResult
from domains.specialist import SpecialistTask, guarded


@dataclass(kw_only=True)
class SecureAccountResult(SpecialistResult):
    locked: bool = False
    suspicious_countries: list[str] = field(default_factory=list)
    ticket_id: str | None = None


class SecureAccountTask(SpecialistTask[SecureAccountResult]):
    result_type = SecureAccountResult
    instructions = "You secure accounts. Call secure_account; it locks the account and opens a security review."

    @function_tool
    @guarded
    async def secure_account(self) -> None:
        """Lock the caller's account against sign-ins, report unusual recent sign-ins and open a security review."""
        store = self.state.store
        logins = store.recent_logins(self.customer_id, days=14)
        usual = {e.country for e in logins if e.success} or {"US"}
        odd = sorted({e.country for e in logins if e.country not in usual})
        store.set_locked(self.customer_id, True)
        store.add_audit(subject=self.customer_id, action="lock", actor="agent:account.security", reason="caller request by phone")
        ticket = store.create_ticket(customer_id=self.customer_id, kind="security", summary="Security review after caller report")
        summary = "I've locked your account so nobody can sign in, and opened security review " + ticket.id + "."
        if odd:
            summary += f" I see sign-in attempts from unusual locations ({', '.join(odd)}) this fortnight."
        summary += " When you're ready, call us or use the reset link to unlock it."
        self.finish(SecureAccountResult(status="done", summary=summary, locked=True, suspicious_countries=odd, ticket_id=ticket.id))
