"""Caller-facing sentences of the embedded LLM. Kept in one place so they read as one voice."""

from __future__ import annotations

GREETING = (
    "Hello, thanks for calling. I can help with billing, technical problems and your account. "
    "What can I do for you today?"
)
HOW_CAN_I_HELP = "How can I help you with billing, a technical problem or your account?"
EMPTY_TURN = "Sorry, I didn't catch that. Could you say it again?"
ENGLISH_ONLY = (
    "I'm sorry, I can only help in English on this line right now. "
    "If you'd like a call back from a colleague, just say 'a person'."
)
OUT_OF_SCOPE = (
    "I'm sorry, that's not something I can help with. I can help with billing, technical "
    "problems and your account. Is there anything like that I can do for you?"
)
CLARIFY_TWO = "Just so I get this right: is it about {a}, or about {b}?"
CLARIFY_ONE = "Just so I get this right: is it about {a}?"
CLARIFY_OPEN = "Could you tell me a little more about what you need help with?"
ASK_FOR = "Could you tell me {what}?"
TOOL_FAILED = "Sorry, something went wrong on my side with that request; nothing was changed."
ANYTHING_ELSE = "Is there anything else I can help you with?"
META_REPLIES = {
    "greeting": GREETING,
    "smalltalk": (
        "I'm the company's virtual assistant, and I'm doing well, thank you. "
        "How can I help with billing, a technical problem or your account?"
    ),
    "goodbye": "Thanks for calling. Goodbye!",
    "human": "I'll arrange for a person to call you back.",
}
LOOP_GUARD = (
    "I'm having trouble finding the right team for that, so I've asked a colleague to call you "
    "back about it."
)
