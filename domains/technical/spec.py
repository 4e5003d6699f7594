"""Technical support: API errors, service status, integration help, escalations, tickets."""

from __future__ import annotations

from pathlib import Path

from domains.base import DomainSpec, SpecialistSpec, Wording
from domains.technical.api_errors import DiagnoseApiErrorsTask, diagnose
from domains.technical.escalation import OpenEscalationTask
from domains.technical.integration_help import IntegrationHelpTask
from domains.technical.service_status import CheckServiceStatusTask, lookup_status
from domains.technical.supervisor import TechnicalSupervisorTask
from domains.technical.ticket_status import CheckTicketStatusTask

DOMAIN = DomainSpec(
    name="technical",
    description=(
        "Transfer the caller to technical support: failing API calls and error codes, outages and "
        "service status, webhooks/SDK/API key integration help, engineering tickets.\n\nArgs:\n    "
        "request: The part of the caller's words that is about a technical problem."
    ),
    topic="a technical problem",
    wording=Wording(offer="technical problems", ask="a technical problem", prompt="technical support"),
    supervisor=TechnicalSupervisorTask,
    specialists=(
        SpecialistSpec("api_errors", DiagnoseApiErrorsTask, "Route to API error diagnosis: 401, 403, 429, 5xx, failing calls.", "errors from the API", lookup=diagnose),
        SpecialistSpec("service_status", CheckServiceStatusTask, "Route to service status: outages and incidents.", "an outage or service status", requires_identity=False, lookup=lookup_status),
        SpecialistSpec("integration_help", IntegrationHelpTask, "Route to integration help: webhooks, SDKs, API keys.", "setting up an integration", requires_identity=False),
        SpecialistSpec("escalation", OpenEscalationTask, "Route to escalation: open an engineering ticket.", "opening a ticket with engineering"),
        SpecialistSpec("ticket_status", CheckTicketStatusTask, "Route to ticket status: where an engineering ticket stands.", "the status of a ticket"),
    ),
    utterances=Path(__file__).parent / "utterances",
)
TechnicalSupervisorTask.spec = DOMAIN
