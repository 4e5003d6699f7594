"""Whether a caller says the account is someone else's: what identity and the read-back both check.

Its own module so the read-back (`domains.intent`) can ask it without importing the identity
task (which imports the specialist base, which imports the read-back).
"""

from __future__ import annotations

import re

_PEOPLE = (r"(?:wife|husband|partner|spouse|fianc[eé]e?|boyfriend|girlfriend|mom|mum|mother|dad|father|parent|son|"
           r"daughter|kid|child|grand(?:ma|pa|mother|father|son|daughter)|brother|sister|sibling|aunt|uncle|cousin|"
           r"niece|nephew|friend|neighbou?r|boss|employer|manager|colleague|coworker|co-worker|client|"
           r"assistant|secretary|accountant|lawyer|attorney|carer|caregiver|roommate|flatmate|tenant|landlord)")
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
    rf"|\bthe\s+account\s+(?:holder\s+is|belongs\s+to|is\s+(?:in|under))\s+(?:my|his|her)\b",
    re.I,
)


def third_party(text: str) -> bool:
    """True if the caller says the account is not theirs or that they call for its holder."""
    return bool(_THIRD_PARTY.search(text.replace("\u2019", "'")))


_IDS = re.compile(r"\b(?:c\s*\d{4}|\d{5})\b", re.I)
_ASIDE_WORDS = 4


# "on behalf of the company", "calling for our firm": who calls, for their own business.
_FOR_BUSINESS = re.compile(
    r"\b(?:on\s+behalf\s+of|(?:calling|phoning|ringing)\s+(?:from|for))\s+(?:the|our|my)\s+"
    r"(?:company|business|firm|team|organi[sz]ation|office|practice|shop|store|startup|agency|school|clinic)\b", re.I)


def only_who(text: str) -> bool:
    """The words say who is calling for whom and little else ("this is his wife, his account is
    C1002"): beside a need in the same turn they are no need of their own. "the statement for my
    accountant" says what is needed, so it is not one."""
    said = text.replace("\u2019", "'")
    if _FOR_BUSINESS.search(said):
        said = _FOR_BUSINESS.sub(" ", said)
    elif not third_party(text):
        return False
    rest = _IDS.sub(" ", _THIRD_PARTY.sub(" ", said))
    return len(re.findall(r"[a-z']+", rest.lower())) <= _ASIDE_WORDS
