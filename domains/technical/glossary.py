"""Technical support's words in Spanish, French, German, Italian and Portuguese, glossed to the
English the router reads (meta/gist.py)."""

from __future__ import annotations

GLOSSARY: dict[str, str] = {
    "caída": "outage", "caida": "outage", "panne": "outage", "ausfall": "outage", "ausgefallen": "down",
    "guasto": "outage", "interruzione": "outage", "queda": "outage", "fora do ar": "down",
    "en panne": "down", "caído": "down", "caido": "down", "funciona": "working", "fonctionne": "working",
    "funktioniert": "working", "funziona": "working",
    "servicio": "service", "service": "service", "dienst": "service", "servizio": "service", "serviço": "service",
    "api": "api", "errores": "errors", "erreurs": "errors", "fehler": "errors", "errori": "errors", "erros": "errors",
    "incidente": "incident", "incident": "incident", "störung": "incident",
    "ahora": "right now", "maintenant": "right now", "en ce moment": "right now", "gerade": "right now",
    "adesso": "right now", "agora": "right now",
    # failing calls, and why
    "fallan": "failing", "falla": "fails", "fallando": "failing", "échouent": "failing", "échoue": "fails",
    "schlagen fehl": "failing", "fehlgeschlagen": "failed", "falliscono": "failing", "fallisce": "fails",
    "falham": "failing", "falhando": "failing", "error": "error", "errore": "error", "erro": "error",
    "llamadas": "calls", "appels": "calls", "aufrufe": "calls", "anfragen": "requests", "chiamate": "calls",
    "chamadas": "calls", "requisições": "requests",
    "por qué": "why", "pourquoi": "why", "warum": "why", "perché": "why", "por que": "why",
    # trouble in the past: "gab es letzte woche probleme mit den webhooks?"
    "problemas": "problems", "problèmes": "problems", "probleme": "problems", "problemi": "problems",
    "webhooks": "webhooks", "webhook": "webhook",
    # "est-ce que l'api a un problème en ce moment": a question whether something is wrong now
    "problème": "problem", "problema": "problem", "est-ce que": "is", "est-ce qu'": "is",
    "a un problème": "having problems", "tiene un problema": "having problems", "hat ein problem": "having problems",
    "ha un problema": "having problems", "tem um problema": "having problems", "está com problema": "having problems",
    # set-up help: "como eu configuro webhooks?", "comment configurer les webhooks"
    "configuro": "set up", "configurar": "set up", "configurer": "set up", "configurare": "set up",
    "configuriamo": "set up", "einrichten": "set up", "konfigurieren": "set up", "configuração": "set up",
    "como": "how", "comment": "how", "wie": "how", "come": "how", "cómo": "how",
    # what set-up help is about: the guides' own words (integration_help.py)
    "paginación": "pagination", "paginacion": "pagination", "pagination": "pagination", "paginierung": "pagination",
    "paginazione": "pagination", "paginação": "pagination", "paginacao": "pagination",
    "autenticación": "authentication", "autenticacion": "authentication", "authentification": "authentication",
    "authentifizierung": "authentication", "autenticazione": "authentication", "autenticação": "authentication",
    "firma": "signature", "signature": "signature", "signatur": "signature", "assinatura": "signature",
    "sdk": "sdk", "python": "python", "node": "node", "cursor": "cursor", "curseur": "cursor",
    "clave api": "api key", "clé api": "api key", "clé d'api": "api key", "api-schlüssel": "api key",
    "api schlüssel": "api key", "chiave api": "api key", "chave de api": "api key", "chave da api": "api key",
    "retraso": "delayed", "retrasados": "delayed", "en retard": "late", "spät": "late", "verspätet": "delayed",
    "in ritardo": "late", "ritardo": "delay", "atrasados": "delayed", "atraso": "delay",
    "semana pasada": "last week", "semaine dernière": "last week", "letzte woche": "last week",
    "settimana scorsa": "last week", "semana passada": "last week",
    "hoy": "today", "aujourd'hui": "today", "heute": "today", "oggi": "today", "hoje": "today",
}
