"""Closings in everyday forms end the call or the request; anything with a need does not."""

from __future__ import annotations

import pytest

from callcenter.routing.discourse import is_closing, refers_back


@pytest.mark.parametrize(
    "text",
    ["thank you so much", "no i'm good thanks", "ok gotta go", "alright talk to you later", "bye-bye",
     "nothing else thanks", "that's everything", "ok cheers then", "no that's it", "take care",
     "that should be everything", "ok that will do thanks", "thatll be it", "that does it thank you"],
)
def test_everyday_closings(text: str) -> None:
    assert is_closing(text)


@pytest.mark.parametrize(
    "text",
    ["ok great", "i need to go to my billing page", "thanks can you check my balance", "i'm good at this but my api fails",
     "no", "i have a question", "see my invoices", "what will that do", "that will be fine"],
)
def test_turns_with_a_need_or_no_cue_are_not_closings(text: str) -> None:
    assert not is_closing(text)


@pytest.mark.parametrize("text", ["and when will that be fixed", "how long does it take", "why is that", "can you just do it yourself"])
def test_questions_about_the_last_answer_refer_back(text: str) -> None:
    assert refers_back(text)


@pytest.mark.parametrize("text", ["when will my refund arrive", "why is my api returning errors", "what's my balance"])
def test_questions_with_their_own_topic_do_not(text: str) -> None:
    assert not refers_back(text)
