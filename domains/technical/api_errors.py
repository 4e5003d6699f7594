"""API error diagnosis: explain 401/403/429/5xx from the caller's plan limits and error counts."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from livekit.agents import function_tool

from callcenter.store.adapters import Ports
from domains.results import SpecialistResult
from domains.specialist import SpecialistTask, guarded
from domains.technical.plan_facts import current_plan
from domains.technical.ports import status_port

_KINDS = ("401", "403", "429", "5xx")
# The HTTP statuses diagnose() explains, as said (spoken numbers are digits by now); the slot
# reader fills the tool's parameter with them, and a lookup run beside other needs reads them
# from its own words ("... and why are some calls coming back with a 403").
# ("forbidden errors on one endpoint": the status by its name)
HTTP_STATUS = re.compile(r"\b(401|403|404|429|500|502|503|504)(?:'?s)?\b|\b(5xx|4xx)(?:'?s)?\b|\b(forbidden)\b", re.I)  # "403s": counted
_NAMED_STATUS = {"forbidden": "403"}


def status_said(m: re.Match[str]) -> str:
    if m.group(3):
        return _NAMED_STATUS[m.group(3).lower()]
    return (m.group(1) or m.group(2)).lower()  # "5XX" -> "5xx"


@dataclass(kw_only=True)
class DiagnoseApiErrorsResult(SpecialistResult):
    error: str | None = None
    counts: dict[str, int] = field(default_factory=dict)
    cause: str | None = None


class DiagnoseApiErrorsTask(SpecialistTask[DiagnoseApiErrorsResult]):
    result_type = DiagnoseApiErrorsResult
    idempotent = True  # read-only: safe to retry once
    instructions = "You diagnose failing API calls. Call diagnose_api_errors with the HTTP status the caller mentioned, if any."

    @function_tool
    @guarded
    async def diagnose_api_errors(self, http_status: str | None = None) -> None:
        """Explain why the caller's API calls fail, from their plan limits and last week's error counts.

        Args:
            http_status: The HTTP status code the caller sees, like 401, 403, 429 or 500, if they said one.
        """
        self.finish(diagnose(self.state.ports, self.customer_id, http_status))
        return None


def diagnose(
    ports: Ports, customer_id: str | None, http_status: str | None = None, *, words: str = ""
) -> DiagnoseApiErrorsResult:
    """Read-only: explain the caller's failing calls from their plan and last week's errors."""
    assert customer_id is not None, "a diagnosis needs a verified caller"
    usage = status_port(ports).api_usage(customer_id, days=7)
    plan = current_plan(ports, customer_id)  # billing's record, through the line's ports
    counts = {
        "401": sum(u.errors_401 for u in usage),
        "403": sum(u.errors_403 for u in usage),
        "429": sum(u.errors_429 for u in usage),
        "5xx": sum(u.errors_5xx for u in usage),
    }
    if http_status is None and (said := HTTP_STATUS.search(words)) is not None:
        http_status = status_said(said)
    asked = _normalise(http_status)
    error = asked or max(_KINDS, key=lambda k: counts[k])
    if not asked and counts[error] == 0:
        return DiagnoseApiErrorsResult(status="info", summary="I don't see any failed API calls on your account this week. If it's still failing, tell me the error code you get.", counts=counts)
    peak = max((u.peak_per_min for u in usage), default=0)
    customer = ports.customers.get_customer(customer_id)
    follow_ups: dict[str, str] = {}
    if error == "429":
        limit = plan.api_rate_limit_per_min if plan else 0
        cause = "rate_limit"
        summary = (
            f"Your 429 errors are rate limiting: your {plan.name if plan else ''} plan allows {limit} requests "
            f"a minute and you peaked at {peak}. Spread requests out with retries and backoff, or upgrade "
            "to a plan with a higher limit."
        )
        follow_ups = {
            "why": (f"Because at your busiest minute you sent {peak} requests and your plan's rate limit is {limit} a minute; the rest "
                    "are turned away until the minute is over. Spreading requests out, with retries and backoff, keeps you under it."),
            "next_step": "Add retries with exponential backoff, spread bursts out, or move to a plan with a higher limit. I can help you change plan if you like.",
            "how_long": "The limit resets every minute, so calls succeed again as soon as the burst is over.",
            "do_it": "I can't change your code, but I can upgrade your plan to raise the limit: just say 'change my plan'.",
        }
    elif error == "401":
        cause = "invalid_key"
        prefix = customer.api_key_prefix if customer else "your key"
        summary = (
            f"Your 401 errors mean the API key is not accepted. Check you send the current key, the one "
            f"starting {prefix}, in the Authorization header; if it was rotated, update it everywhere."
        )
        follow_ups = {
            # "why though, it was working fine yesterday": the key it worked with is no longer the one on file
            "why": (f"A 401 means the key in the request is missing, mistyped, or one that has been rotated or revoked. "
                    f"The key we accept now is the one starting {prefix}, shown in the dashboard."),
            "next_step": f"Copy the current key, the one starting {prefix}, from the dashboard into your app's configuration and redeploy.",
            "how_long": "As soon as requests carry the current key they are accepted; there is no delay on our side.",
            "do_it": "I can't turn an old key back on once it's rotated or revoked; that's for your security. Create a new "
                     "key in the dashboard under API keys, or use the current one, and put it in your app's configuration.",
        }
    elif error == "403":
        cause = "permission"
        summary = "Your 403 errors mean the key is valid but lacks permission for that endpoint. Check the key's scopes in the dashboard."
    else:
        active = [i for i in status_port(ports).incidents(active_only=True) if i.service == "api"]
        cause = "incident" if active else "server_error"
        summary = (
            f"Your server errors are on our side: there's an ongoing incident, '{active[0].title}'. "
            "Engineers are on it; retrying with backoff will succeed once it's resolved."
            if active
            else "Your 5xx errors are on our side. Retry with backoff; if they continue I can open a ticket with our engineers."
        )
        follow_ups = {
            "why": "These errors come from our servers, not from your requests" + (", during the incident that is open now." if active else "."),
            "next_step": "Retry failed calls with backoff. If they keep failing, say 'open a ticket' and I'll send it to our engineers.",
            # which incident and where it stands, as the status board says it ("how long is that gonna last")
            "how_long": (f"{active[0].id} is still open ({active[0].status}): there's no firm time yet; the status page "
                         "updates as engineers make progress.") if active else "Usually minutes; if it lasts longer, I can open a ticket.",
            "do_it": "I can open a ticket with our engineers for you: just say 'open a ticket'.",
        }
    return DiagnoseApiErrorsResult(status="info", summary=summary, error=error, counts=counts, cause=cause, follow_ups=follow_ups)


def _normalise(status: str | None) -> str | None:
    if not status:
        return None
    s = status.strip().lower()
    if s.startswith("5"):
        return "5xx"
    return s if s in _KINDS else None
