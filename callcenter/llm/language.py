"""Which language is the caller speaking, when it is not English?

The line serves English only; a caller who speaks another language should hear that in
their own language, with the offer of a call back. Detection is by script (Han, kana,
Hangul, Cyrillic, Arabic) and by the frequent function words of the languages callers
most often try, which English text does not contain.
"""

from __future__ import annotations

import re

_FUNCTION_WORDS: dict[str, frozenset[str]] = {
    "es": frozenset("quiero necesito tengo por los las una usted para pero cuenta mi el es hola ayuda mi factura buenos dias cerrar".split()),
    "fr": frozenset("je tu il nous vous est les des une pour avec mais pas que qui dans sur mon ma mes votre bonjour voudrais compte".split()),
    "de": frozenset("ich nicht und der die das ist mein meine bitte ein eine sie wir mit auf habe frage rechnung guten tag".split()),
    "it": frozenset("io non sono della questo il mio perché ciao vorrei grazie conto".split()),
    "pt": frozenset("eu não obrigado minha conta preciso você olá".split()),
}

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


def detect_language(text: str) -> str | None:
    """An ISO 639-1 code when the text is clearly not English, else None."""
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
    best, hits = None, 0
    for code, vocab in _FUNCTION_WORDS.items():
        n = sum(1 for w in words if w in vocab)
        if n > hits:
            best, hits = code, n
    if hits >= 2 and hits / len(words) >= 0.2:
        return best
    return None
