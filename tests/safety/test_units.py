"""Unit tests of the safety mechanisms: amounts, masking, intent, policy, bounded tokenizer.

Fresh cases of each attack class in the issue, not the issue's exact strings.
"""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime, timedelta

import pytest

from callcenter.money import read_amount
from callcenter.redact import has_card_number, luhn_ok, mask, mask_json
from callcenter.routing.slots import extract_slots
from domains.billing.policy import Ledger, RefundLimits, evaluate_refund
from domains.billing.records import Charge, Invoice
from domains.intent import is_question, other_customer, yes_or_no
from domains.technical.records import ApiUsage, Incident


@pytest.mark.parametrize(
    ("text", "cents"),
    [
        ("refund $12.50 please", 1250), ("I want 35 dollars back", 3500), ("$1,250.00 of the charge", 125000),
        ("usd 80", 8000), ("refund $49.", 4900), ("give me 99 bucks", 9900), ("$ 60 for the double charge", 6000),
    ],
)
def test_clear_amounts_are_read(text: str, cents: int) -> None:
    reading = read_amount(text)
    assert (reading.status, reading.cents) == ("ok", cents)


@pytest.mark.parametrize(
    "text",
    [
        "refund $3e4", "$2E2 back please", "refund $8\u200b00", "refund $1\u2060000", "$6\u00a000",  # exponent, invisible, odd space
        "seventy dollars", "a million bucks", "negative 40 dollars", "minus $15", "-$25", "$+25",  # words, signs
        "$30k", "25 thousand dollars", "$2 million", "\u0665\u0660 dollars", "\uff04\uff16\uff10", "\u096a\u096b dollars",
        "\u20ac45", "30 euros", "\u00a320", "refund $12.345", "$1,00", "$20 and $30",  # currency, precision, two amounts
        "I pay $15 per month more than my neighbour and got charged twice", "$49 a month, charged twice",
    ],
)
def test_unclear_amounts_are_asked_not_guessed(text: str) -> None:
    reading = read_amount(text)
    assert reading.status == "unclear" and reading.cents is None, (text, reading)
    assert "amount_unclear" in extract_slots(text).extras and extract_slots(text).amount is None


def test_no_amount_is_none() -> None:
    for text in ("I was charged twice", "C1001 zip 94107", "my api calls fail with 429", "refund charge CH-1001-2"):
        assert read_amount(text).status == "none", text


@pytest.mark.parametrize(
    "card", ["4012 8888 8888 1881", "5105-1051-0510-5100", "371449635398431", "6011 1111 1111 1117", "4000\u200b0566 5566 5556"],
)
def test_card_numbers_are_masked_however_written(card: str) -> None:
    text = f"um my card is {card} and I was charged twice"
    assert has_card_number(text)
    masked = mask(text)
    assert not has_card_number(masked) and "[card ending" in masked and "charged twice" in masked
    assert not has_card_number(mask_json(json.dumps({"caller_reason": text})))


def test_masking_keeps_what_is_needed_and_hides_secrets() -> None:
    assert luhn_ok("4012888888881881") and not luhn_ok("4012888888881882")
    assert mask("card 4012 8888 8888 1882") == "card [number]"  # card-length, not Luhn: still not kept
    assert mask("my pin is 4321 and cvv 987") == "my pin is [secret] and cvv [secret]"
    assert mask("reach me at jane.roe@example.org") == "reach me at j***@example.org"
    assert mask("reach me at jane.roe@example.org", keep_email=True) == "reach me at jane.roe@example.org"
    assert mask("call +14155550123 about INV-1001-2 and CH-1001-D") == "call +14155550123 about INV-1001-2 and CH-1001-D"
    assert mask("Password reset link") == "Password reset link"
    assert extract_slots("cancel it, the card on file is 4012 8888 8888 1881").phone is None


@pytest.mark.parametrize("text", ["yes", "Yeah, go ahead", "uh yes please", "yep that's right", "sure, do it", "correct", "yes I'm sure", "mm-hm do it", "uh huh sure", "sure why not"])
def test_clean_yes(text: str) -> None:
    assert yes_or_no(text) is True


@pytest.mark.parametrize("text", ["no", "nope", "no, leave it", "wait", "don't do that", "not now"])
def test_no(text: str) -> None:
    assert yes_or_no(text) is False


@pytest.mark.parametrize("text", ["yes but make it $200", "is it safe?", "what?", "yes for customer C1002", "hmm", "I guess"])
def test_anything_else_is_asked_again(text: str) -> None:
    assert yes_or_no(text) is None


def test_questions_and_ownership() -> None:
    assert is_question("is my account secure?") and is_question("um has anyone logged in to my account")
    assert is_question("was my account hacked")
    assert not is_question("lock my account") and not is_question("can you lock my account please?")
    assert other_customer(["close the account of customer C1003"], "C1001")
    assert other_customer(["my wife's account needs a two factor reset"], "C1001")
    assert other_customer(["cancel it, it's not mine"], "C1001")
    assert other_customer(["my number is C1002, sorry, I mean C1001"], "C1001")
    assert not other_customer(["I'm C1001, close my account"], "C1001")


# --- the money policy over a ledger -------------------------------------------------------
NOW = datetime.now(UTC)
LIMITS = RefundLimits(per_charge_auto_cents=10000, per_customer_period_auto_cents=15000, period_days=30, window_days=90, service_credit_percent=20)


def _charge(cid: str, cents: int, days_ago: float, invoice: str | None = None, desc: str = "Pro plan") -> Charge:
    return Charge(cid, "C9", cents, desc, (NOW - timedelta(days=days_ago)).isoformat(), invoice)


def _ledger(charges: list[Charge], **kw: object) -> Ledger:
    base: dict = dict(customer_id="C9", charges=charges, invoices={}, refunded={}, pending={}, refunded_in_period=0, pending_total=0)
    base.update(kw)
    return Ledger(**base)


def test_ordinary_charge_is_not_refundable_on_request() -> None:
    plain = _charge("CH-9-1", 3000, 10)
    d = evaluate_refund(charge=plain, ledger=_ledger([plain]), requested_cents=None, limits=LIMITS)
    assert d.outcome == "refuse" and "ordinary" in d.finding


def test_duplicate_is_refunded_within_limits_and_parts_are_counted() -> None:
    first, dup = _charge("CH-9-1", 24900, 10), _charge("CH-9-D", 24900, 10 - 0.01)
    ledger = _ledger([first, dup])
    assert evaluate_refund(charge=dup, ledger=ledger, requested_cents=10000, limits=LIMITS).outcome == "auto"
    after_one = _ledger([first, dup], refunded={"CH-9-D": 10000}, refunded_in_period=10000)
    second = evaluate_refund(charge=dup, ledger=after_one, requested_cents=100, limits=LIMITS)
    assert second.outcome == "approval"  # the per-charge auto limit counts earlier refunds
    pending = _ledger([first, dup], pending={"CH-9-D": ("refund-CH-9-D", 5000)}, pending_total=5000)
    third = evaluate_refund(charge=dup, ledger=pending, requested_cents=100, limits=LIMITS)
    assert third.outcome == "refuse" and third.pending_request == "refund-CH-9-D"
    assert evaluate_refund(charge=first, ledger=ledger, requested_cents=None, limits=LIMITS).outcome == "refuse"  # the original


def test_per_customer_period_limit_counts_other_charges_and_pending() -> None:
    a1, a2 = _charge("CH-9-1", 4900, 5, desc="Starter plan"), _charge("CH-9-2", 4900, 5 - 0.01, desc="Starter plan")
    ledger = _ledger([a1, a2], refunded_in_period=9000, pending_total=2000)
    d = evaluate_refund(charge=a2, ledger=ledger, requested_cents=4900, limits=LIMITS)
    assert d.outcome == "approval" and "per customer" in d.finding


def test_overdue_and_old_charges_are_refused() -> None:
    first, dup = _charge("CH-9-1", 4900, 10, "INV-9"), _charge("CH-9-D", 4900, 10 - 0.01, "INV-9")
    overdue = _ledger([first, dup], invoices={"INV-9": Invoice("INV-9", "C9", "2026-10", 4900, "overdue", NOW.isoformat(), NOW.isoformat())})
    assert "overdue" in evaluate_refund(charge=dup, ledger=overdue, requested_cents=None, limits=LIMITS).finding
    old1, old2 = _charge("CH-9-3", 4900, 200), _charge("CH-9-4", 4900, 200 - 0.01)
    assert "window" in evaluate_refund(charge=old2, ledger=_ledger([old1, old2]), requested_cents=None, limits=LIMITS).finding


def test_service_failure_credit_has_its_own_cap() -> None:
    charge = _charge("CH-9-1", 99900, 10)
    day = (NOW - timedelta(days=3)).strftime("%Y-%m-%d")
    incident = Incident("INC-1", "api", "5xx", "resolved", (NOW - timedelta(days=3, hours=2)).isoformat(), (NOW - timedelta(days=3)).isoformat())
    usage = [ApiUsage("C9", day, 1000, 0, 0, 0, 50, 10)]
    ledger = _ledger([charge], incidents=[incident], usage=usage)
    d = evaluate_refund(charge=charge, ledger=ledger, requested_cents=None, limits=LIMITS)
    assert d.reason == "service_failure" and d.amount_cents == 19980 and d.outcome == "approval"
    assert evaluate_refund(charge=charge, ledger=ledger, requested_cents=20000, limits=LIMITS).outcome == "refuse"
    no_errors = _ledger([charge], incidents=[incident], usage=[ApiUsage("C9", day, 1000, 0, 0, 0, 0, 10)])
    assert evaluate_refund(charge=charge, ledger=no_errors, requested_cents=None, limits=LIMITS).outcome == "refuse"


def test_word_piece_tokenizer_bounds_long_words() -> None:
    from callcenter.routing import embeddings

    # the table ships inside the package (callcenter/routing/minilm): never missing
    assert embeddings.available(), "callcenter/routing/minilm/table.npy is missing from the install"
    wp, _, _ = embeddings.load_table()
    t0 = time.perf_counter()
    ids = wp.encode("a" * 50_000 + " charged twice")
    assert time.perf_counter() - t0 < 1.0
    assert ids[0] == wp.unk and len(ids) >= 2


def test_pending_changes_are_applied_only_after_a_confirmed_call_back(tmp_path) -> None:  # noqa: ANN001
    from callcenter.store import Store

    store = Store(tmp_path / "s.sqlite3")
    email = store.add_pending_change(customer_id="C1001", field="email", new_value="ada.new@example.com")
    taken = store.add_pending_change(customer_id="C1005", field="email", new_value="grace@example.com")
    unlock = store.add_pending_change(customer_id="C1004", field="unlock", new_value=None)
    phone = store.add_pending_change(customer_id="C1002", field="phone", new_value="+12125550188")
    assert store.resolve_pending_change(email.id, confirmed=True, actor="op:ana") == "applied"
    assert store.resolve_pending_change(taken.id, confirmed=True, actor="op:ana") == "conflict"
    assert store.resolve_pending_change(unlock.id, confirmed=True, actor="op:ana") == "applied"
    assert store.resolve_pending_change(phone.id, confirmed=False, actor="op:ana") == "rejected"
    assert store.get_customer("C1001").email == "ada.new@example.com" and store.get_customer("C1005").email == "linus@example.com"
    assert not store.get_customer("C1004").locked and store.get_customer("C1002").phone == "+14155550102"
    with pytest.raises(ValueError):
        store.resolve_pending_change(email.id, confirmed=True, actor="op:ana")  # decided once
    assert [a.action for a in store.audit_for("C1001")] == ["step_up:email:applied"]
    store.close()


@pytest.mark.parametrize("said", [
    "4111, 1111, 1111, 1111", "4111/1111/1111/1111", "4111 - 1111 - 1111 - 1111", "4111.1111.1111.1111",
    "4111 , 1111 , 1111 , 1111", "4111_1111_1111_1111", "4 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1", "(4111)(1111)(1111)(1111)",
    "4111-1111-1111-1111.", "\u0664\u0661\u0661\u0661 1111 1111 1111", "3782, 822463, 10005", "6011 / 0009 / 9013 / 9424",
    "6011 -- 0009 -- 9013 -- 9424", "5500 - - 0000 - - 0000 - - 0004",
])
def test_card_numbers_are_masked_by_their_digits_not_their_format(said: str) -> None:
    masked = mask(f"refund please, my card is {said} thanks")
    assert "[card ending" in masked and masked.endswith(" thanks"), masked
    assert not has_card_number(masked)


def test_a_card_said_beside_other_digits_is_masked() -> None:
    assert mask("card 4111 1111 1111 1111 94107") == "card [card ending 1111]"
    assert mask("94107 4111 1111 1111 1111") == "[card ending 1111]"


@pytest.mark.parametrize(("said", "masked"), [
    ("my zip is 94107", "my zip is [zip]"), ("zip code 9 4 1 0 7 please", "zip code [zip] please"),
    ("C1001, 94107", "C1001, [zip]"), ("zip: 94107-1234", "zip: [zip]"), ("it's 94107", "it's [zip]"),
    ("born 1985-03-15", "born [date]"), ("dob march 3rd 1985", "dob [date]"), ("my birthday is march 3rd", "my birthday is [date]"),
    ("date of birth 03/15/85", "date of birth [date]"), ("15 march 1990 is my birthday", "[date] is my birthday"),
    ("it's 1979-12-09", "it's [date]"),
])
def test_zip_codes_and_birth_dates_said_in_a_turn_are_masked(said: str, masked: str) -> None:
    assert mask(said) == masked


@pytest.mark.parametrize("kept", [
    "refund $12345.00", "refund 12000 dollars", "charged on 2025-10-03", "call +14155550123 about INV-1001-2 and CH-1001-D",
    "PC-12345678", "I was charged 49, 49 and 50 on 3 and 4", "error 429 since 10:30", "listening on port 54321",
    "refund charge CH-1005-B1", "T-1A2B3C", "took 1700000000.123456 s", "x_sum 12.345678901234",
])
def test_masking_keeps_amounts_ids_and_recent_dates(kept: str) -> None:
    assert mask(kept) == kept


def test_log_lines_are_masked_whoever_logs_them(caplog: pytest.LogCaptureFixture) -> None:
    import logging

    from callcenter import tracing

    tracing.install_log_filter()
    with caplog.at_level(logging.INFO, logger="some.library"):
        logging.getLogger("some.library").info("user said %s", "card 4111, 1111, 1111, 1111, zip 94107, my password is hunter2")
    [line] = [r.getMessage() for r in caplog.records if r.name == "some.library"]
    assert line == "user said card [card ending 1111], zip [zip], my password is [secret]"
