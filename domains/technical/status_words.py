"""Whether the service is up, asked as such: a status question, not an error diagnosis.

"is the api ok", "is your platform working right now": the caller names no error of their
own, only asks about the service's state, which the status board answers. Said with an
error the caller sees ("i get 500s, is the api down?") the diagnosis stands: it reads their
own usage and says whether the errors are theirs or ours.
"""

from __future__ import annotations

import re

_THING = (r"(?:the\s+|your\s+|ur\s+)?(?:api|service|services|site|website|platform|system|systems|dashboard|servers?|app|endpoints?"
          r"|webhooks?|webhook\s+deliver(?:y|ies)|stuff|things|everything|whole\s+thing)")
_STATE = (r"(?:ok(?:ay)?|up|down|working|running(?:\s+slow(?:ly)?)?|slow|lagging|alive|online|offline|fine|broken|healthy|live|back(?:\s+up)?|having\s+(?:issues|problems|trouble)"
          r"|acting\s+up|(?:been\s+)?(?:fixed|resolved|sorted)|back\s+to\s+normal"
          # "are webhooks getting delivered again": working once more, said by what it does
          r"|(?:getting\s+|being\s+)?(?:delivered|delivering|sent|sending|going\s+through|coming\s+through|flowing)\s+(?:again|normally|properly)"
          # said of a service as of a drunk: "is your api falling over right now", "playing up"
          r"|falling\s+over|fallen\s+over|playing\s+up|on\s+the\s+fritz|having\s+a\s+(?:wobble|moment|bad\s+day))")
_UP_QUESTION = re.compile(
    # "..., is it even back up yet": "it" of a thing that goes down ("back" alone may be money)
    r"\b(?:is|are)\s+(?:it|they)\s+(?:\w+\s+)?back\s+up\b|\b(?:is|are)\s+(?:it|they)\s+(?:still\s+)?down\b|"
    # "so that's over now, nothing still going on with webhooks?"
    rf"\b(?:nothing|anything|something)\s+(?:else\s+)?(?:still\s+)?(?:going\s+on|happening|wrong)\s+with\s+{_THING}|"
    # "... your outage? and like when's it gonna be fixed": when the trouble ends, which the board says
    r"\bwhen(?:'s|s|\s+is|\s+will)\s+(?:it|that|this|the\s+(?:outage|incident|api|service|platform))\s+(?:gonna\s+be\s+|going\s+to\s+be\s+|be\s+)?"
    r"(?:fixed|resolved|back\s+up|sorted|working\s+again)\b|"
    # "were the webhooks fixed", "has the api been fixed": the board says whether it is
    rf"\b(?:is|are|r|was|were|has|have)\s+{_THING}(?:\s+(?:thing|stuff|issue|problem|delay|outage|incident))?"
    rf"(?:\s+(?:all|still|currently|even|finally|now))?\s+{_STATE}\b"
    # glossed: "outage api errors" (¿está caída la api?), "api right now down errors"
    # (not the caller's own: "retry if our server is down")
    r"|(?<!our )(?<!my )\b(?:api|service|platform|servers?)\b(?:\s+\w+){0,3}?\s+(?:down|outage)\b|\boutage\s+(?:of\s+)?(?:the\s+)?(?:api|service|platform)\b"
    # "api is down" (a glossed "l'api est en panne"), "the whole platform is down?"
    rf"|^\W*{_THING}\s+(?:is|are|'s)\s+(?:still\s+|currently\s+|totally\s+)?(?:down|up|offline|online)\b"
    # "and whether the api's up at the moment", "check if the service is down"
    rf"|\b(?:whether|if)\s+{_THING}(?:'s|'re|\s+is|\s+are)(?:\s+(?:all|still|currently|even|now))?\s+{_STATE}\b"
    rf"|\b(?:are|r)\s+(?:you|u|y'?all)(?:\s+guys)?(?:\s+(?:all|still|currently))?\s+(?:down|up|ok(?:ay)?|having\s+(?:an?\s+)?(?:outage|issues|problems))\b"
    # "anything going on with the api today?", "is something up with your servers"
    # ("what's going on with the api today": the same, asked openly)
    rf"|\b(?:anything|something|what'?s|whats|what\s+is)\s+(?:going\s+on|happening|up|wrong)\s+(?:with|on|at)\s+{_THING}"
    # "is the five hundreds thing a known incident", "any known issues right now"
    r"|\b(?:a|any)\s+known\s+(?:incident|issue|outage|problem)s?\b"
    # the board asked for by name: "api status", "status of the api?", "your status page"
    rf"|^\W*(?:(?:um|uh|so|and|ok|okay)\W+)*(?:what'?s\s+(?:the\s+)?|whats\s+(?:the\s+)?)?{_THING}\s+status\W*$"
    # "what's the state of the api today", "how's the api looking": its health asked after
    rf"|\b(?:status|state|health)\s+(?:of|on|for)\s+{_THING}|\bstatus\s+page\b"
    rf"|\bhow(?:'s|s|\s+is|\s+are)\s+{_THING}\s+(?:doing|looking|holding\s+up)\b"
    # "tell me how the api is doing today": the same, asked for ("how they are doing" of people is no board's)
    rf"|\bhow\s+{_THING}\s+(?:is|are|'s)\s+(?:doing|looking|holding\s+up|running|performing)\b",
    re.I,
)
_OWN_ERROR = re.compile(r"\b(?:[45]\d\d'?s?|[45]xx|errors?|timeouts?|timing\s+out|rate\s+limit\w*|throttl\w*|failing|fails?|unauthori[sz]ed|forbidden)\b", re.I)


# An error code or limit named by the caller, written or as said ("the 429 thing", "five hundreds").
_ERROR_CODE = re.compile(
    r"\b(?:[45]\d\d|[45]xx|rate[-\s]?limit\w*|throttl\w*|(?:not\s+|un)authori[sz]ed|forbidden"
    r"|(?:four|five)\s+(?:hundreds?|oh\s+(?:one|three|four)|twenty[-\s]nine|o\s+(?:one|three)))s?\b", re.I)


def names_error_code(text: str) -> bool:
    """The caller names an error code or limit of their own traffic."""
    return bool(_ERROR_CODE.search(text))


def asks_if_up(text: str) -> bool:
    """The caller asks whether the service is up ("is the api ok")."""
    return bool(_UP_QUESTION.search(text))


# "is that why our stuff is breaking?": whether a trouble of the caller's own comes from what was
# just said (an incident): their own traffic's diagnosis answers it, not the status board again.
_IS_IT_WHY = re.compile(
    r"^\W*(?:(?:so|and|oh|ok|okay|hm+|wait|but)\W+)*(?:is|was|could|would)\s+(?:that|this|it)\s+(?:be\s+)?"
    r"(?:why|the\s+reason|what'?s\s+causing|causing|behind)\b.{0,40}\b(?:break\w*|broke|broken|fail\w*|errors?|down"
    r"|not\s+working|(?:isn'?t|aren'?t|stopped)\s+working|slow\w*|tim(?:e|ing)\s+out|crash\w*|issues?|problems?|trouble)\b",
    re.I)


def asks_if_it_is_why(text: str) -> bool:
    """The caller asks whether the last answer is why their own thing fails."""
    return bool(_IS_IT_WHY.search(text))


# An error of the caller's own traffic or key (4xx, rate limits, auth): said with "is the api
# down?" the diagnosis reads their usage. A server error (5xx, "errors") is the service's: the
# status board answers "is the api down? we get five hundreds" with its incident.
_CLIENT_ERROR = re.compile(r"\b(?:(?:4\d\d|4xx)s?|rate[-\s]?limit\w*|throttl\w*|(?:not\s+|un)authori[sz]ed|forbidden"
                           r"|four\s+(?:oh|zero|hundred|twenty)\w*|keys?)\b", re.I)


def names_client_error(text: str) -> bool:
    """The caller names an error of their own traffic or key ("429s", "unauthorized")."""
    return bool(_CLIENT_ERROR.search(text))


def names_own_error(text: str) -> bool:
    """The caller names an error they get ("500s", "timeouts"): a diagnosis reads their usage."""
    return bool(_OWN_ERROR.search(text))



# "the key is dead", "our api key got revoked", "keys stopped working": the API errors' diagnosis
# (it names the key on file and what to do), not a ticket for engineering.
_KEY_FAILS = re.compile(
    # "is anything failing on my api key", "the key's not taking": failing calls made with it
    r"\b(?:anything|something|stuff|calls?|requests?)\s+(?:\w+\s+)?fail\w*\s+(?:on|with)\s+(?:my|our|the)\s+(?:api\s+)?keys?\b"
    r"|\b(?:api\s+)?key(?:'s|\s+is)?\s+not\s+taking\b|"
    r"\b(?:api\s+)?keys?\b.{0,25}\b(?:dead|revoked|invalid|expired|broken|not\s+working|(?:isn'?t|aren'?t)\s+working"
    r"|stopped\s+working|quit\s+working|died|doesn'?t\s+work|not\s+work"
    r"|don'?t\s+work|rejected|disabled|no\s+good|won'?t\s+work|killed|deleted|deactivated|nuked|kaput|wiped)\b"
    # asked the other way round: "why won't my key work", "how come doesn't our api key work"
    r"|\b(?:won'?t|wont|doesn'?t|don'?t|isn'?t|aren'?t)\s+(?:my|our|the)\s+(?:api\s+)?keys?\s+work(?:ing)?\b"
    # asked to look at it: "can you check my key" (the diagnosis says whether it is the key)
    r"|\b(?:check|look\s+at|test|verify)\s+(?:my|our|the)\s+(?:api\s+)?key\b"
    # "why did you guys cancel my key": what was done to it
    r"|\b(?:cancel+(?:ed)?|revoke[ds]?|disabled?|deleted?|killed|blocked|deactivated?|suspended?|turned\s+off|shut\s+off)\s+(?:my|our|the)\s+(?:api\s+)?keys?\b"
    # "oh so it's my key, not you lot?": whether the key is the trouble
    r"|\b(?:it'?s|its|it\s+is|is\s+it|was\s+it)\s+(?:just\s+|really\s+)?(?:my|our|the)\s+(?:api\s+)?key\b(?!\s+(?:to|for))"
    # "can you check if my api key is still good": whether it works is the diagnosis's to say
    r"|\b(?:api\s+)?key\b.{0,20}\b(?:is|still|s)\s+(?:still\s+)?(?:good|valid|ok(?:ay)?|active|working|alive)\b"
    # "the thing with my key, can you turn it back on?": a revoked key asked back (the diagnosis
    # says a new one is made in the dashboard)
    r"|\b(?:api\s+)?key\b.{0,40}\b(?:turn|switch|put)\s+(?:it|that|them)\s+back\s+on\b"
    r"|\b(?:turn|switch|put|flip)\s+(?:(?:the|my|our|that)\s+)?(?:old\s+|previous\s+|original\s+)?(?:api\s+)?keys?\s+back\s+on\b"
    r"|\b(?:re-?enable|reactivate|un-?revoke|restore|unblock)\s+(?:my|our|the)\s+(?:api\s+)?key\b",
    re.I,
)


# A key of the sign-in's: a security key, a password, the authenticator.
_SIGN_IN_KEY = re.compile(
    r"\b(?:security|hardware|yubi|passkey|fob|door|car|house)\s*keys?\b|\bpass(?:word|key)\b|\blog\s*in\b|\bsign\s*in\b"
    r"|\bauthenticat|\b2fa\b|\btwo[-\s]factor\b", re.I)


# A break-in told: "someone unauthorized logged into my account" is no API call's 401.
_BREAK_IN = re.compile(r"\b(?:someone|somebody|logged\s+in\w*|signed\s+in\w*|sign[-\s]?ins?|log[-\s]?ins?|hack\w*|break[-\s]?in|broke\s+in"
                       r"|(?:my|our|the)\s+account)\b", re.I)


def tells_break_in(text: str) -> bool:
    """The caller tells of someone in their account (security's), whatever error word is in it."""
    return bool(_BREAK_IN.search(text))


# Where an API key is used: "it won't let me log in with it from our server" logs a program in.
_FROM_A_PROGRAM = re.compile(r"\b(?:from|on|in)\s+(?:our|my|the)\s+(?:server|servers|backend|back\s+end|code|script|app|integration)\b", re.I)


def sign_in_key(text: str) -> bool:
    """The key the caller names is the sign-in's ("my security key isn't working"), not an API key
    (a key a program signs in with, "from our server", is the API's)."""
    return bool(_SIGN_IN_KEY.search(text)) and not (_FROM_A_PROGRAM.search(text) and not _BREAK_IN_WORDS.search(text))


_BREAK_IN_WORDS = re.compile(r"\b(?:someone|somebody|hack\w*|break[-\s]?in|broke\s+in|password|passkey|authenticat\w*|2fa|two[-\s]factor)\b", re.I)


def key_fails(text: str) -> bool:
    """The caller says their API key no longer works."""
    return bool(_KEY_FAILS.search(text))


# "did you have a webhook delay last week", "is that the one from last week with the webhooks":
# deliveries that came late, or a trouble in the past, are the status board's incidents (it
# lists the recent resolved ones), not set-up help and not a ticket of the caller's own.
_DELIVERED = r"(?:webhooks?|deliver(?:y|ies)|events?|notifications?|callbacks?)"
_LATE = r"(?:delay(?:s|ed)?|late|lagg?(?:ing|ed)?|behind|slow(?:\s+down)?)"
_PAST = (
    r"(?:last\s+(?:week|night|weekend|month|monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
    r"|yesterday|the\s+other\s+day|(?:a\s+)?(?:few|couple(?:\s+of)?)\s+days\s+ago|over\s+the\s+weekend"
    # "was there a problem with webhooks recently"
    r"|recently|lately|earlier\s+(?:today|this\s+week)|this\s+morning)"
)
_TROUBLE = r"(?:the\s+one|incident|outage|down|problem|issue|trouble|glitch|hiccup|delay\w*|webhooks?)"
_PAST_TROUBLE = re.compile(
    rf"\b{_DELIVERED}\b.{{0,40}}\b{_LATE}\b|\b{_LATE}\b.{{0,25}}\b{_DELIVERED}\b"
    rf"|\b{_TROUBLE}\b.{{0,40}}\b{_PAST}\b|\b{_PAST}\b.{{0,40}}\b{_TROUBLE}\b"
    # "is the webhook thing from before fixed now": whether that trouble is over
    rf"|\b(?:is|was|has|are)\s+(?:the|that|this)\s+(?:\w+\s+){{0,4}}?(?:fixed|resolved|sorted|over|back\s+up|working\s+again|been\s+(?:fixed|resolved))\b",
    re.I,
)
_OWN_TICKET = re.compile(r"\b(?:tickets?|escalation|case)\b", re.I)


# "i set up webhooks last week, how do i verify the signature": webhooks set up in the past are
# no trouble with them, unless a trouble is named too
_SET_UP = re.compile(r"\b(?:set\s*up|setting\s+up|configur\w+|install\w*|integrat\w+|register\w*|added|created|built|implemented)\b", re.I)
_NAMED_TROUBLE = re.compile(r"\b(?:incident|outage|down|problems?|issues?|trouble|glitch|hiccup|delay\w*|late|fail\w*|broke\w*|stopped)\b", re.I)


def past_trouble(text: str) -> bool:
    """Deliveries came late, or something went wrong in the past: an incident to look up."""
    return bool(_PAST_TROUBLE.search(text)) and not (_SET_UP.search(text) and not _NAMED_TROUBLE.search(text))


def names_ticket(text: str) -> bool:
    """The caller names a ticket of their own ("my ticket from last week"): its status stands."""
    return bool(_OWN_TICKET.search(text))


# "i'd like to open a ticket about the 500s", "can somebody in engineering look at these errors",
# "get an engineer on it": the caller asks for people to work on it, whatever the errors read as.
# The errors name what the ticket is about; a question about a ticket ("did you open a ticket?",
# "is there a ticket for it") asks for none.
_ASKS_TICKET = re.compile(
    r"\b(?:want|wanna|wanted|need|needs|like|please|can\s+you|could\s+you|would\s+you|go\s+ahead\s+and|just|let'?s|i'?d\s+like\s+to|gotta|got\s+to|have\s+to)\b.{0,25}"
    r"\b(?:open|file|raise|create|log|submit|start|put\s+in)\s+(?:a|an|one|another)\s+(?:\w+\s+)?(?:ticket|case|escalation)\b"
    r"|^\W*(?:(?:uh|um|so|ok|okay|and|please)\W+)*(?:open|file|raise|create|log|submit)\s+(?:a|an|one)\s+(?:\w+\s+)?(?:ticket|case)\b"
    # "then open one, please" after hearing no ticket is open: the ticket is the "one"
    r"|^\W*(?:(?:uh|um|so|ok|okay|and|please|then|well|yes|yeah)\W+)*(?:open|file|raise|log)\s+(?:one|a\s+new\s+one|another(?:\s+one)?)"
    r"(?:\W+(?:then|please|for\s+(?:me|us)|now))*\W*$"
    r"|\bescalate\b(?!\w)"
    # "i'd like to get a ticket opened with engineering": the ticket asked for, said passively
    r"|\b(?:get|have|want|need|like)\s+(?:a|an|one)\s+(?:\w+\s+)?(?:ticket|case)\s+(?:opened|filed|raised|created|logged|started|put\s+in)\b"
    r"|\b(?:can|could|would|will)\s+(?:some\s?(?:one|body)|an?\s+engineers?|your\s+engineers|engineering|someone\s+technical)"
    r"(?:\s+(?:in|from|on)\s+(?:the\s+|your\s+)?(?:engineering|tech|dev)\w*(?:\s+team)?)?\s+(?:please\s+)?(?:look|check|investigate|dig)\b"
    r"|\b(?:get|put)\s+(?:an?\s+|some\s?one\s+|some\s?body\s+|your\s+)?(?:engineers?|engineering|developers?|dev\s+team)\s+(?:on|to\s+look)\b"
    # "can i get someone from engineering to look at it", "let me talk to an engineer": a person
    # asked for by the team that would look at the problem is that team's ticket
    r"|\b(?:some\s?(?:one|body)|a\s+person|people|anyone)\s+(?:from|in|on)\s+(?:the\s+|your\s+)?(?:engineering|dev(?:elopment)?|tech(?:nical)?)\b"
    r"|\b(?:talk|speak)\s+(?:to|with)\s+(?:an?\s+|your\s+|one\s+of\s+your\s+)?(?:engineers?|developers?|engineering)\b",
    re.I,
)


def asks_for_ticket(text: str) -> bool:
    """The caller asks for a ticket, or for engineers to look at their problem."""
    return bool(_ASKS_TICKET.search(text)) and not re.search(r"^\W*(?:did|have|has|is|was|were)\b", text, re.I)


# "is there a ticket open for the 500s", "do we have a ticket on this already": a question about
# a ticket, which its status answers; opening one is asked for in other words.
_ASKS_ABOUT_TICKET = re.compile(
    r"^\W*(?:(?:uh|um|so|ok|okay|and|hi|hey)\W+)*(?:is|are|was|were|do|does|did|has|have)\b.{0,40}\b(?:tickets?|case)\b"
    # "tell me whether engineering has a ticket open for us", "check if there's a ticket already":
    # the same question, asked indirectly (not "if there isn't one, open one")
    r"|\b(?:whether|if)\s+(?:\w+\s+){0,3}?(?:has|have|had|is|are|there'?s|got)\b.{0,25}\b(?:tickets?|case)\b"
    r"(?!.{0,40}\b(?:open|file|raise|create|log)\s+(?:one|it|a)\b)"
    # "what stage is our engineering ticket at", "where's our ticket up to": where it stands
    r"|\b(?:what\s+stage|how\s+far\s+along|where'?s|where\s+is)\b.{0,30}\b(?:tickets?|case)\b(?:\s+(?:at|up\s+to))?"
    # "did your engineers ever get back to us about our issue": what became of what was escalated
    r"|\b(?:did|has|have)\s+(?:your|the|an?|any|some)?\s*(?:engineers?|engineering|team|techs?|developers?|support|someone|somebody|anyone|anybody)"
    r"(?:\s+(?:from|in|on|at)\s+(?:your|the)\s+\w+(?:\s+team)?)?\s+(?:ever\s+|yet\s+|already\s+)?(?:get|got|gotten|come|came|reply|replied|respond(?:ed)?|look(?:ed)?\s+at\s+it)(?:\s+back)?\b"
    # "one of our guys filed something with your engineers and i never heard a peep. what happened
    # with that": what became of something filed before
    r"|\b(?:filed|opened|raised|logged|submitted|reported|escalated)\b.{0,60}\b(?:what\s+happened|never\s+heard|heard\s+(?:anything|nothing|back)"
    r"|any\s+(?:news|update|word)|where\s+(?:is|are|does)\s+(?:it|that)|what'?s\s+(?:going\s+on|happening)\s+with)"
    # "any word on the thing we raised with your engineering crew", "did the issue we reported get
    # looked at": news asked of something the caller's side raised before, however it is called
    r"|\b(?:any\s+(?:news|update|word|progress)|did|has|have|what\s+happened|where\s+are\s+we)\b.{0,30}\b(?:thing|issue|problem|request|report|bug|stuff|case)\s+"
    r"(?:that\s+)?(?:we|i|our\s+\w+|my\s+\w+)\s+(?:raised|reported|filed|logged|opened|sent|escalated|flagged)\b"
    r"|\b(?:thing|issue|problem|request|report|bug|stuff|case)\s+(?:that\s+)?(?:we|i|our\s+\w+|my\s+\w+)\s+(?:raised|reported|filed|logged|opened|sent|escalated|flagged)\b"
    r".{0,60}\b(?:any\s+(?:news|update|word|progress)|looked\s+at|picked\s+up|go(?:ne)?\s+anywhere|get\s+anywhere|moving|fixed|sorted|resolved|done)\b"
    # "who do i talk to about the ticket we opened with your engineers": one already open
    r"|\b(?:ticket|case)\s+(?:that\s+)?(?:we|i|our\s+\w+|my\s+\w+)\s+(?:already\s+)?(?:raised|filed|logged|opened|submitted|put\s+in|have\s+open)\b", re.I)


def asks_about_ticket(text: str) -> bool:
    """The caller asks whether a ticket exists or was opened, not for a new one."""
    return bool(_ASKS_ABOUT_TICKET.search(text)) and not asks_for_ticket(text)


# "is inc forty two fixed yet" (the digits as callcenter/spoken.py writes them), "any news on
# incident 41": an incident named by its number is the status board's, never a ticket's.
# The router may read the words as said ("inc forty two"): a number in words counts too.
_UNITS = "one|two|three|four|five|six|seven|eight|nine"
_NUMBER_WORDS = rf"(?:(?:twenty|thirty|forty|fourty|fifty|sixty|seventy|eighty|ninety)(?:[-\s](?:{_UNITS}))?|ten|eleven|twelve|{_UNITS})"
_INCIDENT = re.compile(rf"\b(?:inc|incident)[-\s]?(?:\d{{1,4}}|{_NUMBER_WORDS})\b"
                       # a region of the service names the status board's matter too: "is that us-east issue still going on"
                       r"|\b(?:us|eu|ap)[-\s]?(?:east|west|central|north|south)\b"
                       # "any update on the five hundred incident": news of one, whatever it is called
                       r"|\b(?:update|updates|news|eta|progress)\s+(?:on|about|with|for|regarding)\s+(?:the\s+|your\s+|that\s+|this\s+)?"
                       r"(?:[\w-]+\s+){0,3}(?:incident|outage|downtime)\b"
                       # "how's that incident coming along", "i wanted to ask about the incident": where it stands
                       r"|\bhow'?s\s+(?:that|the|this|your)\s+(?:[\w-]+\s+){0,2}(?:incident|outage)\s+(?:coming\s+along|going|doing|looking|progressing)\b"
                       r"|\bask(?:ing)?\s+(?:you\s+)?about\s+(?:the|that|this|your)\s+(?:[\w-]+\s+){0,2}(?:incident|outage)\b", re.I)


def names_incident(text: str) -> bool:
    return bool(_INCIDENT.search(text))


# "our api access is like locked": the API turned away (a rate limit, a revoked key), not the
# account's sign-in locked
_API_LOCKED = re.compile(r"\b(?:api|api\s+access|integration|endpoints?)\b.{0,20}\b(?:locked|blocked|shut\s+off|cut\s+off|locked\s+out)\b", re.I)


def api_locked(text: str) -> bool:
    """The API, not the account, said to be locked or blocked."""
    return bool(_API_LOCKED.search(text))


# "escalate me to your supervisor": the caller taken to a person, not the trouble to engineering
_ME_TO_A_PERSON = re.compile(
    r"\b(?:escalate|bump|transfer|put|send|pass)\s+me\b.{0,20}\b(?:supervisor|manager|human|person|someone|somebody|agent|rep|representative)\b", re.I)


def escalates_the_caller(text: str) -> bool:
    """The caller asks to be taken to a person ("escalate me to your supervisor")."""
    return bool(_ME_TO_A_PERSON.search(text))
