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
}
