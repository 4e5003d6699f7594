"""The recogniser's repeat filter: a turn the model looped on is kept once, a caller's own
repetition is not cut."""

from __future__ import annotations

import pytest

from callcenter.speech.whisper_window import drop_repeats


@pytest.mark.parametrize("heard, kept", [
    ("Is it down? Is it down? Is it", "Is it down?"),
    ("What is my balance? What is my balance?", "What is my balance?"),
    ("No? No? No?", "No?"),  # a one-word answer looped on a short window
    ("Yes please. Yes please. Yes please.", "Yes please."),
    ("no, no", "no, no"),  # twice is how callers talk
    ("yes yes", "yes yes"),
    ("I said no and no again", "I said no and no again"),
    ("", ""),
])
def test_drop_repeats(heard: str, kept: str) -> None:
    assert drop_repeats(heard) == kept
