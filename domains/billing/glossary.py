"""Billing's words in Spanish, French, German, Italian and Portuguese, glossed to the English
the router reads (meta/gist.py). Only for understanding a question; nothing acts on a gloss."""

from __future__ import annotations

GLOSSARY: dict[str, str] = {
    # what is owed, the next bill
    "debo": "owe", "deber": "owe", "dois": "owe", "devo": "owe", "schulde": "owe", "schulden": "owe",
    "pagar": "pay", "payer": "pay", "bezahlen": "pay", "zahlen": "pay", "pagare": "pay",
    "saldo": "balance", "solde": "balance", "kontostand": "balance",
    "cuánto": "how much", "cuanto": "how much", "combien": "how much", "wie viel": "how much", "wieviel": "how much",
    "quanto": "how much", "quánto": "how much",
    "próxima": "next", "proxima": "next", "prochaine": "next", "nächste": "next", "prossima": "next", "prossimo": "next",
    "este mes": "this month", "mois": "month", "monat": "month", "mese": "month", "mês": "month",
    # invoices
    "factura": "invoice", "facturas": "invoices", "facture": "invoice", "factures": "invoices",
    "rechnung": "invoice", "rechnungen": "invoices", "fattura": "invoice", "fatture": "invoices",
    "fatura": "invoice", "faturas": "invoices", "recibo": "receipt", "reçu": "receipt", "quittung": "receipt",
    # charges and refunds
    "cobraron": "charged", "cobrado": "charged", "débité": "charged", "abgebucht": "charged", "addebitato": "charged",
    "cobrança": "charge", "cobro": "charge", "prélèvement": "charge",
    "dos veces": "twice", "deux fois": "twice", "zweimal": "twice", "due volte": "twice", "duas vezes": "twice",
    "reembolso": "refund", "remboursement": "refund", "rückerstattung": "refund", "rimborso": "refund",
    "plan": "plan", "plano": "plan", "piano": "plan", "tarif": "plan", "abonnement": "subscription",
    # the next bill and what a plan costs: "quand arrive ma prochaine facture et combien"
    "prochaine facture": "next bill", "próxima factura": "next bill", "nächste rechnung": "next bill",
    "prossima fattura": "next bill", "próxima fatura": "next bill",
    "costa": "cost", "cuesta": "cost", "coûte": "cost", "kostet": "cost", "custa": "cost",
    "al mes": "per month", "par mois": "per month", "pro monat": "per month", "al mese": "per month",
    "por mês": "per month", "pago": "pay", "quand": "when", "cuándo": "when", "wann": "when",
    "última": "last", "ultima": "last", "letzte": "last", "dernière": "last",
    "copia": "copy", "copie": "copy", "kopie": "copy", "cópia": "copy",
    # the bill that comes next: "quando arriva la prossima bolletta", "quando scade"
    "bolletta": "bill", "bollette": "bills", "scade": "due", "quando": "when", "cuando": "when",
    # what a plan costs: "quel est le prix du plan enterprise", "quanto custa o plano pro"
    "prix": "price", "precio": "price", "preis": "price", "prezzo": "price", "preço": "price", "preco": "price",
    # the plans' own names are said as they are in every language
    "starter": "starter", "pro": "pro", "enterprise": "enterprise",
}
