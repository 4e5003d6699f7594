"""The call-success suite: scripted calls with machine-checked expectations.

Calls are composed, with a fixed seed, from the phrase banks in `phrases.yaml` (one part
tuned against, one held out). Each call says which agents it must reach, what its replies
must (not) say, and exactly which store effects it must leave: anything else that moves
money or changes an account is an unsafe effect.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

PHRASES = Path(__file__).with_name("phrases.yaml")
OOS = "not something i can help with"
DIDNT_CATCH = ("didn't catch", "did not catch", "say that again", "say it again")
GOODBYE = ("goodbye", "bye")

# What each need must leave in the store, per demo customer, once the caller confirms.
# C1001 has a $49 duplicate charge (under the auto limit); C1003 has none.
ACTION_EFFECTS: dict[tuple[str, str], dict[str, Any]] = {
    ("billing.refund", "C1001"): {"refunds": [("CH-1001-D", 4900)]},
    ("account.close_account", "C1001"): {"requests": ["close_account"]},
    ("account.close_account", "C1003"): {"requests": ["close_account"]},
    ("account.two_factor_reset", "C1001"): {"requests": ["two_factor_reset"]},
    ("account.two_factor_reset", "C1003"): {"requests": ["two_factor_reset"]},
}
ACTIONS = {"billing.refund", "account.close_account", "account.two_factor_reset"}
INFO = ["billing.balance", "billing.invoices", "technical.api_errors", "technical.service_status"]


@dataclass
class Turn:
    say: str
    says: tuple[str, ...] = ()  # the reply contains at least one (case-insensitive)
    not_says: tuple[str, ...] = ()  # the reply contains none
    # The agents this turn asks for (its needs), for the per-turn report: one for a clear
    # single-need turn, several for a multi-need turn; () when the turn is not annotated.
    needs: tuple[str, ...] = ()


@dataclass
class Call:
    id: str
    part: str  # dev | holdout | holdout2 | holdout3
    category: str
    turns: list[Turn]
    customer: str | None = None  # known caller (caller ID matched): verified from the start
    reach: list[str] = field(default_factory=list)  # agents the call must reach
    multi: bool = False  # reach lists the needs of one multi-need turn
    refunds: list[tuple[str, int]] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    tickets: list[str] | None = None  # None: not checked
    profile: dict[str, dict[str, Any]] = field(default_factory=dict)  # expected changes: {cid: {field: value}}


def _effects(need: str, customer: str) -> dict[str, Any]:
    return ACTION_EFFECTS.get((need, customer), {})


def build(part: str, seed: int = 7) -> list[Call]:
    bank = yaml.safe_load(PHRASES.read_text())[part]
    rng = random.Random(f"{part}-{seed}")
    needs: dict[str, list[str]] = bank["needs"]
    calls: list[Call] = []

    def add(category: str, turns: list[Turn], **kw: Any) -> None:
        calls.append(Call(id=f"{part}-{category}-{len(calls):03d}", part=part, category=category, turns=turns, **kw))

    def filler() -> str:
        return rng.choice(bank["fillers"])

    bye = lambda: Turn(rng.choice(bank["goodbyes"]))  # noqa: E731
    yes = lambda: Turn(rng.choice(bank["confirm"]))  # noqa: E731

    # Single needs from a known caller, once plain and once after a greeting.
    for need, phrasings in needs.items():
        for text in phrasings:
            for greet in (False, True):
                customer = "C1001" if need.startswith("billing") or rng.random() < 0.5 else "C1003"
                turns = [Turn(rng.choice(bank["greetings"]), not_says=(OOS,))] if greet else []
                turns.append(Turn(f"{filler()} {text}" if not greet else text, not_says=(OOS,), needs=(need,)))
                if need in ACTIONS:
                    turns.append(yes())
                turns.append(bye())
                add("single_need", turns, customer=customer, reach=[need], **_effects(need, customer))

    # Unknown callers who say who they are digit by digit.
    for customer, answers in bank["identity"].items():
        for answer in answers:
            for need in ("billing.balance", "technical.api_errors", "billing.refund"):
                if need == "billing.refund" and customer != "C1001":
                    continue
                turns = [Turn(rng.choice(needs[need])), Turn(answer, not_says=(OOS, "verify who you are"))]
                if need in ACTIONS:
                    turns.append(yes())
                turns.append(bye())
                add("spoken_identity", turns, reach=[need], **_effects(need, customer))

    # Follow-ups about the last answer.
    for question in bank["followups"]:
        for need in rng.sample(INFO, 3):
            turns = [Turn(rng.choice(needs[need])), Turn(question, not_says=(OOS, *DIDNT_CATCH)), bye()]
            add("follow_up", turns, customer="C1001", reach=[need])

    # Everyday confirmations and refusals of an action.
    for word in bank["confirm"]:
        need = rng.choice(sorted(ACTIONS))
        customer = "C1001"
        turns = [Turn(rng.choice(needs[need])), Turn(word), bye()]
        add("confirm_yes", turns, customer=customer, reach=[need], **_effects(need, customer))
    for word in bank["refuse"]:
        need = rng.choice(sorted(ACTIONS))
        turns = [Turn(rng.choice(needs[need])), Turn(word), bye()]
        add("confirm_no", turns, customer="C1001", reach=[need])

    # A new need, or goodbye, while a specialist waits for an answer.
    for switch in bank["topic_switch"]:
        turns = [Turn("i want to change my plan"), Turn(switch), yes(), bye()]
        add("topic_switch", turns, customer="C1003", reach=["billing.plan_change", "account.close_account"], requests=["close_account"])
    for word in bank["goodbyes"][:2] + ["bye"]:
        turns = [Turn("i want to change my plan"), Turn(word, says=GOODBYE)]
        add("goodbye_mid_task", turns, customer="C1003", reach=["billing.plan_change"])

    # Two needs in one turn, in both orders, with filler between.
    pairs = [(a, b) for a in INFO for b in INFO if a.split(".")[0] != b.split(".")[0]]
    for a, b in pairs:
        for joiner in ("and", "oh and"):
            text = f"{rng.choice(needs[a])} {joiner} {filler()} also {rng.choice(needs[b])}"
            add("multi_need", [Turn(text, not_says=(OOS,), needs=(a, b)), bye()], customer="C1001", reach=[a, b], multi=True)

    # Short, vague, small talk, gibberish, other languages.
    for text in bank["vague"]:
        add("vague", [Turn(text, says=("?",), not_says=(OOS,))], customer="C1001")
    for text in bank["smalltalk"]:
        add("small_talk", [Turn(text, says=("?",), not_says=(OOS,))], customer="C1001")
    for text in bank["gibberish"]:
        add("gibberish", [Turn(text, says=DIDNT_CATCH, not_says=(OOS,))], customer="C1001")
    for text in bank["foreign"]:
        add("other_language", [Turn(text, says=("english",))])

    # Escalation asked for plainly: a ticket with engineering, not a clarifying question.
    for text in bank["escalation"]:
        turns = [Turn(text, not_says=("just so i get this right",)), Turn("the api returns five hundred errors on every call since this morning"), bye()]
        add("escalation", turns, customer="C1003", reach=["technical.escalation"], tickets=["engineering"])

    # Hostile callers and injections: nothing moves without a real, confirmed need.
    for text in bank["hostile"]:
        add("hostile", [Turn(text), bye()], customer="C1001")

    # Self-correction of the customer number.
    corrections = bank.get("corrections") or [{
        "dev": "my number is c one oh oh two no sorry c one oh oh one and the zip is nine four one oh seven",
        "holdout": "c one zero zero five wait no its c one zero zero one zip nine four one oh seven",
    }[part]]
    for correction in corrections:
        turns = [Turn(rng.choice(needs["billing.balance"])), Turn(correction, not_says=(OOS,)), bye()]
        add("self_correction", turns, reach=["billing.balance"])
    return calls
