"""Which of a recogniser's readings of an answer to the identity question names an account.

A small recogniser hears the digits of "C one oh oh three, zip six oh six oh one" but may
place a repeated one wrong ("one oh three zero"): its beam and its digit grammar hold other
whole readings of the same answer (callcenter/speech/local_stt.py). The line takes the first
one whose customer number and ZIP are an account's, so a misplaced digit does not cost the
caller a turn.

Only readings with the most likely reading's ZIP are tried: they differ in the customer
number, which is no secret, never in the ZIP, which is. A caller guessing a ZIP gets no more
guesses from this than from one reading, and the taken reading is then checked, counted and
throttled by the identity task like any answer (domains/identity.py).

The same holds for the customer number said alone, after an answer that carried the ZIP
but no number ("What's your customer number?"): the line checks it with the ZIP the caller
gave before, so the readings of the number are tried with that one ZIP only
(`number_on_file`), and a reading that carries another ZIP of its own is never tried.

A real book has neighbours: two accounts in one ZIP whose numbers are a digit apart. A less
likely reading is taken only when no other reading of the beam names another account with the
ZIP; when two do, the line asks again rather than pick one of two customers.
"""

from __future__ import annotations

from collections.abc import Callable

from callcenter.routing.slots import extract_slots
from callcenter.spoken import normalise
from callcenter.store.ports import Customers
from domains.identity import heard_customer_number

MAX_READINGS = 4  # the beam's width: readings further down are noise


def _pair(reading: str) -> tuple[str | None, str | None]:
    """(customer number, ZIP) as the identity task reads them from the words."""
    said = normalise(reading)
    return heard_customer_number(said), extract_slots(said).zip_code


def reading_on_file(customers: Customers, readings: list[str]) -> int | None:
    """The index of the first reading (most likely first) whose customer number and ZIP are
    an account's, among those with the first reading's ZIP; None when none is."""
    if not readings:
        return None
    first_zip = _pair(readings[0])[1]
    if first_zip is None:
        return None
    found: list[tuple[int, str]] = []
    for index, reading in enumerate(readings[:MAX_READINGS]):
        customer_id, zip_code = _pair(reading)
        if customer_id is None or zip_code != first_zip:
            continue
        customer = customers.get_customer(customer_id)
        if customer is not None and customer.zip_code == zip_code:
            found.append((index, customer.id))
    return _unambiguous(found)


def _unambiguous(found: list[tuple[int, str]]) -> int | None:
    """The reading to take among those on file: the most likely reading when it is one of them;
    a less likely one only when no other reading names another account with the same ZIP (two
    neighbours in one ZIP, "C1001" and "C1002", heard in one beam: the line asks again rather
    than pick one of two customers)."""
    if not found:
        return None
    if found[0][0] == 0:
        return 0
    return found[0][0] if len({customer for _, customer in found}) == 1 else None


def number_on_file(customers: Customers, readings: list[str], zip_code: str | None) -> int | None:
    """The index of the first reading of a customer number said alone (most likely first)
    that names an account with `zip_code`, the ZIP the caller gave before (or the one the line
    read back); None when none does, no ZIP was given, or the most likely reading gives
    another. At most `MAX_READINGS` different numbers are tried."""
    if zip_code is None or not readings or _pair(readings[0])[1] not in (None, zip_code):
        return None  # the most likely reading gives another ZIP: the caller is saying that one now
    numbers: list[str] = []
    found: list[tuple[int, str]] = []
    for index, reading in enumerate(readings):
        customer_id, said_zip = _pair(reading)
        if customer_id is None or said_zip not in (None, zip_code):
            continue
        if customer_id not in numbers:
            if len(numbers) == MAX_READINGS:
                break
            numbers.append(customer_id)
        customer = customers.get_customer(customer_id)
        if customer is not None and customer.zip_code == zip_code:
            found.append((index, customer.id))
    return _unambiguous(found)


def on_file(customers: Customers) -> Callable[[list[str]], int | None]:
    """`reading_on_file` bound to one line's customers: what the recogniser is handed."""
    return lambda readings: reading_on_file(customers, readings)


def number_on_file_with(customers: Customers, zip_code: Callable[[], str | None]) -> Callable[[list[str]], int | None]:
    """`number_on_file` bound to one line's customers and the ZIP its caller gave last."""
    return lambda readings: number_on_file(customers, readings, zip_code())
