"""Other languages, found by the callers9 dev part (issue 25) and written here in other words: a
farewell with courtesies no list holds ends the call in the caller's language unless it names a
need, an English sentence beside a foreign one is read as said, and the departments' glossaries
know sign-ins someone tried, past webhook trouble and the next bill.
"""

from __future__ import annotations

from callcenter.store import Store


def said(turn) -> str:
    return " ".join(turn.replies)


async def test_a_french_farewell_with_courtesies_ends_the_call(open_call, store: Store) -> None:
    call = await open_call("C1002")
    turn = await call.send("parfait, merci infiniment monsieur, c'est bon pour moi. à la prochaine")
    assert "Au revoir" in said(turn), said(turn)


async def test_a_german_farewell_with_courtesies_ends_the_call(open_call, store: Store) -> None:
    call = await open_call("C1005")
    turn = await call.send("vielen lieben dank, das war alles. schönes wochenende noch")
    assert "Auf Wiedersehen" in said(turn), said(turn)


async def test_thanks_beside_a_need_in_spanish_is_no_goodbye(open_call, store: Store) -> None:
    call = await open_call("C1004")
    turn = await call.send("gracias, pero alguien intentó entrar en mi cuenta")
    assert "Adiós" not in said(turn), said(turn)
    assert "sign-in" in said(turn), said(turn)


async def test_an_english_sentence_beside_a_foreign_one_is_read(open_call, store: Store) -> None:
    call = await open_call("C1003")
    turn = await call.send("hola buenos días, tengo una pregunta. is the api having an outage right now")
    assert "Elevated 5xx error rates" in said(turn), said(turn)


async def test_webhook_trouble_last_week_in_german(open_call, store: Store) -> None:
    call = await open_call("C1001")
    turn = await call.send("hatten sie letzte woche probleme mit webhooks")
    assert "Delayed webhook deliveries" in said(turn), said(turn)


async def test_the_next_bill_in_french_is_the_balance(open_call, store: Store) -> None:
    call = await open_call("C1005")
    turn = await call.send("je voudrais savoir combien sera ma prochaine facture")
    assert "next bill" in said(turn) and "$249.00" in said(turn), said(turn)
