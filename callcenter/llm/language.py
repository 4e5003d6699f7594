"""Which language is the caller speaking, when it is not English?

The line serves English only; a caller who speaks another language should hear that in
their own language, with the offer of a call back. Detection is by script (Han, kana,
Hangul, Cyrillic, Arabic) and by the frequent function words of the languages callers
most often try, which English text does not contain.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from py3langid.langid import MODEL_FILE, LanguageIdentifier

from callcenter.routing.discourse import is_courtesy_word

# The most frequent words of each language (articles, pronouns, prepositions, auxiliaries,
# greetings, and the everyday words of a support call), minus any that are English words
# too ("die", "was", "son", "me", "no"): a language's function words are its fingerprint,
# whatever the caller asks about.
_FUNCTION_WORDS: dict[str, frozenset[str]] = {
    "es": frozenset(
        """quiero necesito tengo por los las una usted para pero cuenta mi el es hola ayuda factura buenos buenas dias días
        cerrar la del que en un se lo mis tu su al como más muy ya hay está estoy puedo puede gracias tardes noches
        cobro cobraron cobrado pago pagar dinero contraseña ayer hoy dos veces sí también porque cuando donde dónde qué
        cómo cuánto cuanto favor señor señora quisiera tarjeta reembolso servicio problema tiene funciona hablar persona
        alguien mí nada esto eso este esta mes cambiar correo punto arroba esos esas estos estas quién cuál cuáles fueron vinieron""".split()
    ),
    "fr": frozenset(
        """je tu il nous vous est les des une la pour avec mais pas que qui dans sur mon ma mes votre bonjour voudrais compte
        elle ils le du et sont ne ton ta vos ou où merci oui non facture paiement mot passe aide veux peux pouvez j'ai
        c'est est-ce au aux ce cette très aussi fermer remboursement deux fois hier aujourd'hui carte argent parler
        quelqu'un problème marche rien suis avez avoir être mois changer courriel arobase pourquoi combien comment
        quand cher chère ces ceux celles quel quelle quels viennent venaient""".split()
    ),
    "de": frozenset(
        """ich nicht und der das ist mein meine bitte ein eine sie wir mit auf habe frage rechnung guten tag du er ihr oder
        den dem einen sind bin hat haben meinen für von zu bei wie warum wo danke hallo konto passwort hilfe geld zweimal
        kann können möchte ja nein schließen kündigen gestern heute karte sprechen jemand funktioniert nichts geht
        doppelt abgebucht monat ändern wechseln woher wohin diese dieser dieses wer welche welcher kamen""".split()
    ),
    "it": frozenset(
        """io non sono della questo il mio perché ciao vorrei grazie conto lui lei noi voi lo gli una di che è per con mia
        ho ha buongiorno fattura aiuto posso come chiudere rimborso due volte ieri oggi carta soldi parlare qualcuno
        funziona niente mese quanto quando devo adesso prossima prossimo salve scade arriva bolletta pagare vostro
        vostra nostro nostra scusi scusa faccio fare usare risultati nella nel alla alle sulla delle degli
        cambiare passare piano chiocciola dove quei quelle questi queste chi quale quali venivano""".split()
    ),
    "pt": frozenset(
        """eu não obrigado minha conta preciso você olá ele ela nós os um uma do da que é para com meu sou tenho obrigada
        bom dia fatura senha ajuda fechar reembolso duas vezes ontem hoje cartão dinheiro falar alguém funciona nada
        mês boa tarde noite quanto quanta próxima próximo gostaria queria cobraram cobrado pagamento estou também
        vocês isso essa esse muito agora sim então minhas meus quero mudar pra gente tá pequeno plano custa brigado
        brigada tô trocar ponto arroba devo devemos onde essas esses estas estes quem qual quais foram vieram""".split()
    ),
}
# English words and fillers are no evidence of another language, however common they are
# in it ("do" and "um" are Portuguese words too; "um how do i set up webhooks" is English).
_NOT_EVIDENCE: frozenset[str] = frozenset(
    """um uh er erm hmm mm so like ok okay yeah well oh ah do a i in on me no son die was also is it as an to of he
    she we be by or if at us my our you your for not all can will fine hi hey ya""".split()
)
_FUNCTION_WORDS = {code: words - _NOT_EVIDENCE for code, words in _FUNCTION_WORDS.items()}

# Letters English spelling does not use: evidence on their own that a turn is not English.
# Portuguese writes á, é, í, ó and ú too ("olá", "já", "você"): its own words then tell it from Spanish.
_LETTERS = {"es": "ñ¿¡áíóú", "fr": "çœèêëàâîôûù", "de": "ßäöü", "it": "ìò", "pt": "ãõâêôçáéíóú"}
# English words a sentence can hardly do without: a turn that has one is not foreign.
_ENGLISH = frozenset(
    """i i'm im my me you your we our they it it's is are am was were be been do does did don't can can't could would will
    to of in on at for with from about and or but if so not what when where why how who the a an this that there here
    please need want have has had get got help""".split()
)
_FUNCTION_WORDS = {code: words - _ENGLISH for code, words in _FUNCTION_WORDS.items()}
SUPPORTED_REPLY: dict[str, str] = {
    "es": "Lo siento, por ahora esta línea solo atiende en inglés. Si quiere que un compañero le llame, diga 'a person'.",
    "fr": "Désolé, cette ligne ne répond pour l'instant qu'en anglais. Pour être rappelé par un collègue, dites 'a person'.",
    "de": "Entschuldigung, diese Leitung hilft derzeit nur auf Englisch. Für einen Rückruf sagen Sie bitte 'a person'.",
    "it": "Mi dispiace, per ora questa linea risponde solo in inglese. Per essere richiamato da un collega, dica 'a person'.",
    "pt": "Desculpe, por enquanto esta linha atende apenas em inglês. Para receber uma ligação de um colega, diga 'a person'.",
    "zh": "抱歉，本热线目前只提供英语服务。如需同事回电，请说 'a person'。",
    "ja": "申し訳ありません。この窓口は現在英語のみの対応です。折り返しのお電話をご希望の場合は 'a person' とおっしゃってください。",
    "ko": "죄송합니다. 이 상담 전화는 현재 영어로만 안내합니다. 상담원의 회신 전화를 원하시면 'a person'이라고 말씀해 주세요.",
}

_SCRIPTS = (
    ("ja", re.compile(r"[\u3040-\u30ff]")),  # kana first: Japanese also uses Han characters
    ("ko", re.compile(r"[\uac00-\ud7af]")),
    ("zh", re.compile(r"[\u4e00-\u9fff]")),
    ("ru", re.compile(r"[\u0400-\u04ff]")),
    ("ar", re.compile(r"[\u0600-\u06ff]")),
)


def detect_language(text: str, *, weak: bool = False) -> str | None:
    """An ISO 639-1 code when the text is clearly not English, else None.

    ``weak``: also on thinner evidence (one word of the language and not one English
    function word), for a turn the line could not read as English anyway (noise to the
    character model, or nothing the router can place)."""
    letters = [c for c in text if c.isalpha()]
    if len(letters) < 2:
        return None
    foreign = sum(1 for c in letters if ord(c) > 0x24F)
    if foreign / len(letters) > 0.3:
        for code, script in _SCRIPTS:
            if script.search(text):
                return code
        return "other"
    words = re.findall(r"[^\W\d_]+", text.lower())
    if len(letters) < 4 or not words:
        return None
    best, hits, counts = None, 0, {}
    for code, vocab in _FUNCTION_WORDS.items():
        n = counts[code] = sum(1 for w in words if w in vocab) + sum(1 for c in text.lower() if c in _LETTERS[code])
        if n > hits:
            best, hits = code, n
    english = sum(1 for w in words if w in _ENGLISH)
    if english > hits:
        return None  # "hallo, can you send me my invoices bitte": English, with a greeting and a please
    if hits >= 2 and hits / len(words) >= 0.2:
        if hits < _FEW_HITS:
            return _tie_break(words, best)
        # "a api está dando erro quinhentos, o que está acontecendo?": Spanish and Portuguese
        # share most function words; a close runner-up the identifier prefers is the language
        close = [c for c, n in counts.items() if c != best and 2 * n >= hits]
        return next((c for c in close if _identified(words, _SURE_WEAK) == c), best)
    # A short turn with one word of another language and not one English function word
    # ("ayer me cobraron" has "ayer"): another language, not recogniser noise.
    if weak and hits >= 1 and not english and hits / len(words) >= 0.25:
        return best
    return _second_opinion(words, hits, english, weak=weak)


# A character n-gram identifier (langid.py's model, restricted to English and the five
# languages glossed) for turns whose function words are too few to tell ("e, eh, posso
# passare al piano starter? costa meno, giusto?" has one): it decides only when it is sure,
# on a turn of a few words with at most one English function word, and (unless ``weak``)
# with a function word of some other language beside it.
_SURE, _SURE_WEAK, _MIN_WORDS = 0.95, 0.9, 3


def _second_opinion(words: list[str], hits: int, english: int, *, weak: bool) -> str | None:
    if len(words) < _MIN_WORDS or english > (1 if hits else 0) or not (hits or weak):
        return None
    return _identified(words, _SURE_WEAK if weak else _SURE)


_FEW_HITS = 4


def _tie_break(words: list[str], best: str) -> str:
    """Few function words and letters can point at the wrong one of two related languages
    ("et ça sera réparé quand?" has Portuguese's ç and é too): the identifier, when sure, decides."""
    return _identified(words, _SURE) or best


def _identified(words: list[str], sure: float) -> str | None:
    """The identifier's language other than English when its probability is at least ``sure``."""
    code, p = _identifier().classify(" ".join(words))
    return code if code != "en" and p >= sure else None


@functools.cache
def _identifier() -> LanguageIdentifier:
    ident = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)  # ~1 s: loaded once a process
    ident.set_languages(["en", *_FAREWELLS])
    return ident


def warm() -> None:
    """Load the identifier now (a process that serves calls), not on a caller's turn."""
    _identifier()


# Thanks and farewells, by language: a turn made only of these ends the call in that
# language ("merci au revoir", "vale gracias", "danke tschüss") instead of hearing, again,
# that the line speaks English.
_FAREWELLS: dict[str, frozenset[str]] = {
    # with "nothing else" in each language: "no, nada más, hasta luego"
    "es": frozenset("adiós adios gracias muchas muchísimas vale hasta luego pronto chao chau bueno perfecto muy amable buen día "
                    "nada más mas eso es todo".split()),
    "fr": frozenset("merci au revoir beaucoup bonne journée soirée salut d'accord bien parfait à bientôt la prochaine "
                    "infiniment monsieur madame rien d'autre c'est tout".split()),
    "de": frozenset("danke tschüss tschüs auf wiedersehen schönen schönes schön tag vielen dank lieben gut alles klar super bis ach naja na "
                    "dann noch wochenende nichts mehr das war's wars".split()),
    "it": frozenset("grazie arrivederci ciao mille buona giornata serata va bene perfetto tante niente altro è tutto".split()),
    "pt": frozenset("obrigado obrigada brigado brigada tchau até logo muito bom boa dia tarde noite valeu falou perfeito tá ta beleza "
                    "nada mais só isso é tudo".split()),
}
GOODBYE_REPLY: dict[str, str] = {
    "es": "Gracias por llamar. ¡Adiós!",
    "fr": "Merci de votre appel. Au revoir !",
    "de": "Danke für Ihren Anruf. Auf Wiedersehen!",
    "it": "Grazie per la chiamata. Arrivederci!",
    "pt": "Obrigado por ligar. Tchau!",
}
_FILLERS = frozenset("um uh er oh ah ok okay".split())
# At least one of these: "bueno" or "bien" alone thanks no one.
_THANKS_OR_BYE = frozenset(
    "adiós adios gracias chao chau merci revoir danke dank tschüss tschüs wiedersehen grazie arrivederci obrigado obrigada tchau "
    "valeu brigado brigada luego bientôt".split())


_NOTHING = frozenset("nada rien nichts niente".split())
_THANKED_FOR = re.compile(r"\b(gracias|merci(?:\s+beaucoup)?|grazie(?:\s+mille)?|obrigad[oa]|danke(?:\s+schön)?|vielen\s+dank|thanks|thank\s+you)"
                          r"\s+(?:por|pour|per|pel[oa]s?|für|for)\b[^,.;!?]*")
# "nein, schon gut, vergessen sie es. tschüss": the request let go, in so many words (the gloss
# read "vergessen" as a forgotten password); like "nothing", it makes the no no answer
_LET_IT_GO = re.compile(
    r"\b(?:vergessen sie (?:es|das)|vergiss (?:es|das)|schon gut|ist egal|olv[ií]dalo|d[eé]jalo|no importa|laisse[sz]? tomber"
    r"|oubliez? (?:ça|ca)|c'est pas grave|lascia(?:mo)? (?:stare|perdere)|non importa|esque[cç]a|deixa (?:pra|para) l[aá])\b")
_NO = frozenset("no nein non não nao".split())


def farewell_language(text: str, *, names_need: Callable[[str], bool] | None = None) -> str | None:
    """The language of a turn made only of its thanks and farewells, else None.

    ``names_need``: whether words name a need (the departments' glossaries know them). With it,
    a turn in another language that thanks or says goodbye and asks nothing ("merci beaucoup,
    c'est tout pour aujourd'hui", "d'accord, merci madame. au revoir") is a farewell too, whatever
    other words of courtesy it has: no closed list holds them all."""
    # "vale, gracias por la información, adiós": what is thanked for is no need
    low = _THANKED_FOR.sub(r"\1", text.lower())
    let_go = _LET_IT_GO.search(low) is not None
    words = [w for w in re.findall(r"[^\W\d_]+(?:'[^\W\d_]+)?", _LET_IT_GO.sub(" ", low)) if w not in _FILLERS]
    # English thanks beside the caller's own ("thank you, obrigada", "ok merci beaucoup"); all
    # English is English's to read, but a farewell English borrows stays the language's own
    # ("perfecto, adiós": without it, "perfecto" thanked no one)
    # "ciao" greets and takes leave: last in the turn, it takes leave ("va bene, lascia stare. ciao")
    byes = _THANKS_OR_BYE | ({"ciao"} if words and words[-1] == "ciao" else set())
    if not all(map(is_courtesy_word, words)):
        words = [w for w in words if not is_courtesy_word(w) or w in byes]
    if let_go or any(w in _NOTHING for w in words):
        # "no, nada más, hasta luego": the no says there is nothing else, not no to a question
        # ("nein, danke" to a read-back is a no: pending.declines)
        words = [w for w in words if w not in _NO]
    if not words:
        return None
    for code, vocab in _FAREWELLS.items():
        if all(w in vocab for w in words) and any(w in byes for w in words):
            return code
    if names_need is None or "?" in text or not any(w in byes for w in words):
        return None
    code = detect_language(text, weak=True)
    if code not in _FAREWELLS:
        return None
    # the courtesies of the language are no need ("à la prochaine" is no next bill)
    rest = " ".join(w for w in words if w not in _FAREWELLS[code])
    return code if not rest or not names_need(rest) else None


_BYE = frozenset("adiós adios chao chau revoir tschüss tschüs wiedersehen wiederhören arrivederci tchau".split())
# farewells of two words whose words alone are not ("hasta" and "luego" are "until", "later")
_BYE_PHRASES = re.compile(
    r"\b(?:hasta (?:luego|pronto|mañana|la próxima)|nos vemos|à bientôt|a bientot|bis bald|bis dann|"
    r"a presto|a dopo|até logo|até mais|até breve|até amanhã)\b")


def says_goodbye(text: str) -> bool:
    """A turn in another language that says goodbye outright ("ah non, tant pis, merci, au
    revoir") and asks nothing: the caller is leaving, whatever else they said first."""
    words = re.findall(r"[^\W\d_]+", text.lower())
    says = any(w in _BYE for w in words) or _BYE_PHRASES.search(text.lower()) is not None
    if "?" in text or not says:
        return False
    # "bueno, vale, gracias, hasta luego": too few of the language's function words to tell
    # it, but every word is its thanks and farewells
    return detect_language(text, weak=True) in _FAREWELLS or farewell_language(text) is not None


# A farewell in another language closing a turn: "sì va bene grazie ciao", "ja, danke, tschüss".
_FOREIGN_BYE_END = re.compile(
    r"[\s,.!]+(?:(?:gracias|merci|danke|grazie|obrigad[oa]|vielen\s+dank|muchas\s+gracias|mille)[\s,.!]+)*"
    r"(?:adi[oó]s|chao|chau|hasta\s+luego|au\s+revoir|salut|tsch[uü]ss?|auf\s+wiederh[oö]ren|auf\s+wiedersehen|arrivederci|ciao|tchau|at[eé]\s+logo)\W*$",
    re.I)


def without_foreign_bye(text: str) -> str | None:
    """The words before a farewell said in another language that ends the turn (with any thanks
    said with it), or None when the turn does not end on one."""
    found = _FOREIGN_BYE_END.search(text)
    return text[: found.start()].strip() if found is not None and found.start() > 0 else None


def english_words(text: str) -> int:
    """How many of the words English sentences can hardly do without the text has ("what plan
    am i on" has four; "le nostre chiamate api danno errore" none)."""
    return sum(1 for w in re.findall(r"[^\W\d_]+(?:'[^\W\d_]+)?", text.lower()) if w in _ENGLISH)


_ALL_FOREIGN = frozenset().union(*_FUNCTION_WORDS.values())
_FOREIGN_LETTERS = frozenset("".join(_LETTERS.values()))
_STRETCH_WORDS, _STRETCH_ENGLISH = 4, 2  # a stretch this long, with this many of English's commonest words


def english_stretches(text: str, foreign: Callable[[str], bool] = lambda _: False) -> list[tuple[int, int]]:
    """Where a sentence of another language turns to English and back ("hi zwei sachen is there an
    outage right now und bitte ...": "is there an outage right now"): spans of at least four words
    with none of another language's (its function words, its letters, or `foreign`'s) and at least
    two of English's commonest, as (start, end) offsets into ``text``."""
    spans: list[tuple[int, int]] = []
    run: list[re.Match[str]] = []
    for m in [*re.finditer(r"[^\W\d_]+(?:'[^\W\d_]+)?|\d+", text.lower()), None]:
        word = m.group(0) if m is not None else ""
        if m is not None and word not in _ALL_FOREIGN and not (set(word) & _FOREIGN_LETTERS) and not foreign(word):
            run.append(m)
            continue
        if len(run) >= _STRETCH_WORDS and sum(1 for w in run if w.group(0) in _ENGLISH) >= _STRETCH_ENGLISH:
            spans.append((run[0].start(), run[-1].end()))
        run = []
    return spans


# The words a follow-up question is built of, in the languages callers use ("¿y cuándo vence?",
# "und den Monat davor?", "e il piano pro?"): glossed with the departments' words so the gloss
# reads as the follow-up it is ("and when due", "and month before"), not as a bare topic.
FOLLOW_UP_GLOSS: dict[str, str] = {
    # and
    "y": "and", "e": "and", "et": "and", "und": "and",
    # before, the one before, previous
    "antes": "before", "anterior": "before", "davor": "before", "vorher": "before", "avant": "before",
    "précédent": "before", "précédente": "before", "prima": "before", "precedente": "before", "vorige": "before",
    "vorigen": "before", "letzte": "last", "letzten": "last", "dernier": "last", "dernière": "last", "último": "last",
    "última": "last", "ultimo": "last", "ultima": "last",
    # what, when, why, how long
    "qué": "what", "quoi": "what", "was": "what", "cosa": "what", "o que": "what",
    # who: "chi ha fatto l'accesso al mio account?" is who signed in (French "qui" is mostly "that")
    "quién": "who", "wer": "who", "chi": "who", "quem": "who",
    "cuándo": "when", "quand": "when", "wann": "when", "quando": "when",
    # where from: "¿de dónde?", "d'où ?", "de onde?", "da dove?", "woher?" after sign-ins from abroad
    "de dónde": "where from", "de donde": "where from", "d'où": "where from", "de onde": "where from",
    "da dove": "where from", "woher": "where from", "dónde": "where", "où": "where", "dove": "where", "onde": "where",
    "por qué": "why", "pourquoi": "why", "warum": "why", "wieso": "why", "perché": "why", "por que": "why",
    "cuánto tiempo": "how long", "combien de temps": "how long", "wie lange": "how long", "quanto tempo": "how long",
    # what to do: "¿y qué hago?", "qu'est-ce que je fais ?", "was mache ich jetzt?"
    "hago": "do i do", "hacemos": "do we do", "hacer": "do", "fais": "do i do", "faisons": "do we do", "faire": "do",
    "mache": "do i do", "machen": "do we do", "tun": "do", "faccio": "do i do", "facciamo": "do we do", "fare": "do",
    "faço": "do i do", "fazemos": "do we do", "fazer": "do",
    # what should I do: "e cosa devo fare?", "¿qué debo hacer?", "que dois-je faire ?", "was soll ich tun?"
    # (a bare "debo", "devo" is also what is owed: billing's glossary reads it so, these only as a whole)
    "qué debo hacer": "what should i do", "que debo hacer": "what should i do", "cosa devo fare": "what should i do",
    "che devo fare": "what should i do", "o que devo fazer": "what should i do", "que dois-je faire": "what should i do",
    "dovrei": "should i", "debería": "should i", "dois-je": "should i", "devrais": "should i", "soll ich": "should i",
    "sollte ich": "should i", "sollen wir": "should we", "muss ich": "should i",
    # and if, what if
    "y si": "and if", "et si": "and if", "und wenn": "and if", "e se": "and if",
}
