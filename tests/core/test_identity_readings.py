"""Of several readings of an id and ZIP, the line takes the one that names an account, and
never one with another ZIP (domains/identity_readings.py)."""

from __future__ import annotations

from typing import Any

from domains.identity_readings import reading_on_file


def test_the_reading_on_file_is_taken(store: Any) -> None:
    # C1003's ZIP is 60601 (the demo data); "one oh three zero" is a misplaced repeated digit.
    readings = ["It's C one oh three zero code six oh six oh one", "It's C one oh oh three, ZIP code six oh six oh one"]
    assert reading_on_file(store, readings) == 1
    assert reading_on_file(store, ["its c1003 zip 60601"]) == 0


def test_a_reading_with_another_zip_is_never_tried(store: Any) -> None:
    # The ZIP is the secret: the recogniser's other readings may not become more ZIP guesses.
    assert reading_on_file(store, ["C one oh oh three, zip six oh six oh two", "C one oh oh three, zip six oh six oh one"]) is None


def test_nothing_on_file_and_nothing_said_give_none(store: Any) -> None:
    assert reading_on_file(store, ["C nine nine nine nine, zip six oh six oh one"]) is None
    assert reading_on_file(store, ["I don't remember my customer number"]) is None
    assert reading_on_file(store, []) is None
