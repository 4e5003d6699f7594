"""Integration help: webhooks, SDKs, API keys, authentication, retries and pagination, with the caller's own key prefix when verified."""

from __future__ import annotations

import re
from dataclasses import dataclass

from livekit.agents import function_tool

from callcenter.store.adapters import Ports
from domains.results import SpecialistResult
from domains.specialist import SpecialistTask, guarded

_GUIDES = {
    "pagination": (
        "List endpoints return up to 100 items a page. Each response has a next_cursor; pass it as the "
        "cursor parameter to get the next page, until next_cursor is empty."
    ),
    "auth": (
        "Send your secret key in the Authorization header as 'Bearer' followed by the key, on every request, "
        "over HTTPS. A missing or old key gets a 401."
    ),
    "webhooks": (
        "For webhooks, register an HTTPS endpoint in the dashboard, answer with a 2xx within 10 seconds, "
        "and verify each delivery's signature header with your signing secret. Failed deliveries are "
        "retried for 24 hours."
    ),
    "sdk": (
        "Our SDKs for Python, Node and Go read the key from the CALLCENTER_API_KEY environment variable; "
        "install the latest version and create one client per process."
    ),
    "retries": (
        "A 429 response carries a Retry-After header with the seconds to wait before you retry; for 5xx "
        "errors, retry with exponential backoff. Requests with the same Idempotency-Key header are safe to retry."
    ),
    "api_keys": (
        "API keys are created and rotated in the dashboard under Developers, Keys. Use live keys only on "
        "servers, never in browsers or apps."
    ),
}
# In this order: "page through the list endpoints" is pagination, not a webhook endpoint.
_TOPIC_WORDS = {
    "pagination": r"\bpag(?:e|es|ing|inate|ination|inating)\b|\bcursor|next (?:batch|set|hundred)|first (?:hundred|100|page)"
                  r"|(?:more|all) (?:of )?the (?:results|records|items)|only (?:get|see|returns?) (?:the first|100|a hundred)",
    "auth": r"\bauthenticat\w*|\bauthori[sz]ation header|\bbearer\b|\bhow do i (?:auth|log ?in to the api)"
            # "where do i put the api key in my request": how a key is sent, not where keys are made
            r"|\b(?:where|how|way\s+to)\b.{0,25}\b(?:put|send|pass|include|add|attach)\b.{0,25}\b(?:key|token)"
            r"|\b(?:key|token)\b.{0,20}\bin\s+(?:my|the|our|each|every|an?)\s+(?:requests?|calls?|headers?)"
            # "where does the key actually go, like in a header or in the url"
            r"|\bwhere\s+(?:does|do|should|would)\s+(?:the|my|our|an?)\s+(?:api\s+)?(?:key|token)\s+(?:\w+\s+)?go\b"
            # "do i put the key in the url or the header": how it is sent
            r"|\b(?:put|send|pass|include|add|attach)\b.{0,12}\b(?:key|token)\b.{0,25}\b(?:url|query|headers?)\b",
    # "how long do you keep retrying if my server is down": the platform's retries are its deliveries'
    "webhooks": r"webhook|callback url|endpoint|deliver|\b(?:you|y'?all|your\s+(?:side|system|platform))\s+(?:keep\s+)?retr(?:y|ies|ying)\b"
                r"|\bretry\s+polic(?:y|ies)\b",
    # after the webhooks: "webhook retries" are deliveries; "a header that says when to retry" is this
    "retries": r"retry[- ]after|\bretr(?:y|ies|ying)\b.{0,40}\bheaders?\b|\bheaders?\b.{0,40}\bretr(?:y|ies|ying)\b"
               r"|\bidempoten\w*|\bexponential backoff"
               # "how do retries work with your api": retrying, asked of the caller's own calls
               r"|\bretr(?:y|ies|ying)\b|\bback\s?off\b",
    # "go" the language, not "where do i go to make a key" or "go ahead"
    "sdk": r"\bsdk|librar(?:y|ies)|python|node|(?<!\bi )(?<!\bwe )(?<!\bto )\bgo\b(?!\s+(?:to|ahead|back|through|into|over|for|and|on|in|about|with)\b)"
           r"|package|client|environment\s+variable|env\s+var",  # where the SDKs read the key from
    "api_keys": r"\bkey|token|secret|credential|\bscopes?\b|\brotat\w+|\bprefix",
}


@dataclass(kw_only=True)
class IntegrationHelpResult(SpecialistResult):
    topic: str | None = None


def topic_of(words: str) -> str | None:
    """The guide these words ask about, or None ("i need help with the integration")."""
    text = words.lower()
    return next((t for t, pattern in _TOPIC_WORDS.items() if re.search(pattern, text)), None)


# "how do i get the next page ...", "what's the way to check the signature": a question how to do
# something, which a guide answers when it names one (the keys are left out: "how do i fix my
# key" is the diagnosis of a key that fails, KEY_FAILS in spec.py)
_HOW_TO = re.compile(r"\b(?:how\s+(?:do|can|should|would)\s+(?:i|we|you)|how\s+to|what'?s\s+the\s+(?:way|best\s+way|proper\s+way|right\s+way|correct\s+way)\s+to)\b", re.I)


def asks_how_to(words: str) -> bool:
    """A how-to question about one of the guides other than the keys, or the page limit told
    ("the list call only ever gives me the first hundred"): how to page on is the question."""
    return (bool(_HOW_TO.search(words)) and topic_of(words) not in (None, "api_keys")) or bool(_PAGE_LIMIT.search(words))


# The page limit met: "only ever gives me the first hundred", "how do i get the rest of them" (a
# web "page" that throws errors is no page of results)
_PAGE_LIMIT = re.compile(
    r"\bfirst\s+(?:hundred|100|page)\b|\bnext\s+(?:page|batch|set|hundred)\b"
    r"|\bonly\s+(?:ever\s+)?(?:get|gets|gives?|returns?|see|shows?)\b.{0,30}\b(?:hundred|100|page)\b"
    r"|\brest\s+of\s+(?:them|the\s+(?:results|records|items|data))\b", re.I)


# "what sdks do you support", "is there a python library", "do you do webhooks": a question that
# names a guide by its own word, which small talk or a ticket's status would not answer.
_GUIDE_NAMED = re.compile(r"\b(?:sdks?|librar(?:y|ies)|webhooks?|paginat\w*|paging|cursors?|bearer|authori[sz]ation\s+header|retry[- ]after"
                          # "what's my live key prefix", "the environment variable for the key"
                          r"|key\s+prefix|(?:live|test)\s+key|env(?:ironment)?\s+var\w*"
                          # "where do we make new keys": where keys come from
                          r"|(?:make|create|generate|issue|rotate|mint)\s+(?:a\s+|an\s+)?(?:new\s+)?(?:api\s+)?keys?"
                          # "is there a header that says when we can retry"
                          r"|headers?\b.{0,40}\bretr(?:y|ies|ying))\b", re.I)
_ASKS = re.compile(r"\b(?:what|which|do\s+you|does|is\s+there|are\s+there|is\s+(?:it|your|the)|are\s+(?:your|the)|where|how|any|got"
                   # "quick one about paging through list results": a question announced
                   r"|(?:quick\s+(?:one|q)|question|query)\s+(?:about|on|re|regarding))\b|\?", re.I)


# "was there any incident lately with webhooks": the status board's, not the guide
_TROUBLE = re.compile(r"\b(?:incidents?|outages?|down|delay\w*|late|lately|slow|lag\w*|recent\w*|issues?|problems?|broken|working|fail\w*"
                      r"|errors?|status)\b", re.I)


# "what's your retry policy when a webhook fails": how the platform retries is the webhooks
# guide's, whatever trouble it is asked about
_RETRIES_ASKED = re.compile(r"\bretry\s+polic(?:y|ies)\b|\b(?:how\s+long|how\s+many\s+times|how\s+often)\b.{0,30}\b(?:you|y'?all)\s+(?:keep\s+)?retr", re.I)


def asks_about_retries(words: str) -> bool:
    """How the platform retries ("what's your retry policy when a webhook fails"), asked."""
    return bool(_RETRIES_ASKED.search(words))


def asks_about_guide(words: str) -> bool:
    """A question about one of the guides, named by its own word, and no trouble with it."""
    if asks_about_retries(words):
        return True
    return bool(_GUIDE_NAMED.search(words)) and bool(_ASKS.search(words)) and not _TROUBLE.search(words)


# "what header do i put the key in for authentication", "the new guy has no clue how
# authentication works with you": how calls to the API authenticate, which the words alone read
# as two-factor authentication; a second factor or a sign-in named makes it the account's.
_SECOND_FACTOR = re.compile(r"\b(?:two[- ]?factor|2fa|mfa|multi[- ]?factor|authenticator|one[- ]time|codes?|otp|sms|texts?"
                            r"|phone|sign(?:ing)?[- ]?(?:in|on)|log(?:ging)?[- ]?(?:in|on)|password|dashboard|account)\b", re.I)


def asks_api_auth(words: str) -> bool:
    """How the API authenticates a call, asked, with no second factor or sign-in named."""
    return topic_of(words) == "auth" and not _SECOND_FACTOR.search(words)


# "we use your api for like inventory stuff and ...": what the caller does with the API, told as
# who they are; beside another need it asks for no guide.
_TELLS_USE = re.compile(
    r"\b(?:we|i)\s+(?:(?:mostly|mainly|just|basically|kinda|kind\s+of)\s+)?(?:use|run|built|build|rely\s+on|hook\s+into|sync)\b"
    r".{0,20}\b(?:your|the)\s+(?:api|platform|service|endpoints?)\b"
    # "our order sync goes through your api"
    r"|\b(?:goes|go|runs|run|is\s+built|sits)\s+(?:through|on|on\s+top\s+of)\s+(?:your|the)\s+(?:api|platform|service)\b", re.I)
_ASKS_FOR_HELP = re.compile(r"\?|\b(?:how|what|which|where|help|set\s*up|setup|guide|docs?|documentation|explain|show|need|want)\b", re.I)


def only_tells_use(words: str) -> bool:
    """The words tell what the caller uses the API for and ask nothing."""
    return bool(_TELLS_USE.search(words)) and not _ASKS_FOR_HELP.search(words) and topic_of(words) in (None, "sdk")


# How a guide is named in words its own topic pattern reads.
_TOPIC_NAMES = {"api_keys": "api keys", "webhooks": "webhooks", "sdk": "sdks", "pagination": "paging", "retries": "retries"}
# A question that points back at what was just said: "where do i get a new one", "how do i set it up".
_POINTS_BACK = re.compile(r"\b(?:(?:a\s+)?(?:new|another|fresh|different)\s+one|it|that|them|those|one)\b", re.I)


def asks_which_guide(words: str) -> bool:
    """No guide named: a conversation (which one?), not a lookup."""
    return topic_of(words) is None


def guide(ports: Ports, customer_id: str | None, *, words: str = "") -> IntegrationHelpResult:
    """The guide the words ask about, read-only: answered beside other needs, during a pending
    question, and in another language once glossed (meta/gist.py). The words must name one
    (`asks_which_guide` keeps the rest for the task's question)."""
    topic = topic_of(words) or "webhooks"
    summary = _GUIDES[topic]
    if topic == "api_keys" and customer_id:
        customer = ports.customers.get_customer(customer_id)
        if customer:
            summary += f" Your current live key starts with {customer.api_key_prefix}."
    return IntegrationHelpResult(status="info", summary=summary, topic=topic)


class IntegrationHelpTask(SpecialistTask[IntegrationHelpResult]):
    result_type = IntegrationHelpResult
    instructions = "You help developers integrate: webhooks, SDKs and API keys. Call integration_help with the caller's question."

    def names_answer(self, text: str) -> bool:
        """Asked which guide, the caller names one, whatever their words' form ("how should i
        handle retries" is the answer, not a question aside)."""
        return topic_of(text) is not None

    def _said_before(self, question: str) -> str:
        """"where do i get a new one then" after the 401s' diagnosis named the key: a question
        that points back ("one", "it") asks of the guide the last answer's words name."""
        results = self.state.caller.results
        if not _POINTS_BACK.search(question) or not results:
            return question
        said = results[-1].summary.lower()
        # a key said is the thing pointed back at ("the current key ... in the Authorization header")
        named = "api_keys" if re.search(_TOPIC_WORDS["api_keys"], said) else topic_of(said)
        return f"{question} ({_TOPIC_NAMES[named]})" if named in _TOPIC_NAMES else question

    @function_tool
    @guarded
    async def integration_help(self, question: str) -> str | None:
        """Give integration guidance for webhooks, SDKs, API keys, authentication, retries or pagination.

        Args:
            question: The caller's integration question, in their words.
        """
        question = question if topic_of(question) is not None else self._said_before(question)
        if topic_of(question) is None:
            if not self.another_attempt():
                return None
            return "Is your question about webhooks, one of our SDKs, API keys, authentication, retries or paging through results?"
        caller = self.state.caller
        self.finish(guide(self.state.ports, caller.customer_id if caller.verified else None, words=question))
        return None
