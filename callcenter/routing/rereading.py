"""Readings that a clause's construction settles and its words alone cannot.

"cancel" is said both by callers who end their account and by callers who leave one plan for
another ("cancel pro and just put me on starter"). A bag-of-words classifier reads the verb
and picks the closure; the caller meant a plan change, said yes to the read-back, and a
closure request was filed. What tells the two apart is not the verb but what else the caller
said: a place to go (a plan to move to) makes the cancel a move; words that end the whole
thing ("the account", "everything", "switching providers") make it an ending; neither makes
it a question worth asking.

A domain states such a rule (``Rereading``) in its own words, this module applies it with no
words of its own, and ``IntentRouter`` applies it to each clause (``reread``) and across the
clauses of one turn (``reread_turn``: the target may be said in another clause than the
cancel, "cancel my pro plan. starter is enough for us").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from callcenter.routing.intents import Intent


@dataclass(frozen=True, slots=True)
class Rereading:
    """``over``: the readings this rule looks at (e.g. the account closure). ``label``: what a
    clause read as one of them is when ``target`` holds and ``whole`` does not. ``unsure``:
    without a target (and without ``whole``) the clause fits both: the line asks."""

    over: frozenset[str]
    label: str
    target: Callable[[str], bool]  # the words name where the caller wants to go
    whole: Callable[[str], bool]  # the words end the thing outright: the reading stands
    unsure: Callable[[str], bool]  # the words fit both readings when no target is named
    # In a turn whose other clause names the target, a clause read as one of ``over`` joins the
    # target's reading even with no word that ends something, unless it ends everything: a
    # reason said beside the move ("downgrade us to starter, we don't use it enough") is no
    # closure of its own. Off for rules whose ``over`` is a need that stands beside the move.
    joins_reasons: bool = False
    # A clause already read as ``label``, unsure of it, with the target said is sure of it ("...
    # did you guys have a webhook delay last week" at 0.42 as the status board): for rules whose
    # label changes nothing, so no act rests on it.
    settles_own: bool = False
    # Only for a clause said beside other needs of the same turn ("..., and we only have the
    # one account": no closure asked for); a clause said alone keeps its reading.
    beside_only: bool = False

    def applies(self, label: str, labels: list[str]) -> bool:
        return label in self.over and self.label in labels


def never(_text: str) -> bool:
    """A rule's part that never holds (``whole`` or ``unsure`` of a rule that has none)."""
    return False


# How close the two readings of an unsure clause are made: below any threshold, inside any
# ask margin, so the line asks which one (the closure first: it is what the verb says).
_UNSURE = (0.5, 0.45)


def reread(intent: Intent, rules: tuple[Rereading, ...], labels: list[str], within: str | None = None) -> Intent:
    """One clause's reading, settled by the rules that look at it. Within a department (a
    supervisor's reading) only the target settles it, for a clause read as the rule's readings
    (or said with its ending words), and only to a label of that department: the front desk
    already chose the department."""
    for rule in rules:
        if rule.beside_only:
            continue
        if within is not None:
            mine = rule.label.startswith(within.rstrip("/") + "/")
            if mine and (intent.in_scope or intent.label in rule.over) and rule.target(intent.text) and not rule.whole(intent.text) and (
                    rule.unsure(intent.text) or intent.label in rule.over | {rule.label}):
                return replace(intent, label=rule.label, confidence=1.0, alternatives=())
            continue
        text = intent.text
        if rule.whole(text) and rule.unsure(text) and intent.label not in rule.over:
            # an ending said of the whole thing ("close everything down"), read first as another
            # need with the ending close behind: the construction says which
            ending = next((lab for lab, _ in intent.alternatives if lab in rule.over), None)
            if ending is not None:
                return replace(intent, label=ending, confidence=1.0, alternatives=())
        if not rule.applies(intent.label, labels) and intent.label != rule.label:
            continue
        if rule.whole(text):
            continue
        if rule.target(text):
            if intent.label == rule.label:
                # already the move; an ending said with it is the rule's own construction
                sure = rule.unsure(text) or rule.settles_own
                return replace(intent, confidence=1.0, alternatives=()) if sure else intent
            return replace(intent, label=rule.label, confidence=max(intent.confidence, 1.0), alternatives=())
        if rule.unsure(text):
            first = next(iter(sorted(rule.over))) if intent.label == rule.label else intent.label
            return replace(intent, label=first, confidence=_UNSURE[0], alternatives=((rule.label, _UNSURE[1]),))
    return intent


def beside(intents: list[Intent], rules: tuple[Rereading, ...], said: str = "") -> list[Intent]:
    """The readings of clauses said beside something else the caller said (another need, or who
    they are), settled by the rules that hold only there ("..., we're on pro" is no plan change).
    `said`: all the words beside it, when the rule may hold of them as a whole ("oh and we are on
    pro" after who the caller is; its clause is read without the "oh and")."""
    out = list(intents)
    for rule in (r for r in rules if r.beside_only):
        out = [replace(i, label=rule.label, confidence=1.0, alternatives=())
               if i.label in rule.over and (rule.target(i.text) or (said and rule.target(said))) and not rule.whole(i.text)
               else i for i in out]
    return out


def reread_turn(intents: list[Intent], rules: tuple[Rereading, ...], labels: list[str], turn: str = "") -> list[Intent]:
    """Across one turn's clauses: a target said in any clause makes every reading the rule
    looks at that ends something without a target (and not outright) the rule's label, and the target's own
    clause ("starter is plenty for us", which may read as nothing or as another need of
    the department) joins it, so the
    specialist hears where the caller wants to go. With no target anywhere, words that end
    the whole thing said in a clause of their own ("i want to cancel. we're done with you
    guys, we moved to another provider") settle an unsure ending: the reading stands."""
    out = _ended_beside(list(intents), rules, labels, turn)
    if sum(i.in_scope and not i.label.startswith("meta/") for i in out) > 1:  # a greeting is no other need
        out = beside(out, rules)
    for rule in rules:
        if rule.beside_only:
            continue
        if rule.label not in labels or not any(rule.target(i.text) for i in out):
            continue
        # only a clause that ends something without saying where to ("cancel my pro plan") waits
        # for its target in another clause; any other reading there is a need of its own
        moved = [k for k, i in enumerate(out)
                 if i.label in rule.over and (rule.unsure(i.text) or rule.joins_reasons) and not rule.whole(i.text)]
        if not moved:
            continue
        first = moved[0]
        texts = [out[k].text for k in moved]
        for k, intent in enumerate(out):
            if k not in moved and intent.label != rule.label and rule.target(intent.text):
                texts.append(intent.text)
                moved.append(k)
        head = out[first]
        joined = ". ".join(t.rstrip(".") for t in texts)
        merged = replace(head, label=rule.label, confidence=max(head.confidence, 1.0), alternatives=(), text=joined)
        out = [merged if k == first else i for k, i in enumerate(out) if k == first or k not in moved]
    return out


def _ended_beside(intents: list[Intent], rules: tuple[Rereading, ...], labels: list[str], turn: str) -> list[Intent]:
    rest = turn
    for intent in intents:  # only words no need was read in: a reason, not another request
        if intent.in_scope:
            rest = rest.replace(intent.text, " ")
    out = intents
    for rule in rules:
        if rule.label not in labels or any(rule.target(i.text) for i in out) or rule.target(rest):
            continue
        # the reason may read as the ending itself ("... honestly we don't use it any more")
        ended = rule.whole(rest) or any(i.label in rule.over and rule.whole(i.text) for i in out)
        out = [replace(i, confidence=1.0, alternatives=()) if ended and i.label in rule.over
               and (rule.label, _UNSURE[1]) in i.alternatives else i for i in out]
    return out

