"""Whether a caller says the account is someone else's: what identity and the read-back both check.

Its own module so the read-back (`domains.intent`) can ask it without importing the identity
task (which imports the specialist base, which imports the read-back).
"""

from __future__ import annotations

import re

_PEOPLE_WORDS = (r"wife|husband|partner|spouse|fianc[eé]e?|boyfriend|girlfriend|mom|mum|mother|dad|father|parent|son|"
                 r"daughter|kid|child|grand(?:ma|pa|mother|father|son|daughter)|brother|sister|sibling|aunt|uncle|cousin|"
                 r"niece|nephew|friend|neighbou?r|boss|employer|manager|colleague|coworker|co-worker|client|"
                 r"assistant|secretary|accountant|lawyer|attorney|carer|caregiver|roommate|flatmate|tenant|landlord")
_PEOPLE = rf"(?:{_PEOPLE_WORDS})"
_THIRD_PARTY = re.compile(
    # Whose account it is: someone else's.
    rf"\b(?:not|isn'?t|is not|wasn'?t|ain'?t)\s+(?:mine|my\s+(?:own\s+)?(?:account|number))\b"
    rf"|\b(?:someone|somebody|another\s+(?:person|customer))\s*(?:else)?'?s\s+(?:account|card|charge|number)"
    rf"|\bmy\s+{_PEOPLE}'?s\s+(?:account|card|charges?|number|subscription|refund|plan|name|login|password|bill)"
    # ("their account" is left out: an API company's callers speak of their own users' accounts.)
    rf"|\b(?:his|her)\s+(?:account|customer\s+(?:number|id)|card|charges?|subscription|login|password|bill|zip)\b"
    rf"|\b(?:in|under)\s+(?:his|her|their|my\s+{_PEOPLE}'?s)\s+name\b"
    # Who is calling: someone for someone.
    rf"|\b(?:i'?m|i\s+am|this\s+is|it'?s)\s+(?:his|her|their|the\s+account\s+holder'?s)\s+{_PEOPLE}\b"
    # "on behalf of the company": a business calls about its own account, through one of its people
    rf"|\bon\s+behalf\s+of\b(?!\s+(?:the|our|my)\s+(?:company|business|firm|team|organi[sz]ation|office|practice|shop|store|startup|agency|school|clinic))"
    rf"|\b(?:calling|phoning|ringing|asking|here)\s+(?:for|about)\s+(?:my|a|his|her|our)\s+{_PEOPLE}\b"
    rf"|\bfor\s+(?:my|a)\s+{_PEOPLE}\b(?!\s+(?:and|too))"
    rf"|\b(?:he|she|they)\s+(?:asked|wants?|told|needs?)\s+me\s+to\s+(?:call|ring|phone|ask|sort|handle|get|cancel|close)"
    rf"|\b(?:he|she|they)(?:\s+(?:is|are)|'s|'re)\s+the\s+account\s+holder\b"
    # ("the account is in my name" is the caller's own; "... in my husband's name" is not)
    rf"|\bthe\s+account\s+(?:holder\s+is|belongs\s+to|is\s+(?:in|under))\s+(?:his|her|my\s+{_PEOPLE})\b",
    re.I,
)


def third_party(text: str) -> bool:
    """True if the caller says the account is not theirs or that they call for its holder."""
    return bool(_THIRD_PARTY.search(text.replace("\u2019", "'")))


# Beside a disowning, words that keep the account the caller's own: a paper for someone ("a
# receipt for my accountant"), the team's account ("for my boss, about our account"), or a guess
# let go ("maybe it was under my colleague's account. never mind").
_OWN_STILL = re.compile(
    r"\b(?:invoices?|receipts?|statements?|cop(?:y|ies)|bills?|records?|pdf|summary)\b[^.?!]{0,40}?\b(?:for|to\s+(?:send|give|show)\s+(?:to\s+)?)\s*"
    rf"(?:my|a|our|the)\s+{_PEOPLE}"
    r"|\b(?:our|ours|we|we'?re|we'?ve|us)\b|\bmy\s+(?:own\s+)?account\b"
    r"|\b(?:maybe|might|perhaps|probably|not\s+sure|never\s*mind)\b", re.I)


def disowns(text: str) -> bool:
    """The words say, as a fact, that the account is someone else's or that the caller speaks for
    its holder ("it's his account not mine", "i'm ringing on behalf of my father"): from a line
    that was verified as the holder's, the one speaking is not the holder."""
    said = text.replace("\u2019", "'")
    return third_party(said) and not _OWN_STILL.search(said)


_IDS = re.compile(r"\b(?:c\s*\d{4}|\d{5})\b", re.I)
_ASIDE_WORDS = 4


# "on behalf of the company", "calling for our firm": who calls, for their own business.
_FOR_BUSINESS = re.compile(
    r"\b(?:on\s+behalf\s+of|(?:calling|phoning|ringing)\s+(?:from|for))\s+(?:the|our|my)\s+"
    r"(?:company|business|firm|team|organi[sz]ation|office|practice|shop|store|startup|agency|school|clinic)\b", re.I)


# Who the caller is at their own business ("i'm the office manager", "this is the bookkeeper
# over at acme"), whose name the account is in ("the account's in my name"), or what a colleague
# did before the call ("my boss looked at the numbers"): the caller's standing, no need.
_ROLE_WORDS = (r"manager|assistant|accountant|admin|administrator|bookkeeper|secretary|owner|co-?owner|founder|co-?founder"
               r"|cto|ceo|cfo|coo|director|lead|developer|engineer|pa|receptionist|controller|treasurer|partner")
_ROLE = rf"(?:{_ROLE_WORDS})"
_STANDING = re.compile(
    rf"\b(?:i'?m|i\s+am|this\s+is)\s+(?:the|their|our|a|an|one\s+of\s+the)\s+(?:[a-z]+\s+){{0,2}}{_ROLE}s?\b"
    r"|\b(?:the\s+)?account(?:'s|\s+is)?\s+(?:in|under)\s+my\s+(?:own\s+)?name\b"
    rf"|\b(?:my|our|the)\s+(?:{_PEOPLE_WORDS}|{_ROLE_WORDS})\s+(?:looked|checked|went|was\s+looking)\s+(?:at|over|through|into)\s+"
    r"(?:the|our|my|his|her)\s+(?:numbers|books|bills?|invoices?|accounts?|statements?|figures|costs)\b", re.I)


def only_who(text: str) -> bool:
    """The words say who is calling for whom and little else ("this is his wife, his account is
    C1002", "i'm the office manager"): beside a need in the same turn they are no need of their
    own. "the statement for my accountant" says what is needed, so it is not one."""
    said = text.replace("\u2019", "'")
    if _STANDING.search(said):
        rest = _STANDING.sub(" ", said)
        if len(re.findall(r"[a-z']+", rest.lower())) <= _ASIDE_WORDS:
            return True
    if _FOR_BUSINESS.search(said):
        said = _FOR_BUSINESS.sub(" ", said)
    elif not third_party(text):
        return False
    rest = _IDS.sub(" ", _THIRD_PARTY.sub(" ", said))
    return len(re.findall(r"[a-z']+", rest.lower())) <= _ASIDE_WORDS
