"""Caller-facing sentences of the embedded LLM. Kept in one place so they read as one voice.

No department is named here: the sentences that list what the line can do are built by
`Phrasebook.for_departments` from the domains' own wording, handed over by the composition
root (meta/), so a new domain is greeted and offered without an edit in this file.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

EMPTY_TURN = "Sorry, I didn't catch that. Could you say it again?"
ENGLISH_ONLY = (
    "I'm sorry, I can only help in English on this line right now. "
    "If you'd like a call back from a colleague, just say 'a person'."
)
CLARIFY_TWO = "Just so I get this right: is it about {a}, or about {b}?"
# The same question about a part of a turn left unclear, asked after the rest was answered.
CLARIFY_ALSO = "And the other thing you said: is it about {a}, or about {b}?"
CLARIFY_ONE = "Just so I get this right: is it about {a}?"
# A bare yes to an either/or question says neither: the question again, with this before it.
WHICH_OF_TWO = "Sorry, which of the two?"
CLARIFY_OPEN = "Could you tell me a little more about what you need help with?"
ASK_FOR = "Could you tell me {what}?"
TOOL_FAILED = "Sorry, something went wrong on my side with that request; nothing was changed."
ANYTHING_ELSE = "Is there anything else I can help you with?"
LOOP_GUARD = (
    "I'm having trouble finding the right team for that, so I've asked a colleague to call you "
    "back about it."
)
GOODBYE = "Thanks for calling. Goodbye!"
LEFT_AS_ASKED = "As you asked, I've left {what}; nothing was done about it."
WELCOME = "You're welcome!"
HUMAN = "I'll arrange for a person to call you back."


def join_words(items: Sequence[str], last: str) -> str:
    """'a', 'a and b', 'a, b and c' (with `last` = 'and' or 'or')."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


@dataclass(frozen=True, slots=True)
class Phrasebook:
    """The sentences that name what the line does, built from the departments' wording."""

    greeting: str
    how_can_i_help: str
    out_of_scope: str
    front_desk_replies: dict[str, str] = field(default_factory=dict)

    @classmethod
    def for_departments(cls, offers: Sequence[str], asks: Sequence[str]) -> Phrasebook:
        """`offers`: "billing", "technical problems"...; `asks`: "billing", "a technical problem"..."""
        offer, ask = join_words(offers, "and"), join_words(asks, "or")
        greeting = f"Hello, thanks for calling. I can help with {offer}. What can I do for you today?"
        return cls(
            greeting=greeting,
            how_can_i_help=f"How can I help you with {ask}?",
            out_of_scope=(
                f"I'm sorry, that's not something I can help with. I can help with {offer}. "
                "Is there anything like that I can do for you?"
            ),
            front_desk_replies={
                "greeting": greeting,
                "smalltalk": (
                    "I'm the company's virtual assistant, and I'm doing well, thank you. "
                    f"How can I help with {ask}?"
                ),
                "goodbye": GOODBYE,
                "human": HUMAN,
            },
        )
