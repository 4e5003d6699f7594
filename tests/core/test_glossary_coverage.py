"""The departments' glossaries cover what callers ask in Spanish, French, German, Italian and
Portuguese: each question's gloss names its need in English, and the shipped router picks the
right specialist from the gloss (meta/gist.py)."""

from __future__ import annotations

from functools import lru_cache

import pytest

from callcenter.settings import Settings
from domains import registry
from meta import gist
from meta.router import build_router

# (language, caller's words, English the gloss must hold, specialist)
QUESTIONS: list[tuple[str, str, tuple[str, ...], str]] = [
    # --- Spanish
    ("es", "hola, cuanto debo este mes?", ("how much", "owe", "this month"), "billing/balance"),
    ("es", "eh, necesito una copia de la última factura", ("copy", "last", "invoice"), "billing/invoices"),
    ("es", "me cobraron dos veces en la tarjeta", ("charged", "twice", "card"), "billing/refund"),
    ("es", "cómo va mi reembolso? todavía no me llega", ("status of", "refund", "still"), "billing/refund_status"),
    ("es", "quiero cambiar de plan a uno mas barato", ("change plan", "cheaper"), "billing/plan_change"),
    ("es", "las llamadas a la api fallan desde esta mañana", ("api calls", "failing", "since this morning"),
     "technical/api_errors"),
    ("es", "oiga, el servicio está caído? no funciona nada", ("service", "down", "not working"), "technical/service_status"),
    ("es", "como configuro los webhooks", ("how", "set up", "webhooks"), "technical/integration_help"),
    ("es", "pueden escalar el caso a los ingenieros", ("escalate", "case", "engineers"), "technical/escalation"),
    ("es", "donde esta mi ticket, cuando lo arreglan", ("where is", "ticket", "when", "fixed"), "technical/ticket_status"),
    ("es", "olvidé mi contraseña y no puedo entrar", ("forgot", "password", "can't log in"), "account/login_help"),
    ("es", "creo que me hackearon la cuenta, hay accesos sospechosos", ("hacked", "account", "suspicious sign-ins"),
     "account/security"),
    ("es", "quiero cambiar mi dirección de correo electronico", ("change", "address", "email"), "account/profile_update"),
    ("es", "quiero cerrar mi cuenta y borrar mis datos", ("close my account", "delete", "my data"), "account/close_account"),
    ("es", "perdí mi teléfono y no tengo el código de verificación", ("lost my phone", "verification code"),
     "account/two_factor_reset"),
    # --- French
    ("fr", "euh, combien je dois ce mois-ci", ("how much", "i owe", "this month"), "billing/balance"),
    ("fr", "pouvez-vous me renvoyer la facture du mois dernier", ("resend", "invoice", "last month"), "billing/invoices"),
    ("fr", "j'ai ete debite deux fois, je veux etre rembourse", ("charged", "twice", "a refund"), "billing/refund"),
    ("fr", "mon remboursement, il en est où ? toujours pas reçu", ("refund", "status of", "still haven't"),
     "billing/refund_status"),
    ("fr", "je voudrais passer au forfait pro", ("switch to", "plan", "pro"), "billing/plan_change"),
    ("fr", "nos appels api échouent avec une erreur 500", ("api calls", "failing", "error 500"), "technical/api_errors"),
    ("fr", "est-ce que le service est en panne en ce moment", ("service", "down", "right now"), "technical/service_status"),
    ("fr", "comment configurer les webhooks avec le sdk python", ("how", "set up", "webhooks", "sdk"),
     "technical/integration_help"),
    ("fr", "il faut faire remonter ce bug aux ingénieurs", ("escalate", "bug", "engineers"), "technical/escalation"),
    ("fr", "mon ticket, ça en est où ? quand est-ce que ce sera corrige", ("ticket", "status of", "when", "fixed"),
     "technical/ticket_status"),
    ("fr", "j'ai oublié mon mot de passe, je n'arrive pas à me connecter", ("forgot", "password", "can't log in"),
     "account/login_help"),
    ("fr", "il y a des connexions suspectes sur mon compte", ("suspicious sign-ins", "my account"), "account/security"),
    ("fr", "je dois mettre a jour mon numéro de téléphone", ("update", "phone number"), "account/profile_update"),
    ("fr", "je veux supprimer mon compte definitivement", ("delete", "my account", "permanently"), "account/close_account"),
    ("fr", "j'ai un nouveau téléphone et je ne reçois plus les codes de la double authentification",
     ("new phone", "codes", "two-factor authentication"), "account/two_factor_reset"),
    # --- German
    ("de", "wie viel schulde ich noch diesen monat", ("how much", "owe", "this month"), "billing/balance"),
    ("de", "können sie mir die letzte rechnung noch mal schicken", ("last", "invoice", "send"), "billing/invoices"),
    ("de", "mir wurde doppelt abgebucht, ich möchte eine rückerstattung", ("double", "charged", "refund"),
     "billing/refund"),
    ("de", "wie ist der stand meiner erstattung, ich warte immer noch", ("status of", "refund", "waiting", "still"),
     "billing/refund_status"),
    ("de", "ich möchte meinen tarif wechseln, etwas guenstiger", ("change plan", "cheaper"), "billing/plan_change"),
    ("de", "unsere API-Aufrufe schlagen fehl seit heute morgen", ("api calls", "failing", "since this morning"),
     "technical/api_errors"),
    ("de", "ist der dienst gerade ausgefallen? die plattform lädt nicht", ("service", "down", "not loading"),
     "technical/service_status"),
    ("de", "wie kann ich die webhooks einrichten", ("how", "set up", "webhooks"), "technical/integration_help"),
    ("de", "bitte eskalieren sie das an die ingenieure", ("escalate", "engineers"), "technical/escalation"),
    ("de", "mein ticket, wann wird das behoben", ("ticket", "when", "fixed"), "technical/ticket_status"),
    ("de", "ich habe mein passwort vergessen und kann mich nicht anmelden", ("password", "forgot", "can't log in"),
     "account/login_help"),
    ("de", "es gibt verdaechtige anmeldungen, ich glaube mein konto wurde gehackt",
     ("suspicious sign-ins", "my account", "hacked"), "account/security"),
    ("de", "ich möchte meine adresse ändern, ich bin umgezogen", ("address", "change", "moved"), "account/profile_update"),
    ("de", "ich will mein konto kündigen und alle daten löschen", ("my account", "cancel", "data", "delete"),
     "account/close_account"),
    ("de", "ich habe mein handy verloren und keinen zugriff auf die zwei-faktor codes",
     ("lost my phone", "two factor", "codes"), "account/two_factor_reset"),
    # --- Italian
    ("it", "quanto devo pagare questo mese", ("how much do i owe", "pay", "this month"), "billing/balance"),
    ("it", "mi serve una copia della fattura del mese scorso", ("copy", "invoice", "last month"), "billing/invoices"),
    ("it", "mi avete addebitato due volte, voglio un rimborso", ("charged", "twice", "refund"), "billing/refund"),
    ("it", "a che punto e il mio rimborso? non ho ricevuto niente", ("status of", "refund", "haven't received"),
     "billing/refund_status"),
    ("it", "vorrei passare al piano enterprise", ("switch to", "plan", "enterprise"), "billing/plan_change"),
    ("it", "le chiamate api falliscono con errore 401", ("api calls", "failing", "error", "401"), "technical/api_errors"),
    ("it", "il servizio è giù? la piattaforma non funziona", ("service", "is down", "platform", "not working"),
     "technical/service_status"),
    ("it", "come faccio a configurare i webhook", ("how do i", "set up", "webhook"), "technical/integration_help"),
    ("it", "potete inoltrare la pratica agli ingegneri", ("escalate", "case", "engineers"), "technical/escalation"),
    ("it", "a che punto è il mio ticket, quando sarà risolto", ("status of", "ticket", "when", "resolved"),
     "technical/ticket_status"),
    ("it", "ho dimenticato la password e non riesco ad accedere", ("forgot", "password", "can't log in"),
     "account/login_help"),
    ("it", "ci sono accessi sospetti sul mio account", ("suspicious sign-ins", "my account"), "account/security"),
    ("it", "devo aggiornare il mio indirizzo email", ("update", "email address"), "account/profile_update"),
    ("it", "voglio chiudere l'account e cancellare tutto", ("close my account", "delete"), "account/close_account"),
    ("it", "ho perso il telefono e non ricevo i codici dell'autenticazione a due fattori",
     ("lost my phone", "not getting", "codes", "two-factor authentication"), "account/two_factor_reset"),
    # --- Portuguese
    ("pt", "quanto devemos este mês", ("how much do we owe", "this month"), "billing/balance"),
    ("pt", "preciso de uma cópia da fatura e do recibo", ("copy", "invoice", "receipt"), "billing/invoices"),
    ("pt", "voces me cobraram duas vezes no cartão", ("charged", "twice", "card"), "billing/refund"),
    ("pt", "como está o meu reembolso? ainda nao recebi", ("status of", "refund", "still haven't"), "billing/refund_status"),
    ("pt", "quero mudar de plano para um mais barato", ("change plan", "cheaper"), "billing/plan_change"),
    ("pt", "as chamadas da api estão falhando desde ontem", ("api calls", "failing", "since yesterday"),
     "technical/api_errors"),
    ("pt", "o serviço caiu? a plataforma está fora do ar", ("service", "down", "platform"), "technical/service_status"),
    ("pt", "como eu configuro webhooks na integração", ("how", "set up", "webhooks", "integration"),
     "technical/integration_help"),
    ("pt", "quero escalar o chamado para os engenheiros", ("escalate", "ticket", "engineers"), "technical/escalation"),
    ("pt", "qual o status do meu chamado, quando vai ser resolvido", ("status", "ticket", "when", "resolved"),
     "technical/ticket_status"),
    ("pt", "esqueci a senha e não consigo entrar", ("forgot", "password", "can't log in"), "account/login_help"),
    ("pt", "acho que minha conta foi invadida, tem acessos suspeitos", ("my account", "hacked", "suspicious sign-ins"),
     "account/security"),
    ("pt", "quero atualizar meu endereço e telefone", ("update", "address", "phone"), "account/profile_update"),
    ("pt", "quero encerrar minha conta definitivamente", ("close my account", "permanently"), "account/close_account"),
    ("pt", "troquei de celular e perdi o autenticador", ("new phone", "lost", "authenticator"), "account/two_factor_reset"),
]
LANGUAGES = ("es", "fr", "de", "it", "pt")
ROUTED = 0.8  # of each language's questions, at least this share goes to the right specialist


def _gloss(text: str) -> str:
    return gist.gloss(text, gist.glossaries(registry.DOMAINS))


@lru_cache(maxsize=1)
def _router():  # type: ignore[no-untyped-def]
    return build_router(Settings())


def _picked(text: str) -> str | None:
    intents = _router().detect(_gloss(text))
    return max(intents, key=lambda i: i.confidence).label if intents else None


@pytest.mark.parametrize(("language", "text", "english", "label"), QUESTIONS, ids=[q[1][:40] for q in QUESTIONS])
def test_foreign_gloss_names_the_need(language: str, text: str, english: tuple[str, ...], label: str) -> None:
    glossed = f" {_gloss(text)} "
    for words in english:
        assert f" {words} " in glossed, f"{language}: {text!r} glossed {glossed.strip()!r}, without {words!r}"


def test_foreign_questions_cover_every_language_and_department() -> None:
    for language in LANGUAGES:
        for domain in ("billing", "technical", "account"):
            asked = [q for q in QUESTIONS if q[0] == language and q[3].startswith(f"{domain}/")]
            assert len(asked) >= 3, (language, domain)


@pytest.mark.parametrize("language", LANGUAGES)
def test_foreign_gloss_routes_to_the_specialist(language: str) -> None:
    asked = [q for q in QUESTIONS if q[0] == language]
    wrong = [(text, _gloss(text), _picked(text), label) for _, text, _, label in asked if _picked(text) != label]
    assert len(asked) - len(wrong) >= ROUTED * len(asked), wrong


def test_gloss_keys_mean_one_thing_across_departments() -> None:
    seen: dict[str, tuple[str, str]] = {}
    clashes = []
    for domain in registry.DOMAINS:
        for foreign, english in (domain.glossary or {}).items():
            if foreign in seen and seen[foreign][1] != english:
                clashes.append((foreign, seen[foreign], (domain.name, english)))
            seen.setdefault(foreign, (domain.name, english))
    assert not clashes


def test_gloss_keeps_out_english_words_of_another_meaning() -> None:
    for domain in registry.DOMAINS:
        keys = set(domain.glossary or {})
        assert not keys & {"come", "also", "die", "pour", "fin", "son", "once", "have", "mes", "hier", "handy", "fall"}
