"""How callers ask for a lock, as against saying they are locked out.

"i want my account locked right now" asks the security specialist for a lock; "my account is
locked" / "i'm locked out" is a sign-in problem. The router reads both by the word "locked".
"""

from __future__ import annotations

import re

# A lock asked for by what it does, not by name (read by the security specialist too).
LOCK_BY_EFFECT = (r"\bput\s+(?:a\s+)?hold\s+on\s+(?:the|my|our|this)\s+account\b"
                  r"|\bso\s+(?:that\s+)?(?:no\s*one|nobody|no\s+body|noone)\s+(?:else\s+)?can\s+(?:log|sign|get)\s*(?:in|on|into)\b")
_ASKS_LOCK = re.compile(
    r"\b(?:want|need|like|please|can\s+you|could\s+you|go\s+ahead\s+and|just)\b.{0,30}\b(?:lock|freeze|block|disable|suspend)"
    r"|\b(?:lock|freeze|block|disable|suspend)\s+(?:it|my|the|our|this|everything)\b"
    r"|\b(?:have|get|keep)\s+(?:it|my\s+account|the\s+account)\s+(?:locked|frozen|blocked)\b"
    # "put a hold on the account so no one can log in": the lock by what it does
    rf"|{LOCK_BY_EFFECT}",
    re.I,
)
_LOCKED_OUT = re.compile(
    r"\b(?:i'?m|i\s+am|we'?re|got|been|get|getting|keep\s+getting)\s+locked\s+out|\b(?:is|was|got|been|it'?s|account'?s)\s+locked\b"
    # "it just says locked", "it says i'm locked"
    r"|\bsays\s+(?:(?:it'?s|i'?m|that\s+it'?s|my\s+account\s+is)\s+)?locked\b"
    # (the caller's own trouble: "lock it so they can't get in" is whom the lock keeps out)
    r"|(?<!they )(?<!he )(?<!she )(?<!them )(?<!one )(?<!body )(?<!people )(?<!hackers )\b(?:can'?t|cannot)\s+(?:log|sign|get)\b",
    re.I,
)


# Sign-ins someone else made: "who's been signing into my account", "logins from romania that
# weren't me", "alerts about sign ins". A question about them is security's, not a sign-in problem.
_SOMEONE_ELSES = re.compile(
    r"\b(?:who(?:'?s|\s+is|\s+has|\s+have)?|someone|somebody|(?:any|some|no)(?:one|body)\s+else|strange|weird|unusual|suspicious|unknown|unrecogni[sz]ed|alerts?"
    r"|notifications?)\b.{0,40}\b(?:sign(?:ing|ed)?[-\s]?(?:in|ins|into)|log(?:ging|ged)?[-\s]?(?:in|ins|into)|logins?)\b"
    r"|\b(?:sign[-\s]?ins?|log[-\s]?ins?|logins?)\b.{0,30}\b(?:from|not\s+me|wasn'?t\s+me|weren'?t\s+me"
    # "a sign in yesterday i don't totally remember", "a login i never made"
    r"|i\s+(?:don'?t|do\s+not|can'?t)\s+(?:\w+\s+)?(?:recogni[sz]e|remember|recall)|i\s+(?:never|didn'?t)\s+(?:make|made|do|did))\b"
    # "is anyone trying to get into my account", "so nobody else got in": someone else getting in
    # (only helper words between: "can anyone help me get into my account" is the caller's own)
    # "check who's been trying to get into my stuff"
    r"|\bwho(?:'?s|\s+has|\s+have)\s+been\s+(?:trying\s+to\s+)?(?:get|getting|break|breaking)\s+in(?:to)?\b"
    r"|\b(?:someone|somebody|anyone|anybody|no\s?one|nobody|hackers?)(?:\s+(?:else|has|have|had|is|was|been|just|already|maybe|might|could"
    r"|trying|tried|managed|able|to))*\s+(?:get|got|gotten|getting|break|broke|breaking|hack|hacked|hacking)\s+in(?:to)?\b"
    # "i saw a sign in yesterday", "there was a new login last night": one seen, not one failing
    r"|\b(?:saw|seen|noticed|spotted|got\s+(?:an?\s+)?(?:email|alert|notification)\s+about|there\s+(?:was|were))\s+"
    r"(?:an?\s+|some\s+|two\s+|three\s+)?(?:new\s+|odd\s+|random\s+)?(?:sign[-\s]?ins?|log[-\s]?ins?|logins?)\b"
    # "i keep getting emails about failed sign in attempts": attempts someone else made
    r"|\b(?:e-?mails?|alerts?|notifications?|messages?|texts?)\s+(?:saying|that\s+says?|about)\s+(?:\w+\s+){0,2}"
    r"(?:sign[-\s]?in|log[-\s]?in|login)\s+attempts?\b"
    # "i keep getting these emails saying new sign in": the sign-in alerts themselves
    r"|\b(?:e-?mails?|alerts?|notifications?|messages?|texts?)\s+(?:saying|that\s+says?|about)\s+(?:there'?s\s+)?(?:an?\s+)?new\s+"
    r"(?:sign[-\s]?ins?|log[-\s]?ins?|logins?)\b",
    re.I,
)


# "login's broken", "sign in isn't working for me": signing in fails, which sign-in help answers
_SIGN_IN_FAILS = re.compile(
    r"\b(?:log\s*-?in|login|logins|login'?s|sign\s*-?in|signin|sign\s*-?in'?s)\b(?:\s+(?:page|screen|thing|button))?(?:\s+(?:is|has|keeps|just|still|totally))*"
    r"\s+(?:broken|busted|not\s+working|isn'?t\s+working|won'?t\s+work|doesn'?t\s+work|failing|fails|stopped\s+working|kaput|dead)\b", re.I)


def sign_in_fails(text: str) -> bool:
    """Signing in fails ("login's broken"), said with no one else's sign-ins."""
    return bool(_SIGN_IN_FAILS.search(text)) and not sign_ins_by_someone_else(text) and not changed_by_someone_else(text)


def sign_ins_by_someone_else(text: str) -> bool:
    """The caller asks about sign-ins they did not make ("who's been signing into my account")."""
    return bool(_SOMEONE_ELSES.search(text))


# The lock undone: "can you undo the lock on my account", "lift the freeze" (sign-in help unlocks).
_UNDOES_LOCK = re.compile(
    r"\b(?:undo|remove|lift|take\s+off|release|reverse|clear|get\s+rid\s+of|turn\s+off)\s+(?:the|my|this|that|our)\s+"
    r"(?:account\s+)?(?:lock|hold|freeze|block|suspension)\b", re.I)


def asks_for_lock(text: str) -> bool:
    """The caller asks for the account to be locked ("lock it now", "i want it frozen")."""
    return bool(_ASKS_LOCK.search(text)) and not _UNDOES_LOCK.search(text)


# "i'm blocked from logging in", "we're shut out": kept out, in other words than a lock
_KEPT_OUT = re.compile(
    r"\b(?:blocked|barred|kept|shut)\s+(?:out\s+)?(?:from|of)\s+(?:logging|signing|getting)\s+(?:in|into|on)\b"
    r"|\b(?:i'?m|i\s+am|we'?re|we\s+are)\s+(?:blocked|shut|barred)\s+out\b", re.I)


def locked_out(text: str) -> bool:
    """The caller says they cannot get in ("my account's locked", "i'm locked out")."""
    return bool(_LOCKED_OUT.search(text) or _KEPT_OUT.search(text))


def says_locked(text: str) -> bool:
    """The lock itself said ("it says my account is locked", "i'm blocked from logging in"), not
    any sign-in trouble."""
    return (locked_out(text) and "locked" in text.lower()) or bool(_KEPT_OUT.search(text))


_UNLOCK = re.compile(r"\bun-?lock(?:ed|ing)?\b", re.I)


def asks_unlock(text: str) -> bool:
    """The lock's undoing asked for ("unlock the account would you please"): the unlock's call
    back (sign-in help), neither a lock nor a closure."""
    return bool(_UNLOCK.search(text) or _UNDOES_LOCK.search(text))  # "can you undo the lock on my account"


_MORE_OF_THE_PLAN = re.compile(r"\b(?:limits?|requests|plans?|tiers?|features?|more|higher|bigger)\b", re.I)


def asks_unlock_alone(text: str) -> bool:
    """"how do i unlock, está bloqueada": an unlock asked for with nothing of a plan's limits
    about it (not "unlock a higher rate limit"), which the router alone reads as nothing it knows."""
    return asks_unlock(text) and not _MORE_OF_THE_PLAN.search(text)


_TWO_FACTOR = re.compile(r"\b(?:codes?|authenticator|two[-\s]?factor|2fa|mfa)\b", re.I)


def lock_is_not_the_trouble(text: str) -> bool:
    """A lock asked for, sign-ins someone else made, a lost phone or the two-factor codes: the
    words say more than that the account is locked (security's or the two-factor reset's)."""
    return asks_for_lock(text) or sign_ins_by_someone_else(text) or phone_gone(text) or bool(_TWO_FACTOR.search(text))


def ends_nothing_but_the_account(text: str) -> bool:
    """Words that make a closure read something else: a lock asked for, sign-ins someone else
    made, or a lockout ("i'm locked out, should i just close it")."""
    return asks_for_lock(text) or sign_ins_by_someone_else(text) or locked_out(text)



# "so my phone died, like completely", "dropped my phone in the lake": the phone that holds the
# authenticator is gone, which is the two-factor reset's need ("completely" alone reads as a
# closure to the router), unless the caller names the account's closure outright.
_PHONE_GONE = re.compile(
    r"\b(?:phone|mobile|cell|device|authenticator)\b.{0,30}?\b(?:died|dead|broke|broken|lost|stolen|gone|wiped|smashed|"
    r"fell|dropped|replaced|reset|factory)\b"
    r"|\b(?:lost|broke|dropped|replaced|smashed|wiped|reset)\s+(?:my|our|the)\s+(?:phone|mobile|cell|device)\b", re.I)
_CLOSES = re.compile(r"\b(?:clos(?:e|ed|ing)|cancel(?:l?ed|l?ing)?|terminat(?:e|ed|ing)|delet(?:e|ed|ing)|shut(?:ting)?\s+down|end(?:ing)?)\b"
                     r".{0,30}\b(?:account|acct|subscription|everything)\b", re.I)


_CODE_ASKED = re.compile(r"\b(?:codes?|app|authenticator|2fa|two[-\s]?factor|one[-\s]?time)\b", re.I)


def phone_gone_code_asked(text: str) -> bool:
    """"dropped my phone in the harbour, and now when i log in it wants that code from the app":
    the phone with the codes is gone, said as a sign-in that asks for them."""
    return phone_gone(text) and bool(_CODE_ASKED.search(text))


def phone_gone(text: str) -> bool:
    """The caller's phone (the authenticator's) is lost, broken or replaced."""
    return bool(_PHONE_GONE.search(text))


def closes_account(text: str) -> bool:
    """The words ask for the account's closure outright."""
    return bool(_CLOSES.search(text))


# Any word that ends, leaves or gets rid of something: a closure is never asked for without one
# ("..., and we only have the one account" reads as a closure to the router, beside other needs).
_ENDING = re.compile(
    r"\b(?:clos\w*|cancel\w*|terminat\w*|delet\w*|remov\w*|shut\w*|end\w*|stop\w*|quit\w*|leav\w*|left|unsubscrib\w*"
    r"|deactivat\w*|get\s+rid|done|out|no\s+longer|any\s*more|wip\w*|eras\w*|kill\w*|nuke|discontinu\w*|elsewhere"
    r"|competitor|provider|switch\w*|mov\w*|goodbye|bye|finish\w*|don'?t\s+(?:need|want)|cut\s+ties|part\s+ways"
    r"|exit|wind\s+down|off|gone|over|through\s+with|plug|drop\w*|permanent\w*|entirely|completely|for\s+good)\b", re.I)


# "no, leave it as it is", "leave things like that for now": nothing is to change, however much
# "leave" sounds like leaving the company.
_KEPT_AS_IS = re.compile(
    r"\bleave\s+(?:it|that|this|things|everything|them)\s+(?:as\s+(?:it\s+is|they\s+are|is)|like\s+(?:that|it\s+is|this|they\s+are)"
    r"|alone|be|for\s+now|there)\b", re.I)


def keeps_as_is(text: str) -> bool:
    """The caller asks for things to stay as they are ("no, leave it as it is")."""
    return bool(_KEPT_AS_IS.search(text))


def names_no_ending(text: str) -> bool:
    """No word in the clause ends anything: whatever the router read, no closure is asked for."""
    return not _ENDING.search(text)


# "someone changed my email address last night", "my password got changed and it wasn't me": a
# change the caller did not make is security's matter, not a change of details to make.
_CHANGED_BY_SOMEONE = re.compile(
    # (not one asked to: "somebody has to reset my two factor, my phone went in the lake")
    r"\b(?:someone|somebody|some\s+one|a\s+stranger|hackers?|they)\b"
    r"(?!\s+(?:(?:has|have|needs?|got)\s+to|should|must|can|could|will|would|to|please)\b).{0,20}\b(?:changed|reset|updated|altered|switched)\b"
    r".{0,20}\b(?:email|e-mail|password|phone|number|details|address)\b"
    r"|\b(?:email|e-mail|password|phone|number|details|address)\b.{0,30}\b(?:was|got|has\s+been|have\s+been|been)\s+(?:changed|reset|updated)\b"
    r".{0,40}\b(?:not\s+me|wasn'?t\s+me|i\s+(?:did\s*n'?o?t|didnt|never)|without\s+(?:me|my))"
    # "i'm getting emails about a password reset i never asked for": someone else asked for it
    r"|\b(?:password\s+resets?|reset\s+(?:emails?|links?|codes?|requests?)|(?:verification|login|sign[-\s]?in|security|2fa)\s+codes?)\b"
    r".{0,40}\b(?:i|we)\s+(?:never|didn'?t|did\s+not|haven'?t|have\s+not)\s+(?:ask|asked|request|requested|do|did|make|made|trigger|triggered)\b",
    re.I)


def changed_by_someone_else(text: str) -> bool:
    """The caller's details were changed by someone else."""
    return bool(_CHANGED_BY_SOMEONE.search(text))



# "how do i change the email my plan invoices go to": the contact detail is what changes, however
# much of the plan or the invoices the sentence names
_CONTACT_CHANGED = re.compile(
    r"\b(?:change|update|switch|swap|edit|correct|fix)\s+(?:the|my|our|which)?\s*(?:billing\s+)?"
    r"(?:e-?mail|phone|mobile|cell)(?:\s+(?:address|number))?\b"
    # "stop sending everything to my old email, it should go to linus@pauling.org from now on"
    r"|\b(?:my|our|the)\s+old\s+(?:e-?mail|phone|mobile|cell)(?:\s+(?:address|number))?\b.{0,60}?\b(?:should|to|instead|now|new)\b"
    r"|\b(?:should|must|needs?\s+to|can\s+you)\s+(?:\w+\s+){0,2}?(?:go|be\s+sent|send\s+\w+)\s+to\s+[\w.+-]+@[\w-]+(?:\.[\w-]+)+", re.I)


def changes_contact(text: str) -> bool:
    """The email or phone on the account asked to change."""
    return bool(_CONTACT_CHANGED.search(text))
