"""How callers say a refund was already asked for (its status), and one asked for now.

"i asked for a refund yesterday for the double charge, what's going on with it" names the
charge and the refund, so the router reads a refund; the caller asked for it before and wants
to know where it is. A new request said beside it ("... and refund the other one too") is
still a refund.
"""

from __future__ import annotations

import re

# what money owed back is called, and what it does once it has moved (for _ASKED_BEFORE)
_MONEY_OWED = r"(?:money|refund|credit|cash|double\s+charge|duplicate(?:\s+charge)?|charged?\s+(?:me\s+|us\s+)?twice)"
_MOVED = (r"(?:(?:ever\s+|actually\s+|already\s+)?(?:come|came|get|got|gone|go|went)\s+(?:back|through|sorted|processed|refunded|returned|done)"
          r"|(?:been\s+)?(?:sorted|processed|refunded|returned|credited|paid\s+back|done)\b|back\s+(?:on|to|in)\s+(?:my|our|the|us|me)\b"
          r"|happen(?:ed)?\b|land(?:ed)?\b|arriv\w*|show(?:ed|n)?\s+up)")
_ASKED_BEFORE = re.compile(
    r"\b(?:did|have|has|had)\s+(?:you|they|it|someone|somebody|the\s+refund)\s+(?:already\s+|ever\s+)?(?:refund|process|sen[dt]|issu|go|gone|come|arriv|clear)"
    # "the money back you were supposed to be sorting for me, any news on that": one promised before
    r"|\b(?:money\s+back|refund|credit)\b.{0,30}\b(?:you|they|someone|somebody)\s+(?:were|was)\s+(?:supposed|meant|going)\s+to\b"
    r"|^\W*(?:(?:and|so|ok|okay|um|uh|hi|hey)\W+)*(?:the|my|our|that)\s+(?:money\s+back|refund)\b.{0,50}\bany\s+(?:news|update|word|progress)\b"
    # "did you ever actually give me my money back": whether it was paid, asked of them
    r"|\b(?:did|have|has)\s+(?:you|they|y'?all|you\s+guys)\s+(?:ever\s+|already\s+|actually\s+|really\s+)*"
    r"(?:give|given|send|sent|pay|paid|put)\s+(?:me|us)\s+(?:(?:my|our|the|that)\s+)?(?:money|cash)\s+back\b"
    # "did you already credit us for that"
    r"|\b(?:did|have|has)\s+(?:you|they|y'?all|you\s+guys)\s+(?:already\s+|ever\s+)?credit(?:ed)?\s+(?:us|me|my|our|the)\b"
    r"|"
    r"\b(?:i|we)\s+(?:already\s+)?(?:asked|requested|applied|filed|put\s+in|called)\s+(?:for\s+|about\s+)?(?:a\s+|the\s+|my\s+|that\s+)?refund"
    # "somebody on my team asked you for money back a while ago, did that go anywhere"
    r"|\b(?:i|we|someone|somebody|(?:some|any)one\s+(?:on|from|in)\s+(?:my|our)\s+\w+|my\s+\w+)\s+(?:already\s+)?(?:asked|requested)"
    r"\s+(?:you\s+|y'?all\s+|you\s+guys\s+)?for\s+(?:a\s+|the\s+|some\s+|our\s+|my\s+)?(?:refund|money\s+back|credit)\b.{0,40}"
    r"\b(?:ago|before|last\s+\w+|earlier|already)\b"
    r"|\brefund\s+(?:that\s+)?(?:i|we|you)\s+(?:asked|requested|promised|approved|said|put)"
    # "somebody on your side told me weeks ago i'd get money back"
    r"|\b(?:you|they|someone|somebody|an?\s+(?:agent|guy|man|woman|lady|person|rep|bloke|chap)|one\s+of\s+your\s+\w+)"
    r"(?:\s+(?:on|from|at|in)\s+(?:your|the)\s+(?:side|end|team|company|support|office|billing\s+team))?"
    r"\s+(?:promised|approved|said|told)\b.{0,60}\b(?:refund|money\s+back)"
    r"|\b(?:my|the|that)\s+refund\s+(?:from|since|of)\s+(?:last|yesterday|a\s+week|two|three|monday|tuesday|wednesday"
    r"|thursday|friday|the\s+other\s+day)"
    r"|\b(?:still|never)\s+(?:waiting|haven'?t|hasn'?t|not|got|received|came|arrived|showed|seen|heard)\b.{0,40}\brefund"
    r"|\brefund\b.{0,40}\b(?:still\s+(?:hasn'?t|isn'?t|not|pending)|never\s+(?:came|arrived|showed|got)|hasn'?t\s+(?:come|arrived|shown))"
    # its status asked by name: "refund status for anything pending", "any pending refunds"
    r"|\brefunds?\s+(?:status|update|progress)\b|\b(?:status|progress)\s+(?:of|on)\s+(?:my\s+|the\s+|a\s+|any\s+|our\s+)?refunds?\b"
    r"|\b(?:pending|open|outstanding)\s+refunds?\b|\brefunds?\s+(?:still\s+)?(?:pending|outstanding|in\s+progress)\b"
    # "i was told weeks ago i'd get money back": one promised before this call
    r"|\b(?:i\s+was|we\s+were)\s+(?:told|promised)\b.{0,40}\b(?:refund\w*|money\s+back|credit)"
    # "is my money back yet", "did i get my money back": where a refund stands
    # (asked, not told: "what i really want is my money back" asks for it now)
    r"|(?:^|[,.?!]\s*)(?:(?:so|and|but|um|uh|ok|okay|hey|hi|hello)\W+)*(?:is|has)\s+(?:my|the|our)\s+(?:money|cash|refund)\s+(?:back|come\s+back|arrived|gone\s+through|landed)"
    # "wheres my money back, i asked for it": where one already asked for stands
    r"|\bwhere(?:'?s|\s+is)\s+(?:my|our|the)\s+(?:money|cash|refund|credit)\b"
    r"|\b(?:did|have)\s+(?:i|we)\s+(?:got|get|gotten|received?)\s+(?:my|our|the)\s+(?:money|cash|refund)\s*(?:back)?\s*(?:yet)?\W*$"
    # "did i ever get a refund for anything", "have we had any refunds": refunds had, asked after
    r"|\b(?:did|have|has)\s+(?:i|we)\s+(?:ever\s+|already\s+|actually\s+)?(?:get|got|gotten|had|receive[d]?)\s+(?:a|any|my|our|the)\s+refunds?\b"
    # "did you get my refund request from before": one asked for in an earlier call
    r"|\b(?:did|have|has)\s+(?:you|y'?all|you\s+guys|anyone|someone)\s+(?:get|got|receive[d]?|see|seen|look\w*\s+at)\s+(?:my|our|the)\s+refund"
    r"|\brefund\s+(?:request|claim)\s+(?:from\s+(?:before|earlier|last)|i\s+(?:made|sent|put\s+in))"
    # "did that double charge ever get sorted out", "is the money from the duplicate charge back on
    # my card yet", "did the credit for the outage come back to us": whether money owed back has
    # moved, asked of the money, the refund or the charge it undoes
    rf"|\b(?:did|has|have|is|was|were|check\s+(?:if|whether)|know\s+(?:if|whether)|see\s+(?:if|whether))\s+(?:\w+\s+){{0,6}}?{_MONEY_OWED}\b"
    rf".{{0,40}}?\b{_MOVED}"
    # "whatever happened with that money back thing": after a refund already asked for
    r"|\bwhat(?:ever)?\s+(?:happened|is\s+happening|'?s\s+happening)\s+(?:to|with)\s+(?:that|the|my|our)\s+(?:\w+\s+){0,2}?"
    r"(?:refund|money\s+back|credit|cash\s+back)"
    # "refund gone through?", "my refund been processed": how a gloss of another language says it
    r"|\brefunds?\s+(?:already\s+)?(?:gone\s+through|been\s+processed|processed|went\s+through|come\s+through)\b"
    r"|\b(?:already|ever)\s+refunded\b\W*$",
    re.I,
)
_ANOTHER = re.compile(r"\b(?:another|new|second|other)\s+refund\b|\brefund\s+(?:the\s+)?(?:other|new|second)\b", re.I)
# "did my double charge ever get refunded? if not do that too": asked for now, if it is still owed
_IF_NOT_DO_IT = re.compile(
    r"\bif\s+(?:not|it\s+(?:hasn'?t|wasn'?t|didn'?t)|you\s+(?:haven'?t|didn'?t))\b.{0,25}\b(?:do|refund|issue|process|send|start)\b", re.I)


# An amount as said or as written: "forty nine", "two hundred and forty nine dollars", "$49".
_AMOUNT_WORD = (r"(?:\$?\d[\d.,]*|zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen"
                r"|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand"
                r"|and|dollars?|bucks|quid)")
# A refund asked for now: "refund me the duplicate", a bare "refund", "i want my money back";
# "refund status for anything pending" opens with the word but asks where refunds stand.
_ASKS_NOW = re.compile(
    r"^\W*(?:(?:um|uh|so|ok|okay|yeah|please|just|and|also|then)\W+)*refund\b(?!\s+(?:status|update|progress|tracking|situation)\b)"
    r"|\brefund\s+(?:me|it|that|this|them|the|my|us)\b"
    r"|\b(?:want|like|need|get|give|have|issue|do|process)\s+(?:me\s+|us\s+)?(?:a|my|the|that|this|our)?\s*refund\b"
    r"|\b(?:money|cash)\s+back\b"
    # "can i get the forty nine back from my last invoice" (spoken numbers are digits here)
    rf"|\b(?:get|have|want|need|like)\s+(?:the\s+|my\s+|that\s+|our\s+)?(?:{_AMOUNT_WORD}\s+){{1,5}}back\b"
    # "is there any refund i can get": whether there is one to have, asked now
    r"|\b(?:any|a)\s+(?:refund|money\s+back|credit)\s+(?:that\s+)?(?:i|we)\s+(?:can|could|might|would)\s+(?:get|have|claim)\b"
    # "i want some credit on the big invoice for all the hours we lost": a credit asked for is money back
    r"|\b(?:want|like|need|get|give|have|issue|deserve|owed?)\s+(?:me\s+|us\s+)?(?:a\s+|some\s+|the\s+|my\s+|our\s+)?"
    r"(?:service\s+|outage\s+|downtime\s+)?credit\b(?!\s+card)"
    # "cancel the charge for this month": a charge undone is its money back
    r"|\b(?:cancel|reverse|undo|void)\s+(?:the|that|this|my|our)\s+(?:\w+\s+)?(?:charge|payment)\b",
    re.I,
)


def asks_now(text: str) -> bool:
    """A refund asked for in this call ("refund me the duplicate", "i want a refund")."""
    return bool(_ASKS_NOW.search(text) or _IF_NOT_DO_IT.search(text)) and not asked_before(text)


# "whats the status of my ticket about getting my money back": the ticket is the refund asked
# for, whatever the caller calls it; its status is the refund's
_TICKET_FOR_MONEY = re.compile(
    r"\b(?:ticket|case|request|claim|complaint)\s+(?:about|for|on|regarding|re)\s+(?:\w+\s+){0,3}?"
    r"(?:(?:my|the|our)\s+)?(?:money\s+back|refund|reimburse\w*|duplicate\s+charge|double\s+charge)\b", re.I)


def ticket_for_money(text: str) -> bool:
    """A ticket asked about whose subject is money back."""
    return bool(_TICKET_FOR_MONEY.search(text))


def asked_before(text: str) -> bool:
    """The refund was asked for before this call ("i asked for a refund yesterday", "the refund
    you promised never showed"); a ticket about it is one asked for ("my case about getting reimbursed")."""
    return (bool(_ASKED_BEFORE.search(text)) or ticket_for_money(text)) and not _IF_NOT_DO_IT.search(text)


def asks_another(text: str) -> bool:
    """A new refund said beside the old one ("and refund the other charge too")."""
    return bool(_ANOTHER.search(text))


# "a credit for the failed calls today", "compensation for the outage", "money back for the
# downtime": money asked back for service that failed, the refund's service-failure credit,
# however much the trouble's words read as a diagnosis or the status board.
_RETURN = r"(?:credit|credits|compensat\w*|money\s+back|refund\w*|reimburs\w*|discount|something\s+back|partial\s+refund)"
_TROUBLE = (r"(?:fail\w*|errors?|outages?|downtime|down\s?time|incidents?|[45]\d\d'?s?|5xx|five\s+hundreds?|disruption|interruption"
            r"|the\s+api\s+being\s+down|service\s+(?:issues?|problems?)|(?:it|the\s+api|you)\s+(?:was|were|being)\s+down)")
_PAID_IN_FULL = (r"(?:still\s+|also\s+)?(?:paid|pay|paying|charged|charging|charge|billed|billing)\s+(?:us|me|them)?\s*(?:for\s+)?(?:the\s+)?"
                 r"(?:full|whole|entire|same|normal|regular)(?:\s+(?:whack|price|amount|fee|rate|whack|month|bill|thing))?")
_LESS_OWED = (r"(?:bill|charge|invoice|price)\s+(?:should|ought\s+to|needs?\s+to|has\s+to)\s+(?:really\s+)?be\s+(?:a\s+(?:lot|bit)\s+)?"
              r"(?:lower|less|reduced|discounted|smaller|cheaper)")
_DIED = r"(?:died|dying|dead|down|broken|failing|timing\s+out|timed\s+out)"
_CREDIT_FOR_TROUBLE = re.compile(
    rf"\b{_RETURN}\b.{{0,30}}\b(?:for|because(?:\s+of)?|cos|cause|since|due\s+to|over|after)\b.{{0,30}}\b(?:{_TROUBLE}|throwing|broken|not\s+working)"
    # the credit named alone, in a clause of its own, after the trouble told: "then the credit for
    # today's mess", "and the money for that, the credit thing"
    r"|^\W*(?:(?:and|then|also|plus|oh|so|ok|okay|now|um|uh|next|after\s+that)\W+)*"
    r"(?:(?:the|my|our)\s+money\s+for\s+(?:that|this|it)\W+)?(?:the|a|some|our|my|that)\s+credit(?:\s+thing)?"
    r"(?:\s+(?:for|over|because\s+of)\s+(?:[\w']+\s*){1,4})?\W*$"
    # the credit named by its trouble: "the outage credit for today", "gimme the service credit thing"
    rf"|\b(?:outage|downtime|incident|service|sla|uptime)\s+credits?\b"
    # a terse caller's two words, the return then its trouble: "credit. the outage", "refund, the downtime"
    rf"|^\W*(?:(?:a|the|my|our|some)\s+)?{_RETURN}\W+(?:(?:for|over)\s+)?(?:(?:the|that|this|today'?s|your|our)\s+)?{_TROUBLE}\W*$"
    # asked for what the sentence before told: "if it is your fault i want some kind of credit for it",
    # "we're looking for some kind of credit on the bill for that"
    rf"|\b(?:want|need|get|give|like|deserve|expect|owed|entitled\s+to|looking\s+for|hoping\s+for|after)\b.{{0,20}}\b(?:credit|credits|compensat\w*"
    # "do we get anything back for that", after the errors told
    rf"|(?:anything|something|any\s+money|some\s+money)\s+back)\b.{{0,20}}"
    rf"\b(?:for|because\s+of)\s+(?:it|that|this|those|all\s+(?:that|this))\b"
    # "is there some kind of credit for that"
    rf"|\b(?:is|are)\s+there\s+(?:\w+\s+){{0,3}}?(?:credit|credits|compensat\w*)\b.{{0,12}}"
    rf"\b(?:for|because\s+of)\s+(?:it|that|this|those|all\s+(?:that|this))\b"
    # "if it's your fault then we ought to get a little something back"
    rf"|\bif\s+(?:it'?s|it\s+is|it\s+was|that'?s)\s+(?:your|you\s+guys'?|on\s+your)\s*(?:fault|end|side)\b.{{0,60}}\b{_RETURN}"
    # the trouble told first, the credit asked as a verb: "we had a pile of failures during your
    # incident so credit us something"
    rf"|\b{_TROUBLE}\b.{{0,80}}\b(?:credit|compensate|reimburse)\s+(?:us|me)\b"
    # the full price charged for service that failed, told as the wrong it is: "you charged us
    # full whack for a month where half our calls died", "your outage ... and we still paid full price"
    rf"|\b{_PAID_IN_FULL}\b.{{0,70}}\b(?:{_TROUBLE}|{_DIED})"
    # the trouble told, then a credit wanted: "the api was down all morning, we want a credit"
    rf"|\b(?:{_TROUBLE}|{_DIED})\b.{{0,80}}\b(?:want|need|like|deserve|expect|get|getting)\s+(?:a\s+|an\s+|some\s+|any\s+)?(?:\w+\s+)?(?:credit|compensation)\b"
    rf"|\b(?:{_TROUBLE}|{_DIED})\b.{{0,80}}\b{_PAID_IN_FULL}\b"
    # the bill said to be too high for the trouble: "our bill should be lower this month since your
    # api was broken for us"
    rf"|\b{_LESS_OWED}\b.{{0,40}}\b(?:since|because|as|cos|cause|given|after|when)\b.{{0,40}}\b(?:{_TROUBLE}|{_DIED})"
    rf"|\b(?:{_TROUBLE}|{_DIED})\b.{{0,60}}\b{_LESS_OWED}\b",
    re.I)


def asks_credit_for_trouble(text: str) -> bool:
    """Money asked back for a service failure ("can i get a credit for the failed calls")."""
    return bool(_CREDIT_FOR_TROUBLE.search(text)) and not asked_before(text)


# "i was going over the books last night and you took the forty nine twice": a charge taken twice,
# told as a story, is the duplicate's refund whatever the story reads as.
_TAKEN_TWICE = re.compile(
    r"\b(?:took|taken|take|charged|billed|debited|hit|pulled|deducted|collected|withdrew|withdrawn"
    r"|came\s+out|come\s+out|went\s+out|gone\s+out|taken\s+out|paid)\b.{0,35}\b(?:twice|two\s+times|a\s+second\s+time)\b"
    r"|\b(?:double|duplicate)[\s-]+(?:charge[ds]?|billed|billing|payments?|debit(?:ed)?)\b"
    # "i got billed double for the starter plan"
    r"|\b(?:charged|billed|debited)\s+(?:me\s+|us\s+)?double\b"
    # "cancel the duplicate", "reverse that double one": undoing the second charge is its refund
    r"|\b(?:cancel|reverse|undo|void|remove|take\s+off)\s+(?:the|that|this)\s+(?:duplicate|double|extra|second)(?:\s+(?:one|charge|payment))?\b", re.I)


_REFUND_NAMED = re.compile(r"\b(?:refund\w*|money\s+back|reimburs\w*|credit\w*)\b", re.I)


def names_refund(text: str) -> bool:
    """The words name money going back ("where's my refund"), not only the charge."""
    return bool(_REFUND_NAMED.search(text))


def tells_taken_twice(text: str) -> bool:
    """A charge taken twice, told ("you took the forty nine twice"), not a refund asked about."""
    return bool(_TAKEN_TWICE.search(text)) and not asked_before(text)


def claimed_reason(text: str) -> str | None:
    """The refund's reason as the caller tells it: "duplicate" ("you took it twice"),
    "service_failure" ("a credit for the outage"), or None (a bare "refund", both, or neither)."""
    twice, trouble = tells_taken_twice(text), asks_credit_for_trouble(text)
    if twice == trouble:
        return None
    return "duplicate" if twice else "service_failure"


# Any word of money going back to the caller, or of a charge that should not have been: the
# refund's read-back starts only from a request that has one. "and you won't charge me a fee
# for paying less, right?" or "how do i get back in afterwards" routed here has none: the
# refund the records allow is offered, and only the caller's yes asks for it.
_MONEY_BACK = re.compile(
    rf"\b{_RETURN}|\b(?:get|give|have|want|need|pay|put|send)\b(?:\s+\S+){0,3}?\s+back\b(?!\s+(?:in|into|on|online|to|up)\b)|\b(?:twice|double|duplicate[ds]?|two\s+times|overcharg\w*|owed|owe\s+(?:me|us)|return\w*|paid\s+for\s+nothing)\b"
    r"|\$\s?\d|\b\d+(?:\.\d\d)?\s*(?:dollars?|bucks|usd)\b|\bCH-\w+", re.I)


_QUESTION = re.compile(
    r"\?|^\W*(?:(?:and|so|but|um|uh|ok|okay|oh|hey|wait|hmm)\W+)*(?:how|what|why|when|where|who|which|is|are|was|were|will|would"
    r"|do|does|did|can|could|should|won'?t|wouldn'?t|isn'?t|aren'?t)\b"
    # a tag question, its mark lost on the way ("you won't charge me a fee for that, right")
    r"|,\s*(?:right|yeah|correct|isn'?t\s+it|won'?t\s+you|will\s+you|do\s+you|yes|no)\W*$", re.I)


def asks_money_back(text: str) -> bool:
    """The caller's words may ask for a refund: a statement or request ("the double one, can you
    sort that out"), or a question with a word of money back or of a charge that should not have
    been. A question without one ("and you won't charge me a fee for that, right?") asks none."""
    return bool(_MONEY_BACK.search(text)) or not _QUESTION.search(text)


# "open a ticket with your engineers, the pagination keeps returning the same page twice": read
# as a refund for its "twice", a clause that names no money at all asks for none back
_MONEY = re.compile(
    r"\b(?:refund\w*|money|charg\w*|bill\w*|paid|pay\w*|dollars?|bucks?|cents?|credit\w*|invoice\w*|back|took|taken|debit\w*"
    r"|card|fees?|price\w*|cost\w*|owe\w*|cancel\w*|duplicate|double|amount|reimburs\w*|compensat\w*|statement|subscription)\b|\$|\d",
    re.I)


def names_no_money(text: str) -> bool:
    """The words name no money, no charge and no amount."""
    return not _MONEY.search(text)


# "actually make it forty", "wait no, refund the whole forty nine", "just thirty then", "no, forty
# instead": at a refund's read-back, a bare number said as a change of it is the amount. Only there
# (and normalised: number words as digits): anywhere else a number without "dollars" is no money.
_MARK = r"(?:no|nah|wait|actually|sorry|oh|um|uh|hmm|i\s+mean|hang\s+on|on\s+second\s+thought|forget\s+(?:it|that)|scratch\s+that|you\s+know\s+what)"
_SETS = (r"(?:make\s+(?:it|that)\s+|change\s+(?:it|that)\s+to\s+|(?:it\s+|that\s+)?should\s+be\s+"
         r"|(?:can\s+you\s+|could\s+you\s+|please\s+)?(?:refund|send|give|pay|put)\s+(?:me\s+|us\s+)?(?:back\s+)?)")
_CHANGED_AMOUNT = re.compile(
    rf"(?:^|[,.!?]\s*|\b{_MARK}\W+)(?:(?:{_MARK}|so|and|but|ok|okay|just)\W+)*"
    rf"(?:{_SETS}(?:(?:the\s+)?(?:whole|full|entire|just|only)\s+)?|(?:the\s+(?:whole|full|entire)\s+|just\s+|only\s+))"
    r"\$?(\d{1,4}(?:\.\d{2})?)(?:\s+(?:dollars?|bucks))?(?:\s+(?:back\s+)?(?:of\s+(?:it|that|them)\s*)?(?:instead|then|back|please|thanks"
    # what a caller says after the new figure: "just refund twenty five of it thats fine", "... for now"
    r"|for\s+now|that'?s\s+(?:fine|enough|ok(?:ay)?|plenty)|thats\s+(?:fine|enough|ok(?:ay)?|plenty)|is\s+(?:fine|enough|plenty)|will\s+do)?)*\s*[.!?]?\s*$", re.I)
# the same, said after a mark alone: "no, forty", "actually thirty instead"
_MARKED_AMOUNT = re.compile(
    rf"^\W*(?:{_MARK}\W+)+(\d{{1,4}}(?:\.\d{{2}})?)(?:\s+(?:dollars?|bucks))?(?:\s+(?:instead|then|please))*\s*[.!?]?\s*$", re.I)


# A figure taken back in the same breath: "twenty back, no, make that twenty five"
_CORRECTS_ITSELF = re.compile(r"[,.;]\s*(?:(?:no|sorry|actually|wait|oops)\b[,.]?\s+)*(?:make\s+(?:it|that)|i\s+mean|rather)\b", re.I)


def corrects_itself(text: str) -> bool:
    """The caller names a figure, then corrects it in the same turn."""
    return bool(_CORRECTS_ITSELF.search(text))


def changed_amount(text: str) -> str | None:
    """The amount a caller's change to a pending refund names, as digits ("40", "49.50"), or None."""
    m = _CHANGED_AMOUNT.search(text) or _MARKED_AMOUNT.search(text)
    return m.group(1) if m else None


# "can i get twenty back", "just send thirty back to my card": in a refund's words a bare number
# with "back" after it is the amount asked for (number words normalised to digits)
_AMOUNT_BACK = re.compile(
    r"\b(?:get|give|send|want|need|have|put|pay)\s+(?:me\s+|us\s+)?(?:just\s+|only\s+|like\s+)?(\d{1,4}(?:\.\d{2})?)\s+back\b", re.I)


def amount_back(text: str) -> str | None:
    """The amount asked back in so many words without "dollars", as digits, or None."""
    m = _AMOUNT_BACK.search(text)
    return m.group(1) if m else None
