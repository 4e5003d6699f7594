"""Action intent: nothing changes unless the verified caller asked for it and confirmed it.

Every specialist that moves money, changes an account or files a durable request goes
through `ActionGate` before it acts:

1. **Own account.** The caller's words to this specialist must not name another customer's
   number or disown the account ("it's not mine", "my wife's account"): such a request is
   refused and nothing is filed.
2. **Read-back.** The exact action (what, which account, how much, the new value) is read
   back, and only a clean "yes" to *that* read-back, in the caller's next words, lets it
   run. Any change to the action (another amount, another charge) is a new read-back; a
   "no" cancels; anything else is asked again, a bounded number of times.

The check reads the caller's own words, not the LLM's tool arguments, so a hosted LLM that
passes `confirm=true` on its own cannot skip it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from callcenter.llm.embedded import user_texts
from callcenter.llm.language import without_foreign_bye
from callcenter.routing.discourse import ends_call, farewell_after
from callcenter.spoken import normalise
from domains import frame
from domains.frame import ActionFacts, Move
from domains.holder import third_party

# The specialist task that calls in (domains.specialist imports this module, so it is not
# imported back, not even for typing: no circle between the rooms of domains/).
SpecialistLike = Any

if TYPE_CHECKING:
    from domains.state import CallState

_CUSTOMER_IDS = re.compile(r"\b(?:c[-\s]?|customer\s+(?:id\s+|number\s+|no\.?\s+|#\s*)?(?:c[-\s]?)?)(\d{4,6})\b", re.I)
# Ownership disclaimed: the account belongs to someone else.
_NOT_MINE = re.compile(
    r"\b(not|isn'?t|is not|wasn'?t|ain'?t)\s+(mine|my\s+(own\s+)?(account|number))\b"
    r"|\bsomeone\s+else'?s\b|\bsomebody\s+else'?s\b|\banother\s+(person|customer)'?s?\b"
    r"|\bmy\s+(wife|husband|partner|friend|mom|mum|mother|dad|father|son|daughter|boss|brother|sister|neighbou?r|colleague|client)'?s\s+(account|number|card|charge)"
    r"|\bon\s+behalf\s+of\b(?!\s+(?:the|our|my)\s+(?:company|business|firm|team|organi[sz]ation|office|practice|shop|store|startup|agency|school|clinic))|\bfor\s+(my|a)\s+(wife|husband|partner|friend|mom|mum|mother|dad|father|boss|client)\b",
    re.I,
)
# The yes of a caller whose first language is another: "sí, sí, yes", "ja, bitte".
_FOREIGN_YES = ("sí", "si", "sì", "oui", "ouais", "ja", "jawohl", "genau", "sim", "claro", "certo", "vale", "d'accord")
# The yes of Scots and the north ("aye go on"), of Ireland ("yeah grand go on"), beside the
# yeses of other languages.
_REGIONAL_YES = ("aye", "grand", "ye", "yeh", "righto", "right-o", "rightio", "righty", "rightyo")
# A yes as callers text it, and as some recognisers write it: "yes pls", "k yes", "kk", a bare "y".
_TEXTED_YES = ("pls", "plz", "k", "kk", "yh", "yah", "ofc", "y", "yy", "yass", "yas")
_FILLER = {"uh", "um", "er", "erm", "hmm", "hm", "mm", "mmm", "ugh", "ah", "eh", "ehh", "ehm", "uhh", "umm", "suppose", "ma'am", "maam", "sir", "mate", "like", "well", "oh", "so",
           "dear", "love", "hon", "honey", "darling", "buddy", "pal", "mean", "ha", "haha", "heh", "hah", "guess",
           "and", "just", "yes,", "please", "thanks", "ta", "cheers", "thx",
           "thank", "you", "ok", "okay", "alright", "all", "right", "now"}
# Every word a plain yes may be made of: assent words, and the few the everyday forms
# wrap them in ("that works for me", "fine by me", "sounds good yes", "perfect go ahead").
_YES = {"yes", "yeah", "yep", "yup", "ya", "yea", "sure", "correct", "confirm", "confirmed", "affirmative",
        "absolutely", "definitely", "exactly", "proceed", "go", "ahead", "do", "it", "that's", "thats", "that",
        "is", "right", "please", "ok", "okay", "fine", "sounds", "good", "great", "perfect", "i", "i'm", "im",
        "am", "certain", "thing", "on", "it's", "can", "you", "for", "works", "work", "me", "by", "with",
        "cool", "awesome", "lovely", "wonderful", "brilliant", "excellent", "agreed", "agree", "deal", "totally",
        "be", "would", "that'd", "thatd", "sound", "all", "set", "this",
        "indeed", "course", "of", "bet", "let's", "lets", "really", "very", "much", "happy", "to", "we're", "were",
        "then", "nice", "sweet",
        # a polite yes: "yes please, that would be ever so kind", "yes that'd be really helpful"
        "ever", "so", "kind", "helpful",
        # "yes that one i do want", "yes i'd like that" ("ok i see" takes in, it agrees to nothing)
        "one", "want", "i'd", "id",
        # a yes said over a doubt: "yeah, file it anyway"
        "anyway", "anyways",
        # an impatient yes: "yes yes just do it already", "yes finally, go", "obviously, go on"
        "already", "finally", "obviously", "come", "geez", "jeez", "god", "duh",
        *_FOREIGN_YES, *_REGIONAL_YES, *_TEXTED_YES,
        # what a yes in another language comes wrapped in: "ja, bitte", "sí, por favor", "va bene"
        "bitte", "por", "favor", "s'il", "vous", "plaît", "plait", "va", "bene", "pode", "ser",
        # "sí, adelante", "oui, allez-y", "ja, mach das", "sim, pode fazer": go ahead, in their words
        "adelante", "hazlo", "hágalo", "hagalo", "fallo", "faça", "faca", "isso", "ahora", "agora", "subito", "jetzt",
        "das", "faites-le", "fais-le", "fatelo", "faites", "fais", "perfetto", "perfecto", "parfait", "perfekt", "perfeito",
        "maintenant", "allez-y", "allez", "vas-y", "mach", "machen", "sie", "fazer", "avanti", "procedi",
        # thanks and "I confirm" beside it: "oui, merci", "sì, confermo"
        "merci", "gracias", "grazie", "danke", "obrigado", "obrigada", "confermo", "confirmo", "confirme"}
# At least one of these must be said: a turn of only "that is for you" is no answer.
_ASSENT_WORDS = {"yes", "yeah", "yep", "yup", "ya", "yea", "sure", "correct", "confirm", "confirmed",
                 "affirmative", "absolutely", "definitely", "exactly", "proceed", "ahead", "right", "please", "ok",
                 "okay", "fine", "good", "great", "perfect", "works", "cool", "awesome", "lovely", "wonderful",
                 "brilliant", "excellent", "agreed", "agree", "deal", "totally", "indeed", "alright",
                 *_FOREIGN_YES, *_REGIONAL_YES, *_TEXTED_YES}
# A turn opening like a question ("can you...", "is it...") is asked again, never taken as yes.
_QUESTION_OPENERS = {"is", "are", "can", "could", "would", "will", "should", "does", "did", "am", "how", "what",
                     "why", "when", "where", "which", "who", "do"}
# "actually don't", "ok no": the words before a no that do not turn it into anything else.
# "mm, no", "ok. and no, ...", "oh. then no, don't lock it"
_BEFORE_NO = r"(?:(?:uh|um|er|well|oh|actually|ok|okay|hmm|hm|mm+|ah|sorry|but|and|so|then|in\s+that\s+case)[,.]?\s+)*"
# "no fee, good", "no problem, go ahead": words that open with "no" but refuse nothing.
# ("no sé", "não sei", "non so": "I don't know" in another language, no answer at all)
_NO_BUT = r"(?!\s+(?:fee|fees|charge|charges|cost|costs|problem|problems|worries|worry|rush|hurry|issue|issues|doubt|kidding|s[eé]|sei)\b)"
# ("forget it. i stay with you": the take-back said first is the no, whatever its reason restates)
_FORGET_IT = r"forget\s+(?:it|that|about\s+it)\b(?!\s+(?:and|but|just|make|do|switch|change|give|i\s+want|i'?d\s+rather))|scratch\s+that\b(?!\s+(?:and|make|do|switch|change|give))"
_NO_START = re.compile(rf"^\W*{_BEFORE_NO}(no{_NO_BUT}|nope|nah|don'?t|do not|cancel|stop|wait|hold on|never ?mind|not|{_FORGET_IT}"
                       r"|nein|non(?!\s+(?:lo\s+)?so\b)|não(?!\s+sei\b)|nao(?!\s+sei\b))\b", re.I)  # a no in another language: "nein, danke"


# ... not "no wait, which charge is that exactly?": the caller stops us to ask
_FIRM_NO = re.compile(rf"^\W*{_BEFORE_NO}(no(?!\W+(?:wait|hold\s+on|hang\s+on)\W+(?:what|which|how|why|when|where|who|is|are|does|do|can|will|would)\b)"
                      rf"|nope|nah|don'?t|do not|cancel|stop|never ?mind|{_FORGET_IT})\b", re.I)


def firm_no(text: str) -> bool:
    """A turn that opens with an outright no ("no", "don't", "cancel"), not with "wait" or "hold
    on", or closes with one after its reason ("sixty a minute is way too little, so no")."""
    return bool(_FIRM_NO.search(text)) or no_at_the_end(text)


# A polite no said first, before whatever comes next in the same breath: "not now thanks",
# "no thank you", "nah i'm good".
_REFUSAL_HEAD = re.compile(
    r"^\W*(?:(?:um+|uh+|oh|well|ok(?:ay)?|hmm+)[,.]?\s+)*(?:no|nah|nope|not\s+(?:now|right\s+now|today|yet|for\s+now|at\s+the\s+moment))"
    r"(?:[,.!]?\s+(?:thanks|thank\s+you|cheers|ta|i'?m\s+(?:good|fine|ok(?:ay)?)|not\s+(?:now|right\s+now|today)|no|that'?s\s+ok(?:ay)?))*[,.!]?\s+", re.I)


def after_refusal(text: str) -> str | None:
    """The words after a polite no that opens the turn ("not now thanks what's my balance" ->
    "what's my balance"), when at least two follow; None when the turn opens with no refusal."""
    found = _REFUSAL_HEAD.match(text)
    rest = text[found.end():].strip() if found else ""
    return rest if len(rest.split()) >= 2 else None


_ASSENT = re.compile(r"\b(?:uh[- ]?huh|mm[- ]?hm+|mhm+|m-hm|yes+)\b")
# Set phrases that say yes as a whole, whatever their words mean one by one.
_ASSENT_PHRASES = re.compile(r"\b(?:(?:she|he|they|my (?:boss|manager|partner|wife|husband|cofounder|co-founder|team)|the boss)"
                             # a yes the caller went to get: "yep she says do it", "my boss said ok"
                             r" (?:says|said) (?:it'?s |that'?s )?(?:yes|ok|okay|fine|go ahead|do it|go for it|sure)"
                             r"|why not|do it|do that|go for it|go ahead|go on|of course|you bet|let'?s do (?:it|that)"
                             r"|knock yourself out|(?:i )?suppose so|if (?:you|we) must|fair enough)\b"
                             # a yes the caller says they already gave: "that's what i said", "that's why i called, isn't it"
                             r"|\b(?:that'?s|thats|that is) (?:exactly |just |precisely )?(?:what|why) (?:i|we)(?:'?m| am|'?re)? (?:said|asked|wanted|want|need|needed|called|calling|rang|phoned|asked for)"
                             r"(?: (?:for|about))?(?:,? (?:isn'?t it|right|innit))?\b|\b(?:like|as) i said\b"
                             # the yes said to the next of several: "yes to the other one too", "yes to that one as well"
                             r"|\b(?:yes|yeah|yep)\s+to\s+(?:the (?:other|second|next) one|that one|this one|that|this|it)(?: (?:too|as well|also))?\b")


_RHETORICAL_YES = re.compile(r"\bwhy not\W*$", re.I)
# A question that asks nothing, said after a yes: "yes obviously, why would i be calling otherwise",
# "yes, what do you think", "isn't it obvious"
_RHETORICAL_ASIDE = re.compile(
    r"[,.;!]?\s*(?:\bwhy\s+(?:else\s+)?would\s+i\s+(?:be\s+)?(?:call|ring|phon)\w*(?:\s+(?:you|otherwise|then|here|in))*"
    r"|\bwhat\s+do\s+you\s+think|\bisn'?t\s+it\s+obvious|\bhow\s+many\s+times\s+do\s+i\s+(?:have|need)\s+to\s+(?:say|tell\s+you)\s+(?:it|that|this))"
    r"\W*$", re.I)


# A bare "ok" or "fine": no clear yes to a read-back ("ok yes", "fine, go ahead" are).
_BARE_OK = re.compile(r"(?:(?:um+|uh+|hmm+|mm+|oh|ah|well|er)[,.]?\s+)*(?:ok(?:ay)?|fine|alright|all\s+right|k)"
                      r"(?:[,.]?\s+(?:then|fine|ok(?:ay)?))?[.!]*", re.I)


def without_aside(text: str) -> str:
    """The turn without a question that asks nothing said after its answer ("yes unlock it, why
    would i be calling otherwise" -> "yes unlock it"); a turn of only that stays as it is."""
    aside = _RHETORICAL_ASIDE.search(text)
    return text[: aside.start()] if aside is not None and aside.start() > 0 else text


def _last_sentence(text: str) -> str | None:
    """The turn's last sentence, when it has more than one."""
    parts = re.split(r"(?<=[.;!])\s+", text.strip())
    return parts[-1] if len(parts) > 1 and parts[-1] else None


def yes_or_no(text: str) -> bool | None:
    """True for a clean yes, False for a no, None for anything else (ask again).

    A yes is any turn made only of assent words and the words everyday assent wraps them
    in, with at least one assent word and no question opening; the word list is closed, so
    "yes but make it twenty" or "that's not right" is never a yes.
    """
    if _NO_START.search(text) or _REPORTED_NO.search(text):
        return False
    echo = _ECHO_OF_NONE.match(text) or _SURPRISE.match(text)
    if echo is not None and text[echo.end():].strip():
        # "oh you haven't, ok yes please do that" to "I don't see any refunds ... Would you like me
        # to refund it?": what the answer found, said back, then the answer to its question
        return yes_or_no(text[echo.end():])
    text = without_aside(text)
    if "?" in text:
        if not _RHETORICAL_YES.search(text):
            return None
        text = text.replace("?", " ")  # "sure, why not?": a recogniser writes the shrug as a question
    low = _ASSENT.sub(" yes ", _REPORTED_YES.sub(" yes ", text.lower()))  # "uh huh", "mm-hm": spoken yeses
    low = _BACK.sub(" ", _ASSENT_PHRASES.sub(" yes ", low))
    low = _EXASPERATED.sub(" ", low)  # "yes for crying out loud": the yes, said fed up
    # "yep no worries do it": fine by them beside a clear yes; without one ("ok no worries then")
    # it lets the matter drop, which is no yes
    no_trouble = bool(_NO_TROUBLE.search(low))
    low = _NO_TROUBLE.sub(" ", low)
    words = [w.strip(".,!") for w in low.split()]
    if no_trouble and not any(w in _CLEAR_YES for w in words):
        return None
    words = _without_shrug(words)
    words = [w for w in words if w]
    meaningful = [w for w in words if w not in _FILLER]
    if not meaningful or meaningful[0] in _QUESTION_OPENERS:
        return None
    if not any(w in _ASSENT_WORDS for w in words):
        return None
    if _DONE_FOR_NOW.search(low) and not any(w in _CLEAR_YES for w in words):
        # "ok thats all thank you" to a read-back: the caller is done, which is no yes to it
        # (a clear yes beside it, "yes, that's all", still is)
        return None
    return True if all(w in _YES or w in _FILLER for w in words) else None


# The no the caller went to get: "she says no", "my boss said not to", "he said don't".
# Whom the caller went to ask: "she", "my boss", "the boss".
_RELAYER = r"\b(?:she|he|they|my (?:boss|manager|partner|wife|husband|cofounder|co-founder|team)|the boss)"
_REPORTED_NO = re.compile(_RELAYER + r" (?:says|said) (?:no|not to|not now|don'?t|do not)\b", re.I)
# The yes the caller went to get ("hang on, let me check with my boss" ... "ok she says yes"): the
# caller's own, relayed. Only a plain yes said of the one asked; "she says yes but only pro" is no yes.
_REPORTED_YES = re.compile(_RELAYER + r" (?:says|said|is saying) (?:yes|yeah|yep|ok|okay|go ahead|do it|fine|that'?s fine)\b(?=\W*$)", re.I)
# Fed up, no answer of its own: "yes for crying out loud", "for god's sake yes", "yes, jesus".
_EXASPERATED = re.compile(r"\bfor\s+(?:crying\s+out\s+loud|(?:god|heaven|pete|goodness|christ)'?s\s+sake|the\s+love\s+of\s+(?:god|pete))\b"
                          r"|\b(?:jesus|christ|good\s+grief|oh\s+my\s+god|omg|ffs)\b")
# Back from a pause ("ok yeah found it, go for it", "right, i'm back. yes"): no answer of its own,
# so beside a clear yes it is that yes, and alone it is none.
_BACK = re.compile(r"\b(?:(?:found|got) (?:it|them|the card|my card|the number)(?: here)?|(?:i'?m|i am) back|here it is|there we go)\b")
_NO_TROUBLE = re.compile(r"\bno (?:worries|worry|problem|problems|probs|bother)\b")
# A finding said back before the answer: "oh you haven't,", "so it never went through.", "wow it
# hasn't?" (a clause of its own, ended by its punctuation)
_ECHO_OF_NONE = re.compile(
    r"^\W*(?:(?:oh|ah|ahh|so|right|hmm|huh|wow|ok|okay|um|uh)\W+)*(?:you|it|that|they|y'?all|you\s+guys)\s+(?:still\s+)?"
    r"(?:haven'?t|hasn'?t|didn'?t|never|weren'?t|wasn'?t|aren'?t|isn'?t)\b[^,.!?]{0,30}[,.!?]+\s*", re.I)

# "oh really, yes refund that", "huh, seriously? ok do it": surprise at what the answer found,
# then the answer to its question
_SURPRISE = re.compile(
    r"^\W*(?:(?:oh|ah|huh|wow|hmm|ok|okay)\W+)*(?:really|seriously|is\s+that\s+(?:so|right)|interesting|i\s+see)\s*[,.!?]+\s*", re.I)


def after_surprise(text: str) -> str:
    """The words after a surprised opener ("oh really, yes refund that" -> "yes refund that")."""
    m = _SURPRISE.match(text)
    return text[m.end():] if m is not None and text[m.end():].strip() else text


# "let's all thank you": how a recogniser at 8 kHz writes "that's all thank you" (voice18)
_DONE_FOR_NOW = re.compile(r"\b(?:that'?s|thats|that is|that'?ll be|that will be)\s+(?:all|it|everything)\b|\blet'?s\s+all\s+thank")
_CLEAR_YES = frozenset("yes yeah yep yup sure absolutely definitely please".split())
_SHRUG = frozenset("whatever meh".split())


def _without_shrug(words: list[str]) -> list[str]:
    """"ok whatever yes": a shrug beside a clear yes is that yes ("ok whatever" alone is none)."""
    return [w for w in words if w not in _SHRUG] if any(w in _CLEAR_YES for w in words) else words


# A yes that names what it agrees to: "yes go ahead with the refund", "yep, enterprise",
# "yes lock it up". It opens with an assent, and nothing in it hedges, refuses or changes.
_ASSENT_OPEN = re.compile(
    r"^\W*(?:(?:uh|um|er|ugh|hm+|ah|eh|oh|ok|okay|well|so|alright|all right|right|then|and|thanks|thank you|got it"
    r"|good|great|perfect|fine|sorry|i'?m back)\W+)*"
    r"(?:yes+|yeah|yep|yup|ya|yea|sure|absolutely|definitely|correct|confirm(?:ed)?|go ahead|go on|do it|please"
    r"|ok|okay|alright|all right|fine)\b", re.I)
_HEDGE = re.compile(
    r"\?|\b(?:but|instead|except|only|not|no|nope|n'?t|don'?t|rather|actually|wait|hold|different|other|another"
    r"|else|if|unless|later|cancel|stop|maybe|what|how|why|when|which|forget|never|leave|drop|skip|hang)\b", re.I)
# Words that carry no content of their own around a restated action ("go ahead with the ...").
_GLUE = {"the", "a", "an", "to", "me", "us", "my", "our", "with", "and", "up", "one", "just", "then", "now",
         "them", "through", "in", "at", "new", "same", "too", "also", "as",
         # verbs that only say "do it": "yes send it", "yeah file that", "yes put it through"
         "send", "file", "submit", "process", "start", "make", "happen", "put", "get", "run", "sort", "take", "care",
         "sign", "that", "this",  # "ok yeah sign me up for that"
         "change", "changes"}  # "yes make the change": the read-back's action, by its generic name
_MIN_STEM = 4
_CALLS_BACK = re.compile(r"\bcall you back\b", re.I)
_WAITS_FOR_CALL = re.compile(
    r"\b(?:i'?ll|i\s+will|we'?ll|we\s+will)\s+(?:just\s+)?(?:wait|look\s+out|watch\s+out|keep\s+an\s+eye\s+out)\s+for\s+(?:the|your|a|that)\s+call(?:\s+back)?\b"
    r"|\b(?:a\s+)?call\s*back\s+(?:is|sounds|works)\s+(?:fine|good|ok|okay|great)\b")
# The action said, then found fine: "a call back about the email is fine", "the refund sounds good".
_FINE_BY_ME = re.compile(
    r"\b(?:about|for)\b|\b(?:is|are|'s|would\s+be|will\s+be|sounds|seems)\s+(?:fine|good|ok|okay|great|alright|perfect)"
    r"(?:\s+(?:with|by|for|to)\s+me)?\b|\bworks\s+for\s+me\b")
# Why the caller wants it, after the action: "just in case", "to be safe", "to be on the safe side".
_TO_BE_SAFE = re.compile(r"\b(?:just\s+)?in\s+case\b|\bto\s+be\s+(?:on\s+the\s+)?safe(?:\s+side)?\b|\bfor\s+safety(?:'?s\s+sake)?\b")
# Words after the yes that open a statement, not a request: "i was double charged", "it's broken".
_TELLS = re.compile(r"^\W*(?:i|i'?m|i'?ve|we|we'?re|it|it'?s|its|my|our|there|this|that'?s|they|he|she)\b")


def _shares_stem(word: str, said: set[str]) -> bool:
    """"refund" in "a refund of ...", "locking" for "lock": one word begins the other."""
    return word in said or any(
        len(w) >= _MIN_STEM and len(word) >= _MIN_STEM and (w.startswith(word) or word.startswith(w)) for w in said)


# Words that stop an action, unless the action is the caller's own stopping of something:
# "i want to cancel, the whole thing", read back as a closure, then "yes, cancel it".
_STOPPING = frozenset({"cancel", "stop", "drop", "leave"})


def restated_yes(text: str, readback: str, reads_as_action: Callable[[str], bool], *, asked: str = "") -> bool:
    """A yes followed by words that restate the read-back action, not a plain yes.

    Every word after the assent is a word of the read-back ("yes, close it", "yeah refund
    that one") or the router reads those words as this very action ("yes downgrade to pro").
    Values need no check here: the action's signature is built from every word the caller
    said, so "yes but enterprise" or "yes, enterprise" for a Pro read-back is a changed
    action, read back in full (ActionGate.check), never a yes to the old one.
    """
    low = _ASSENT.sub(" yes ", text.strip().lower())  # "mhm", "uh huh": spoken yeses
    if _CALLS_BACK.search(readback):
        # "ok, i'll wait for the call" to a read-back that says we will call back: that call accepted
        low = _WAITS_FOR_CALL.sub(" yes ", low)
    opened = _ASSENT_OPEN.search(low)
    # ``asked``: the caller's own words for this request; its stopping words restate it
    own = _STOPPING & set(re.findall(r"[a-z]+", asked.lower()))
    if opened is None or any(m.group(0) not in own for m in _HEDGE.finditer(low)) or _NO_START.search(low):
        return False
    rest = _FINE_BY_ME.sub(" ", low[opened.end():])  # "ok yeah a call back about the email is fine"
    rest = _TO_BE_SAFE.sub(" ", rest)  # "ok lock it just in case": why, not what
    words = [w for w in re.findall(r"[a-z0-9']+", rest) if w not in _YES and w not in _FILLER and w not in _GLUE]
    if _CLEAR_YES & set(re.findall(r"[a-z']+", low)):
        words = [w for w in words if w not in _SHRUG]  # "ok whatever yes file it"
    if not words:
        return True  # only words that say "do it" around the yes: "yes send it", "yeah put it through"
    # the read-back's words, and the caller's own for this request ("yes, the mobile" after "no,
    # use the mobile, five oh three ...": the words that chose the value read back)
    # (the action's own words, after "To confirm:": "ok i see" to "I don't see any unusual sign-in
    # attempts ... To confirm: lock account ..." takes in the review, it restates no lock)
    action = re.sub(r"^.*?to confirm:\s*", "", readback, flags=re.I | re.S)
    said = set(re.findall(r"[a-z0-9]+", action.lower())) | set(re.findall(r"[a-z0-9]+", asked.lower()))
    if all(_shares_stem(w, said) for w in words):
        return True
    # Words of its own count only as a request for the action ("bump us up to enterprise"),
    # not as the problem told again ("yeah i was double charged"): that hears the read-back once more.
    return not _TELLS.search(rest) and reads_as_action(rest)


_SENTENCE_END = re.compile(r"[.!;]\s+")
# In the sentences before a closing yes: anything that refuses, doubts or waits.
_NOT_AGREED = re.compile(r"\?|\b(?:but|don'?t|do not|cancel|stop|wait|hold|instead|rather|actually|later|forget|never|not sure)\b")


def yes_at_the_end(text: str) -> bool:
    """A clean yes said last, after sentences that only take in the answer: "no fee, good. yes then."."""
    parts = [p for p in _SENTENCE_END.split(text.strip().lower()) if p.strip()]
    if len(parts) < 2 or yes_or_no(parts[-1]) is not True:
        return False
    return all(yes_or_no(p) is not False and not _NOT_AGREED.search(p) for p in parts[:-1])


# Before a yes said last without a pause the recogniser could write: what may not stand there
# for the yes to be one. A refusal, a doubt, a condition or a question ("if it's free go
# ahead", "i can't see it go ahead", "how long does that take go ahead") leaves it no yes; in
# the yes itself, neither may (blind38's "once you do it can it be reversed" paid a refund).
_NOT_TAKEN_IN = re.compile(
    r"\b(?:no|not|nope|nah|never|if|unless|once|after|before|until|till|maybe|perhaps|only|except|what|how|why|when|which|who|where|whether"
    r"|can'?t|cannot|won'?t|don'?t|didn'?t|doesn'?t|isn'?t|wasn'?t|shouldn'?t|wouldn'?t|couldn'?t|haven'?t|hasn'?t"
    r"|cant|wont|dont|didnt|doesnt|isnt|wasnt|shouldnt|wouldnt|couldnt|havent|hasnt)\b")
_MAX_YES_WORDS = 6  # the closing yes is short: "go ahead and reset it", "ok yes do it then"
# A word that agrees, which the closing yes must hold ("please" alone restates, agrees to nothing).
_SAYS_YES = re.compile(r"\b(?:yes|yeah|yep|yup|ya|yea|sure|ok|okay|alright|absolutely|definitely|confirm(?:ed)?|go\s+ahead|go\s+on"
                       r"|do\s+it|do\s+that|go\s+for\s+it|fine)\b")
# A statement with a modal in it, then one word of assent: a question put as a statement with a
# tag ("that'll show on my card by monday yeah"), not a yes.
_TAG = re.compile(r"\s(?:yeah|yes|yep|yea|right|ok|okay)\W*$")
_STATED_AS_QUESTION = re.compile(r"\b(?:can|could|will|would|should|shall|won'?t|wont|gonna|going\s+to|able\s+to)\b|'ll\b")


def yes_said_last(text: str, restates: Callable[[str], bool] = lambda words: False) -> bool:
    """A yes that closes a turn the recogniser wrote without a full stop: "ok yeah i see it two
    times go ahead", "quickly yes do it", "its gone alright go ahead and reset it". The words
    before it only take in the answer (see yes_at_the_end, which needs the full stop): nothing
    in them refuses, doubts, sets a condition or asks. ``restates``: a yes that names the action."""
    low = text.strip().lower()
    words = list(re.finditer(r"\S+", low))
    if "?" in low or (_TAG.search(low) and _STATED_AS_QUESTION.search(low)):
        return False  # "and i can go back down whenever i like yeah": a statement asked, its tag no yes
    for start in range(max(1, len(words) - _MAX_YES_WORDS), len(words)):
        before, last = low[: words[start].start()], low[words[start].start():]
        if not _SAYS_YES.search(last) or not (yes_or_no(last) is True or restates(last)):
            continue  # ("help me get back in please": "please" alone restates the request, it agrees to nothing)
        if _NOT_TAKEN_IN.search(last) or any(w in _QUESTION_OPENERS for w in re.findall(r"[a-z']+", _ASSENT_PHRASES.sub(" ", last))):
            return False  # "once you do it can it be reversed": a question said after the "do it"
        opener = next((w for w in re.findall(r"[a-z']+", before) if w not in _FILLER), "")
        return (yes_or_no(before) is not False and not _NOT_AGREED.search(before) and not _NOT_TAKEN_IN.search(before)
                and opener not in _QUESTION_OPENERS)  # "should i go ahead" asks
    return False


_CLAUSE_END = re.compile(r"[.!;,]\s+")
# A reason said before the no that closes it: "too few, so no", "way too pricey, then no".
_SO_NO = re.compile(r"^\W*(?:so|then|in\s+that\s+case|which\s+means|and)\W+(?:no|nope|nah)(?:\W+(?:thanks|thank\s+you|then))*\W*$")


def no_at_the_end(text: str) -> bool:
    """A no said last, after a reason that asks nothing and agrees to nothing: "too few, so no"."""
    parts = [p for p in _CLAUSE_END.split(text.strip().lower()) if p.strip()]
    if len(parts) < 2 or not _SO_NO.match(parts[-1]) or "?" in text:
        return False
    return all(yes_or_no(p) is not True for p in parts[:-1])


def _restated_at_the_end(text: str, readback: str, reads_as_action: Callable[[str], bool]) -> bool:
    """A yes restating the action said last, after clauses that only take in the answer."""
    parts = [p for p in _CLAUSE_END.split(text.strip().lower()) if p.strip()]
    if len(parts) < 2 or not restated_yes(parts[-1], readback, reads_as_action):
        return False
    return all(yes_or_no(p) is not False and not _NOT_AGREED.search(p) for p in parts[:-1])


def other_customer(texts: list[str], customer_id: str) -> bool:
    """True if the caller named another customer's number or disowned the account."""
    for text in texts:
        for m in _CUSTOMER_IDS.finditer(text):
            if f"C{m.group(1)}" != customer_id.upper():
                return True
        if _NOT_MINE.search(text) or third_party(text):  # identity.py: "this is his wife, his account ..."
            return True
    return False


NOT_YOURS = (
    "I can only make changes on the account you verified on this call, and only at the account "
    "holder's request, so I haven't done or filed anything. The account holder can call us themselves."
)
# A no names what is not done: the caller hears which action they stopped.
CANCELLED = "No problem, I won't go ahead with {what}, so I haven't changed anything."


class ActionGate:
    """Per-task state of one action's read-back; see the module docstring.

    While the read-back waits, it is a frame (domains/frame.py): a question about the
    action is answered from its `ActionFacts`, "is it done yet?" hears that it is not, a
    cancel stops it, and the question is asked once more in a short form; only a change to
    the action itself (another amount, another charge) is read back in full again.
    """

    def __init__(self) -> None:
        self._asked: tuple[str, int] | None = None  # (action signature, caller messages when asked)
        self.facts: ActionFacts | None = None  # the pending action's facts, while it waits
        self._readback = ""  # the words of the pending read-back: a yes may restate them
        self._heard_as: dict[str, str] = {}  # a turn's part that answers the read-back (`hear_as`)

    def hear_as(self, text: str, answer: str) -> None:
        """Read ``text`` as ``answer`` (its part about this read-back: the rest took back
        another need, "forget the two factor part. the closing, yes.")."""
        self._heard_as[text] = answer

    def heard(self, text: str) -> str:
        """The part of ``text`` that answers the read-back (`hear_as`), or all of it."""
        return self._heard_as.get(text) or self._heard_as.get(without_aside(text)) or text

    def assent(self, task: SpecialistLike, text: str) -> bool | None:
        """The caller's yes or no to the pending read-back: a plain one, or a yes that restates the action."""
        answer = yes_or_no(text)
        if answer is True and _BARE_OK.fullmatch(text.strip()):
            # "fine." or "ok" alone to "Shall I go ahead?": said as often by a caller giving in
            # or only taking the words in as by one agreeing; money and accounts wait for a yes
            return None
        before = farewell_after(text) or without_foreign_bye(text)
        if answer is None and before:  # "yes. thanks, bye", "sì va bene grazie ciao": the answer is what comes before the farewell
            return self.assent(task, before)
        # what the caller said for this request before this answer; a turn that raised another
        # need meanwhile is not (its words restate that need: "and also refund my double charge",
        # then "ok so now about the refund" to the plan's read-back is no yes to the plan)
        asked = " ".join(t for t in user_texts(task.chat_ctx)[1:] if not _raises_other(task, t))
        if answer is None and self._readback and restated_yes(text, self._readback, lambda words: _reads_as(task, words), asked=asked):
            return True
        if answer is None and yes_at_the_end(text):
            return True
        if answer is None and not _raises_other(task, text) and yes_said_last(
                text, lambda last: bool(self._readback) and restated_yes(last, self._readback, lambda words: _reads_as(task, words))):
            return True
        if answer is None and no_at_the_end(text):
            return False
        if answer is None and self._readback and _restated_at_the_end(text, self._readback, lambda words: _reads_as(task, words)):
            return True  # "thats all i wanted, yes submit it"
        if answer is False and self._readback and (last := _last_sentence(text)) is not None:
            # "no need to lock it, that was me on holiday. now the refund, yes please go ahead with
            # that": the no was about something else; the sentence about ours says yes to it
            said_before = text[: len(text) - len(last)]
            what = set(re.findall(r"[a-z]{4,}", (self.facts.what if self.facts is not None else self._readback).lower()))
            if what & set(re.findall(r"[a-z]{4,}", last.lower())) and not _reads_as(task, said_before) and _restated_at_the_end(
                    last, self._readback, lambda words: _reads_as(task, words)):
                return True
        return answer

    @property
    def pending(self) -> bool:
        return self._asked is not None

    def _unread_values(self, task: SpecialistLike, text: str) -> list[str]:
        """The values the words carry that the pending action's own words do not name."""
        said = getattr(task, "slot_reader", task.state.slots).read(text).as_dict()  # as the task reads its values
        said.pop("confirm", None)
        # the action's own words, not the whole read-back: "Starter is $49.00 a month, if you'd
        # rather. To confirm: ... Pro": a bare "starter" is the other choice, a change
        readback = (self.facts.what if self.facts is not None else self._readback).lower()
        return [_spoken(v) for v in said.values() if _spoken(v) not in readback]

    def brings_new_value(self, task: SpecialistLike, text: str) -> bool:
        """The words carry a value the pending read-back does not name ("wait no, pro not
        starter" to the Starter read-back): a change to the action, for its tool to read back."""
        return bool(self._unread_values(task, text))

    def cancel(self, task: SpecialistLike, *, then: str = "", latest: str = "", stopped: bool = False) -> None:
        """The caller said no to the pending read-back: nothing is done, and the task ends saying
        so (`then`: the answer to a question asked with the no). `latest`: the caller's words,
        when the turn is read before it reaches the task's history ("no, leave it. thanks, bye"
        ends the call)."""
        what = self.facts.what if self.facts is not None else _what_of(self._readback)
        _leaving(task, latest or next(iter(user_texts(task.chat_ctx)), ""))
        self._asked = self.facts = None
        # `stopped`: "never mind, forget it" stops the request, and is told so as a cancel is
        summary = f"{(frame.CANCELLED if stopped else CANCELLED).format(what=what)} {then}".strip()
        task.finish(task.result_type(status="cancelled", summary=summary))  # type: ignore[arg-type]

    def names_new_value(self, task: SpecialistLike, text: str) -> bool:
        """Like `brings_new_value`, but only for a value the caller said in so many words ("no,
        forget that, make it enterprise"), not one read into a complaint ("too pricey" -> down)."""
        # a number may be corrected at its end only ("no sorry, the last four are oh one nine nine")
        low, digits = text.lower(), re.sub(r"\D", "", normalise(text))
        return any(v in low or (len(digits) >= 2 and re.sub(r"\D", "", v).endswith(digits))
                   for v in self._unread_values(task, text))

    @property
    def read_back(self) -> str:
        """The pending read-back's own words, without its lead-in ("a refund of $49.00 ..., back
        to the card it was charged to"): what a question about the action itself is answered with."""
        return re.sub(r"^.*?to confirm:\s*", "", self._readback, flags=re.I | re.S).strip().rstrip(".")

    def check(
        self, task: SpecialistLike, signature: str, readback: str, facts: ActionFacts | None = None,
    ) -> str | bool | None:
        """True: run the action now. A string: say it (the read-back). None: the task finished."""
        texts = user_texts(task.chat_ctx)
        if texts and texts[0] in self._heard_as:
            texts = [self._heard_as[texts[0]], *texts[1:]]
        if texts:  # "yes unlock it, why would i be calling otherwise": the question asks nothing
            texts = [without_aside(texts[0]), *texts[1:]]
        if other_customer(texts, task.customer_id):
            task.finish(task.result_type(status="refused", summary=NOT_YOURS))  # type: ignore[arg-type]
            return None
        heard = len(texts)
        facts = facts or ActionFacts(what=_what_of(readback))
        if self._asked is not None and heard > self._asked[1]:
            router = task.state.router
            # a reason beside a cancel that sounds like this very need ("let's hold off, i might
            # still find the old phone") asks for nothing of its own
            own = getattr(task, "label", None) if frame.takes_back(texts[0]) else None
            reading = frame.read(texts[0], lambda words: any(
                i.in_scope and not i.label.startswith("meta/") and i.confidence >= router.threshold and i.label != own
                for i in router.detect(words)))
            answer = self.assent(task, texts[0])
            # "hang on, let me find my card" is a pause and "wait, does that happen right away?"
            # a question, not the "no" their first words look like; "no, how long..." stays a no.
            # A clean yes ("ok do that") stays a yes.
            if answer is not True and reading is not None and reading.move is not Move.CANCEL and not _FIRM_NO.search(texts[0]):
                answer = None
            same = self._asked[0] == signature
            if answer is not None and same:
                _leaving(task, texts[0])
            # "no, the enterprise one": a no that brings another value for this very action is
            # a correction (the action changed: it is read back in full below), not a cancel.
            if answer is False and same:
                if _raises_other(task, texts[0]):
                    # "no then, move me to starter" to the closure's read-back: nothing is closed,
                    # and the need said instead is routed next (its own read-back follows)
                    task.state.follow_up = task.wanted_instead(texts[0]) or texts[0]
                said = frame.CANCELLED if frame.stops(texts[0]) else CANCELLED
                task.finish(task.result_type(status="cancelled", summary=said.format(what=facts.what)))  # type: ignore[arg-type]
                return None
            if answer is True and same:
                if (getattr(task, "heard_at_call", None) or task.state.heard.agent) != task.id:
                    # The caller's yes answered something said after our read-back (another
                    # agent's question): it confirms nothing; the action is asked about again.
                    self._asked = (signature, heard)
                    return f"Just to be sure: {frame.reask(facts)}"
                self._asked = self.facts = None
                return True
            if same:
                return self._answer(task, reading, facts, heard)
        if self._asked is not None and not task.another_attempt():
            return None
        self._asked, self.facts, self._readback = (signature, heard), facts, readback
        return f"{readback} Shall I go ahead? Please say yes or no."

    def answer_question(self, task: SpecialistLike, reading: frame.Reading, latest: str = "") -> str | None:
        """A question about the pending action ("can i undo that if we need enterprise again?"),
        answered from its facts here, before its tool reads the turn: a value named in a
        question asks about the action, it does not change it."""
        if self._asked is None or self.facts is None:
            return None
        return self._answer(task, reading, self.facts, len(user_texts(task.chat_ctx)), latest)

    def _answer(
        self, task: SpecialistLike, reading: frame.Reading | None, facts: ActionFacts, heard: int, latest: str = "",
    ) -> str | None:
        """The caller said something other than yes or no to the same action: answer the move, ask again briefly."""
        if reading is not None and reading.move is Move.CANCEL:
            _leaving(task, latest or next(iter(user_texts(task.chat_ctx)), ""))
            task.finish(task.result_type(status="cancelled", summary=frame.CANCELLED.format(what=facts.what)))  # type: ignore[arg-type]
            return None
        words = latest or next(iter(user_texts(task.chat_ctx)), "")
        if reading is None and ends_call(words):
            # "okay thank u bye" to the read-back: no yes, and the caller is leaving: nothing is
            # done, and the call ends rather than asking for a yes or a no once more
            _leaving(task, words)
            task.finish(task.result_type(status="cancelled", summary=frame.CANCELLED.format(what=facts.what)))  # type: ignore[arg-type]
            return None
        if reading is None and not task.another_attempt():
            return None
        self._asked, self.facts = (self._asked[0] if self._asked else "", heard), facts
        if reading is None:
            return f"Sorry, I need a yes or a no. {frame.reask(facts)}"
        if reading.move is Move.ASK and reading.ask in (frame.Ask.WHAT, None) and self.read_back:
            # "what happens to all my data if i do that?", "does the call back go to the new
            # number?": the read-back says it in full (a closure's says the data goes after 30
            # days, a contact change's where the call back goes), not only the action's name
            return f"If you say yes: {self.read_back}. {frame.reask(facts)}"
        return frame.answer(reading, facts, approval_wait(task.state), latest)


def _raises_other(task: SpecialistLike, text: str) -> bool:
    """A turn said while the read-back waits that names another need, not this action."""
    other = getattr(task, "other_need", None)
    return other is not None and other(text) is not None and not _reads_as(task, text)


def _leaving(task: SpecialistLike, words: str) -> None:
    """"no leave it. thanks, bye": the read-back answered, and the caller leaving: the outcome
    is spoken with the goodbye, and the turn's other needs wait."""
    if farewell_after(words) is not None or without_foreign_bye(words) is not None:
        task.state.guard.stop_delegating = task.state.guard.farewell = True


def _spoken(value: object) -> str:
    """A slot value as a read-back writes it ("49.00", "pro")."""
    return f"{value:.2f}" if isinstance(value, Decimal | float) else str(value).lower()


def _reads_as(task: SpecialistLike, words: str) -> bool:
    """The router's best reading of the words is this task's own need."""
    return task.state.router.classify(words).label == task.label


def approval_wait(state: CallState) -> str:
    """How long a supervisor's decision takes, from the approval settings."""
    minutes = max(1, round(state.settings.approval_timeout_s / 60))
    span = "an hour" if minutes == 60 else (f"{minutes // 60} hours" if minutes % 60 == 0 else f"{minutes} minutes")
    return (
        f"A supervisor reviews it, and if nobody has decided within {span} it goes to a senior colleague; "
        "you'll hear by email as soon as it's approved or declined."
    )


def _what_of(readback: str) -> str:
    """A short name for an action that gave no facts: its read-back without the lead-in."""
    core = re.sub(r"^.*?to confirm:\s*", "", readback, flags=re.I | re.S).strip().rstrip(".")
    return f"this: {core}" if core else "this"


_ASKING = re.compile(
    r"^\W*(?:(?:uh|um|er|hmm|hm|so|well|ok|okay|oh|and|but|yeah|right|hi|hello|hey|quick question|i was wondering"
    # "quick one, whats the rate limit on starter", "one more thing, is ..."
    r"|quick\s+(?:one|q)|real\s+quick|one\s+(?:more\s+)?(?:thing|question)|question|also|actually|sorry)\W+)*"
    r"(is|are|am|was|were(?!\s+(?:on|using|paying|with|looking|trying|going|thinking|having|getting|still|currently|not|just|really|done|moving|switching|leaving|being|too|over|a|an)\b)"
    r"|do|does|did|has|have|can|could|would|will|should|how|what|what'?s|why|when|where|which|who)\b"
    # "..., what are our options": the choices asked for, after what prompted the question
    r"|\bwhat\s+(?:are|r)\s+(?:my|our|the)\s+(?:options|choices|alternatives)\b"
    # "and the rate limit on pro would be what": the question word said last
    r"|\b(?:would|will|is|was|are|does|do)\s+(?:be\s+|come\s+to\s+|cost\s+)?(?:what|how\s+much|how\s+many|which)\W*$"
    # "ok so enterprise is how much more than what i've got": the question word said mid-clause
    r"|\b(?:is|are|'s|would\s+be|costs?|comes?\s+to)\s+how\s+(?:much|many)\b"
    # "thanks, and back to the plans, how many requests a minute does pro give me", "enterprise is a
    # lot, what would that cost on top of what i pay now": a clause of its own that asks
    r"|[,;.]\s*(?:(?:and|so|but|ok|okay|then|well)\s+)*(?:how\s+(?:much|many)\b"
    r"|what\s+(?:would|will|does|do)\s+(?:that|it|this|they|pro|starter|enterprise)\s+(?:cost|run|come\s+to|be)\b)"
    # "the price. of enterprise", "the cost of pro then": a price named alone is asked for, not a change
    r"|^\W*(?:(?:uh|um|so|ok|okay|and|but|oh|well|right|just)\W+)*(?:the\s+|your\s+)?(?:monthly\s+)?(?:price|prices|cost|costs|fee|fees)"
    r"\W+(?:of|for|on)\s+(?:the\s+)?\w+(?:\s+(?:plan|tier|one|then|again))*\W*$"
    # "if we shut the account down what happens to all our stuff": the condition first
    r"|^\W*(?:(?:uh|um|er|hmm|so|well|ok|okay|oh|and|but|yeah|right)\W+)*if\s+(?:i|we|you|it|they|my|our|the)\b[^?]{0,60}?\s(?:what|how)\b",
    re.I,
)


# The fillers before a polite request are those before any question ("um yeah can you ...").
# "and can you lock my account till i sort this out": a request after another need's clause
_OPENERS = r"(?:uh|um|er|hmm|so|well|ok|okay|oh|yeah|right|hi|hello|hey|and|also|plus|then|actually)"
_POLITE_REQUEST = re.compile(
    rf"^\W*(?:{_OPENERS}\W+)*(can|could|would|will)\s+(you|u|we|someone|somebody)\b"
    rf"|^\W*(?:{_OPENERS}\W+)*(can|could|may)\s+i\s+(get|have|ask)\b",
    re.I,
)


# "can i switch to pro?" asks for the switch; "can i close my account later?" asks about it.
_CAN_I = re.compile(r"(?:^|[,.;]\s*)\W*(?:(?:uh|um|er|so|well|hi|hello|hey|ok|okay)\W+)*(can|could|may)\s+(i|we)\b", re.I)
# "what's the pro plan cost and can you move me to it?": a request asked after a question
_CAN_YOU_MOVE = re.compile(r"(?:^|[,.;?]\s*|\band\s+)(?:can|could|would|will)\s+(?:you|ya|u)\s+(?:please\s+|just\s+)?"
                           r"(?:move|switch|put|change|upgrade|downgrade|bump|sign|set)\s+(?:me|us)\b", re.I)
_ABOUT_LATER = re.compile(r"\b(later|ever|still|anytime|any time|whenever|in the future)\b", re.I)
_POSSIBLE = re.compile(r"\bis it possible (for me )?to\b", re.I)


def is_what_if(text: str) -> bool:
    """A question about an action ("would enterprise be cheaper?", "do i need to reset two factor
    after a new phone?"), not a request for it: answered with facts, never read back as a change.

    Requests phrased as questions stay requests: "can you switch me", "could i downgrade to
    starter", "is it possible to close my account"."""
    if not is_question(text) or _POSSIBLE.search(text):
        return False
    return not ((_CAN_I.search(text) or _CAN_YOU_MOVE.search(text)) and not _ABOUT_LATER.search(text))


def is_question(text: str) -> bool:
    """A question about the account ("is my account secure?"): answered, never acted on.

    "Can you lock my account?" is a request, not a question.
    """
    stripped = text.strip()
    if _POLITE_REQUEST.search(stripped):
        return False
    if any(_ACTS_AFTER.match(part) for part in _LATER_CLAUSE.split(stripped)[1:]):
        return False  # "are there any weird sign ins, also lock it to be safe": asked, then asked for
    return stripped.endswith("?") or bool(_ASKING.search(stripped))


# A later clause that asks for the action in the imperative: "..., also lock it to be safe"
_LATER_CLAUSE = re.compile(r"[,;.]\s*|\s+(?:also|and\s+then|and\s+also|and)\s+", re.I)
_ACTS_AFTER = re.compile(
    r"^\W*(?:(?:also|and|then|please|just|so|ok|okay|but)\W+)*"
    r"(?:lock|unlock|reset|close|cancel|refund|switch|move|upgrade|downgrade|change|update|rotate|open)\s+(?:it|that|this|me|us|my|our|the)\b", re.I)
