"""Thanks and a farewell in another language end the call in it, instead of hearing once
more that the line speaks English (issue 25). Callers' words, phrasings not in the dev suite.
"""

from __future__ import annotations

from callcenter.store import Store


def said(turn) -> str:
    return " ".join(turn.replies)


async def test_a_spanish_farewell_is_answered_with_one(open_call, store: Store) -> None:
    call = await open_call("C1005")
    await call.send("hola, necesito ayuda con mi factura por favor")
    turn = await call.send("ah ok, muchas gracias, adiós")
    assert "Adiós" in said(turn) and "Goodbye" in said(turn) and "inglés" not in said(turn)


async def test_an_italian_farewell_is_answered_in_italian(open_call, store: Store) -> None:
    call = await open_call("C1005")
    turn = await call.send("va bene, grazie mille, arrivederci")
    assert "Arrivederci" in said(turn)


async def test_a_spanish_need_still_hears_the_line_speaks_english(open_call, store: Store) -> None:
    call = await open_call("C1005")
    turn = await call.send("gracias, pero quiero cerrar mi cuenta")
    assert "inglés" in said(turn)
