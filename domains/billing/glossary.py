"""Billing's words in Spanish, French, German, Italian and Portuguese, glossed to the English
the router reads (meta/gist.py). Only for understanding a question; nothing acts on a gloss.

Grouped by need, one line a language where a group is long (es, fr, de, it, pt). Callers type
without accents ("cuanto debo", "a che punto e"): every key is also known without them, and
German's umlauts also as ae/oe/ue ("rueckerstattung"); see `domains.glossary_words.typed_plainly`."""

from __future__ import annotations

from domains.glossary_words import typed_plainly

_WORDS: dict[str, str] = {
    # what is owed: "cuánto debo", "combien je dois", "was schulde ich", "quanto devo", "quanto devemos"
    # (bare "debe", "doit", "devo", "devemos" are also "must", Portuguese "dois" is "two": only in a question of owing)
    "debo": "owe", "deber": "owe", "adeudo": "owe", "cuánto debe": "how much do i owe",
    "cuánto debemos": "how much do we owe", "lo que debo": "what i owe", "lo que debemos": "what we owe",
    "combien je dois": "how much do i owe", "combien dois-je": "how much do i owe",
    "je vous dois": "i owe you", "on vous doit": "we owe you", "nous vous devons": "we owe you",
    "combien on doit": "how much do we owe", "combien nous devons": "how much do we owe", "ce que je dois": "what i owe",
    "schulde": "owe", "schulden": "owe", "schuldet": "owe", "was bin ich schuldig": "what do i owe",
    "quanto devo": "how much do i owe", "quanto dobbiamo": "how much do we owe",
    "quanto deve": "how much do i owe", "quanto devemos": "how much do we owe", "o que devo": "what i owe",
    "quanto eu devo": "how much do i owe", "quanto é que eu devo": "how much do i owe", "quanto é que devo": "how much do i owe",
    "cuánto es lo que debo": "how much do i owe", "quanto é que nós devemos": "how much do we owe", "quanto le devo": "how much do i owe", "devo ancora": "still owe",
    # the balance, what is left and outstanding
    "saldo": "balance", "solde": "balance", "kontostand": "balance", "guthaben": "balance",
    "balance": "balance", "el balance": "the balance",  # "el balance de mi cuenta": Spanish says it too
    "saldo pendiente": "outstanding balance", "pendiente de pago": "outstanding", "queda por pagar": "left to pay",
    "reste à payer": "left to pay", "impayé": "outstanding", "impayée": "outstanding", "impayés": "outstanding",
    "offener betrag": "outstanding amount", "offene rechnung": "outstanding bill", "offene rechnungen": "outstanding bills",
    "offenen betrag": "outstanding amount", "insoluto": "outstanding", "da pagare": "to pay", "residuo": "left",
    "em aberto": "outstanding", "saldo devedor": "outstanding balance", "falta pagar": "left to pay",
    # amounts and totals
    "importe": "amount", "monto": "amount", "montant": "amount", "betrag": "amount", "summe": "total",
    "importo": "amount", "valor": "amount", "total": "total", "totale": "total",
    "cuánto": "how much", "cuanto": "how much", "combien": "how much", "wie viel": "how much", "wieviel": "how much",
    "quanto": "how much", "quánto": "how much",
    # paying, paid, payments
    "pagar": "pay", "pagarlo": "pay it", "pagarla": "pay it", "payer": "pay", "bezahlen": "pay", "zahlen": "pay", "pagare": "pay", "pago": "pay",
    "pagué": "paid", "pagado": "paid", "pagamos": "paid", "payé": "paid", "payée": "paid", "bezahlt": "paid",
    "gezahlt": "paid", "pagato": "paid", "pagata": "paid", "paguei": "paid", "pagou": "paid",
    "pagos": "payments", "paiement": "payment", "paiements": "payments", "zahlung": "payment", "zahlungen": "payments",
    "pagamento": "payment", "pagamenti": "payments", "pagamentos": "payments",
    # when it is due: "cuándo vence", "date d'échéance", "wann ist sie fällig", "quando scade", "quando vence"
    "vence": "due", "vencimiento": "due date", "fecha de pago": "due date", "échéance": "due date",
    "à payer avant": "due by", "fällig": "due", "fälligkeit": "due date", "fälligkeitsdatum": "due date",
    "scade": "due", "scadenza": "due date", "vencimento": "due date",
    "quand": "when", "cuándo": "when", "cuando": "when", "wann": "when", "quando": "when",
    # the next bill, this month and last
    "próxima": "next", "proxima": "next", "próximo": "next", "siguiente": "next", "prochaine": "next", "prochain": "next",
    "nächste": "next", "nächsten": "next", "nächster": "next", "prossima": "next", "prossimo": "next",
    "prochaine facture": "next bill", "próxima factura": "next bill", "nächste rechnung": "next bill",
    "prossima fattura": "next bill", "próxima fatura": "next bill",
    "este mes": "this month", "ce mois": "this month", "ce mois-ci": "this month", "diesen monat": "this month",
    "questo mese": "this month", "este mês": "this month", "esse mês": "this month",
    "mes pasado": "last month", "mois dernier": "last month", "letzten monat": "last month", "mese scorso": "last month",
    "mês passado": "last month", "mois": "month", "monat": "month", "mese": "month", "mês": "month",
    "al mes": "per month", "par mois": "per month", "pro monat": "per month", "al mese": "per month", "por mês": "per month",
    "última": "last", "ultima": "last", "letzte": "last", "dernière": "last", "dernier": "last", "ultimo": "last",
    "último": "last",
    # invoices and bills
    "factura": "invoice", "facturas": "invoices", "facture": "invoice", "factures": "invoices",
    "rechnung": "invoice", "rechnungen": "invoices", "fattura": "invoice", "fatture": "invoices",
    "fatura": "invoice", "faturas": "invoices", "bolletta": "bill", "bollette": "bills", "conta de luz": "bill",
    # receipts and statements
    "recibo": "receipt", "recibos": "receipts", "comprobante": "receipt", "comprobantes": "receipts",
    "reçu": "receipt", "reçus": "receipts", "quittung": "receipt", "quittungen": "receipts", "beleg": "receipt",
    "belege": "receipts", "ricevuta": "receipt", "ricevute": "receipts", "comprovante": "receipt",
    "comprovantes": "receipts", "estado de cuenta": "statement", "relevé": "statement", "kontoauszug": "statement",
    "abrechnung": "statement", "estratto conto": "statement", "extrato": "statement",
    # the history of payments, a copy sent again, downloaded for the accountant
    "historial": "history", "historial de pagos": "payment history", "historique": "history", "verlauf": "history",
    "zahlungsverlauf": "payment history", "storico": "history", "histórico": "history",
    "copia": "copy", "copie": "copy", "kopie": "copy", "cópia": "copy",
    "enviar": "send", "envíen": "send", "envíenme": "send me", "mandar": "send", "mándenme": "send me",
    "reenviar": "resend", "envoyer": "send", "renvoyer": "resend", "senden": "send", "schicken": "send",
    "zuschicken": "send", "erneut senden": "resend", "inviare": "send", "mandare": "send", "rimandare": "resend",
    "reinviare": "resend", "inviarmi": "send me", "mandem": "send",
    "descargar": "download", "télécharger": "download", "herunterladen": "download", "runterladen": "download",
    "scaricare": "download", "baixar": "download",
    "contador": "accountant", "contable": "accountant", "comptable": "accountant", "steuerberater": "accountant",
    "buchhalter": "accountant", "buchhaltung": "accountant", "commercialista": "accountant", "contabilista": "accountant",
    "encontrar": "find", "encuentro": "find", "trouver": "find", "trouve": "find", "finden": "find", "finde": "find",
    "trovare": "find", "trovo": "find", "encontro": "find",
    # a charge: "me cobraron dos veces", "j'ai été débité deux fois", "doppelt abgebucht"
    "cobraron": "charged", "cobrado": "charged", "cobró": "charged", "cobrada": "charged", "cobran": "charge",
    "cobro": "charge", "cobros": "charges", "cargo": "charge", "cargos": "charges",
    "débité": "charged", "débitée": "charged", "débités": "charged", "prélevé": "charged", "prélevée": "charged",
    "facturé": "billed", "facturée": "billed", "prélèvement": "charge", "prélèvements": "charges",
    "abgebucht": "charged", "belastet": "charged", "berechnet": "charged", "abbuchung": "charge",
    "abbuchungen": "charges", "lastschrift": "charge",
    "addebitato": "charged", "addebitata": "charged", "addebitati": "charged", "addebito": "charge", "addebiti": "charges",
    "cobraram": "charged", "cobrou": "charged", "cobrança": "charge", "cobranças": "charges",
    # charged twice, a duplicate, a charge not recognised
    "dos veces": "twice", "deux fois": "twice", "zweimal": "twice", "due volte": "twice", "duas vezes": "twice",
    "doble": "double", "duplicado": "duplicate", "duplicada": "duplicate", "en double": "double", "doublon": "duplicate",
    "doppelt": "double", "doppio": "double", "duplicato": "duplicate", "em dobro": "double",
    "no reconozco": "don't recognize", "je ne reconnais pas": "don't recognize", "kenne ich nicht": "don't recognize",
    "non riconosco": "don't recognize", "não reconheço": "don't recognize",
    # the card and the money
    "tarjeta": "card", "carte": "card", "carte bancaire": "card", "karte": "card", "kreditkarte": "credit card",
    "carta": "card", "carta di credito": "credit card", "cartão": "card", "cartão de crédito": "credit card",
    "tarjeta de crédito": "credit card", "carte de crédit": "credit card",
    "dinero": "money", "mi dinero": "my money", "argent": "money", "mon argent": "my money", "geld": "money",
    "mein geld": "my money", "soldi": "money", "denaro": "money", "dinheiro": "money", "meu dinheiro": "my money",
    "geld zurück": "money back", "de volta": "back", "devuelvan": "refund", "devolver": "refund", "devolución": "refund",
    # less: "je veux payer moins chaque mois", "vorrei spendere meno" (not "too dear": said as often
    # as a reason to leave, "ah, troppo caro per noi, grazie, arrivederci")
    "moins": "less", "menos": "less", "meno": "less", "weniger": "less", "chaque": "every", "ogni": "every", "cada": "every",
    # (but "más o menos", "plus ou moins": roughly, no amount at all)
    "más o menos": "roughly", "mas o menos": "roughly", "plus ou moins": "roughly", "mehr oder weniger": "roughly",
    "più o meno": "roughly", "mais ou menos": "roughly", "au moins": "at least", "al menos": "at least", "almeno": "at least",
    "pelo menos": "at least", "mindestens": "at least",
    "spendere": "spend", "gastar": "spend", "dépenser": "spend", "ausgeben": "spend",
    # a plan above or below: "passer au plan supérieur", "un piano più basso"
    "supérieur": "higher", "superior": "higher", "superiore": "higher", "höheren": "higher", "höher": "higher",
    "inférieur": "lower", "inferior": "lower", "inferiore": "lower", "più basso": "lower", "más bajo": "lower",
    "plus bas": "lower", "mais baixo": "lower", "niedrigeren": "lower",
    "plan supérieur": "higher plan", "piano superiore": "higher plan",
    "plano superior": "higher plan", "höheren tarif": "higher plan", "plan inférieur": "lower plan",
    "piano inferiore": "lower plan", "plano inferior": "lower plan", "niedrigeren tarif": "lower plan",
    # the money a figure is in: "vingt dollars de remboursement", "veinte dólares", "zwanzig dollar"
    # (without it "20" is no amount, and a part asked back would be read as the whole)
    "dollars": "dollars", "dólares": "dollars", "dollar": "dollars", "dollari": "dollars", "dólar": "dollars",
    # money back asked after: "ya me devolvieron el dinero", "vous m'avez déjà remboursé"
    "ya me devolvieron": "have you already refunded", "ya me han devuelto": "have you already refunded",
    "déjà remboursé": "already refunded", "schon erstattet": "already refunded", "già rimborsato": "already refunded",
    "já me devolveram": "have you already refunded",
    # a refund: "quiero un reembolso", "je veux être remboursé", "ich möchte eine erstattung"
    "reembolso": "refund", "reembolsos": "refunds", "reembolsar": "refund", "reembolsen": "refund",
    "reembolsado": "refunded", "remboursement": "refund", "remboursements": "refunds", "rembourser": "refund",
    "remboursé": "refunded", "remboursée": "refunded", "remboursez": "refund", "rückerstattung": "refund",
    # "je voudrais être remboursée": asked to be refunded, not told it was
    "être remboursé": "a refund", "être remboursée": "a refund", "être remboursés": "a refund",
    "ser reembolsado": "a refund", "ser reembolsada": "a refund", "essere rimborsato": "a refund", "essere rimborsati": "a refund",
    # a credit for the outage: "ich möchte eine gutschrift"
    "gutschrift": "credit", "entschädigung": "compensation",
    # "je veux un avoir" (a credit note; bare "avoir" is "to have"), "un crédito", "un risarcimento"
    "möchte eine gutschrift": "want a credit", "möchten eine gutschrift": "want a credit", "wollen eine gutschrift": "want a credit",
    "je veux un avoir": "want a credit", "voudrais un avoir": "want a credit", "quiero un crédito": "want a credit",
    "queremos un crédito": "want a credit", "vorrei un credito": "want a credit", "quero um crédito": "want a credit",
    "queria um crédito": "want a credit", "quería un crédito": "want a credit", "queremos um crédito": "want a credit",
    "um crédito": "a credit",
    # the credit owed, named: "quiero el crédito", "on veut le crédit"
    "quiero el crédito": "want the credit", "queremos el crédito": "want the credit", "el crédito": "the credit",
    "le crédit": "the credit", "il credito": "the credit", "o crédito": "the credit",
    "un avoir": "a credit", "dédommagement": "compensation", "indemnisation": "compensation", "compensation": "compensation",
    "un crédito": "a credit", "compensación": "compensation", "un credito": "a credit", "risarcimento": "compensation",
    "indennizzo": "compensation", "compensação": "compensation", "indenização": "compensation",
    # paid all the same: "on paie quand même", "wir zahlen trotzdem"
    "paie": "pay", "payons": "pay", "payé quand même": "still paid", "trotzdem": "still", "quand même": "still",
    "erstattung": "refund", "erstatten": "refund", "zurückerstatten": "refund", "erstattet": "refunded",
    "rückzahlung": "refund", "rimborso": "refund", "rimborsi": "refunds", "rimborsare": "refund",
    "rimborsato": "refunded", "rimborsata": "refunded", "estorno": "refund", "estornar": "refund",
    "reembolsada": "refunded", "estornado": "refunded",
    # a refund still waited for: "todavía no me llega", "toujours pas reçu", "immer noch nicht"
    "todavía no": "still haven't", "todavia no": "still haven't", "aún no": "still haven't", "todavía": "still",
    "toujours pas": "still haven't", "pas encore": "not yet", "noch nicht": "not yet", "immer noch": "still",
    "non ancora": "not yet", "non è ancora": "still hasn't", "ancora": "still", "ainda não": "still haven't",
    "ainda": "still",
    "esperando": "waiting", "espero": "waiting", "j'attends": "waiting", "attends": "waiting", "attendre": "wait",
    "warte": "waiting", "warten": "waiting", "aspetto": "waiting", "aspettando": "waiting", "aguardando": "waiting",
    "no he recibido": "haven't received", "no ha llegado": "hasn't come", "no me ha llegado": "hasn't come",
    "pas reçu": "haven't received", "n'ai pas reçu": "haven't received", "nicht erhalten": "haven't received",
    "nicht bekommen": "haven't received", "non ho ricevuto": "haven't received", "non è arrivato": "hasn't come",
    "não recebi": "haven't received", "não chegou": "hasn't come",
    # whether it went through: "est-ce que mon remboursement est passé", "o meu reembolso já foi
    # processado", "wo ist meine rückerstattung", "já devolveram o crédito"
    "est passé": "gone through", "est passée": "gone through", "a été traité": "been processed", "traité": "processed",
    "ha sido procesado": "been processed", "procesado": "processed", "se procesó": "been processed",
    "foi processado": "been processed", "processado": "processed", "bearbeitet": "processed", "durchgegangen": "gone through",
    "è stato elaborato": "been processed", "elaborato": "processed",
    "wo ist meine": "where is my", "wo ist mein": "where is my", "wo bleibt meine": "where is my", "où est mon": "where is my",
    "dónde está mi": "where is my", "dove è il mio": "where is my", "dov'è il mio": "where is my", "onde está o meu": "where is my",
    "onde está meu": "where is my", "devolveram": "refunded", "já devolveram": "have you already refunded",
    "ya devolvieron": "have you already refunded",
    # a month that was: "hace dos meses", "il y a deux mois", "vor zwei monaten", "due mesi fa", "há dois meses"
    "hace un mes": "a month ago", "hace dos meses": "two months ago", "hace tres meses": "three months ago",
    "il y a un mois": "a month ago", "il y a deux mois": "two months ago", "il y a trois mois": "three months ago",
    "vor einem monat": "a month ago", "vor zwei monaten": "two months ago", "vor drei monaten": "three months ago",
    "un mese fa": "a month ago", "due mesi fa": "two months ago", "tre mesi fa": "three months ago",
    "há um mês": "a month ago", "há dois meses": "two months ago", "há três meses": "three months ago",
    "aprobado": "approved", "aprobada": "approved", "approuvé": "approved", "genehmigt": "approved",
    "approvato": "approved", "aprovado": "approved",
    "cuánto tarda": "how long", "combien de temps": "how long", "wie lange": "how long", "quanto tempo": "how long",
    "cuántos días": "how many days", "hace días": "for days", "combien de jours": "how many days",
    "depuis des jours": "for days", "wie viele tage": "how many days", "seit tagen": "for days",
    "quanti giorni": "how many days", "da giorni": "for days", "quantos dias": "how many days", "há dias": "for days",
    # a plan changed: "cambiar de plan", "passer au forfait pro", "tarif wechseln", "mudar de plano"
    "plan": "plan", "plano": "plan", "piano": "plan", "tarif": "plan", "forfait": "plan", "formule": "plan",
    "planes": "plans", "planos": "plans", "piani": "plans", "tarife": "plans", "forfaits": "plans", "formules": "plans",
    "abonnement": "subscription", "suscripción": "subscription", "abo": "subscription", "abbonamento": "subscription",
    "paquete": "package", "paket": "package", "pacchetto": "package", "pacote": "package",
    # a plan named by its limit: "o plano de seiscentas requisições por minuto", "600 anfragen pro minute"
    "por minuto": "a minute", "par minute": "a minute", "pro minute": "a minute", "al minuto": "a minute",
    "requisições": "requests", "requisicoes": "requests", "solicitudes": "requests", "peticiones": "requests",
    "requêtes": "requests", "anfragen": "requests", "richieste": "requests",
    "cambiar de plan": "change plan", "cambiar el plan": "change plan", "changer de forfait": "change plan",
    "changer de plan": "change plan", "tarif wechseln": "change plan", "tarif ändern": "change plan",
    "cambiare piano": "change plan", "cambiare il piano": "change plan", "mudar de plano": "change plan",
    "trocar de plano": "change plan", "mudar o plano": "change plan",
    "pasar al": "switch to", "pasarme al": "switch to", "passer au": "switch to", "passer à": "switch to",
    "wechseln": "switch", "umsteigen": "switch", "passare al": "switch to", "passare a": "switch to",
    "trocar": "switch", "trocar para": "switch to",
    "mejorar": "upgrade", "subir de plan": "upgrade plan", "upgrade": "upgrade", "downgrade": "downgrade",
    "bajar de plan": "downgrade plan", "plan superior": "bigger plan", "plan inferior": "smaller plan",
    "upgraden": "upgrade", "downgraden": "downgrade", "hochstufen": "upgrade", "herabstufen": "downgrade",
    "más barato": "cheaper", "mas barato": "cheaper", "más económico": "cheaper", "moins cher": "cheaper",
    "günstiger": "cheaper", "billiger": "cheaper", "più economico": "cheaper", "meno caro": "cheaper",
    "mais barato": "cheaper", "más grande": "bigger", "plus grand": "bigger", "größeren": "bigger",
    "più grande": "bigger", "maior": "bigger", "más pequeño": "smaller", "plus petit": "smaller",
    "kleineren": "smaller", "più piccolo": "smaller", "menor": "smaller",
    "nivel": "tier", "niveau": "tier", "stufe": "tier", "livello": "tier", "nível": "tier",
    "licencias": "seats", "licences": "seats", "lizenzen": "seats", "licenze": "seats", "licenças": "seats",
    "puestos": "seats", "plätze": "seats",
    # what a plan costs: "quel est le prix du plan enterprise", "quanto custa o plano pro"
    "costa": "cost", "cuesta": "cost", "coûte": "cost", "kostet": "cost", "custa": "cost",
    "costano": "cost", "cuestan": "cost", "coûtent": "cost", "kosten": "cost", "custam": "cost",
    # what the caller's own plan costs: "quanto costa il mio piano al mese?" (the balance's answer)
    "quanto costa il mio piano": "how much does my plan cost", "cuánto cuesta mi plan": "how much does my plan cost",
    "combien coûte mon forfait": "how much does my plan cost", "combien coûte mon abonnement": "how much does my plan cost",
    "was kostet mein tarif": "how much does my plan cost", "quanto custa o meu plano": "how much does my plan cost",
    "quanto custa meu plano": "how much does my plan cost",
    "wie viel kostet mein plan": "how much does my plan cost", "wieviel kostet mein plan": "how much does my plan cost",
    "was kostet mein plan": "how much does my plan cost", "cuánto me cuesta el plan": "how much does my plan cost",
    # which plan the caller is on: "qual é o meu plano", "cuál es mi plan", "welchen plan habe ich"
    "qual é o meu plano": "what plan am i on", "qual é meu plano": "what plan am i on", "cuál es mi plan": "what plan am i on",
    "quel est mon forfait": "what plan am i on", "qual è il mio piano": "what plan am i on",
    "welchen plan habe ich": "what plan am i on", "welchen tarif habe ich": "what plan am i on",
    # the caller's own plan: "mein plan", "mi plan", "mon forfait", "il mio piano", "meu plano"
    "mein plan": "my plan", "meinen plan": "my plan", "mein tarif": "my plan", "meinen tarif": "my plan",
    "mi plan": "my plan", "mon forfait": "my plan", "mon abonnement": "my plan", "il mio piano": "my plan",
    "meu plano": "my plan", "o meu plano": "my plan",
    "prix": "price", "precio": "price", "preis": "price", "prezzo": "price", "preço": "price", "preco": "price",
    # the plans' own names are said as they are in every language
    "starter": "starter", "pro": "pro", "enterprise": "enterprise",
    # overdue: "¿está vencida?", "ist sie überfällig?" ("en retard" is late, as webhooks are: technical)
    "vencida": "overdue", "vencido": "overdue", "atrasada": "overdue", "atrasado": "overdue",
    "überfällig": "overdue", "scaduta": "overdue",
}

# Typed plainly these would be other words ("mês" -> "mes", French "my"): known only as written.
_NOT_PLAIN = frozenset({"mes"})


GLOSSARY: dict[str, str] = typed_plainly(_WORDS, _NOT_PLAIN)
