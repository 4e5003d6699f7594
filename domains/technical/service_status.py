"""Service status: ongoing incidents and recently resolved ones."""

from __future__ import annotations

from dataclasses import dataclass, field

from livekit.agents import function_tool

from callcenter.store.adapters import Ports
from domains.results import SpecialistResult
from domains.specialist import SpecialistTask, guarded
from domains.technical.ports import status_port


@dataclass(kw_only=True)
class CheckServiceStatusResult(SpecialistResult):
    active: list[str] = field(default_factory=list)
    recent: list[str] = field(default_factory=list)


class CheckServiceStatusTask(SpecialistTask[CheckServiceStatusResult]):
    result_type = CheckServiceStatusResult
    idempotent = True  # read-only: safe to retry once
    instructions = "You report service status. Call check_service_status."

    @function_tool
    @guarded
    async def check_service_status(self) -> None:
        """Look up ongoing and recent incidents on our services."""
        self.finish(lookup_status(self.state.ports, None))


def lookup_status(ports: Ports, customer_id: str | None, *, words: str = "") -> CheckServiceStatusResult:
    """Read-only and the same for every caller: safe to run in parallel with other lookups."""
    del customer_id
    incidents = status_port(ports).incidents(days=7)
    active = [i for i in incidents if i.status != "resolved"]
    resolved = [i for i in incidents if i.status == "resolved"]
    if active:
        # "so is it us or is it you": whose the trouble is, said with it
        summary = "Yes, there's an ongoing incident on our side: " + "; ".join(f"{i.title} ({i.status})" for i in active) + "."
    else:
        summary = "All our services are running normally right now."
    if resolved:
        summary += f" A recent incident, '{resolved[0].title}', has been resolved."
    follow_ups = (
        {
            "why": "It's on our side, not anything you did. Engineers are still investigating the cause; we publish it on the status page once it's confirmed.",
            "next_step": "Nothing you need to change: retry failed calls with backoff and they'll succeed once it's fixed.",
            # which incident, and where it stands: "et ça va durer combien de temps ?" names none
            "how_long": (f"{', '.join(f'{i.id} is still open ({i.status})' for i in active)}: there's no firm time yet; "
                         "the status page updates as engineers make progress."),
            "do_it": "Engineers are already on it. If it's hurting your business, I can open a ticket so they contact you.",
        }
        if active
        else {
            "why": "Our monitoring shows every service healthy right now.",
            "next_step": "If something still fails for you, tell me the error you see and I'll look at your account.",
        }
    )
    return CheckServiceStatusResult(status="info", summary=summary, active=[i.id for i in active], recent=[i.id for i in resolved], follow_ups=follow_ups)
