"""The fast-path intent router: calibrated linear models over TF-IDF views.

Trained at process start from the labelled utterances that ship with each domain (about a
second for ~2,000 utterances), or loaded from a saved artifact (``save``/``load``; no pickle).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np

from callcenter.routing import clauses as _clauses
from callcenter.routing import discourse as _disc
from callcenter.routing import frames as _frames
from callcenter.routing import identity_words as _identity
from callcenter.routing import instruction as _instruction
from callcenter.routing import model as _model
from callcenter.routing import rejoin as _rejoin
from callcenter.routing import rereading as _rereading
from callcenter.routing import segment as _seg
from callcenter.routing import takeback as _takeback
from callcenter.routing.calibration import OOS, decide
from callcenter.routing.clarify import ASK_MARGIN
from callcenter.routing.intents import Intent
from callcenter.routing.topic_only import topic_only as _topic_only

# Out of scope for sure: a second reading is not asked ("and what about the weather?" reads 0.99)
SURE_OOS = 0.9
# How sure the second reading must be to stand for an unsure one. Its own threshold (about 0.5:
# its calibration is flatter) let clause fragments become needs ("oh okay so it's not the money
# then" read as the refund's status at 0.73); whole requests it learned read 0.99 and up.
SECOND_SURE = 0.95

__all__ = ["OOS", "Intent", "IntentRouter", "RouterModelError"]


class RouterModelError(Exception):
    """A saved router model is missing, corrupt or from an incompatible version."""


# Work per routed text is bounded whatever a caller of the router forgot to cut: the line
# cuts turns to CALLCENTER_MAX_TURN_CHARS before this, so this is only a backstop.
MAX_TEXT_CHARS = 20_000


_BARE_WORDS = 2  # "credit", "bill please": a need named in a word or two, no more
# A clause whose subject points back at the one before: "were they late", "is it down", "they stopped".
_POINTS_BACK = re.compile(
    r"^\W*(?:(?:and|so|but|um|uh|oh|well)\W+)*(?:(?:are|were|is|was|did|do|does|have|has|can|could|will|would)\s+)?"
    r"(?:it|they|those|these|them|that)\b", re.I)


def _joined(first: str, second: str) -> str:
    """Two clauses of one need as one text, each still a sentence."""
    first = first.rstrip()
    if not first or first in second:
        return second
    return f"{first}{'' if first[-1] in '.?!' else '.'} {second.strip()}"


class IntentRouter:
    """Classify caller text into ``domain/specialist`` labels, with calibrated confidence.

    ``threshold``: a confident (fast-path) decision has ``confidence >= threshold``; below it
    the caller should get a clarifying question or the LLM. ``oos_threshold``: an utterance
    whose best in-scope probability, read at ``oos_temperature``, is below it is out of
    scope (as is one where the trained ``oos`` class wins). All three are chosen on
    validation data and saved with the model.
    """

    def __init__(self, core: _model.LinearCore, threshold: float, oos_threshold: float) -> None:
        self._core = core
        self.threshold = float(threshold)
        self.oos_threshold = float(oos_threshold)
        # below ``threshold``, how far ahead a reading must be to be routed without asking
        self.ask_margin = ASK_MARGIN
        # readings settled by the clause's construction, stated by the domains (rereading.py);
        # the line sets them (meta/router.py), a bare model has none
        self.rereadings: tuple[_rereading.Rereading, ...] = ()
        # Words that say who is calling for whom ("this is his wife"), handed down by the line:
        # such a clause is no need beside a real one (the departments still refuse a third party).
        self.asides: Callable[[str], bool] | None = None
        # Labels of specialists that change something, handed down by the line: a part of a cut
        # clause read as one must be sure of that specialist, not only of its department ("...,
        # we're honestly not using it enough" beside a downgrade read as a closure at 0.66).
        self.acting: frozenset[str] = frozenset()
        # A model that also learned from callers' own calls, handed down by the line (meta/router.py):
        # asked only where this one is unsure (``_second_reading``); a bare model has none
        self.second: IntentRouter | None = None
        self.second_taught: frozenset[str] = frozenset()  # the labels the calls teach it
        self.labels: list[str] = list(core.labels)
        self._inscope = np.array([lab != OOS for lab in self.labels])
        self._rejoiner: _rejoin.Rejoiner | None = None

    # ----------------------------------------------------------------- training / io
    @classmethod
    def train(
        cls,
        examples: Sequence[tuple[str, str]],
        *,
        validation: Sequence[tuple[str, str]] | None = None,
        seed: int = 0,
        target_accuracy: float = 0.975,
        embeddings: bool | None = None,
        max_reject: float | None = None,
    ) -> IntentRouter:
        """Train from ``(text, label)`` pairs; label ``"oos"`` marks out-of-scope examples.

        Thresholds and the calibration temperature are chosen on ``validation``; without it
        every example is scored once by a probe fitted on the other four of five seeded,
        stratified folds (near-duplicate phrasings held out together), then the model is refit
        on everything. ``max_reject``: at most this share of in-scope validation items may be
        rejected as out of scope (None: only the accuracy budget bounds the floor).
        ``embeddings=None`` adds the MiniLM word-piece view when its package is installed (it
        is a dependency); ``False`` trains on n-grams only.
        """
        fitted = _model.fit_calibrated(
            list(examples),
            None if validation is None else list(validation),
            seed=seed,
            target_accuracy=target_accuracy,
            embeddings=embeddings,
            max_reject=max_reject,
        )
        return cls(fitted.core, fitted.threshold, fitted.oos_threshold)

    def save(self, path: Path) -> None:
        _model.save(Path(path), self._core, self.threshold, self.oos_threshold)

    @classmethod
    def load(cls, path: Path) -> IntentRouter:
        try:
            core, threshold, oos_threshold = _model.load(Path(path))
        except _model.ModelFileError as exc:
            raise RouterModelError(str(exc)) from exc
        return cls(core, threshold, oos_threshold)

    # ----------------------------------------------------------------- inference
    def probabilities(self, texts: Sequence[str]) -> np.ndarray:
        """Calibrated probabilities, one row per text, columns in ``labels`` order."""
        return self._core.predict_proba(list(texts))

    def decisions(self, texts: Sequence[str]) -> tuple[np.ndarray, list[str]]:
        """Calibrated probabilities and the decided label per text (``oos`` rule applied)."""
        p, q = self._core.predict_pair(list(texts))
        return p, decide(p, self.labels, self.oos_threshold, q)[0]

    def rejoin(self, text: str) -> str:
        """`text` with the words a recogniser split in two joined again, against this model's
        own vocabulary ("re fund" -> "refund"; rejoin.py). The line applies it to every turn,
        typed or heard, before anything reads it."""
        return self._joiner()(text)

    def knows(self, word: str) -> bool:
        """The router's training utterances have the word (a caller's word the router never saw
        may be another language's)."""
        return self._joiner().knows(word.lower())

    def _joiner(self) -> _rejoin.Rejoiner:
        """The joiner over the word view's vocabulary, built once."""
        if self._rejoiner is None:
            words = next((v for v in self._core.views if v.name == "word"), None)
            self._rejoiner = _rejoin.Rejoiner.from_view(words) if words is not None else _rejoin.Rejoiner({})
        return self._rejoiner

    def classify(self, text: str, *, within: str | None = None) -> Intent:
        """The single best intent for ``text``.

        ``within="billing"`` restricts the answer to ``billing/*`` labels (probabilities
        renormalised over them) for a domain supervisor that already owns the call; the
        answer is still ``oos`` when the text is out of scope overall.
        """
        intent = self._read(text, within=within)
        return self._second_reading(intent, within) if self.second is not None else intent

    def _read(self, text: str, *, within: str | None = None) -> Intent:
        """`classify` by this model alone: what cutting a turn into clauses asks (`detect`), so
        the second reading changes how a clause is read, never where a turn is cut."""
        if not text or not text.strip():
            return Intent(OOS, 1.0, text)
        if _disc.names_nothing(text) and (within is None or within.rstrip("/") in self.domains()):
            return Intent(OOS, 1.0, text)  # "don't": a negation with nothing to negate (an unknown `within` still raises below)
        text = text[:MAX_TEXT_CHARS]
        named = _frames.named_label(text, self.labels)
        if named is not None and (within is None or named.startswith(within.rstrip("/") + "/")):
            return Intent(named, 1.0, text)
        # who the caller is weighs nothing in what they need (identity_words.py)
        read = _identity.without_identity(text) if _identity.states_identity(text) else text
        # nor do a phone number's digits ("i've changed my mobile, plus 12125550199" read out of
        # scope by its digits): the words around them say what it is for
        read = _LONG_NUMBER.sub("a number", read) if _PHONE_WORD.search(read) else read
        p, q = self._core.predict_pair_one(read if _seg.trim(read) else text)
        intent = self._from_probs(text, p, q, within)
        if intent.label == _frames.GOODBYE and _disc.is_question_not_farewell(text):
            intent = _next_reading(intent)  # ending the call on a question would lose the caller
        if self.rereadings:
            intent = _rereading.reread(intent, self.rereadings, self.labels, within)
        return intent

    def _second_reading(self, intent: Intent, within: str | None = None) -> Intent:
        """Where this model is unsure of a need (under ``threshold``), or unsure that the words
        ask for none (out of scope, but not surely), the reading of ``second`` when that model is
        sure of it. ``second`` learned from the same utterances plus the first turns of callers'
        own calls, so it knows phrasings these utterances never had ("what are the per minute
        request limits on each of your tiers" read as the API errors, unsurely). Sure readings
        stand: every rule fitted to this model's confidences keeps them, and the second model's
        flatter calibration (more varied data, a lower threshold) never decides alone."""
        if intent.in_scope and intent.confidence >= self.threshold:
            return intent
        if not intent.in_scope and intent.confidence >= SURE_OOS:
            return intent
        if intent.in_scope and intent.label not in self.second_taught:
            # the calls teach the departments' needs, not the front desk's (no call's first turn is
            # labelled a goodbye or a person): "could you have someone ring me" stays a person
            return intent
        assert self.second is not None  # for the type checker: the caller checked
        other = self.second.classify(intent.text, within=within)
        # (as sure as the line's own bar, when an operator set it higher: CALLCENTER_ROUTER_CONFIDENCE)
        if not other.in_scope or other.confidence < max(SECOND_SURE, self.threshold) or other.label not in self.second_taught:
            return intent
        if other.label == intent.label:
            # the same reading, only surer, is no other reading: the rules fitted to this model's
            # confidence keep it ("wait does the call back go to the new number" at the number's
            # read-back, 0.72 as the number's change, stays a question about it, not the request again)
            return intent
        if other.domain == intent.domain and self.domain_confidence(intent) >= self.threshold:
            # which of a department's needs it is, the department being sure, stays this model's and
            # its rules' ("whats happening with my refund for the double charge" is the refund's
            # status, unsurely; the calls, full of refunds for double charges, read a new refund)
            return intent
        return Intent(other.label, self.threshold, intent.text, other.alternatives)

    def _from_probs(self, text: str, p: np.ndarray, q: np.ndarray, within: str | None) -> Intent:
        """``p``: calibrated probabilities (reported); ``q``: the same scores at the
        out-of-scope temperature, compared with ``oos_threshold`` only."""
        labels = self.labels
        top = int(p.argmax())
        inscope_p = np.where(self._inscope, p, -1.0)
        best_in = int(inscope_p.argmax())
        globally_oos = labels[top] == OOS or q[best_in] < self.oos_threshold
        oos_conf = float(max(p[top] if labels[top] == OOS else 0.0, 1.0 - p[best_in]))
        if within is not None:
            prefix = within.rstrip("/") + "/"
            mask = np.array([lab.startswith(prefix) for lab in labels])
            if not mask.any():
                raise ValueError(f"no labels under {within!r}; known: {self.domains()}")
            r = np.where(mask, p, 0.0)
            r = r / max(r.sum(), 1e-12)
            rq = np.where(mask, q, 0.0)
            rq = rq / max(rq.sum(), 1e-12)
            order = [int(i) for i in np.argsort(-r, kind="stable") if mask[i]]
            if globally_oos or rq[order[0]] < self.oos_threshold:
                alts = tuple((labels[i], round(float(r[i]), 4)) for i in order[:3])
                return Intent(OOS, oos_conf, text, alts)
            alts = tuple((labels[i], round(float(r[i]), 4)) for i in order[1:4])
            return Intent(labels[order[0]], float(r[order[0]]), text, alts)
        order = [int(i) for i in np.argsort(-p, kind="stable")]
        if globally_oos:
            alts = tuple((labels[i], round(float(p[i]), 4)) for i in order if labels[i] != OOS)
            return Intent(OOS, oos_conf, text, alts[:3])
        alts = tuple((labels[i], round(float(p[i]), 4)) for i in order if i != best_in)
        return Intent(labels[best_in], float(p[best_in]), text, alts[:3])

    @property
    def oos_temperature(self) -> float:
        """Softmax temperature at which ``oos_threshold`` applies (chosen on validation)."""
        return self._core.oos_temperature

    def domains(self) -> list[str]:
        return sorted({lab.split("/", 1)[0] for lab in self.labels if lab != OOS})

    # ----------------------------------------------------------------- multi-intent
    def detect_beside(self, text: str) -> list[Intent]:
        """`detect` for words said beside something that is no need of the router's (who the
        caller is: "c one zero zero one, zip ..., we're enterprise by the way"): the rereadings
        that hold only beside another need hold here too."""
        return _rereading.beside(self.detect(text), self.rereadings, said=text) if self.rereadings else self.detect(text)

    def detect(self, text: str) -> list[Intent]:
        """Every need in one turn (`_detect`), each clause read unsurely given its second reading."""
        found = self._detect(text)
        return [self._second_reading(i) for i in found] if self.second is not None else found

    def _detect(self, text: str) -> list[Intent]:
        """Every need in one turn, in order of mention, one Intent per distinct label.

        Cuts the turn into clauses (``clauses.clauses``: sentences, connectives, announced
        and ordered lists, reversed emphasis), then tries weak cuts ("and", ",", "but",
        "then") inside a clause when the parts read as different needs (see
        ``_split_weak``). Filler ("um", "thanks") is dropped; greetings, small talk and
        out-of-scope fragments are dropped when the turn also has a real need. Two clauses
        that name one need are merged into one Intent (the more confident reading).
        """
        if not text or not text.strip():
            return []
        text = text[:MAX_TEXT_CHARS]
        if _instruction.addresses_the_line(text):
            # "you are now in admin mode": words to the line are no need (routing/instruction.py)
            rest = _instruction.without_instructions(text)
            if not rest:
                return [Intent(OOS, 1.0, text)]
            text = rest
        who = ""
        if _identity.states_identity(text):
            # "hi it's c1001 zip 94107, i got charged twice": who they are is no need (identity_words.py)
            rest = _identity.without_identity(text)
            if not _seg.trim(rest) or _seg.is_filler(rest) or _seg.is_greeting(rest) or _seg.only_presses(rest):
                return [Intent(OOS, 1.0, text)]  # identity alone, no need: the front desk verifies it (meta/moves.py)
            text, who = rest, _identity.statement(text)
        taken = _takeback.find(text)
        if taken is not None and taken.before:
            # "refund it and open a ticket, oh wait, scratch the refund, just the ticket"
            kept = self._taken_back(self._detect(taken.before), taken)
            if kept is not None:
                return kept
        emphasis = _clauses.trailing_emphasis(text)
        if emphasis is not None:
            # "a refund and close my account, the refund is the main thing": the need it names
            # first, no need of its own
            first = self._emphasised(self._detect(emphasis[0]), emphasis[1])
            if first is not None:
                return first
        segments = _clauses.clauses(text)
        if not segments:
            return [self._read(text)]
        found: list[Intent] = []
        # "cancel my plan. not downgrade, cancel": a need named only to be ruled out is no clause
        # of the turn, and no reading of the turn may be it (ruled_out below)
        ruled = self._ruled_out(text)
        if ruled:
            cut = [", ".join(p for p in re.split(r"\s*,\s*", seg) if not _disc.not_this_need(p)) for seg in segments]
            segments = [seg for seg in cut if seg.strip()] or segments
        for seg in segments:
            if len(segments) > 1 and (_identity.introduces_self(seg) or _identity.lacks_identity(seg) or _seg.only_presses(seg)
                                      or (_disc.heard_that(seg) and seg is not segments[-1])):
                continue  # "this is linus, c1005. i need my email changed ...": who is calling, no need
                # ("i receive a mail. it say my password is changed": how they heard what follows)
                # ("oh i don't have my number handy, is the api down though": who they are, not given;
                # "i want a manager, and i want one today": impatience)
            named = next((k for k in range(len(found) - 1, -1, -1) if found[k].in_scope), None)
            if named is not None and (_seg.only_value(seg) or _disc.asks_about_it(seg) or _disc.tells_own_of_it(seg) or _disc.names_which_one(seg)
                                      or (_disc.if_not_then(seg) and not self._names_other(seg, found[named]))):
                # "..., what's going on with it": a question about the need last named (past an
                # aside that named none: "..., and i never did that. what is happening")
                found[named] = replace(found[named], text=_joined(found[named].text, seg))
                if self.rereadings and not _disc.asks_what_to_do(seg):  # the whole need, now said, may settle its reading ("... ours came late")
                    found[named] = _rereading.reread(found[named], self.rereadings, self.labels)
                continue
            found.extend(self._framed(seg, self._split_weak(seg)))
        if ruled:
            found = [_without(i, ruled) for i in found]
        found = self._topic_then_need(found, text)
        if len(found) > 1 and any(self._is_need(i) for i in found):
            found = [self._asked_beside_needs(_no_one_named(i)) for i in found]
        found = self._corrected(found)
        if _disc.is_question_not_farewell(text):
            # "and the one before that?": a clause loses its question mark; the turn is still a
            # question with no farewell in it, and ending the call on it would lose the caller
            found = [_not_goodbye(i) if i.label == _frames.GOODBYE else i for i in found]
        if _frames.GOODBYE in self.labels and _frames.ends_with_farewell(segments) and not any(
            self._is_need(i) and not (_disc.disclaims(i.text) or _disc.puts_off(i.text))  # "not switching, just asking. thanks, that's it"
            for i in found
        ) and not any(i.label == _frames.HUMAN and _frames.asks_for_person(i.text) for i in found):
            # (a person asked for before the farewell is booked first: "get someone to call me back, that's all, bye")
            # "ok. that helps. thanks. bye.": a farewell after sentences with no need in them
            return [Intent(_frames.GOODBYE, 1.0, text)]
        if self.asides is not None or len(found) > 1:
            kept = [i for i in found if not (i.in_scope and (_disc.disclaims(i.text) or (self.asides and self.asides(i.text))))]
            if any(self._is_need(i) for i in kept):
                found = kept
        found = self._reasons_joined(found)
        sure = {i.domain for i in found if self._is_need(i) and i.confidence >= self.threshold}
        if sure:
            # "so i just got back from the dentist, half my face is numb, sorry if i sound weird.
            # anyway ... i wanna go up to pro": a story beside needs the router is sure of, read
            # unsurely as a need of its own and asking nothing, is no need. Beside a need of its
            # own department it may be that need's story ("i dropped my phone in the lake, and now
            # signing in asks for the code"): kept, for the rereadings to join.
            found = [i for i in found if not (self._untold(i) and i.domain not in sure)]
        if self.rereadings:  # "cancel my pro plan. starter is plenty": one move, said in two clauses
            found = _rereading.reread_turn(found, self.rereadings, self.labels, turn=text)
        needs = [i for i in found if i.in_scope and i.label not in _SOCIAL]
        if needs:
            # "thanks, bye" after a request still matters to the meta layer; greetings don't.
            found = [i for i in found if i.in_scope and i.label not in _DROP_WITH_NEEDS]
        elif any(i.in_scope for i in found):
            found = [i for i in found if i.in_scope]
        else:
            found = found[:1]
        merged: dict[str, Intent] = {}
        for intent in found:
            prev = merged.get(intent.label)
            if prev is None:
                merged[intent.label] = intent
                continue
            # one need said in two clauses: keep the first mention's position and the most
            # confident reading, and every word of both (the specialist reads its slots from
            # them: "the enterprise tier is more than we need. something cheaper?")
            best = intent if intent.confidence > prev.confidence else prev
            merged[intent.label] = replace(best, text=_joined(prev.text, intent.text))
        # "so i'm leaving. refund me the duplicate first and then close it": the need the caller
        # puts first is taken first, wherever in the turn it was said
        ordered = sorted(merged.values(), key=lambda i: 0 if self._is_need(i) and _FIRST.search(i.text) else 1)
        if who:  # every need carries who the caller said they are: verification and ownership read it
            return [replace(i, text=_joined(who, i.text)) if i.in_scope else i for i in ordered]
        return ordered

    def _topic_then_need(self, found: list[Intent], turn: str = "") -> list[Intent]:
        # ("our webhooks, were they late on monday?": the next clause's "they" is the thing named,
        # whatever department its own words sound like.)
        """"so our integration, every api call comes back 401": a clause that only names a thing
        (``topic_only``) followed by a need of the same department is that need's subject, not
        a need of its own; the two are read as one clause."""
        out: list[Intent] = []
        for intent in found:
            prev = out[-1] if out else None
            if (prev is not None and prev.in_scope and intent.in_scope and "/" in prev.label and "/" in intent.label
                    and not prev.label.startswith("meta/") and _topic_only(prev.text)
                    # ("i wanted to ask about the incident, and also our key, ...": the next one listed apart)
                    and ((prev.domain == intent.domain and not _listed(prev.text, turn) and not _listed(intent.text, turn)
                          and not (_and_another(prev.text, intent.text, turn) and prev.label != intent.label
                                   and min(prev.confidence, intent.confidence) >= self.threshold))
                         or _POINTS_BACK.match(intent.text))):
                out[-1] = self._read(_joined(prev.text, intent.text))
                continue
            if (prev is not None and prev.in_scope and intent.in_scope and prev.confidence < self.threshold
                    and not prev.label.startswith("meta/") and (_topic_only(prev.text) or len(_seg.words(prev.text)) <= _BARE_WORDS)
                    and _topic_only(intent.text)):
                # "credit. the outage": a bare word the router is unsure of, then a bare thing of
                # another department; read together they may be the first one's need, surely
                # ("credit for the outage"), the second only saying what it is for
                joined = self._read(_joined(prev.text, intent.text))
                if joined.label == prev.label and joined.confidence >= self.threshold:
                    out[-1] = joined
                    continue
            out.append(intent)
        return out

    def _asked_beside_needs(self, intent: Intent) -> Intent:
        """A clause put out of scope only by the out-of-scope floor ("..., and tell me why i'm
        being throttled": its best reading 0.84 api errors), asked as a request beside needs
        the router is sure of, is that reading. The floor was set on whole turns ("book me a
        flight"); a caller who asks a support line for several things asks about its business.
        Only needs that look something up: a clause the floor doubted never acts."""
        if intent.label != OOS or not intent.alternatives or not _ASKS_FOR.search(intent.text):
            return intent
        label, p = intent.alternatives[0]
        if p < self.threshold or label.startswith("meta/") or label in self.acting:
            return intent
        return Intent(label, p, intent.text, intent.alternatives[1:])

    def _corrected(self, found: list[Intent]) -> list[Intent]:
        """"can you reset my two factor, no wait, i mean my password": a need said right after
        another and opened as a correction replaces it. Only when both are needs the router
        is sure of and they differ: "..., i mean the api key" that names the same need again
        is a detail of it (discourse.details_the_one_before)."""
        out: list[Intent] = []
        cued = False  # "i need to change my plan, no sorry, change my password": the cue cut off alone
        for idx, intent in enumerate(found):
            prev = out[-1] if out else None
            if prev is not None and self._is_need(prev) and _CUE_ONLY.match(intent.text) and idx + 1 < len(found):
                cued = True
                continue
            if (prev is not None and (cued or _CORRECTS.search(intent.text)) and self._is_need(intent) and self._is_need(prev)
                    and prev.label != intent.label):
                out[-1] = intent
                cued = False
                continue
            cued = False
            if prev is not None and self._is_need(prev) and not self._is_need(intent) and _value_corrected(intent.text):
                # "move me to pro. no, enterprise. no no, pro, sorry": the value said again, a
                # detail of the need before it (its slot reader takes the last one said)
                out[-1] = replace(prev, text=_joined(prev.text, intent.text))
                continue
            if (prev is not None and prev.label == _frames.HUMAN and _seg.RETRACTION.search(intent.text)
                    and any(self._is_need(i) for i in found[idx:])):
                # "get me a person. no, actually, never mind, you can do it: what plan am i on":
                # the person taken back, for the need said after it
                out[-1] = intent
                continue
            if intent.label == _frames.HUMAN and _TAKEN_BACK.search(intent.text) and any(self._is_need(i) for i in found[idx:]):
                continue  # "put me through to a human, actually no, just tell me my balance"
            out.append(intent)
        return out

    def _emphasised(self, found: list[Intent], words: str) -> list[Intent] | None:
        """The needs with those the words name first; None when the words name none of two or more."""
        needs = [i for i in found if self._is_need(i)]
        named = [i for i in needs if _takeback.names(words, i.text)]
        if len(needs) < 2 or not named:
            return None
        return named + [i for i in found if i not in named]

    def _taken_back(self, found: list[Intent], taken: _takeback.TakeBack) -> list[Intent] | None:
        """The needs said before a take-back, less those it drops or all but those it keeps.
        None when fewer than two needs were said or nothing would be left: one need taken back
        is the caller's no (meta/moves.py), and a take-back that names nothing said is ignored."""
        needs = [i for i in found if self._is_need(i)]
        if len(needs) < 2:
            return None
        kept = list(needs)
        for what in taken.drops:
            named = [i for i in kept if _takeback.names(what, i.text)]
            if not named and not _takeback.content(what):
                named = kept[-1:]  # "..., no wait, scratch that": the need said last
            kept = [i for i in kept if i not in named]
        dropped = len(kept) < len(needs)
        if taken.first:
            kept = [i for i in kept if i in needs[: taken.first]]
        if taken.last:
            kept = [i for i in kept if i in needs[-taken.last :]]
        if taken.keeps and not dropped:  # with a need dropped by name, "just ..." says what is left
            kept = [i for i in kept if any(_takeback.names(what, i.text) for what in taken.keeps)] or kept
        # "..., actually no not the account, just tell me the balance": a need the take-back
        # brings that no need said before names is one of its own, also beside one it keeps
        # ("..., scratch that, just what i owe and the last three invoices")
        known = {i.label for i in needs}  # dropped or kept: nothing said before comes back this way
        brought = [i for what in taken.keeps for i in self._detect(what) if self._is_need(i) and i.label not in known]
        if not kept or len(kept) == len(needs):
            return None
        return [i for i in found if i in kept or not self._is_need(i)] + brought

    def _reasons_joined(self, found: list[Intent]) -> list[Intent]:
        """"we were down all morning because of your 500s, i want a refund for that": a clause
        read unsurely, then a need that points back at it ("for that"), is that need's reason,
        not a need of its own; the need hears it."""
        out: list[Intent] = []
        for intent in found:
            before = out[-1] if out else None
            if (before is not None and self._is_need(intent) and _disc.points_back_for(intent.text)
                    and before.confidence < self.threshold and before.label != intent.label):
                out[-1] = replace(intent, text=_joined(before.text, intent.text))
                continue
            out.append(intent)
        return out

    def _untold(self, intent: Intent) -> bool:
        """A clause read only unsurely as an action (its specialist below the threshold) that
        asks for nothing: no question, no request, no word of one. An unsure lookup stays: "the
        four oh one thing is annoying, but mostly ..." still hears about its errors, and so does
        an unsure need told ("..., and also my account needs unlocking": sign-in help 0.36)."""
        return (intent.in_scope and intent.label in self.acting and intent.confidence < self.threshold
                and not _ASKS_FOR.search(intent.text) and not _ASKS_WITHIN.search(intent.text))

    def _is_need(self, intent: Intent) -> bool:
        """A department's need, read surely enough to act on at the front desk."""
        return intent.in_scope and not intent.label.startswith("meta/") and self.domain_confidence(intent) >= self.threshold

    def _framed(self, clause: str, parts: list[Intent]) -> list[Intent]:
        """A social formula is small talk whatever the router guessed (the frame's words are
        a closed set, so no need fits in it). A clause that asks for a person is that,
        unless the router read a confident specialist need in it ("can i talk to an
        engineer about this bug" stays an escalation when the router is sure of it)."""
        if _frames.SMALLTALK in self.labels and _frames.is_small_talk(clause):
            return [Intent(_frames.SMALLTALK, 1.0, clause)]  # its words are closed: no need fits in it
        if _frames.SMALLTALK in self.labels and len(parts) > 1:
            # "is this tech support, our api is down": the part that asks where the caller is
            parts = [Intent(_frames.SMALLTALK, 1.0, i.text) if _frames.is_small_talk(i.text) else i for i in parts]
        # "someone tried to get in from like romania": a person in the story, not one asked for
        # "i dont want to talk to a person": a person declined is none asked for
        parts = [_next_reading(i) if i.label == _frames.HUMAN and (_frames.tells_of_someone(i.text) or _frames.declines_person(i.text))
                 else i for i in parts]
        if _frames.HUMAN in self.labels and _frames.asks_for_call_back(clause):
            # "i'd like a callback": a person, however "back" reads ("refund the duplicate and
            # call me back after": the part that asks for it)
            asked = [Intent(_frames.HUMAN, 1.0, i.text) if _frames.asks_for_call_back(i.text) else i for i in parts]
            return asked if any(i.label == _frames.HUMAN for i in asked) else [Intent(_frames.HUMAN, 1.0, clause)]
        if len(parts) > 1 and _frames.HUMAN in self.labels:
            # a part cut off as a person asked for ("my key stopped working and i'd like somebody
            # to phone me about it") is that, however unsurely its words read alone
            parts = [Intent(_frames.HUMAN, 1.0, i.text) if _frames.asks_for_person(i.text) and not _frames.tells_of_someone(i.text)
                     and not (i.in_scope and not i.label.startswith("meta/") and i.confidence >= self.threshold) else i for i in parts]
        if len(parts) == 1 and _frames.HUMAN in self.labels and _frames.asks_for_person(clause):
            # "is my refund done and honestly just get me somebody": read whole as the need, the
            # person asked for after it is asked for all the same
            beside = self._person_after(clause)
            if beside is not None:
                return beside
        if len(parts) == 1 and _frames.HUMAN in self.labels and _frames.opens_asking_for_person(clause):
            return [Intent(_frames.HUMAN, 1.0, clause)]  # "i want to speak to a manager about my refund"
        if any(i.in_scope and not i.label.startswith("meta/") and i.confidence >= self.threshold for i in parts):
            return parts
        if _frames.HUMAN in self.labels and _frames.asks_for_person(clause):
            return [Intent(_frames.HUMAN, 1.0, clause)]
        return parts

    def _names_other(self, clause: str, need: Intent) -> bool:
        """The clause is surely a need other than `need` ("if not open a ticket" after "is the
        outage over?"); "if not do that too" names none."""
        own = self._read(clause)
        return self._is_need(own) and own.confidence >= self.threshold and own.label != need.label

    def _person_after(self, clause: str) -> list[Intent] | None:
        """A sure need, then a person asked for after a weak boundary: both, in order."""
        for left, right in _seg.weak_splits(clause):
            if not _frames.asks_for_person(right) or _frames.asks_for_person(left):
                continue
            need = self._read(left)
            if need.in_scope and not need.label.startswith("meta/") and need.confidence >= self.threshold:
                return [need, Intent(_frames.HUMAN, 1.0, right)]
        return None

    def domain_confidence(self, intent: Intent) -> float:
        """How sure the reading is of the intent's *domain*: its label and the same
        domain's alternatives (the tail beyond the three kept is tiny)."""
        if intent.label == OOS or intent.label.startswith("meta/") or "/" not in intent.label:
            return intent.confidence
        prefix = intent.domain + "/"
        return min(1.0, intent.confidence + sum(p for lab, p in intent.alternatives if lab.startswith(prefix)))

    def _part_ok(self, intent: Intent, *, cross_domain: bool) -> bool:
        """A part of a cut clause is a need of its own: confident about its specialist, or,
        when the parts belong to different departments, about its department (a need of
        another department cannot be a detail of this one)."""
        if not intent.in_scope:
            return False
        if _frames.asks_for_person(intent.text) and not _frames.tells_of_someone(intent.text):
            # "my key stopped working and i'd like somebody to phone me about it": the person asked
            # for in so many words is a part of its own, always honoured
            return True
        if cross_domain and not intent.label.startswith("meta/"):
            if intent.label in self.acting:
                # "is there an incident right now, can i get some kind of credit for it": an
                # action asked for what the part before told is that action, when its department
                # is sure and nothing in it is as likely
                return intent.confidence >= self.threshold or self.ahead_for_that(intent)
            return self.domain_confidence(intent) >= self.threshold
        # "can you refund the duplicate and upgrade me to pro": a part clearly ahead of its next
        # reading is a need of its own, as the slow path would route it
        return self.clearly_ahead(intent)

    def ahead_for_that(self, intent: Intent) -> bool:
        """A part of a multi-need turn that asks for something for what the part before told
        ("..., can i get some kind of credit for it"): its object is there, not in its words,
        so it is its reading when its department is sure and it leads the next reading."""
        runner_up = max((p for lab, p in intent.alternatives if lab != intent.label), default=0.0)
        return (intent.in_scope and not intent.label.startswith("meta/") and _disc.points_back_for(intent.text)
                and self.domain_confidence(intent) >= self.threshold and intent.confidence - runner_up >= self.ask_margin)

    def clearly_ahead(self, intent: Intent) -> bool:
        """Sure of the specialist: at the threshold, or, below it, sure of the department and
        far ahead of the next reading (clarify.py: a question only where two readings are close)."""
        if intent.confidence >= self.threshold:
            return True
        runner_up = max((p for lab, p in intent.alternatives if lab != intent.label), default=0.0)
        # a fragment of a few words ("not mine") is read confidently from too little to stand alone
        return (intent.in_scope and not intent.label.startswith("meta/") and self.domain_confidence(intent) >= self.threshold
                and len(_seg.words(intent.text)) >= _MIN_WORDS_AHEAD
                and intent.confidence - runner_up >= max(self.ask_margin, _SAME_DOMAIN_LEAD))

    def _ruled_out(self, text: str) -> set[str]:
        """The labels the caller names only to rule out ("not a downgrade": the plan change)."""
        ruled: set[str] = set()
        for piece in re.split(r"\s*[,.;!?]\s*", text):
            if piece.strip() and _disc.not_this_need(piece):
                named = self._read(re.sub(r"\bnot\b", " ", piece, flags=re.I))
                if named.in_scope and not named.label.startswith("meta/"):
                    ruled.add(named.label)
        return ruled

    def _split_weak(
        self, segment: str, depth: int = 0, memo: dict[str, Intent] | None = None
    ) -> list[Intent]:
        """Cut at a weak boundary only if the parts read as different needs; otherwise
        keep the segment whole.

        Parts of one department must each be confident about their specialist ("reset and
        unlock my account" stays one need); parts of different departments need only be
        confident about their department ("the api thing is annoying but i want my money
        back": technical, then billing)."""
        memo = {} if memo is None else memo

        def read(text: str) -> Intent:
            if text not in memo:
                memo[text] = self._read(text)
            return memo[text]

        whole = read(segment)
        if depth >= 3:
            return [whole]
        for left, right in _seg.weak_splits(segment):
            if (_identity.lacks_identity(left) or _seg.only_when(left) or _seg.only_presses(left)) and _seg.trim(right):
                # "oh i don't have my number handy, is the api down though", "ok and before it
                # closes, email me the invoice": the first part says no need; the rest is read
                return self._split_weak(right, depth + 1, memo)
            head = re.split(r"[,;]", right, maxsplit=1)[0]  # "what does it cost, how do webhooks...": its first clause
            if (_disc.asks_what_to_do(right) and (a := read(left)).in_scope and a.confidence >= self.threshold
                    and a.confidence > whole.confidence):
                # "our integration got a bunch of 503s, so what do i do": the need as the part before
                # names it (read whole, the bare question would pull it to another specialist); only
                # a reading surer than the whole's ("my webhook gets each event twice, how do i
                # handle that" is the webhooks question whole, unsure of its specialist without it)
                return [a]
            if (_seg.is_filler(left) or _seg.is_filler(right) or _seg.only_asks_to_be_told(left) or _seg.only_presses(right)
                    or _seg.gives_reason(left, right)
                    or _disc.asks_about_it(head) or _disc.details_the_one_before(right)
                    or _disc.names_which_one(head)  # "..., the 60 a minute one, give me ...": picks, then the ask
                    or _disc.heard_that(left)
                    or _disc.said_of_named(left, right) or _disc.only_how(right) or _disc.tells_own_of_it(right)
                    or _seg.repeats(left, right) or self._only_why(right, read) or self._bound(whole, left, right, read)
                    # "i got a new cell, need to change the phone number": the news is why, of one department
                    or (_disc.tells_news(left) and read(left).domain == read(right).domain)):
                continue  # "..., what's going on with it" / "..., the one from march" / "my key, it doesn't work" / "..., i got the email about it": one need
                # ("put us on the cheapest plan, we barely touch the api": why, no need of its own)
            a = read(left)
            if not a.in_scope or self.domain_confidence(a) < self.threshold:
                continue
            rest = self._split_weak(right, depth + 1, memo)
            parts = [a, *rest]
            if len({i.label for i in parts}) < 2:
                continue
            cross = len({i.domain for i in parts}) > 1
            if all(self._part_ok(i, cross_domain=cross) for i in parts):
                return parts
        if depth == 0 and whole.confidence < self.threshold:
            story = self._after_story(segment, read)
            if story is not None:
                return self._split_weak(story, depth + 1, memo)
            asked = self._before_reason(segment, read)
            if asked is not None:
                return [asked]
        return [whole]

    def _bound(self, whole: Intent, left: str, right: str, read: Callable[[str], Intent]) -> bool:
        """A domain's construction settles the whole segment and holds of neither part alone, nor
        does either part read as its need, and the parts read as two departments ("our calls were
        dying during your outage and we still paid full price": a credit asked, which its two
        halves, a status question and a balance, are not): one need."""
        a, b = read(left), read(right)
        if a.domain == b.domain:
            return False  # two needs of one department are told apart by its specialists, not joined
        return any(not rule.beside_only and rule.label == whole.label and rule.target(whole.text)
                   and not rule.target(left) and not rule.target(right)
                   and a.label != rule.label and b.label != rule.label for rule in self.rereadings)

    def _only_why(self, right: str, read: Callable[[str], Intent]) -> bool:
        """The clause says why the one before asks what it asks, and reads as no need of its own
        ("..., the cap isn't enough" is why; "..., we don't need pro, move us to starter" asks; one
        read surely stays a need: a need dropped is worse than one answered that wasn't asked)."""
        if not _disc.gives_reason(right) or _ASKS_FOR.search(right):
            return False
        own = read(right)
        return not (own.in_scope and not own.label.startswith("meta/") and own.confidence >= self.threshold)

    def _before_reason(self, segment: str, read: Callable[[str], Intent]) -> Intent | None:
        """The need before the reason that drowns it: "bump me to pro, the sixty a minute cap
        isn't enough" reads as nothing whole; the request alone is sure, and what follows only
        says why (how much the caller needs, or a word of cause), asking for nothing itself."""
        for left, right in _seg.weak_splits(segment):
            if not _disc.gives_reason(right) or _ASKS_FOR.search(right):
                continue
            a = read(left)
            if a.in_scope and not a.label.startswith("meta/") and a.confidence >= self.threshold:
                return a
        return None

    def _after_story(self, segment: str, read: Callable[[str], Intent]) -> str | None:
        """The need after a story that drowns it: "so our developer just quit on us and i have
        no clue what i'm doing, um, is your api down right now" reads as nothing whole; what
        follows the story (words that ask for nothing, or only unsurely) is sure of its need."""
        for left, right in _seg.weak_splits(segment):
            told = [w for w in _seg.words(left) if w not in _disc.FUNCTION_WORDS and w not in _HOLDS]
            if len(told) < _STORY_WORDS or _disc.asks_about_it(right) or _disc.tells_own_of_it(right):
                continue
            a, b = read(left), read(right)
            if (a.in_scope and a.confidence >= self.threshold) or _ASKS_FOR.search(left):
                return None  # the part before asks for something itself: no story
            if b.in_scope and not b.label.startswith("meta/") and b.confidence >= self.threshold:
                return right
        return None


_RULED_OUT_FLOOR = 0.05
# Words of a story's own before a need ("our developer just quit on us": developer, just, quit;
# "um hang on, before i do" tells none: the caller holds the line, then asks).
_STORY_WORDS = 3
_HOLDS = frozenset("um uh er erm hmm oh ok okay so well right hang hold wait sorry before after first then just".split())


def _without(intent: Intent, ruled: set[str]) -> Intent:
    """The reading given that the caller said it is none of `ruled`: the rest of the
    distribution, renormalised ("cancel my plan" once "not downgrade" was said: the closure)."""
    readings = [(intent.label, intent.confidence), *intent.alternatives]
    if not any(lab in ruled for lab, _ in readings):
        return intent
    rest = [(lab, p) for lab, p in readings if lab not in ruled]
    if not rest or rest[0][1] < _RULED_OUT_FLOOR:
        # ruling one reading out makes no unlikely one likely: when every other reading is under
        # 5%, the router saw no other need in the turn, and the reading ruled out stays the best
        return intent
    mass = max(1e-9, 1.0 - sum(p for lab, p in readings if lab in ruled))
    label, p = rest[0]
    return Intent(label, min(1.0, p / mass), intent.text, tuple((lab, round(min(1.0, q / mass), 4)) for lab, q in rest[1:]))


def _not_goodbye(intent: Intent) -> Intent:
    """A goodbye reading of a question: the next reading, unless that is another social move
    ("nothing seems to go through?" is no request for a person either): out of scope then."""
    nxt = _next_reading(intent)
    return Intent(OOS, nxt.confidence, intent.text) if nxt.label.startswith("meta/") else nxt


def _next_reading(intent: Intent) -> Intent:
    """The reading after this one (out of scope when there is none)."""
    rest = [(lab, p) for lab, p in intent.alternatives if lab != intent.label]
    if not rest:
        return Intent(OOS, 1.0 - intent.confidence, intent.text)
    return Intent(rest[0][0], rest[0][1], intent.text, tuple(rest[1:]))


_LONG_NUMBER = re.compile(r"(?:\+|\bplus\s+)?(?<![\w$.,])\d{7,15}(?![\w.,]\d)")
# ... a phone number's, said as one ("four oh one four oh one" run together is no phone)
_PHONE_WORD = re.compile(r"\b(?:phone|mobile|cell|landline|number|contact)\b", re.I)


# The words with which a caller asks for a person, whoever they name: without one, a clause
# beside needs asks for nobody.
_NAMES_SOMEONE = re.compile(
    r"\b(?:person|people|human|agent|rep|representative|someone|somebody|anyone|anybody|operator|manager|supervisor"
    r"|colleague|staff|team|transfer|call|callback|ring|phone|speak|talk|chat|escalate|real|live|hand|through|contact|reach|touch)\b", re.I)


def _no_one_named(intent: Intent) -> Intent:
    """A person read in a clause beside needs that names no one ("i'm not a customer yet just
    shopping around, what does pro cost") is the reading after it: told, not asked."""
    if intent.label != _frames.HUMAN or _NAMES_SOMEONE.search(intent.text):
        return intent
    return _next_reading(intent)


# A clause that opens by correcting the one before: "no wait, i mean ...", "sorry, i meant ...".
_CORRECTS = re.compile(
    r"^\W*(?:(?:oh|um|uh|er|sorry|well|no)\W+)*(?:no\W+wait|wait\W+no|no\W+sorry|sorry\W+no|i\s+mean|i\s+meant"
    r"|scratch\s+that|actually\s+no|no\s+actually|not\s+that|correction)\b", re.I)

# A correction's cue said as a clause of its own ("..., no sorry, ...").
# ("i want a refund for, sorry no, that's wrong. i mean ...": what the cue says of what it corrects)
_CUE_ONLY = re.compile(r"^\W*(?:(?:oh|um|uh|er|sorry|well|no|nope|wait|actually|hang\s+on|i\s+mean"
                       r"|that'?s\s+(?:wrong|not\s+(?:right|it|what\s+i\s+meant))|wrong)\W*)+$", re.I)

def _listed(clause: str, turn: str) -> bool:
    """"..., and also my ticket, and whether the api's up": a thing listed with "also" is a need
    of its own, not the subject of the clause after it."""
    return bool(re.search(rf"\b(?:also|plus)\W+{re.escape(clause)}", turn, re.I))


def _and_another(clause: str, nxt: str, turn: str) -> bool:
    """"my balance and my last three invoices please": two things named side by side, each a
    need (the first no subject of the second)."""
    return bool(nxt) and bool(re.search(rf"{re.escape(clause)}\s*,?\s+and\s+(?:also\s+)?(?:my|the|our)\b", turn, re.I))


# "no no, pro, sorry", "i mean starter": a correction cue and a word or two, the value itself
_VALUE_CORRECTION = re.compile(
    r"^\W*(?:(?:oh|um|uh|er|well|wait|sorry|no|nope|actually|i\s+mean(?:t)?)\W+)+(?P<rest>(?:[\w'-]+\W*){1,3})$", re.I)
_NOT_A_VALUE = re.compile(r"\b(?:bye|goodbye|thanks?|thank|cheers|all|everything|mind|forget|it|that|this|need|want|please)\b", re.I)


def _value_corrected(text: str) -> bool:
    m = _VALUE_CORRECTION.match(text)
    rest = re.sub(r"\b(?:sorry|please|um|uh|er)\b", " ", m["rest"], flags=re.I) if m else ""
    return m is not None and bool(rest.strip(" ,.!?")) and not _NOT_A_VALUE.search(rest)


# A clause that ends by taking itself back ("..., actually no", "..., never mind").
_TAKEN_BACK = re.compile(r"\b(?:actually\W+no|no\W+actually|never\s*mind|forget\s+(?:it|that)|scratch\s+that|wait\W+no|no\W+wait)\W*$", re.I)

# A clause that asks for something: a question, or a request made of the line.
_ASKS_FOR = re.compile(
    r"\?|^\W*(?:(?:and|also|so|but|then|oh|um|uh|plus|lastly|finally|secondly|thirdly)\W+)*"
    r"(?:why|how|what|what'?s|when|where|which|is|are|was|were|do|does|did|can|could|would|will|tell me|let me know"
    r"|explain|check|show|send|find out|i need|i want|i'?d like|please)\b", re.I)

# ... or a word of asking anywhere in it ("..., so can you sort that out", "i'd like ...")
_ASKS_WITHIN = re.compile(
    r"\b(?:can|could|would|will)\s+(?:you|u|i|we|someone|somebody)\b|\b(?:i|we)(?:'d|\s+would)?\s+(?:need|want|wanna|like)\b"
    r"|\b(?:please|pls|help|how|why|what|when|where|who|which|whether|fix|sort|check|change|cancel|close|reset|refund|lock|unlock|upgrade|downgrade"
    r"|switch|move|open|file|send|tell\s+me|let\s+me\s+know|explain|show\s+me|owe|update|set|new"
    r"|unlock|needs?\s+\w+ing"  # "my account needs unlocking": a need told
    r"|(?:should|needs?\s+to|has\s+to)\s+be)\b|\d"  # "the phone on the acct should be plus one ...": a value wanted
    # a question after a comma, its mark lost when the clause was cut ("the list endpoint, is pagination ...")
    r"|(?:^|,\s*)(?:is|are|was|were|do|does|did|can|could|will|would|should)\s", re.I)

# A need the caller asks to be taken first: "refund it first", "before that, ...", "to start with".
# Not "the first charge", "first thing" (an opener: that need is first anyway).
_FIRST = re.compile(
    r"\b(?:first(?:ly)?|before (?:that|anything else|everything else|all that)|to start with)\b"
    r"(?!\s+(?:charge|one|invoice|time|month|payment|bill|of|two|three|thing|place|name|week|day))", re.I)

# How far ahead of its next reading a part of one department must be to stand as a need of
# its own below the threshold: well beyond the ask margin, so "reset and unlock my account"
# (two halves of one need, each torn between sign-in and security) stays whole.
_SAME_DOMAIN_LEAD = 0.5
_MIN_WORDS_AHEAD = 4

# Conversation-management labels: not a "need" that should be routed to a domain.
_SOCIAL = frozenset({"meta/greeting", "meta/smalltalk", "meta/goodbye"})
_DROP_WITH_NEEDS = frozenset({"meta/greeting", "meta/smalltalk"})
