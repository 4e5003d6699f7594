"""Technical support: API errors, service status, integration help, escalations, tickets."""

from __future__ import annotations

import re
from pathlib import Path

from callcenter.routing.calibration import OOS
from callcenter.routing.rereading import Rereading, never
from callcenter.routing.slots import SlotPattern
from domains.base import DomainSpec, SpecialistSpec, Wording
from domains.technical.api_errors import HTTP_STATUS, DiagnoseApiErrorsTask, diagnose, status_said
from domains.technical.escalation import OpenEscalationTask
from domains.technical.glossary import GLOSSARY
from domains.technical.integration_help import (
    IntegrationHelpTask,
    asks_about_guide,
    asks_about_retries,
    asks_api_auth,
    asks_how_to,
    asks_which_guide,
    guide,
    only_tells_use,
)
from domains.technical.ports import PORTS
from domains.technical.service_status import CheckServiceStatusTask, lookup_status
from domains.technical.status_words import (
    api_locked,
    asks_about_ticket,
    asks_for_ticket,
    asks_if_it_is_why,
    asks_if_up,
    escalates_the_caller,
    key_fails,
    names_client_error,
    names_error_code,
    names_incident,
    names_own_error,
    names_ticket,
    past_trouble,
    sign_in_key,
    tells_break_in,
)
from domains.technical.supervisor import TechnicalSupervisorTask
from domains.technical.ticket_status import CheckTicketStatusTask

# Engineering ticket ids ("T-1A2B3C", an escalation's "esc-...") and the HTTP statuses
# diagnose() explains; each fills the tool parameter of the same name.
SLOTS = (
    SlotPattern("ticket_id", re.compile(r"\b(t-[0-9a-f]{4,8}|esc-[0-9a-z-]{4,40})\b", re.I), lambda m: m.group(1).upper()),
    SlotPattern("http_status", HTTP_STATUS, status_said),
)

# "is the api ok", "is the api down? we keep getting five hundreds": whether the service is up is
# the status board's question, not a diagnosis, unless the caller names an error of their own
# traffic or key ("is the api down or is it my 429s?", status_words.py).
UP_OR_DOWN = Rereading(
    # "status of the api" is no ticket's; "are webhooks ok?" no guide's
    # "is it even back up yet" reads as a refund's status ("back")
    # OOS: "tell me what's going on with the api" read as nothing the line does
    over=frozenset({"technical/api_errors", "technical/ticket_status", "technical/integration_help", "billing/refund_status", OOS}),
    label="technical/service_status",
    target=asks_if_up,
    whole=names_client_error,
    unsure=never,
    settles_own=True,  # "are webhooks running slow today" at 0.62: the board, which changes nothing, answers it
)

# "is inc forty two fixed yet": a named incident is the status board's (status_words.py), also when
# the clause alone reads as nothing the line does ("and is inc forty two sorted yet")
INCIDENT_NAMED = Rereading(
    # small talk: "how's that incident coming along" reads as "how's it going"
    over=frozenset({"technical/ticket_status", "technical/escalation", "technical/api_errors", OOS, "meta/smalltalk"}),
    label="technical/service_status",
    target=names_incident,
    # "open a ticket with engineering about the us east errors": the ticket asked for
    whole=asks_for_ticket,
    unsure=never,
    settles_own=True,
)

# "escalate me to your supervisor please": a person asked for, not an engineering ticket
CALLER_ESCALATED = Rereading(
    over=frozenset({"technical/escalation"}),
    label="meta/human",
    target=escalates_the_caller,
    whole=never,
    unsure=never,
)

# "our api access is like locked, every call says too many requests": the API's errors, not a
# lock of the account
API_LOCKED = Rereading(
    over=frozenset({"account/security", "account/login_help"}),
    label="technical/api_errors",
    target=api_locked,
    whole=sign_in_key,
    unsure=never,
)

# "my developer says the key is dead": the API errors' diagnosis, never an escalation question.
# On an API product a key that "isn't working" is the API key, not a sign-in problem, unless
# the caller names the sign-in's own (a security key, the password); also when the words alone
# read as nothing the line does ("ugh the key isnt working").
KEY_FAILS = Rereading(
    over=frozenset({"technical/escalation", "technical/integration_help", "technical/ticket_status",
                    "technical/service_status", "account/login_help", "account/two_factor_reset", "account/security",
                    "meta/smalltalk", OOS,
                    "billing/plan_change"}),  # "can you just switch the old key back on": no plan switched
    label="technical/api_errors",
    target=key_fails,
    # "open an engineering ticket about our key being revoked": the ticket asked for (TICKET_ASKED)
    whole=lambda text: sign_in_key(text) or asks_for_ticket(text),
    unsure=never,
    settles_own=True,  # the diagnosis changes nothing: "ugh the key isnt working" at 0.55 is sure of it
)

# "the 429 thing is doin my head in", "the 500s stuff is annoying": an error code the caller gets
# is their traffic's diagnosis (which names an incident when there is one), unless they ask
# whether the service is up, name an incident or a ticket, or a past trouble.
ERROR_CODE_NAMED = Rereading(
    # "account/security": "im getting unauthorized" is an API call's answer, not a break-in
    over=frozenset({"technical/service_status", "technical/ticket_status", "account/security", OOS}),
    label="technical/api_errors",
    target=names_error_code,
    whole=lambda text: asks_if_up(text) or names_incident(text) or names_ticket(text) or past_trouble(text) or sign_in_key(text)
    or tells_break_in(text) or asks_about_ticket(text),
    unsure=never,
    # "my account keeps getting rejected when my code calls you, it says unauthorized" at 0.45:
    # the error named settles the diagnosis, which changes nothing
    settles_own=True,
)

# "is that why our stuff is breaking?" after an incident: the caller's own traffic says whether
# it is (the diagnosis reads their errors beside the incident), not the status board again.
IS_IT_WHY = Rereading(
    over=frozenset({"technical/service_status"}),
    label="technical/api_errors",
    target=asks_if_it_is_why,
    whole=never,
    unsure=never,
    settles_own=True,  # read as the diagnosis but unsure of it: the question settles it (it acts on nothing)
)

# "did you have a webhook delay last week": late deliveries or a past trouble are the status
# board's incidents (it lists the resolved ones), not set-up help or a ticket, unless the
# caller names a ticket of their own (or an error they get: that is the diagnosis's).
PAST_TROUBLE = Rereading(
    # OOS: a glossed "gab es letzte woche probleme mit den webhooks" reads as nothing in English
    over=frozenset({"technical/integration_help", "technical/ticket_status", "technical/api_errors", OOS}),
    label="technical/service_status",
    target=past_trouble,
    whole=lambda text: names_ticket(text) or names_own_error(text),
    unsure=never,
    settles_own=True,
)

# "open a ticket about the 500s we're getting", "can somebody in engineering look at these
# errors": a ticket asked for, about errors the caller names; the errors read as a diagnosis by
# their words, the construction says the caller wants people on it.
TICKET_ASKED = Rereading(
    # "meta/human": "can i get someone from engineering to look at our throttling" asks for the
    # engineers' ticket, not for the front desk's call back from whoever is free
    # OOS: "then raise one please" after hearing no ticket is open reads as nothing the line does
    over=frozenset({"technical/api_errors", "technical/service_status", "technical/integration_help", "technical/ticket_status",
                    "meta/human", OOS}),
    label="technical/escalation",
    target=asks_for_ticket,
    whole=never,
    unsure=never,
    settles_own=True,
)

# "is there a ticket open for the 500s": a question about a ticket is its status, never a new one.
TICKET_ASKED_ABOUT = Rereading(
    # "that thing we raised about the forbidden errors, any news on it": the ticket's news, not the 403s'
    over=frozenset({"technical/escalation", "technical/api_errors", OOS}),
    label="technical/ticket_status",
    target=asks_about_ticket,
    whole=never,
    unsure=never,
    settles_own=True,  # "did your engineers ever get back to us": unsure between the two, the question settles it
)

# "how do i get the next page of results, i keep getting the first 100": how to use the API is
# set-up help, not a diagnosis, unless the caller names an error they get ("how do i stop the 429s").
HOW_TO = Rereading(
    # OOS: "i only ever get the first hundred records back" may read as nothing the line does
    over=frozenset({"technical/api_errors", OOS}),
    label="technical/integration_help",
    target=asks_how_to,
    whole=names_own_error,
    unsure=never,
    settles_own=True,  # read as set-up help but unsure of it: the question settles it (it acts on nothing)
)

# "what sdks do you support": a guide named and asked about is set-up help, not small talk or a
# ticket's status, unless the caller names an error they get.
GUIDE_ASKED = Rereading(
    # "a question about signing webhooks" read as sign-ins
    # a refund's status: "that retry after header you send back, how long ..." ("send back")
    over=frozenset({"technical/ticket_status", "technical/api_errors", "technical/service_status", "meta/smalltalk", OOS,
                    "account/security", "billing/refund_status"}),
    label="technical/integration_help",
    target=asks_about_guide,
    # "are webhooks down", "did webhooks lag last week": the status board's
    whole=lambda text: not asks_about_retries(text) and (names_own_error(text) or asks_if_up(text) or past_trouble(text)),
    unsure=never,
    settles_own=True,  # a guide acts on nothing
)

# "what header do i put the key in for authentication": the API's authentication guide, not
# the account's two-factor reset (which a second factor or a sign-in named keeps).
API_AUTH = Rereading(
    # "our new developer has no clue how authentication works with you" read as a ticket (unless one is asked for)
    over=frozenset({"account/two_factor_reset", "account/login_help", "account/security", "technical/escalation", OOS}),
    label="technical/integration_help",
    target=asks_api_auth,
    whole=asks_for_ticket,
    unsure=never,
    settles_own=True,  # a guide acts on nothing
)

# "we use your api for like inventory stuff and the calls fail": the caller's use told as who
# they are, beside the need they called about, is no set-up question (said alone, it keeps it).
USE_TOLD = Rereading(
    over=frozenset({"technical/integration_help"}),
    label=OOS,
    target=only_tells_use,
    whole=never,
    unsure=never,
    beside_only=True,
)

DOMAIN = DomainSpec(
    name="technical",
    description=(
        "Transfer the caller to technical support: failing API calls and error codes, outages and "
        "service status, webhooks/SDK/API key integration help, engineering tickets.\n\nArgs:\n    "
        "request: The part of the caller's words that is about a technical problem."
    ),
    topic="a technical problem",
    wording=Wording(offer="technical problems", ask="a technical problem", prompt="technical support"),
    slots=SLOTS,
    rereadings=(CALLER_ESCALATED, API_LOCKED, INCIDENT_NAMED, UP_OR_DOWN, KEY_FAILS, IS_IT_WHY, PAST_TROUBLE, TICKET_ASKED, TICKET_ASKED_ABOUT, HOW_TO,
                ERROR_CODE_NAMED, GUIDE_ASKED, API_AUTH, USE_TOLD),
    ports=PORTS,
    supervisor=TechnicalSupervisorTask,
    specialists=(
        SpecialistSpec("api_errors", DiagnoseApiErrorsTask, "Route to API error diagnosis: 401, 403, 429, 5xx, failing calls.", "errors from the API", lookup=diagnose, called="the API errors"),
        SpecialistSpec("service_status", CheckServiceStatusTask, "Route to service status: outages and incidents.", "an outage or service status", requires_identity=False, lookup=lookup_status, called="the service status"),
        SpecialistSpec("integration_help", IntegrationHelpTask, "Route to integration help: webhooks, SDKs, API keys.", "setting up an integration", requires_identity=False, called="the integration question",
                       lookup=guide, acts_on=asks_which_guide),  # no guide named: the task asks which
        SpecialistSpec("escalation", OpenEscalationTask, "Route to escalation: open an engineering ticket.", "opening a ticket with engineering", called="the engineering ticket", changes=True),
        SpecialistSpec("ticket_status", CheckTicketStatusTask, "Route to ticket status: where an engineering ticket stands.", "the status of a ticket", called="your ticket"),
    ),
    utterances=Path(__file__).parent / "utterances",
    glossary=GLOSSARY,
)
TechnicalSupervisorTask.spec = DOMAIN
