"""Account's words in Spanish, French, German, Italian and Portuguese, glossed to the English the
router reads (meta/gist.py)."""

from __future__ import annotations

GLOSSARY: dict[str, str] = {
    "contraseña": "password", "contrasena": "password", "mot de passe": "password", "passwort": "password",
    "kennwort": "password", "password": "password", "senha": "password",
    "cuenta": "account", "compte": "account", "konto": "account", "conto": "account", "conta": "account",
    "bloqueada": "locked", "bloqué": "locked", "bloquée": "locked", "gesperrt": "locked", "bloccato": "locked",
    "entrar": "sign in", "connecter": "sign in", "anmelden": "sign in", "accedere": "sign in",
    # sign-ins someone else tried: "¿alguien intentó entrar a mi cuenta desde rumania?"
    # someone alone is not glossed: "hablar con alguien" asks for a person
    "alguien intentó": "someone tried to", "quelqu'un a essayé": "someone tried to", "jemand hat versucht": "someone tried to",
    "qualcuno ha provato": "someone tried to", "alguém tentou": "someone tried to",
    "intentó": "tried to", "intento": "tried to", "essayé": "tried to", "versucht": "tried to", "provato": "tried to",
    "tentou": "tried to", "desde": "from",
    "iniciar sesión": "sign in", "einloggen": "log in", "login": "login",
    "rumania": "romania", "rumanía": "romania", "roumanie": "romania", "rumänien": "romania", "romania": "romania",
    "romênia": "romania", "roménia": "romania",
}
