"""Builds the fast-path router for this line from the utterances every domain ships.

Trained once per process (a few seconds) unless `CALLCENTER_ROUTER_MODEL` names a model
trained by `callcenter router train`; a cached copy in the data dir, keyed by the training
data's hash, makes later starts instant. The second reading's model (`_second`: the same
utterances plus each domain's `calls.jsonl`) is trained and cached the same way, and handed to
the router as `IntentRouter.second`, which asks it only where the router is unsure.
"""

from __future__ import annotations

import copy
import hashlib
import logging
from functools import lru_cache
from pathlib import Path
from typing import Any, cast

from callcenter.routing import (
    IntentRouter,
    RouterModelError,
    calibration,
    embeddings,
    features,
    model,
    read_labelled,
    split,
)
from callcenter.routing.model import FORMAT_VERSION
from callcenter.routing.noise import NoiseModel
from callcenter.settings import Settings, SettingsError
from domains import registry
from domains.holder import only_who

log = logging.getLogger("callcenter.router")
# The line tells at most 1 in 50 of its validation requests "I can't help with that". The
# floor's accuracy budget alone spent itself on rejecting 4-5% of them (the ones the model had
# wrong anyway, which on a phone line a supervisor's own routing or a question still rescues).
MAX_REJECT = 0.02
META_UTTERANCES = Path(__file__).parent / "utterances"


def training_files() -> list[Path]:
    """Each folder's generated `train.jsonl`, and its `written.jsonl` where it has one: phrasings
    written by hand from the labels' definitions alone, by someone who saw neither the code nor
    the generated data (benchmarks/README.md, "Router"), so the router meets callers' own words."""
    folders = [d.utterances for d in registry.DOMAINS] + [META_UTTERANCES]
    return [f / name for f in folders for name in ("train.jsonl", "written.jsonl") if (f / name).exists() or name == "train.jsonl"]


def training_examples() -> list[tuple[str, str]]:
    examples: list[tuple[str, str]] = []
    for path in training_files():
        examples.extend(read_labelled(path))
    return examples


def call_files() -> list[Path]:
    """Each domain's `calls.jsonl`: the first turns of the development call suites, labelled by
    the one specialist each call had to reach (`python -m benchmarks.calls.harvest`). They train
    the second reading only (IntentRouter.second), never the router the line's rules are fitted to."""
    return [p for d in registry.DOMAINS if (p := d.utterances / "calls.jsonl").exists()]


def call_examples() -> list[tuple[str, str]]:
    return [pair for path in call_files() for pair in read_labelled(path)]


@lru_cache(maxsize=1)
def _taught() -> frozenset[str]:
    """The labels the call data teaches (read once: every line built in the process asks)."""
    return frozenset(label for _text, label in call_examples())


@lru_cache(maxsize=1)
def noise_model() -> NoiseModel:
    """What the line's language looks like, from the shipped utterances (any router model)."""
    return NoiseModel.fit(text for text, _label in training_examples())


def topics() -> dict[str, str]:
    """Caller-facing names of every label and domain, for clarifying questions."""
    out: dict[str, str] = {}
    for d in registry.DOMAINS:
        out[d.name] = d.topic
        for s in d.specialists:
            out[f"{d.name}/{s.name}"] = s.topic
    return out


def changing_labels() -> frozenset[str]:
    """Labels of the specialists that change something: routed only when sure (see EmbeddedPolicy)."""
    return frozenset(f"{d.name}/{s.name}" for d in registry.DOMAINS for s in d.specialists if s.changes)


def _digest(extra: list[Path] | None = None) -> str:
    # The cached model is the training data's and the training code's: either changed, retrain
    # (a calibration rule changed in place once kept serving the model fitted before it).
    digest = hashlib.sha256(f"format={FORMAT_VERSION}".encode())
    for path in [*training_files(), *(extra or []), *(Path(m.__file__) for m in _TRAINING_CODE if m.__file__)]:
        digest.update(str(path.name).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


_TRAINING_CODE = (model, calibration, split, features, embeddings)


def _trained(cache_dir: Path | None) -> IntentRouter:
    return _trained_for(_digest(), cache_dir)


def _second(cache_dir: Path | None) -> IntentRouter | None:
    """The second reading's model (utterances + callers' calls), or None without call files."""
    files = call_files()
    return _trained_for(_digest(files), cache_dir, calls=True) if files else None


@lru_cache(maxsize=4)
def _trained_for(digest: str, cache_dir: Path | None, *, calls: bool = False) -> IntentRouter:
    cached = cache_dir / f"router-{digest}.model" if cache_dir else None
    if cached and cached.exists():
        try:
            return IntentRouter.load(cached)
        except RouterModelError:
            log.warning("ignoring an unreadable cached router model; retraining")
    examples = training_examples() + (call_examples() if calls else [])
    router = IntentRouter.train(examples, max_reject=MAX_REJECT)
    if cached:
        try:
            cached.parent.mkdir(parents=True, exist_ok=True)
            tmp = cached.with_suffix(".tmp")
            router.save(tmp)
            tmp.replace(cached)
        except OSError:
            log.warning("could not cache the router model in the data dir")
    return router


def check_coverage(router: IntentRouter, name: str) -> None:
    """Refuse a model that cannot route to every specialist of the registry.

    A model trained without some labels silently switches those specialists off, and their
    requests land on a neighbour (a password reset for "close my account").
    """
    wanted = {label for d in registry.DOMAINS for label in d.labels}
    missing = sorted(wanted - set(router.labels))
    if missing:
        raise RouterModelError(
            f"router model {name} does not cover this line's specialists (missing: {', '.join(missing)}); "
            "retrain it with examples for every label (callcenter router train)"
        )


def build_router(settings: Settings) -> IntentRouter:
    if settings.router_model is not None:
        try:
            router = IntentRouter.load(settings.router_model)
        except RouterModelError as exc:  # a start-up error like any bad setting, not a traceback
            raise SettingsError(f"CALLCENTER_ROUTER_MODEL: {exc}") from None
        check_coverage(router, str(settings.router_model))
    else:
        router = _trained(settings.data_dir / "models")
    # a model of the operator's own (above) has no second reading
    second = None if settings.router_model is not None else _second(settings.data_dir / "models")
    if settings.router_confidence > 0:
        router = copy.copy(router)  # the trained router is shared by every line in the process
        router.threshold = settings.router_confidence
    rereadings = tuple(r for d in registry.DOMAINS for r in d.rereadings)
    if rereadings != router.rereadings:
        router = copy.copy(router)
        router.rereadings = rereadings
    if router.asides is not only_who:
        router = copy.copy(router)
        router.asides = only_who  # "this is his wife, ...": who calls, for whom; no need of its own
    if router.acting != changing_labels():
        router = copy.copy(router)
        router.acting = changing_labels()  # a part read as an action must be sure of it
    if settings.router_ask_margin != router.ask_margin:
        router = copy.copy(router)
        router.ask_margin = settings.router_ask_margin
    if second is not None:
        second = copy.copy(second)  # the trained model is shared too; the line's rules read it the same way
        second.rereadings, second.asides, second.acting = router.rereadings, router.asides, router.acting
        router = copy.copy(router)
        router.second, router.second_taught = second, _taught()
    return router


class _DecidedOnce:
    """The line's router, answering the same question about the same words once.

    In one turn each level asks twice: the fast path in `llm_node`, and, when it falls
    through, the embedded LLM's policy (meta: `detect`; a supervisor: `classify(within=)`).
    Both get the first answer. Reads and writes of anything else go to the router itself.
    """

    _SIZE = 64  # a few turns of every level; old answers go first

    def __init__(self, router: IntentRouter) -> None:
        object.__setattr__(self, "_router", router)
        object.__setattr__(self, "_answers", {})

    def __getattr__(self, name: str) -> Any:
        return getattr(self._router, name)

    def __setattr__(self, name: str, value: Any) -> None:
        self._answers.clear()  # e.g. a new threshold: earlier answers may not hold
        setattr(self._router, name, value)

    def _once(self, key: tuple[Any, ...], compute: Any) -> Any:
        answers: dict[tuple[Any, ...], Any] = self._answers
        if key not in answers:
            if len(answers) >= self._SIZE:
                answers.pop(next(iter(answers)))
            answers[key] = compute()
        return answers[key]

    def detect(self, text: str) -> list[Any]:
        return list(self._once(("detect", text), lambda: tuple(self._router.detect(text))))

    def classify(self, text: str, *, within: str | None = None) -> Any:
        return self._once(("classify", text, within), lambda: self._router.classify(text, within=within))


def undecorated(router: IntentRouter) -> IntentRouter:
    """The router under `decided_once`, for a caller on another thread (the recogniser's): its
    cache of answers is the event loop's."""
    return router._router if isinstance(router, _DecidedOnce) else router  # type: ignore[unreachable]


def decided_once(router: IntentRouter) -> IntentRouter:
    """`router` with one answer per question and words (see _DecidedOnce); same interface."""
    return cast(IntentRouter, _DecidedOnce(router))
