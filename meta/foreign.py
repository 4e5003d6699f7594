"""Turns said in another language, read through the domains' glossaries (meta/gist.py).

A mixin of the meta-supervisor, kept apart so the supervisor's own routing stays readable:
nothing acts on a gloss. Read-only needs are answered in English; a change is named and asked
for in English, where its specialist reads it back (`_asked_to_act`); a task that changes
nothing by itself runs on the gloss (`_gist_task`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from livekit.agents import llm

from callcenter.llm.embedded import TRANSFER, domain_confidence, route_call
from callcenter.llm.protocol import SETTLED_EXTRA
from callcenter.routing import Intent
from callcenter.routing.discourse import refers_back
from callcenter.routing.topic_only import topic_only
from meta import gist, moves, offers
from meta.fanout import fan_out

if TYPE_CHECKING:
    from domains.base import DomainSpec, SpecialistSpec
    from domains.state import CallState
    from meta.fanout import Branch

_LISTED = 3  # needs a glossed turn read apart at its commas must name to be read so


class ForeignTurns:
    """The meta-supervisor's handling of glossed turns; `MetaSupervisor` provides the rest."""

    state: CallState
    domains: tuple[DomainSpec, ...]
    _gloss_offer: offers.Offer | None
    _gloss_after_verify: str | None
    _gist_answered: frozenset[str]

    if TYPE_CHECKING:  # provided by MetaSupervisor
        def _specialist(self, domain: str | None, name: str | None) -> SpecialistSpec | None: ...
        def _domain(self, name: str | None) -> DomainSpec | None: ...
        def _names_need(self, text: str) -> bool: ...
        def _parallel_branches(self, intents: list, *, anyone: bool = False) -> list[Branch] | None: ...
        def _topic_branch(self, intents: list[Intent]) -> list[Branch] | None: ...
        def _narrowed(self, text: str, *, relative_only: bool = False) -> tuple[DomainSpec, SpecialistSpec, str] | None: ...

    def _read_in_english(self, text: str) -> list[Intent] | None:
        """A turn that mixes English with another language's words ("hallo, ich kann mich nicht
        einloggen, the account is gesperrt, what can i do"), read unsurely as said: its gloss's
        needs, when the router is sure of every one and none changes anything (nothing acts on a
        gloss; a change is read back in English by its task anyway)."""
        router = self.state.router
        glossaries = gist.glossaries(self.domains)
        if not self._unseen_foreign(text):
            return None  # no word of another language the router never saw: the words as said stand
        english = gist.gloss(text, glossaries)
        if not english:
            return None
        intents = router.detect(english)
        sure = intents and all(i.in_scope and i.confidence >= router.threshold for i in intents)
        if not sure or any(spec is None or spec.changes for spec in (self._specialist(i.domain, i.name) for i in intents)):
            return None
        return intents

    def _unseen_foreign(self, text: str) -> bool:
        """The words hold one of another language's that the glossaries know and the router never saw."""
        router, glossaries = self.state.router, gist.glossaries(self.domains)
        words = re.findall(r"[^\W\d_]+(?:'[^\W\d_]+)?", text.lower())
        # (a word the glossaries keep as it is, a place's name, is no other language's)
        return any(not router.knows(w) and any(w in g and g[w] != w for g in glossaries) for w in words)

    def _names_need_in_gloss(self, text: str) -> bool:
        """Words in another language that name a department's need once glossed ("merci,
        combien je dois" does; "merci, c'est tout pour aujourd'hui" does not)."""
        english = gist.gloss(text, gist.glossaries(self.domains), english=False)
        return bool(english) and self._names_need(english)

    def _action_apart(self, apart: str, whole: str) -> bool:
        """A glossed turn's clauses read apart show an action, sure, beside other words, that the
        whole gloss read as one clause lost ("calls failed outage refund" read only as the
        errors): the action is understood, and asked for in English (_asked_to_act). Only then:
        a question glossed apart may read as two ("..., c'est quoi le probleme" as the board)."""
        router = self.state.router
        read = router.detect(apart)
        had = {i.label for i in router.detect(whole)}
        return len(read) > 1 and any(
            i.in_scope and i.confidence >= router.threshold and i.label not in had
            and (spec := self._specialist(i.domain, i.name)) is not None and spec.changes for i in read)

    def _more_apart(self, apart: str, whole: str) -> bool:
        """A glossed turn's sentences read apart ask, each surely, for more than the whole gloss
        read as one (which held the errors' words and lost the board's question), and for all it
        read: only then apart; clauses cut at a comma stay whole (_action_apart)."""
        router = self.state.router
        read = [i for i in router.detect(apart) if i.in_scope and i.confidence >= router.threshold]
        had = {i.label for i in router.detect(whole)}
        return len(read) > max(len(had), 1) and had <= {i.label for i in read}

    def _listed_apart(self, apart: str, whole: str) -> bool:
        """A glossed turn's clauses cut at commas read as a list of three needs or more, each sure,
        where the whole gloss read fewer ("quel est mon solde, ma dernière facture, et y a-t-il une
        panne"); two clauses stay whole ("..., c'est quoi le probleme" asks about the errors)."""
        router = self.state.router
        read = [i for i in router.detect(apart) if i.in_scope and i.confidence >= router.threshold]
        return len(read) >= _LISTED and self._more_apart(apart, whole)

    async def _gist(self, text: str) -> str | None:
        """A read-only question asked in another language, answered in English (meta/gist.py)."""
        english = gist.gloss(text, gist.glossaries(self.domains))
        apart = gist.gloss(text, gist.glossaries(self.domains), apart=True)
        if apart != english and (self._action_apart(apart, english) or self._listed_apart(apart, english)):
            # "..., je voudrais un remboursement": two needs, read as two once glossed apart;
            # "quel est mon solde, ma dernière facture, et ...": a list of three, the whole read two
            english = apart
        elif (said := gist.gloss(text, gist.glossaries(self.domains), by_sentence=True)) != english and self._more_apart(said, english):
            english = said  # "¿hay algún incidente? tenemos errores quinientos": two questions, two answers
        if english and (moves.about_last_answer(english) or refers_back(english) or english.startswith("and ")):
            # "¿y cuándo lo arreglan?" after the incident, "¿y cuándo vence?" after the balance:
            # a follow-up about the last answer
            answer = moves.follow_up_answer(english, self.state.caller.results, self.state.router)
            if answer:
                return f"{gist.IN_ENGLISH} {answer}"
            if self._narrowed(english, relative_only=True) is not None:
                return None  # "und den Monat davor?" after the invoices: that task, narrowed (_gist_task)
        intents = self.state.router.detect(english) if english else []
        branches = self._parallel_branches(intents) if intents else None
        if not branches and len(intents) > 1:
            # several needs, some read-only ("combien je dois, et pourquoi je ne peux pas me
            # connecter?"): those answered; one more that changes nothing is its task's (_gist_task)
            each = [(i, self._parallel_branches([i])) for i in intents]
            # "..., je voudrais un remboursement": an action beside them is understood and asked
            # for in English, as when said alone (_asked_to_act)
            left = [i for i, b in each if not b and i.confidence >= self.state.router.threshold]
            # several ("je voudrais changer mon numéro ... et aussi où en est mon ticket"): the first
            # change named and asked for with the rest, each taken in turn on a yes
            asked = self._asked_to_act(left, english, text) if left else None
            if asked is not None and not any(b for _, b in each):
                return asked
            if any(b for _, b in each):
                self._gist_answered = frozenset(i.label for i, b in each if b)
                answered = await fan_out(self.state, [b[0] for _, b in each if b], self.state.settings.fanout_timeout_s,
                                         closing=len(self._gist_answered) == len(intents) and asked is None)
                return f"{gist.IN_ENGLISH} {answered} {asked}" if asked else f"{gist.IN_ENGLISH} {answered}"
        if not branches and (len(english.split()) == 1 or (english.startswith("and ") and "?" in text)):
            # the gloss kept only a topic's word ("quero saber o meu plano atual" -> "plan"), or
            # asks on about one ("e il piano pro?" -> "and plan pro"): nothing to act on, so its
            # read-only lookup answers, if it has one
            branches = self._topic_branch(intents)
        if not branches:
            if not topic_only(english) and (asked := self._asked_to_act(intents, english, text)) is not None:
                return asked
            if intents and not self.state.caller.verified and self._parallel_branches(intents, anyone=True):
                # a lookup that needs to know who is asking: the number and ZIP first, then the answer
                self._gloss_after_verify = english
                return gist.VERIFY_FIRST
            return None
        return f"{gist.IN_ENGLISH} {await fan_out(self.state, branches, self.state.settings.fanout_timeout_s)}"

    def _asked_to_act(self, intents: list[Intent], english: str, said: str = "") -> str | None:
        """Needs the router is sure of, in another language, one of whose specialists changes
        something (a plan change, a refund, a lock): nothing acts on a gloss, so the caller hears
        what it understood and is asked to say it in English, where it is read back; a yes takes
        the first change, then the other needs in turn. Only for a gloss that says more than its
        topic ("my account" asks for nothing). `said`: the turn as said, for the values a gloss
        drops (an email or a phone number, said in English words)."""
        router = self.state.router
        if not intents or any(domain_confidence(i) < router.threshold for i in intents):
            return None
        if len({i.domain for i in intents}) < len(intents):
            # "ich wurde doppelt belastet, wo ist meine rückerstattung": two readings of one
            # department's matter (the refund, its status) are no two needs to offer together
            return None
        specs = [self._specialist(i.domain, i.name) for i in intents]
        first = next((n for n, spec in enumerate(specs)
                      if spec is not None and spec.acts(intents[n].text if len(intents) > 1 else english)), None)
        if first is None or any(spec is None for spec in specs):
            return None
        spec, intent = specs[first], intents[first]
        assert spec is not None  # for the type checker: every spec was found above
        words = intent.text if len(intents) > 1 else english
        values = gist.values_of(said, self.state.slots)  # whichever need it is for reads it
        request = f"{words} {values}".strip()
        rest = tuple(f"{i.text} {values}".strip() for n, i in enumerate(intents) if n != first)
        # a yes takes it up: its specialist reads the action back in English, and acts on a yes to that
        self._gloss_offer = offers.Offer(intent.domain, request, spec.name, settles=spec.name, then=rest)
        names = [spec.named_for(words)] + [s.spoken_name for n, s in enumerate(specs) if n != first and s is not None]
        return gist.ASK_IN_ENGLISH.format(what=" and ".join(names))

    def _gist_task(self, text: str, answered: frozenset[str] = frozenset()) -> llm.FunctionToolCall | None:
        """A need in another language that no lookup answers and whose task changes nothing
        by itself (a sign-in problem: the reset link goes to the address on file; a ticket's
        or a refund's status): that task, in English, on the gloss. What it may offer to do
        (unlock the account) is read back in English and waits for a yes, as for anyone."""
        english = gist.gloss(text, gist.glossaries(self.domains))
        narrowed = self._narrowed(english, relative_only=True) if english.startswith("and ") else None
        if narrowed is not None and not narrowed[1].changes:
            call = route_call(f"{TRANSFER}{narrowed[0].name}", {"request": narrowed[2]}, path="fast", confidence=None)
            call.extra[SETTLED_EXTRA] = narrowed[1].name
            return call
        intents = [i for i in self.state.router.detect(english) if i.label not in answered] if english else []
        if len(intents) != 1:
            return None
        intent = intents[0]
        domain = self._domain(intent.domain)
        spec = domain.specialist(intent.name) if domain is not None else None
        if domain is None or spec is None or spec.acts(english) or domain_confidence(intent) < self.state.router.threshold:
            return None
        call = route_call(f"{TRANSFER}{domain.name}", {"request": english}, path="fast", confidence=round(domain_confidence(intent), 4))
        call.extra[SETTLED_EXTRA] = spec.name
        return call
