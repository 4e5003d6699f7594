"""Account's words in Spanish, French, German, Italian and Portuguese, glossed to the English the
router reads (meta/gist.py)."""

from __future__ import annotations

GLOSSARY: dict[str, str] = {
    "contraseña": "password", "contrasena": "password", "mot de passe": "password", "passwort": "password",
    "kennwort": "password", "password": "password", "senha": "password",
    "cuenta": "account", "compte": "account", "konto": "account", "conto": "account", "conta": "account",
    "bloqueada": "locked", "bloqué": "locked", "bloquée": "locked", "gesperrt": "locked", "bloccato": "locked",
    "entrar": "sign in", "connecter": "sign in", "anmelden": "sign in", "accedere": "sign in",
}
