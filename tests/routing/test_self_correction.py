"""A caller who corrects a spoken id or ZIP code means the last value they said."""

from __future__ import annotations

import pytest

from callcenter.routing.slots import extract_slots
from callcenter.spoken import normalise


@pytest.mark.parametrize(
    ("said", "customer", "zip_code"),
    [
        ("c one oh oh two no sorry c one oh oh one and the zip is nine four one oh seven", "C1001", "94107"),
        ("its c one oh oh three sorry i mean c one oh oh one zip nine four one oh seven", "C1001", "94107"),
        ("c one zero zero four no wait c one zero zero one and nine four one zero seven", "C1001", "94107"),
        ("zip nine four one oh eight no nine four one oh seven customer c one oh oh one", "C1001", "94107"),
        ("C1002, actually C1003, zip 60601", "C1003", "60601"),
        ("c one oh oh two no c one oh oh three uh wait no c one oh oh one", "C1001", None),
    ],
)
def test_the_last_stated_value_wins(said: str, customer: str, zip_code: str | None) -> None:
    slots = extract_slots(normalise(said))
    assert slots.customer_id == customer
    assert slots.zip_code == zip_code


@pytest.mark.parametrize(
    "said",
    [
        "C1001 and C1002 are both mine",  # two values, no correction: both stay
        "C1001 zip 94107",  # an id and a ZIP are different kinds
        "C1001 no problem",
    ],
)
def test_values_without_a_correction_are_kept(said: str) -> None:
    assert normalise(said) == said


def test_correction_is_idempotent() -> None:
    once = normalise("c one oh oh two no sorry c one oh oh one")
    assert once == "C1001"
    assert normalise(once) == once
