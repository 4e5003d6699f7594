"""Two accounts in one ZIP with numbers a digit apart: a less likely reading of an identity
answer is never taken when the beam also names the neighbour (domains/identity_readings.py).
The demo book gives every customer its own ZIP, so the book here is a real company's shape:
C1001 and C1002 both in 94107."""

from __future__ import annotations

from dataclasses import dataclass

from domains.identity_readings import number_on_file, reading_on_file


@dataclass
class _Account:
    id: str
    zip_code: str


class _Book:
    def __init__(self, *accounts: _Account) -> None:
        self._by_id = {a.id: a for a in accounts}

    def get_customer(self, customer_id: str) -> _Account | None:
        return self._by_id.get(customer_id)


NEIGHBOURS = _Book(_Account("C1001", "94107"), _Account("C1002", "94107"), _Account("C1003", "60601"))


def test_a_less_likely_reading_naming_one_of_two_neighbours_is_not_taken() -> None:
    beam = ["C one zero zero seven, zip nine four one zero seven.", "C one zero zero two, zip nine four one zero seven.",
            "C one zero zero one, zip nine four one zero seven."]
    assert reading_on_file(NEIGHBOURS, beam) is None


def test_a_less_likely_reading_with_no_neighbour_in_the_beam_is_taken() -> None:
    beam = ["C one zero three, zip six zero six zero one.", "C one zero zero three, zip six zero six zero one."]
    assert reading_on_file(NEIGHBOURS, beam) == 1


def test_the_most_likely_reading_on_file_is_taken() -> None:
    beam = ["C one zero zero one, zip nine four one zero seven.", "C one zero zero two, zip nine four one zero seven."]
    assert reading_on_file(NEIGHBOURS, beam) == 0


def test_a_number_said_alone_naming_one_of_two_neighbours_is_not_taken() -> None:
    beam = ["It's C10007.", "It's C one zero zero one.", "It's C one zero zero two."]
    assert number_on_file(NEIGHBOURS, beam, "94107") is None
