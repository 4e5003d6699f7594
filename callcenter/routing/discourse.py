"""Discourse-level turn shapes every level of the line needs to recognise.

Not needs but the moves around them: a follow-up question about the last answer, a
closing (thanks, bye), a vague opener. Small closed classes of words and question frames,
applied only to short turns.
"""

from __future__ import annotations

import re
from typing import Literal

# The questions callers ask about an answer they just heard.
FollowUp = Literal["why", "next_step", "how_long", "do_it", "repeat", "due", "done", "where", "who", "pause"]

# Question frames about the previous answer, by what they ask. Matched only on short turns
# that carry no routable need of their own.
_FOLLOW_UP: tuple[tuple[FollowUp, re.Pattern[str]], ...] = (
    # to hear an answer again, inside a turn that names which ("and the failing thing, sorry what
    # was that again?"): the whole-turn forms are _REPEAT's
    ("repeat", re.compile(
        # "and that's the same every month, is it", "same as always then, yeah?": what the last
        # answer said, checked back by a tag (its figure said again is the answer)
        # ("so that's everything, yeah": the caller is done, nothing is asked again)
        r"^(?:[\d ]+ )?(?:(?:and|so|ok|okay|oh|right) )*(?:that'?s|thats|it'?s|its|same|still)\b(?! (?:all|it|everything)\b)"
        r".{0,40} (?:is it|isn't it|right|yeah|correct)$"
        r"|\b(what (was|were) (that|it|those|they) again|what did you say (about|for) (that|it|the \w+)"
        r"|(say|tell me) (that|it) again|(can|could) you (repeat|say) (that|it)( again)?|repeat (that|it)|come again"
        # "so you don't see anything odd at all", "so you're saying it's fine": the answer checked back
        r"|^(?:(?:ok|okay|right|and|oh) )*so (?:you|you'?re|youre) (?:(?:don'?t|dont|didn'?t|didnt|do not|did not|can'?t|cant) "
        r"(?:see|find|show|have)|saying|telling me)\b"
        # "how high did we go", "how many did we send": the figure the last answer gave
        r"|^(?:(?:and|so|ok|okay|oh|wait|sorry|um) )*how (high|many|much|far|fast|busy|often) (did|do|were|was|have) (we|i|it|they|you say)"
        r"( (go|get|got|peak|peaked|hit|reach|reached|send|sent|do|make|made|use|used|it))?( (again|exactly|then|that|at))*$"
        # "whats the number on that": the reference the last answer gave
        r"|what'?s? (is )?the (ticket |reference |case )?number (on|for|of) (that|it|this)"
        # "what's the reference so i can tell my boss": the one the last answer gave
        r"|what'?s? (is )?(the|my|our) (ticket |case )?(reference|ref)( number)?)\b")),
    # "and there's no way to pause it?" after what closing the account would do: the thing put on hold
    ("pause", re.compile(r"\b(?:pause|paused|pausing|freeze|suspend|hibernate|put\s+(?:it|that|the\s+account|my\s+account)\s+on\s+(?:hold|ice))\b")),
    # whether what was asked for has happened: "has that gone through?", "is it done now"
    ("done", re.compile(
        r"\b((has|have|did|is|was) (that|it|this|everything|all that) ((actually|really|already) )?(gone|go|went|been|got|gotten) (through|done|processed|sorted|changed)"
        r"|(is|was) (that|it|this|everything) ((actually|really|already) )?(done|sorted|finished|complete|completed|processed|changed)"
        r"|(did|has) (that|it|this) ((actually|really|already) )?(go|gone) (through|ok|okay)|(did|has) (that|it|this) ((actually|really) )?(work|happen|happened)"
        # "is that callback definitely in your system", "is it properly booked"
        r"|(is|was|has) (that|it|this|the|my) (\w+ )?((definitely|actually|really|already|properly|all) )*((been )?(booked|logged|recorded|filed|saved)|in (your|the) system|on (file|record))"
        # "where is that at now?", "where's it up to": how far it has got
        r"|where('?s| is) (that|it|this|all that)( (at|up to|now))+)\b")),
    # where what the answer told of happened or comes from: "and where was it from?", "which country?"
    ("where", re.compile(
        r"\b(where (was|were|did|is|are|'s) (it|that|this|they|those|them|he|she)( \w+)?( (from|coming from|based))?"
        r"|from where|what (country|city|location|place)|which (country|city|location|region)"
        # "which number are they gonna call?": where a call back goes
        r"|(which|what) (phone )?number (are|will|would|do|does|is) (they|you|he|she|someone|somebody|it)( \w+){0,2} (call|ring|phone|use|go)\w*"
        # "they'll call the number ending in what", "where did you say those attempts came from", "where from"
        r"|(call|ring|phone)\w* (me |us )?(on |at )?the number ending( in)? what|where\b.{0,30}\b(came|come|coming) from|^where from"
        # "and the person will call which number"
        r"|(call|ring|phone)\w* (me |us )?(on |at )?(which|what) (phone )?number"
        # where something the answer sent went: "which email did it go to", "and the reset goes to
        # which address", "which address did that get sent to", "which number?"
        r"|(which|what) (e-?mail|address|e-?mail address|inbox|phone|number|phone number)( (did|does|will|was|is|has|have))?"
        r"( (it|that|this|they|those|you|the \w+))?( (go|goes|gone|went|get|got|gets|be|been|send|sent|email|emailed|going|arrive|arrived))+( (it|that|them))?( (to|sent))*"
        r"|(go|goes|went|gone|sent|going|get sent|got sent) to (which|what) (e-?mail|address|e-?mail address|inbox|number)"
        r"|^\W*((and|so|ok|okay|um|uh|sorry)\W+)*(which|what) (e-?mail|address|e-?mail address|(phone )?number)( (again|exactly|then))?(?=\W*$)"
        # "where overseas", "where exactly", "whereabouts": the place the answer told of, asked
        r"|^\W*((and|so|ok|okay|um|uh|wait|hang on)\W+)*(where(abouts)?|what part)( (exactly|overseas|abroad|about|then|though|from))*(?=\W*$))\b")),
    # when money is owed, not how long something takes: "and when's that due", "when do i have to pay it"
    ("due", re.compile(r"\b(due|deadline|when (do|must|should) (i|we) (have to |need to )?pay|pay (it|that) by|when (to )?pay"
                       # "and when does the next charge hit", "¿y cuándo la cobran?" glossed "and when charge"
                       r"|when ((does|will|do|would|is) )?((the|my|our|it|that) )?(next )?(charge|bill|payment)"
                       r"|when (do|will|would) (you|they) (charge|bill|take))\b")),
    # "when fixed?" is how a gloss of "¿cuándo lo arreglan?" reads (meta/gist.py), and callers clip it so too
    ("how_long", re.compile(r"\b(how (long|soon)|(you'll|you will|will you|they'll|they will|will they) (let (me|us) know|tell (me|us)|update (me|us)) when|how much longer|when ((roughly|exactly|approximately|about) )?(will|would|does|do|is|can|are|should)|and when|by when|what time|eta|any idea when"
                            r"|when (fixed|resolved|repaired|sorted|back up|working again)|(fixed|resolved|working again) when"
                            # "can they call sooner", "is there any way to make it quicker": the time again
                            # "when's the call back again": when what the answer set going happens
                            r"|when'?s (that|it|this|the|my|our) (call|ring|ticket|refund|fix|change|review|request)\w*"
                            r"|(any ?way|any chance|can|could|possible|make it|get it)\b[^.?!]{0,25}\b(sooner|quicker|earlier)"
                            # "and in how much time they call me?": how long, in a learner's words
                            r"|(in )?how much time|after how (long|much time)"
                            # "when?" alone, after an answer that sets something going
                            r"|^((and|so|ok|okay|but|um|uh|right) )*when( (then|exactly|roughly))?$)\b")),
    ("do_it", re.compile(
        r"\b(can(no|')?t|could(n'?t)?|can) you (just )?(do|fix|sort|handle|change|take care of) (it|that|this)\b"
        # "can you just turn the old key back on", "could you re-enable it": undo what the answer said happened
        r"|\b(can|could|would|will)(n'?t|'t|not|t)? you (just |please )?((turn|switch|put|bring) (it|that|this|them|(the|my|our|that) \w+( \w+)?) back( on)?"
        r"|(re[- ]?enable|reactivate|restore|revive|un[- ]?revoke|undo) (it|that|this|them|(the|my|our|that) \w+( \w+)?))\b"
        # "you can turn on again the old key?", "can you activate again my old key": a learner's order
        # "old key back on?": the same ask, terse
        r"|^((and|so|ok|okay|um|uh|can|could) )*(i |we |you )?(get |have |put |turn )?(the |my |our |that )?(old|previous|former|last) (\w+ )?back( on)?$"
        r"|\b(can|could) you (just |please )?(turn on|switch on|activate|enable|open) again\b|\byou (can|could) (turn|switch|put|bring|activate|enable)\b.{0,25}\bagain\b"
        # "any chance you can revive the previous key", "is it possible to get the old one back"
        r"|\b(any (chance|way)|is it possible|possible to|is there (a|any) way)\b[^.?!]{0,20}\b(re[- ]?enable|reactivate|restore|revive|un[- ]?revoke"
        r"|undo|(bring|turn|get|switch|put) (it |that |them |(the |that |this |my |our )(\w+ ){1,2})?back( on)?)\b")),
    ("next_step", re.compile(
        r"\b(what (do|should|can|could|must) (i|we) (actually |really |even |just |then |now |right now )?(do|try|be doing|change|be changing)|what now|so what now|what next|what('?s| is) next|what should i do|what do i do|then what"
        # "and what's the fix" after the diagnosis: what to do about it
        r"|what('?s| is) the (fix|solution|workaround|remedy)|how (do|can|would|should) (i|we) (fix|solve|sort) (it|that|this)"
        # "ok and so what i must do now?": the question said in a learner's word order
        r"|what (i|we) (must|should|need to|have to|can) do"
        # "so what am i meant to be doing": what is expected of the caller now
        r"|what (am|are) (i|we) (meant|supposed) to (be )?(do|doing)"
        # "so what do i tell him to do", "what should our team do in the meantime": what to do, for
        # the people the caller speaks for
        r"|what (do|should|can|must|shall) (i|we) tell (him|her|them|(my|our|the) \w+)( to do)?"
        r"|what (am|are) (i|we) (meant|supposed) to tell (him|her|them|(my|our|the) \w+)"
        r"|what (should|can|must|do|does) (my|our|the) (\w+ )?(team|dev|devs|developers?|engineers?|people|guys|admin|staff|folks) do"
        # "ok and how do i stop that happening" after the 429s' diagnosis
        r"|how (do|can|would|should) (i|we) (stop|prevent|avoid) (it|that|this|them)( from)?( (happening|again))*"
        # "so how do i get back in myself then" after the account was locked
        r"|how (do|can|would|will|should) (i|we) (ever |then )?(get|sign|log) (back )?(in|into|on)\b( (it|again|myself|ourselves|then))*$"
        r"|how do i fix|(how|where) (do|can|should|would) (i|we) ((actually|even|then|now|go to|go and|go about) )?pay(ing)?( (it|that|this|the \w+))?( off)?|what (am|are|was|were) (i|we) (supposed|meant) to do|nothing for (me|us) to do|(do|should) (i|we) (need to |have to )?do anything"
        r"|anything (i|we) (need|have) to do|anything (else )?(you )?need from (me|us)|(do|does) (you|they) need anything (else )?from (me|us)"
        # "and how will i know when it's done": what comes next says who tells them
        r"|how (will|would|do|can) (i|we) (know|find out|hear)|will (you|someone|somebody|they) (let (me|us) know|tell (me|us)|email (me|us))"
        # "and you'll tell us when it's fixed?", "good. and what happens next"
        r"|(you'll|you will|they'll|they will) (let (me|us) know|tell (me|us)|email (me|us)|update (me|us))|what happens (next|now|after that|then))\b")),
    # who is going to act on what the answer set going: "who exactly is going to be calling me",
    # "who'll be handling it" ("who changed it" is a why: who did what the answer told of)
    ("who", re.compile(r"\bwho(?:'s|'ll|s)?(?: (?:exactly|actually|is|will|would|are|gonna|going|to|be))* "
                       r"(?:call|ring|phon|contact|get(?:ting)? back|handl|deal|look|work|speak|talk)\w*")),
    ("why", re.compile(r"\b(why|how come|what('?s| is) the reason|what caused|what happened|explain|by whom?|who (did|revoked|changed|locked|cancelled|canceled)"
                       # "how did that even happen", "how could it happen in the first place"
                       r"|how (did|could|does|do|would|can) (that|it|this|they) ((even|actually|ever|possibly) )?(happen|happened|occur)\w*)\b")),
)
# "fix?", "so?", "next steps?": a terse caller's whole follow-up, the question in one word
# (on the words as said: "so $49." is a figure said back, not "so?")
_TERSE_NEXT_STEP = re.compile(
    r"^\W*(?:(?:and|so|ok|okay|um|uh|the|any)\W+)*(?:fix|fixes|solution|solutions|workaround|remedy|next\s+steps?|steps|so|and\s+so"
    r"|now\s+what|and\s+then|what\s+then)\W*$", re.I)
_FOLLOW_UP_MAX_WORDS = 9
_OPENERS = frozenset("ok okay so um uh well right alright oh like hmm".split())
# A longer turn is a follow-up only when it opens as one ("and the other thing, the key, what am
# i supposed to do about it"): it names what it is about, and meta/moves.py answers from that.
# "why are my api calls failing every single time since monday" is a need of its own.
_FOLLOW_UP_MAX_WORDS_CONTINUED = 16
# One that says a word of the answer it follows may run on as callers do ("why can't you just put
# me straight through to somebody, why do i have to wait for a call back")
_FOLLOW_UP_MAX_WORDS_NAMED = 22
# ("is there any chance you could bring the old key back": asked of what the answer told)
_CONTINUES = re.compile(r"^(?:(?:ok|okay|so|oh|right|well|um|uh)\s+)*(?:and|but|about|what about|as for|regarding|concerning"
                        r"|(?:is\s+there\s+)?any\s+chance)\b")

# Asking to hear a figure again: "wait how much?", "sorry what was that", or echoing the
# figure itself as a question ("forty nine?" arrives as "49?"). Short turns only.
_REPEAT = re.compile(
    # (the words a caller addresses the line with, too: "sorry dear how much was that again")
    r"^(?:(?:wait|hang on|hold on|sorry|um|uh|so|oh|huh|what|pardon|excuse me|hm+|and|ok|okay"
    r"|dear|love|mate|sir|ma'?am|miss|hon|honey|darling|pet|buddy|pal|my dear|young man|young lady)\b[\s,.!?]*)*"
    r"(?:how much(?: (?:was|is|did you say|was that|is that|again|exactly|is it|was it))*"
    r"|what (?:was|did you say|is) (?:that|it|the (?:amount|number|figure|total))(?: again)?|what did you say"
    r"|come again|say (?:that|it) again|(?:could|can) you (?:repeat|say) (?:that|it)(?: again)?|repeat (?:that|it)(?: please)?"
    r"|pardon|sorry|what|huh)\b[\s,.!?]*(?:again|please)?[\s,.!?]*$"
)
_ECHOED_FIGURE = re.compile(r"^(?:(?:wait|so|sorry|um|uh|oh|really|only|just)[\s,]+)*-?\$?\d[\d,]*(?:\.\d+)?(?:\s*(?:dollars?|bucks|cents?|percent|%))?(?:[\s,]+(?:really|seriously|exactly|right))?\s*\?+\s*$")

# A closing turn is made only of thanks, acknowledgements and farewells.
_CLOSING_WORDS = frozenset(
    "thanks thank you thx cheers bye goodbye good-bye great ok okay alright all right perfect awesome "
    "cool fine that's thats that is all it have a good one day nice night everything for your help "
    "appreciate appreciated it much enough plenty so very lovely wonderful brilliant take care see ya later "
    # everyday sign-offs: "no i'm good", "gotta go", "talk to you later", "bye-bye", "ta"
    "no nope nothing else i i'm im am good done set gotta go got to have need talk you soon then now "
    "bye-bye byebye farewell ciao cheerio ta today helpful was really catch ya sweet u ty tysm thnx "
    # who is thanked and regional sign-offs: "cheers mate, ta-ra", "thanks buddy, laters", "cya"
    "mate buddy pal dude folks guys ra tara toodles toodle pip cya laters from me us "
    # texted: "k ttyl thx", "ok ttfn"
    "k kk ttyl ttfn "
    # the farewells other languages lend English: "thanks, tchau", "ok adiós", "danke, tschüss"
    "tchau chau adios adiós tschüss tschüs tschau "
    # leaving said outright: "right. i'm off then", "that's me done", "i'm gonna go", "i'll let you go"
    "off heading head gonna going let sorted finished "
    # thanks and "got it" in the languages callers mix in: "ah entendi, valeu, tchau", "vale, merci"
    "gracias merci danke grazie obrigado obrigada valeu entendi entiendo entendido vale compris capito verstanden "
    # degree words of thanks: "thanks a lot", "thanks a bunch", "thanks a million"
    "a lot bunch ton million loads heaps "
    # the sounds around them: "oh thanks a bunch", "well cheers"
    "oh ah uh um er well wow "
    # the modal forms of "that's all": "that will be all", "that'll do", "that should be everything"
    "will 'll that'll thatll should would be do does "
    # and the past: "that was it for me", "that was all i needed"
    "me needed wanted "
    # the hedged "that covers it": "i think that about covers it", "i guess that covers everything"
    "think guess covers covered about "
    # "we're good", "gotta run", "ok whatever, bye"
    "we we're were all run jump dash whatever anyway anyways "
    # typed and texted thanks, and the regional "grand" and "sound": "k thx", "ty", "grand, ta"
    "ty tysm thx thnx thanx tx k kk grand sound "
    # hanging up in so many words: "ok i'm done, hanging up now", "i will disconnect now"
    "hang hanging hung up disconnect disconnecting let go off sign signing leave ill i'll "
    # who is thanked, and South African thanks and goodbye: "thank you so much madam", "shot, sharp sharp"
    "madam ma'am maam sir miss shot sharp hey "
    # street sign-offs: "aight i'm out, peace", "sweet. peace out", "i'm outta here"
    "aight ight peace out outta here sweet buh buh-bye "
    # an older caller's: "well thank you young man. i won't keep you any longer. goodbye and god bless"
    "young man lady dear love won't wont keep any longer god bless and kindly speak".split()
)
# The caller says they are hanging up: "hanging up now", "i'll let you go", "sharp sharp".
_HANG_UP = (r"hang(?:ing)? up|(?:i|we)\s+won'?t\s+keep\s+you(?:\s+any\s+longer)?|god\s+bless|(?:i'?ll|ill|i will|i'?m|im|i am) (?:disconnect(?:ing)?|let you go|sign(?:ing)? off)|sharp sharp"
            r"|peace(?: out)?|(?:i'?m|im|i am) (?:out|outta here)")
# The cues that end a call; "(?:^|[\s,.!])later$" ends one too ("ok later").
_FAREWELL = (
    r"bye|goodbye|bye-bye|buh-bye|byebye|farewell|ciao|cheerio|ta-ra|tara|toodles|cya|laters|ttyl|ttfn|tchau|chau|adios|adiós|tschüss|tschüs|tschau|(that'?s|that is|that was|that'?ll be|thatll be|that (will|should|would) be) (all|it|everything)"
    r"|that('?ll| will| should)? do( it)?|that does it|have a (good|nice|great)|that'?s (enough|plenty) for (today|now|one day)"
    r"|(i'?m|we'?re) (all )?(good|done|set)|nothing else(?! (?:gets?|will|is|was|should|would|can|has|happens?|goes)\b)|(gotta|got to|have to|need to) (go|run|jump|dash)|see (you|ya)|catch (you|ya)"
    r"|that'?s (me|us) (done|sorted|finished)|(i'?m|i am|we'?re) (off|heading off)|(i'?m|i am) (gonna|going to) (go|head off|hang up|leave)"
    rf"|(?:talk|speak) (to you )?(later|soon)|take care|{_HANG_UP}"
)
# Cues that only thank ("thanks a lot", "cheers"): closing, but the call goes on if more follows.
_THANKS = r"thanks|thank you|ty|tysm|thx|thnx|thanx|ta|cheers|that (about )?covers (it|everything)"
# (not a thing put off till later: "forget it, i'll do it later" leaves nothing)
_LATER = r"(?<!\bit)(?<!\bthat)(?<!\bthis)(?:^|[\s,.!])later\W*$"
_CLOSING_CUE = re.compile(rf"\b({_THANKS}|{_FAREWELL})\b|{_LATER}")
_FAREWELL_CUE = re.compile(rf"\b({_FAREWELL})\b|{_LATER}")
_FILLERS = frozenset("uh um er erm hmm hm mm ah oh so like well yeah yes hi hello hey okay ok please".split())
# Words that carry no topic: pronouns, articles, auxiliaries and generic nouns.
_GENERIC = frozenset(
    "i i'm im me my mine you your we our it its it's this that a an the is are am was be been have has had "
    "do does did can could would will to of for about with on in at some something thing things stuff "
    "question questions problem problems issue issues help need want got get there here just quick real "
    "person human robot computer talk speak".split()
)
_WORD = re.compile(r"[a-z']+")
_TOKEN = re.compile(r"[a-z0-9']+")
# A refusal or an answer word with nothing to refuse or answer: "don't", "no not that".
_NEGATIONS = frozenset("no not nope nah don't dont do does did didn't didnt doesn't won't wont can't cant never".split())
_HESITATIONS = frozenset("uh um er erm hmm hm mm ah oh so like well".split())
_PLAIN = frozenset("i i'm im me my you your we it it's its this that a an the is was".split())


# A question about something just named, in words that name nothing: "what's going on with
# it", "where is that at", "any news on it".
_ABOUT_IT = frozenset(
    "what what's whats where where's wheres how how's hows when any anything news update updates status going on "
    "happening happened with at is are was it that this them those one the a so and but ok okay "
    # "what plan am i on and what does it cost": the price of what was just named
    "does do cost costs much price "
    # "..., did that ever actually go anywhere", "..., any news"
    "did ever actually go gone anywhere through "
    # "..., where were they coming from", "who was it": where the things just named came from
    "they were coming from who".split())
_POINTERS = frozenset("it that this them those they".split())
_HAPPENING = frozenset("going happening happened news update updates".split())


# "the one from two months back", "that one from march", "the second one i think": a noun
# phrase that picks among what the clause before named, not a need of its own.
_PICKS_ONE = re.compile(
    r"^\W*(?:(?:uh|um|er|like|so|and|but|oh|i mean|you know)\W+)*(?:the|that|this)\s+(?:[\w-]+\s+){0,4}?one\W*$"
    r"|^\W*(?:(?:uh|um|er|like|so|and|but|oh|i mean|you know)\W+)*(?:the|that|this)\s+(?:\w+\s+)?one\b")
_PICK_WORDS = 8


def names_which_one(text: str) -> bool:
    """A short clause that is only "the ... one" ("..., the six hundred a minute one")."""
    low = text.lower()
    return bool(_PICKS_ONE.search(low)) and len(_WORD.findall(low)) <= _PICK_WORDS and low.rstrip(" .!?").endswith("one")


def details_the_one_before(text: str) -> bool:
    """A short clause that only says which of the things just named is meant, or says it
    again another way ("..., like what i paid each month", "..., i mean the api key")."""
    low = text.lower()
    if _ELABORATES.search(low):
        return True
    return bool(_PICKS_ONE.search(low)) and len(_WORD.findall(low)) <= _PICK_WORDS


# How the need before is to be done, said after a comma ("..., formally, in writing, with a
# reference number", "..., by email please", "..., asap"): a preposition or a manner adverb
# opens every piece, and none asks anything ("..., by the way what's my balance" does).
_HOW_PIECE = re.compile(
    r"^\W*(?:(?:and|or|um|uh|please|just|ideally|preferably)\W+)*"
    r"(?:(?:with|in|by|via|over|through|as)\b(?!\s+the\s+way\b)|asap\b"
    # (a sentence adverb opens a statement of its own: "..., apparently i owe you money")
    r"|(?!(?:apparently|honestly|seriously|obviously|supposedly|evidently|frankly|literally|finally|lastly|secondly|thirdly"
    r"|additionally|really|probably|possibly|hopefully|unfortunately|luckily|basically|actually|usually|normally|currently"
    r"|recently|lately|clearly|surely|certainly|definitely|presumably|naturally|originally|initially)\b)"
    r"[a-z]{3,}ly\b(?<!apply)(?<!reply)(?<!supply)(?<!only))"
    r"(?:\W+[\w'-]+){0,5}\W*$")
_ASKS_IN_PIECE = re.compile(
    r"\?|\b(?:what|what's|whats|when|how|why|where|which|who|is|are|can|could|would|will|do|does|did|want|need|like)\b")


def only_how(text: str) -> bool:
    """A clause that only says how the need before it is to be done: no need of its own."""
    pieces = [p for p in re.split(r"[,;]", text.lower()) if p.strip()]
    return bool(pieces) and all(_HOW_PIECE.match(p) and not _ASKS_IN_PIECE.search(p) for p in pieces)


_ELABORATES = re.compile(
    r"^\W*(?:like|i mean|as in|meaning|such as|you know like)\b"
    # why the caller asks what came before: "..., i don't remember what it was" (not a forgotten password)
    r"|^\W*(?:(?:and|but|so|cause|because|coz|as|cuz)\W+)*i\s+(?:(?:honestly|really|just|genuinely|totally|actually)\s+)?"
    r"(?:don'?t|do\s+not|can'?t|cannot|didn'?t)\s+"
    r"(?:remember|recall|know|recogni[sz]e)\s+(?:what|why|when|where|which|how\s+much)\s+(?:it|that|this|they|those)\b")
# "... webhooks? ours showed up really late last week": what the sentence before named, told
# of the caller's own (not "mine is C1001", an answer of its own).
_OWN_OF_IT = re.compile(r"^\W*(?:(?:and|but|so|well|um|uh)\W+)*(?:ours|mine|theirs)\b(?!\W+(?:is|are|'s)\W+(?:c\b|c\d|customer|zip|the\s+(?:zip|number|account)))")


# "is the webhook thing okay now? last week they came late": the things the sentence before
# named, told of with "they" (a time first or not), and what happened to them
_THEY_DID = re.compile(
    r"^\W*(?:(?:and|but|so|well|um|uh|cause|because)\W+)*(?:(?:last\s+\w+|yesterday|this\s+(?:morning|week|afternoon)|earlier"
    r"|on\s+\w+day|the\s+other\s+day|a\s+few\s+days\s+ago)\W+)?(?:they|those|these)\s+(?:all\s+)?"
    r"(?:were|was|came|showed|arrived|got|went|kept|took|did|had|\w{3,}ed)\b")


# "someone changed my password and it was not me, i got the email about it at two in the morning":
# how the caller heard of what the clause before told
# what a caller hears of something by (shared by _HEARD_OF_IT and _HEARD_THAT)
_NOTICE = r"(?:e-?mail|mail|text|sms|message|notification|alert|warning|letter)"
_HEARD_OF_IT = re.compile(
    r"^\W*(?:(?:and|but|so|well|um|uh|cause|because)\W+)*(?:i|we)\s+(?:only\s+|just\s+)?(?:got|received|saw|had|found)\s+(?:an?|the|this|that)\s+"
    rf"{_NOTICE}\s+(?:about|for|of|on|saying\s+so)\s+(?:it|that|this)\b")


# "i got an email my password was changed": how the caller heard, the words after it what they heard
_HEARD_THAT = re.compile(
    r"^\W*(?:(?:so|um|uh|well|ok|okay|and|but|yeah|hi|hey|like)\W+)*(?:i|we)\s+(?:just\s+|only\s+)?(?:got|received|receive|had|saw|get|keep\s+getting)\s+"
    rf"(?:an?|the|this|that|some|these|those)\s+(?:weird\s+|strange\s+)?{_NOTICE}s?"
    r"(?:\s+from\s+(?:you|you\s+guys|y'?all|your\s+\w+))?(?:\s+(?:saying|that|telling\s+me))?\W*$", re.I)


# "..., did my double charge ever get refunded? if not do that too": what to do if the answer is no
_IF_NOT = re.compile(r"^\W*(?:(?:and|so|but|ok|okay|well|um|uh)\W+)*if\s+(?:not|it\s+(?:hasn'?t|wasn'?t|didn'?t|isn'?t)"
                     r"|you\s+(?:haven'?t|didn'?t)|they\s+(?:haven'?t|didn'?t))\b", re.I)


def if_not_then(text: str) -> bool:
    """A clause that says what to do if the question before it is answered no: part of that need."""
    return bool(_IF_NOT.match(text))


def heard_that(text: str) -> bool:
    """The clause says only how the caller heard what the next clause says ("i got an email")."""
    return bool(_HEARD_THAT.match(text))


def tells_own_of_it(text: str) -> bool:
    """A sentence about the caller's own case of what the sentence before named."""
    low = text.lower()
    return bool(_OWN_OF_IT.search(low) or _THEY_DID.search(low) or _HEARD_OF_IT.search(low))


def asks_about_it(text: str) -> bool:
    """A clause that only asks about what the clause before it named ("i asked for a refund
    yesterday, what's going on with it"), or what to do about it ("enterprise is way too
    pricey for us, what are our options"): part of that need, not one of its own."""
    words = _WORD.findall(text.lower())
    if words and all(w in _WHAT_TO_DO or w in _FILLERS for w in words) and any(w in _CHOICES for w in words):
        return True
    if asks_what_to_do(text):  # "..., so what do i do": what to do about it
        return True
    # "..., what is going on": a bare "what's happening" after a need asks about that need
    return ((any(w in _POINTERS or w in _HAPPENING for w in words)
             and all(w in _ABOUT_IT or w in _FILLERS for w in words)) or bool(_CHECK_IT.match(text.lower()))
            or bool(_WHOSE_FAULT.match(text)))


# "why's it throttling me, is that your fault": whose the trouble just named is, which its own
# answer says (a rate limit is the caller's traffic; an incident is ours)
_WHOSE_FAULT = re.compile(
    # ("is that you guys?" alone asks the status board, whose incident it would be)
    r"^\W*(?:(?:and|so|but|ok|okay|or|like)\W+)*(?:(?:is|was)\s+(?:that|it|this)\s+(?:your|you\s+guys'?|you|our|my|me|us|we)(?:\s+fault|\s+or\s+(?:you|me|us|we))"
    r"|whose\s+fault\s+is\s+(?:it|that|this))\W*$", re.I)


# "bump me to pro, the sixty a minute cap isn't enough", "knock us down a tier, we're nowhere near
# six thousand a minute": why the caller wants what the clause before asked for, told as how much
# they need; or opened by a word of cause ("..., because we moved providers")
_REASON = re.compile(
    r"^\W*(?:(?:and|but|so|well|um|uh|honestly|like)\W+)*(?:because|cause|'cause|cuz|coz|cos|since)\b"
    # (how much, not what goes wrong: "..., i keep hitting rate limits" is a need of its own)
    r"|\b(?:(?:not|isn'?t|isnt|aren'?t|arent|wasn'?t|wasnt|ain'?t) (?:\w+ )?enough|too (?:much|expensive|pricey|steep|costly)"
    r"|overkill|nowhere near|(?:don'?t|dont|do not|never|barely|hardly|rarely) (?:even )?(?:need|use|touch|come close)"
    r"|more than (?:we|i) (?:need|use)|outgr[eo]wn|can'?t afford|cant afford)\b")


# "i got a new cell, need to change the phone number you have": something new in the caller's
# life, told before the request it explains, asking nothing itself
_NEWS = re.compile(
    r"^\W*(?:(?:so|well|um+|uh+|ok|okay|yeah|hi|hey|right|oh|basically)\W+)*(?:i|we)(?:'ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+)?"
    r"(?:got|gotten|bought|have|switched\s+to|moved\s+to|changed\s+to)\s+(?:a|an|my|our)\s+new\s+\w+(?:\s+\w+)?\W*$", re.I)


def tells_news(text: str) -> bool:
    """The clause tells of something new the caller has ("we just got a new phone"), and asks nothing."""
    return "?" not in text and bool(_NEWS.match(text))


def gives_reason(text: str) -> bool:
    """A clause that tells why the clause before asks what it asks, asking nothing itself."""
    low = text.lower()
    return (bool(_REASON.search(low)) and "?" not in low
            and not any(_ASKS.match(part.strip()) for part in re.split(r"[,.;!]", low)))  # "..., what can we drop to" asks


# "..., can you check if that was me", "could you see whether it's legit": whether the thing just
# told is what it seems, asked of it by a pointer
_CHECK_IT = re.compile(
    r"^\W*(?:(?:so|and|but|um|uh|ok|okay|please)\W+)*(?:can|could|would|will)\s+you\s+(?:please\s+)?(?:just\s+)?"
    r"(?:check|see|tell\s+me|find\s+out|look|confirm|verify)\s+(?:if|whether)\s+(?:that|it|this|those|they)(?:'s|\s+(?:was|is|were|are))?\b")


# "what are our options", "what would you suggest", "any alternatives": asking what to do about
# the thing just said, in words that name nothing.
_CHOICES = frozenset("options choices alternatives suggest suggestions recommend recommendations advice ideas".split())
_WHAT_TO_DO = _CHOICES | frozenset(
    "what what's whats which are is do does would could can should you we i our my me there any the a "
    "have got here then".split())


# "so what do i do", "what should we do now", "how do i fix it then": what to do, in words that
# name nothing of their own.
_WHAT_DO_I_DO = re.compile(
    r"^\W*(?:(?:so|and|ok|okay|well|then|um|uh|but|now)\W+)*(?:what|how)\s+(?:do|should|can|shall|must|would)\s+(?:i|we)\s+"
    r"(?:do|handle|fix|sort|solve|deal\s+with)(?:\s+(?:it|that|this|them|out|about\s+(?:it|that|this|them)|now|then|next|here|exactly))*\W*$")


def asks_what_to_do(text: str) -> bool:
    """The clause only asks what to do ("so what do i do now"): about the need said before it,
    which it neither names nor changes."""
    return bool(_WHAT_DO_I_DO.match(text.lower()))


_ASKS = re.compile(
    r"^\W*(?:(?:uh|um|er|so|well|ok|okay|and|but|oh|wait|hmm)\W+)*"
    r"(?:will|would|is|are|was|were|has|have|had|does|do|did|can|could|should|how|what|why|when|where|which|who"
    r"|isn'?t|hasn'?t|haven'?t|didn'?t|won'?t|wasn'?t)\b"
    # "no wait, actually don't", "hold on": a caller taking something back is still talking
    r"|^\W*(?:(?:no|nope|oh|um|uh)\W+)?(?:wait|hold on|hang on|actually)\b"
    # a question said as a statement, opened by "so": "so you don't see anything odd at all"
    r"|^\W*(?:so|and|but)\W+(?:you|you'?re|there'?s|it'?s|that'?s)\s+(?:don'?t|didn'?t|can'?t|cannot|do\s+not|did\s+not"
    r"|haven'?t|aren'?t|isn'?t|wasn'?t|see|saw|think|really|sure|definitely|telling|saying)\b")


def is_question_not_farewell(text: str) -> bool:
    """A question with no farewell in it ("will that kick me out everywhere else too"), an
    assent with none ("sure go ahead with that", "yes that's what i said"), or a trouble told
    with none ("my key dont work no more"): never a goodbye,
    however the router's scores for it came out. Ending the call loses the caller; a missed
    goodbye costs one more "anything else?"."""
    low = text.lower().strip()
    if _CLOSING_CUE.search(low) or _DONE.search(low):
        return False
    return bool("?" in low or _ASKS.search(low) or _ASSENTS.search(low) or _TROUBLE.search(low) or _TAG_QUESTION.search(low))


# "and that's the same every month, is it": a question asked by its tag, the mark left off
_TAG_QUESTION = re.compile(r",\s*(?:(?:is|isn'?t|was|wasn'?t|are|aren'?t|does|doesn'?t|did|didn'?t|will|won'?t|can|can'?t)\s+(?:it|that|they|there|you|i|we|he|she)"
                           r"|right|correct)\W*$")


# A trouble told ("my key dont work no more"): its "no more" is no "nothing more, thanks".
_TROUBLE = re.compile(
    r"\b(?:do(?:es)?n'?t|do(?:es)?\s+not|won'?t|wont|can'?t|cant|isn'?t|ain'?t|not)\s+(?:\w+\s+)?"
    r"(?:work|working|load|loading|open|connect|connecting|go\s+through)\b|\b(?:broken|failing|stopped\s+working)\b")


# Farewells beyond the closing cues: thanks in other words, done, "i'll let you go". An assent
# with one of these ("ok thx, i'll hang up now") may well be a goodbye.
_DONE = re.compile(
    r"\b(thank|thx|appreciate|(?:i'?ll|i will) (?:let you go|hang up)|hang(?:ing)? up|later\W*$|good ?night"
    r"|(?:we'?re|we are|i'?m|i am) (?:all )?(?:done|finished|set)|all set|no (?:more|other|further) questions|nothing (?:more|further)"
    r"|so long|covers it|that'?s about (?:all|it))\b")
# A turn that opens by agreeing ("sure, ...", "yes dear, ...", "ok so ...") answers something;
# without a farewell it is not one.
_ASSENTS = re.compile(r"^\W*(?:(?:uh|um|oh|well|i mean)\W+)*(?:yes|yeah|yep|yup|sure|ok|okay|right|alright|correct|exactly|i mean)\b")


_DISCLAIMS = re.compile(
    r"^\W*(?:(?:so|well|ok|okay|um|uh|and|but|no)\W+)*(?:(?:it'?s|its|it\s+is|this\s+is|that'?s|i'?m|i\s+am)\s+)?"
    r"(?:not|isn'?t|never)\s+(?:a|an|the|about|really|my|any|that|locked|an?\s+\w+\s+or)\b")
_DISCLAIM_WORDS = 7
_DENY_WORDS = 9  # "no no, not switching, just asking for now"


def disclaims(text: str) -> bool:
    """A short clause that says what the call is *not* about ("not an error or anything",
    "it's not about the bill"), or denies having done what the clause before told ("and i did
    not change it"): beside a real need it is no need of its own."""
    low = text.lower()
    words = len(_WORD.findall(low))
    return ((bool(_DISCLAIMS.search(low)) and words <= _DISCLAIM_WORDS) or (bool(_DENIES.search(low)) and words <= _DENY_WORDS)
            or not_this_need(low))


# Before a farewell, a clause that puts the offer or the need off ("ok i think about it, not now",
# "no no, is already locked, no need", "ok i wait the call"): the caller declines and leaves, the
# clause's words (locked, plan, call) ask for nothing.
_PUTS_OFF = re.compile(
    r"^\W*(?:(?:no|nah|nope|so|well|ok|okay|oh|yeah|alright|fine|thanks|thank\s+you|hm+|um+|uh+|eh|ah|ugh|meh|actually|right)\W+)*"
    r"(?:it'?s\s+|it\s+is\s+|is\s+|are\s+|i\s+|we\s+|i'?ll\s+|we'?ll\s+)?(?:just\s+|then\s+)?"
    r"(?:(?:will\s+|gonna\s+|going\s+to\s+)?think\s+about\s+it|no\s+need|not\s+(?:now|today|right\s+now|yet)|maybe\s+(?:later|another\s+time)|another\s+time"
    # "i'll do it another time": the request itself put off
    r"|(?:do|sort|handle|deal\s+with|try)\s+(?:it|that|this)\s+(?:another\s+time|later|some\s+other\s+time|myself|online|tomorrow)"
    r"|(?:will\s+|'ll\s+)?wait\s+(?:for\s+)?(?:the|your|their)\s+call|already\s+(?:locked|done|fixed|sorted|paid|closed|cancell?ed))"
    r"(?:\W+(?:not\s+(?:now|today|yet)|no\s+need|thanks?|thank\s+you|then|for\s+now|ok(?:ay)?|later))*\W*$")


def puts_off(text: str) -> bool:
    """A clause that only declines or defers ("not now", "no need", "i'll think about it")."""
    return bool(_PUTS_OFF.match(text.lower()))


_DENIES = re.compile(
    # the whole clause says what the caller is not doing: "no no, not switching, just asking for
    # now" ("just wondering what my balance is" asks something: not one of these)
    r"^\W*(?:(?:no|so|well|and|but|um|uh|oh|ok|okay)\W+)*(?:(?:i'?m|we'?re|i\s+am|we\s+are)\s+)?not\s+"
    r"(?:switching|changing|cancel+ing|closing|upgrading|downgrading|moving|leaving|buying|ordering|going\s+ahead|doing\s+(?:it|that|anything))"
    r"(?:\s+(?:plans?|anything|yet|now|it|that|today))?(?:\W+just\s+(?:asking|checking|wondering|curious)(?:\s+for\s+now)?)?\W*$"
    # "..., we are not using it": why the caller leaves, no need of its own
    r"|^\W*(?:(?:so|and|but|cause|because|cuz|since|as)\W+)*(?:we|i)(?:'re|'m|\s+are|\s+am)?\s+(?:just\s+)?(?:not|never|barely|hardly)\s+"
    r"(?:really\s+)?us(?:e|ing)\s+(?:it|this|that|them|the\s+\w+)(?:\s+(?:anymore|any\s+more|enough|much|at\s+all|now))*\W*$"

    r"|^\W*(?:(?:no|so|well|and|but|um|uh|oh|ok|okay|i'?m|we'?re|i\s+was|was)\W+)*(?:just\s+(?:asking|checking|wondering|curious)"
    r"|(?:just\s+)?(?:out\s+of|for)\s+(?:curiosity|interest)(?:'?s\s+sake)?)"
    r"(?:\s+(?:for\s+now|though|really))?\W*$"
    r"|^\W*(?:(?:so|well|and|but|um|uh|oh)\W+)*(?:i|we)\s+(?:did\s*n[o']?t|didnt|never|have\s*n[o']?t|havent|had\s*n[o']?t)\s+"
    r"(?:\w+\s+)?(?:change|changed|do|did|done|touch|touched|request|requested|ask|asked|make|made|authori[sz]e|authori[sz]ed|order|ordered|sign|signed)"
    # (a learner's double negative: "but i did not change nothing")
    r"(?:\s+(?:for|up|in|off))?\s+(?:it|that|this|them|anything|nothing|any\s+of\s+(?:it|that|this))(?:\s+(?:myself|at\s+all|though|either))?\W*$"
    # what is not the trouble: "to be clear, logging into the dashboard works fine"
    r"|^\W*(?:(?:so|well|and|but|um|uh|oh|to\s+be\s+clear|just\s+so\s+you\s+know)\W+)*[\w' ]{1,40}?\b(?:works?|working|is|are)"
    r"\s+(?:just\s+|perfectly\s+|totally\s+)?(?:fine|ok(?:ay)?|great)\W*$"
    # "no change for now", "no switch today thanks": nothing to change, said before the need
    r"|^\W*(?:(?:ok|okay|so|and|but|well|um|in\s+english)\W+)*no\s+(?:change|changes|switch|switching|upgrade|downgrade)"
    r"(?:\s+(?:for\s+now|today|yet|thanks|thank\s+you|then|please))*\W*$"
    # what the caller does not want sent: "so don't send me a password reset link"
    r"|^\W*(?:(?:so|and|but|please)\W+)*(?:don'?t|do\s+not)\s+(?:send|give|email)\s+me\s+(?:a|the|any|another)\s+[\w\s-]{1,30}$")


# "cancel my subscription. not a downgrade, cancel": the need it is not, named bare
_NOT_THIS = re.compile(
    r"^\W*(?:(?:no|and|but|so|i\s+said)\W+)*not\s+(?:a\s+|an\s+|the\s+)?(?:downgrade|upgrade|switch|plan\s+change|refund|reset|ticket)\W*$", re.I)


def not_this_need(text: str) -> bool:
    """A clause that only says which need the call is not ("not a downgrade"): no need of its own,
    and nothing to join to the clause it contradicts."""
    return bool(_NOT_THIS.match(text))


def names_nothing(text: str) -> bool:
    """A negation with nothing to negate cannot be a need: "don't", "no not that", "uh nope". The router's features still score them (a training phrasing that
    starts "don't ..." lends them a label), so they are kept from it."""
    words = _WORD.findall(text.lower())
    return (any(w in _NEGATIONS for w in words)  # a greeting or a bare "ok" is read as before
            and all(w in _HESITATIONS or w in _NEGATIONS or w in _PLAIN for w in words))


_PURPOSE = re.compile(r"\bso\s+(?:that\s+)?(?:i|we)\s+(?:can|could)\s+(?:tell|pass|give|send|let|show|forward)\b.*$")


def follow_up_kind(text: str, *, named: bool = False) -> FollowUp | None:
    """What a follow-up question asks of the last answer, or None. ``named``: the question is
    known to name the answer it follows up (a word of it), so it may be as long as a continued one."""
    # "... so i can pass it on to my manager": why it is asked, no part of the question's length
    words = _WORD.findall(_PURPOSE.sub("", text.lower()))
    if _ECHOED_FIGURE.match(text.lower().strip()):
        return "repeat"
    low = " ".join(words)
    limit = _FOLLOW_UP_MAX_WORDS_NAMED if named else _FOLLOW_UP_MAX_WORDS_CONTINUED if _CONTINUES.match(low) else _FOLLOW_UP_MAX_WORDS
    # the openers a spoken question leans on ("ok so what am i supposed to do about it") say
    # nothing about how long the question itself is
    said = [w for w in words if w not in _OPENERS]
    if not words or len(said) > limit:
        return None
    raw = text.lower().strip()
    if len(words) <= 8 and (_REPEAT.match(raw) or _ECHOED_FIGURE.match(raw)):
        return "repeat"
    for kind, pattern in _FOLLOW_UP:
        if pattern.search(low):
            return kind
    if _TERSE_NEXT_STEP.match(raw):
        return "next_step"
    return None


def beside_follow_up(text: str) -> str | None:
    """What a follow-up question says beside its own frame ("what's the reference so i can
    tell my boss" -> "so i can tell my boss"), or None when it is no follow-up. What is left
    is what may still name another need ("why was i charged twice": "was i charged twice")."""
    kind = follow_up_kind(text)
    if kind is None:
        return None
    low = " ".join(_WORD.findall(_PURPOSE.sub("", text.lower())))
    pattern = dict(_FOLLOW_UP).get(kind)
    found = pattern.search(low) if pattern is not None else None
    return "" if found is None else f"{low[:found.start()]} {low[found.end():]}".strip()


# "is it revoked?", "was that a hack then?", "so it's expired?": whether something holds of what
# the last answer told, in a few words that name no need. The answer's own explanation says it.
_ASKS_WHETHER = re.compile(
    r"^\W*(?:(?:so|and|but|oh|ok|okay|wait|um|uh|hm+|then)\W+)*"
    r"(?:(?:is|was|are|were|has|have|had|does|did|do)\s+(?:it|that|this|they|those|the\s+\w+|my\s+\w+)"
    r"|(?:it'?s|its|that'?s|thats|they'?re)\s+\w+[^.!?]*\?)")
_WHETHER_WORDS = 7


def asks_whether_of_it(text: str) -> bool:
    """A short yes-or-no question about what the last answer told ("is it revoked?")."""
    low = text.lower().strip()
    return bool(_ASKS_WHETHER.match(low)) and len(_WORD.findall(low)) <= _WHETHER_WORDS


# A thing named first and said of after, by a pronoun: "my key, the api key, it just doesn't
# work anymore". The names are no needs of their own: the clause about them is the need.
_NOT_A_NAME = frozenset(
    "is are was were be been am do does did don't doesn't didn't can can't could would will won't should have has had "
    "want need get got give make tell check why how what when where which who please i i'm we you they it that this "
    # an answer is no name: "yep. ok bye" to a read-back is a yes, then the goodbye
    "not no yes yeah yep yup sure nope nah".split())
_SAID_OF_IT = re.compile(r"^\W*(?:(?:and|so|well|um|uh|like)\W+)*(?:it|it'?s|its|they|they'?re|that|that'?s|this|this\s+thing)\s+\w", re.I)
_NAME_WORDS = 4


_FIGURE = re.compile(r"^\W*\$?\d[\d,.]*\W*$")  # "249, ok, figured": a figure said back


def _only_names(piece: str) -> bool:
    if _FIGURE.match(piece):
        return True
    words = [w for w in _WORD.findall(piece.lower()) if w not in _FILLERS]
    return 0 < len(words) <= _NAME_WORDS and not any(w in _NOT_A_NAME for w in words)


def said_of_named(left: str, right: str) -> bool:
    """``left`` only names a thing and ``right`` (after more names of it) says something of it
    by a pronoun: one need, not two."""
    if not all(_only_names(p) for p in re.split(r"\s*,\s*", left) if p.strip()):
        return False
    pieces = [p for p in re.split(r"\s*,\s*", right) if p.strip()]
    while pieces and _only_names(pieces[0]):
        pieces.pop(0)
    return bool(pieces) and bool(_SAID_OF_IT.match(pieces[0]))


# A question about "that" / "it" points back at the last answer, however confidently its
# verb reads as a need of its own ("and when will that be fixed" is not a new ticket query).
_BACK_REFERENCE = frozenset("that it this those they them it'll it's that'll that's they'll they're".split())


def refers_back(text: str) -> bool:
    """A short follow-up question whose subject is a pronoun for the last answer."""
    words = _WORD.findall(text.lower())
    return follow_up_kind(text) is not None and any(w in _BACK_REFERENCE for w in words)


def is_courtesy_word(word: str) -> bool:
    """A word English thanks and farewells are made of ("thank", "you", "so", "much")."""
    return word in _CLOSING_WORDS


# What a turn that goes on from the last answer narrows it by: a time, or "the other one".
_NARROWS = frozenset(
    "yesterday today tonight tomorrow last this next past previous week weekend month morning afternoon evening night "
    "earlier before after then other one ones it that those them same again too also the a an for about how what "
    "and but so ok okay oh right well um uh "
    # "and that one from last week?", "and the one two days ago"
    "from in on of since ago back days day weeks months two three few couple "
    # "what about python, same thing": the question asked again of another thing
    "thing question "
    # "and the api in general": the same question, wider
    "general generally overall whole itself "
    # "and all three of the recent ones together?"
    "all recent together".split())


def continues(text: str, said: frozenset[str] = frozenset()) -> bool:
    """A short turn that goes on from the last answer by narrowing it ("and how about
    yesterday?", "what about last week", "and the other one?"), or by picking a thing that
    answer named (`said`, its words: "what about python, same thing" after "our SDKs for
    Python, Node and Go"): no topic of its own, so it leans on what was just said (not "and
    what about the weather?")."""
    words = _WORD.findall(text.lower())
    return (bool(_CONTINUES.match(" ".join(words))) and len(words) <= _FOLLOW_UP_MAX_WORDS
            and all(w in _NARROWS or _said(w, said) for w in words))


def picks_from(text: str, said: frozenset[str]) -> bool:
    """The turn names a thing the last answer said (`continues` with `said`), beyond the
    words that only narrow it."""
    return any(w not in _NARROWS and _said(w, said) for w in _WORD.findall(text.lower()))


# A question's shape: "is there a max ...", "and was that one actually paid or ...", "those ok?"
_QUESTION = re.compile(
    r"\?|\bor\W*$|^\W*(?:(?:and|so|ok|okay|oh|um|uh|but|then|right|wait)\W+)*"
    r"(?:is|are|was|were|do|does|did|can|could|will|would|has|have|what|which|how|when|where|who|any)\b"
    # "and webhooks, those ok at least": whether it is well, said without its verb first
    r"|\b(?:those|they|it|that|these)(?:'re|'s|\s+are|\s+is)?\s+(?:ok|okay|fine|alright|good|working)\b")
# Words too common to name what an answer was about.
_PLAIN_SAID = frozenset(
    "your you you're that this there their them they then than what when with from have just like been will would "
    "could should about also more much some only each every into over once still here yes not anything else help "
    "thing things look ok okay".split())
_ASKS_OF_SAID_WORDS = 14


def asks_of_said(text: str, said: frozenset[str]) -> bool:
    """A short question that says a word the last answer said ("is there a max on how many come
    back per page or" after "up to 100 items a page"): asked of that answer's matter."""
    words = _WORD.findall(text.lower())
    if not words or len(words) > _ASKS_OF_SAID_WORDS or not _QUESTION.search(text.lower().strip()):
        return False
    return any(len(w) >= 4 and w not in _PLAIN_SAID and _said(w, said) for w in words)


def _said(word: str, said: frozenset[str]) -> bool:
    return word in said or (word.endswith("s") and word[:-1] in said)  # "the webhooks ones" of "webhook deliveries"


_LETTERS = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")  # "adiós" whole, not "adi" and "s"


def is_closing(text: str) -> bool:
    low = _ACTUALLY_DONE.sub("", text.lower())
    words = _LETTERS.findall(low)
    return bool(words) and bool(_CLOSING_CUE.search(low)) and all(w in _CLOSING_WORDS for w in words)


# "yes. (ok) actually that's enough for today, bye": "actually" opening the caller's being done, not
# taking anything back ("actually no, bye" keeps it: no is no closing after "actually")
_ACTUALLY_DONE = re.compile(r"^\W*(?:(?:ok|okay|oh|um|uh|right|alright|well)\W+)*actually\W+(?=(?:that'?s|thats|that\s+is|i'?m|we'?re)\s+(?:all|enough|plenty|it|everything|good|done|fine)\b)")


# "oh sorry, wrong number": a caller who dialled the wrong line, not a phone number to change.
_MISDIAL = re.compile(r"\bwrong (?:number|line|company)\b")
# ... unless it says whose number is wrong: "you have the wrong number for me on file".
_WHOSE = re.compile(r"\b(?:me|my|our|us|on file|update|change|fix|account|phone|mobile|email)\b")
_CLAUSE = re.compile(r"[.!?;,]+")


_LAST_BYE = re.compile(r"(?<=\w)\s+(?=(?:bye|goodbye|bye-bye|bye\s+bye|bye\s+now|bye\s+for\s+now)\W*$)", re.I)
_AND_BYE = re.compile(r"\s+and\s+(?:then\s+)?(?=(?:bye|goodbye|bye-bye|cheers|thanks|thank you"
                     # "yes do that and then i'm gonna go, bye": leaving, said as a clause of its own
                     r"|(?:i'?m|i am) (?:gonna|going to) go|i'?m off|(?:i|we) (?:have|need|got) to go|gotta go)\b[\w\s!.,']*$)", re.I)


def farewell_after(text: str) -> str | None:
    """The words said before a farewell that ends the turn ("ok whatever. bye" -> "ok
    whatever"), "" when there is nothing else or only a misdial ("oh sorry, wrong number.
    bye"), None when the turn does not end in a farewell. Whether those words name a need is
    the router's to judge: a caller who ends on "bye" is ending the call unless they also asked
    for something."""
    text = _AND_BYE.sub(", ", text)  # "yes submit it and bye": the farewell is a clause of its own
    text = _LAST_BYE.sub(", ", text)  # "not now bye", "let me think about it bye for now": so is a bye said last
    parts = [p for p in _CLAUSE.split(text.lower()) if p.strip()]
    if len(parts) < 2 or not (is_closing(parts[-1]) and _FAREWELL_CUE.search(parts[-1])):
        return None
    rest = parts[:-1]
    rest = [p for p in rest if not (_MISDIAL.search(p) and not _WHOSE.search(p))]
    # "cheers for sorting the double charge, bye": thanks for a need is no request for it; and
    # "inc forty two, got it. bye": what the caller heard, said back before taking it in
    # "ah right, the subscription. ok bye": the thing named after a realisation, too (not after
    # a bare "ok," or "right,": "ok, the refund please. bye" asks for it)
    rest = [p for k, p in enumerate(rest) if not _THANKS_FOR.match(p)
            and not (k + 1 < len(rest) and _ACKNOWLEDGES.fullmatch(rest[k + 1].strip()) and _only_names(p))
            and not (k > 0 and _REALISES.fullmatch(rest[k - 1].strip()) and _only_names(p))]
    while rest and (is_closing(rest[-1]) or _ACKNOWLEDGES.fullmatch(rest[-1].strip())):
        rest.pop()
    return ", ".join(p.strip() for p in rest)


def ends_call(text: str) -> bool:
    """The turn ends on a farewell: "okay thank u bye" alone, or after other words ("ok then
    leave it like that. bye")."""
    return farewell_after(text) is not None or (is_closing(text) and bool(_FAREWELL_CUE.search(text.lower())))


# A clause of thanks, whatever it thanks for: "thanks for the refund", "appreciate the update on
# the outage", "thank you for getting my forty nine bucks back".
_THANKS_FOR = re.compile(
    r"^\W*(?:(?:ok|okay|so|well|great|cool|right|alright|fine|awesome|good|perfect|oh|ah|and|but|yeah|brilliant|lovely|sweet|nice)\W+)*"
    r"(?:thanks|thank\s+(?:you|u)|thx|thnx|ty|cheers|many\s+thanks|much\s+appreciated|(?:i\s+|really\s+|i\s+really\s+)?appreciate"
    r"|grateful)\b")
# A realisation: "ah right", "oh i see", "ohh ok".
_REALISES = re.compile(r"(?:ah+|oh+|ahh+)\W+(?:right|ok(?:ay)?|i\s+see|yes|yeah|got\s+it|of\s+course)", re.I)
# Taking in an answer: "got it", "gotcha", "ok, figured", "right", "makes sense".
_ACKNOWLEDGES = re.compile(
    r"(?:(?:ok|okay|ah|oh|right|alright|yeah|cool|great|fine)\W+)*(?:ok|okay|got\s+it|gotcha|figured|i\s+see|right|understood|makes\s+sense"
    r"|fair\s+enough|noted|fine|cool|great|alright|good|perfect"
    # "oh right, the plan, duh. thanks, bye": the answer taken in, with a laugh at oneself
    r"|duh|d'?oh|of\s+course|silly\s+me|my\s+bad)")


def is_thanks_only(text: str) -> bool:
    """A closing that only thanks ("thanks a lot", "cheers"): said before any business is
    done it is politeness, not the end of the call."""
    return is_closing(text) and not _FAREWELL_CUE.search(text.lower())


# Words a spoken sentence can hardly do without: pronouns, articles, auxiliaries, common
# prepositions, question words, negation and the verbs of asking. A caller's real request,
# even one the line cannot serve ("book me a flight"), has at least one; a string of
# unrelated real words ("banana carpet seventeen") or of made-up ones has none.
_FUNCTION_WORDS = frozenset(
    "i i'm im i've ive i'd id me my mine you your you're we our us they them their he she him her his it its it's "
    "this that that's thats these those a an the is are am was were be been being do does did don't dont doesn't "
    "have has had can can't cant could would will won't shall should may might must to of in on at for with from "
    "by about into over under up out off and or but if so not no yes what what's whats when where why how who "
    "which there here please need want get got help tell give make let there's theres".split()
)
# The same words name no matter a caller could be asking about ("go on for" names no bill).
FUNCTION_WORDS = _FUNCTION_WORDS
# Fewer words than this is too little to call a turn word salad ("pizza", "weather today").
_SALAD_MIN_WORDS = 3


def is_word_salad(text: str) -> bool:
    """Several words and not one function word: nothing a caller says to be understood.

    Applied only to turns the router could not place, so the reply is "sorry, I didn't
    catch that" (a recogniser that misheard, a caller talking to someone else) rather than
    "that's not something I can help with".
    """
    words = [w for w in _TOKEN.findall(text.lower()) if w not in _FILLERS]  # "seventeen" may arrive as "17"
    return len(words) >= _SALAD_MIN_WORDS and not any(w in _FUNCTION_WORDS for w in words)


def is_vague(text: str) -> bool:
    """A filler, a greeting, or an opener that names no topic ("i have a question")."""
    words = [w for w in _WORD.findall(text.lower()) if w not in _FILLERS and w not in _GENERIC]
    return not words


# "i want a refund for that", "can i get credit for it": a request whose object is the clause before.
_FOR_THAT = re.compile(r"\b(?:for|about|because of|over)\s+(?:that|it|this|all\s+that|all\s+of\s+(?:that|it|this))\b(?!\s+(?:one|plan|charge|invoice|key)\b)")


def points_back_for(text: str) -> bool:
    """The clause asks for something for what the clause before it told ("..., i want a refund for that")."""
    return bool(_FOR_THAT.search(text.lower()))

