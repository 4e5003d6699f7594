"""Regenerate the shipped labelled utterances from ``taxonomy_phrases.py``.

    .venv/bin/python -m benchmarks.router.make_utterances

Writes ``domains/<d>/utterances/{train,test}.jsonl``, ``meta/utterances/{train,test}.jsonl``
and ``meta/utterances/multi_intent.jsonl``. Seeded: the output is identical on every run.
Each base phrasing is decorated the way callers speak: spoken style without punctuation,
fillers, politeness, a typo, ids and amounts. Test items never repeat a train item.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from benchmarks.router.taxonomy_extra import EXTRA_TRAIN
from benchmarks.router.taxonomy_phrases import CLAUSES, PHRASES

ROOT = Path(__file__).resolve().parents[2]

SLOTS: dict[str, list[str]] = {
    "amount": ["$49", "$12.99", "$120", "30 dollars", "$7.50", "$250", "19 bucks", "$89.00"],
    "charge": ["CH-1001-D", "CH-2088-A", "charge CH-3412-K", "CH-7710-B", "transaction CH-5521-C"],
    "ticket": ["T-1042", "T-2201", "T-9987", "ticket T-3310", "T-4500"],
    "invoice": ["INV-2024-0042", "INV-2023-1187", "number INV-2024-0310"],
    "plan": ["pro", "basic", "premium", "business", "enterprise", "starter"],
    "code": ["401", "403", "429", "500", "502", "503", "a 429", "HTTP 401"],
    "field": ["email", "phone number", "address", "mailing address", "last name", "contact email"],
    "month": ["March", "last month", "January", "Q3", "December", "this quarter"],
    "days": ["3", "five", "10", "two", "14"],
}

TRAIN_PREFIX = ["", "", "", "hi, ", "hello ", "um ", "yeah so ", "hey ", "excuse me, ", "so ",
                "good morning, ", "ok so ", "I have a problem, ", "quick question, "]
TRAIN_SUFFIX = ["", "", "", " please", ", thanks", " asap", " thank you", " right now", "?", "!"]
TEST_PREFIX = ["", "", "uh hi ", "hello yes ", "well ", "hi there, ", "alright so ", "erm, ",
               "I'm calling because ", "listen, "]
TEST_SUFFIX = ["", "", " if you can", ", cheers", " thanks a lot", " today", " please help", "..."]

# Conversation-management labels only get spelling/punctuation variants: "hi, bye" is not bye.
PLAIN = {"meta/greeting", "meta/goodbye", "meta/smalltalk", "meta/human"}

CONNECTORS = [", and ", " and also ", ". Also, ", "; ", ", plus ", " and ", ". ", ", and then ",
              " as well as ", ". Oh and "]


def fill(template: str, rng: random.Random) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: rng.choice(SLOTS[m.group(1)]), template)


def typo(text: str, rng: random.Random) -> str:
    words = text.split(" ")
    cand = [i for i, w in enumerate(words) if len(w) >= 5 and w.isalpha()]
    if not cand:
        return text
    i = rng.choice(cand)
    w = words[i]
    j = rng.randrange(1, len(w) - 1)
    kind = rng.randrange(3)
    if kind == 0:
        w = w[:j] + w[j + 1] + w[j] + w[j + 2 :]  # swap
    elif kind == 1:
        w = w[:j] + w[j + 1 :]  # drop
    else:
        w = w[:j] + w[j] + w[j:]  # double
    words[i] = w
    return " ".join(words)


def spoken(text: str) -> str:
    """Speech-to-text style: lower case, no punctuation."""
    return re.sub(r"[^\w\s'$.-]|(?<!\d)\.(?!\d)", "", text.lower()).strip()


def sentence(text: str) -> str:
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".?!" else text + "."


def variants(label: str, base: str, rng: random.Random, n: int, test: bool) -> list[str]:
    prefixes, suffixes = (TEST_PREFIX, TEST_SUFFIX) if test else (TRAIN_PREFIX, TRAIN_SUFFIX)
    out: list[str] = []
    for k in range(n * 3):
        if len(out) >= n:
            break
        text = fill(base, rng)
        style = k % 5
        if label not in PLAIN:
            text = rng.choice(prefixes) + text + rng.choice(suffixes)
        if style == 1:
            text = spoken(text)
        elif style == 2:
            text = sentence(text)
        elif style == 3:
            text = typo(text, rng)
        elif style == 4:
            text = spoken(typo(text, rng))
        text = re.sub(r"\s+", " ", text).strip()
        if text and text not in out:
            out.append(text)
    return out


def key(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


def build(seed: int = 7) -> tuple[dict[str, list[dict]], dict[str, list[dict]], list[dict]]:
    rng = random.Random(seed)
    train: dict[str, list[dict]] = {}
    test: dict[str, list[dict]] = {}
    seen: set[str] = set()
    for label, pools in PHRASES.items():
        group = "meta" if label.startswith("meta/") or label == "oos" else label.split("/")[0]
        n_train = max(4, -(-100 // len(pools["train"])))  # >= ~100 train items per label
        n_test = max(2, -(-30 // len(pools["test"])))  # >= ~30 test items per label
        if label in PLAIN:
            n_test = 4  # short phrases collide with train variants; decorate more
        if label == "oos":
            n_train, n_test = 5, 3
        for base in pools["train"]:
            for text in variants(label, base, rng, n_train, test=False):
                if key(text) not in seen:
                    seen.add(key(text))
                    train.setdefault(group, []).append({"text": text, "label": label})
        for base in pools["test"]:
            for text in variants(label, base, rng, n_test, test=True):
                if key(text) not in seen:
                    seen.add(key(text))
                    test.setdefault(group, []).append({"text": text, "label": label})
    multi = build_multi(rng)
    # The second pass of phrasings comes last, from its own generator, so the first pass's
    # train and test lines stay exactly as they were; ``seen`` already holds every test
    # item, so no extra phrasing can leak into a test file.
    extra_rng = random.Random(seed + 1)
    for label, bases in EXTRA_TRAIN.items():
        group = "meta" if label.startswith("meta/") or label == "oos" else label.split("/")[0]
        n = 3 if label in PLAIN or label == "oos" else 4
        for base in bases:
            for text in variants(label, base, extra_rng, n, test=False):
                if key(text) not in seen:
                    seen.add(key(text))
                    train.setdefault(group, []).append({"text": text, "label": label})
    # Recogniser deletions: one more variant of every first-pass phrasing with one word of
    # three letters or more dropped, so no intent hangs on a single head word (a misheard
    # or unseen word must leave the rest of the sentence to decide). Own generator again.
    drop_rng = random.Random(seed + 2)
    for label, pools in PHRASES.items():
        if label in PLAIN or label == "oos":
            continue
        group = label.split("/")[0]
        for base in pools["train"]:
            words = spoken(fill(base, drop_rng)).split()
            cand = [i for i, w in enumerate(words) if len(w) >= 3]
            if len(words) < 4 or not cand:
                continue
            del words[drop_rng.choice(cand)]
            text = " ".join(words)
            if key(text) not in seen:
                seen.add(key(text))
                train.setdefault(group, []).append({"text": text, "label": label})
    return train, test, multi


def build_multi(rng: random.Random, n: int = 90) -> list[dict]:
    items = [
        {
            "text": "My API calls fail with 429, I was charged twice, and I can't log in",
            "labels": ["technical/api_errors", "billing/refund", "account/login_help"],
        }
    ]
    labels = sorted(CLAUSES)
    seen = {items[0]["text"]}
    while len(items) < n:
        k = 2 if rng.random() < 0.65 else 3
        chosen = rng.sample(labels, k)
        if len({c.split("/")[0] for c in chosen}) < 2 and rng.random() < 0.7:
            continue  # mostly cross-domain, like real multi-need calls
        clauses = [fill(rng.choice(CLAUSES[c]), rng) for c in chosen]
        text = clauses[0]
        for c in clauses[1:-1]:
            text += ", " + c
        connector = rng.choice(CONNECTORS)
        text += connector + clauses[-1]
        if rng.random() < 0.3:
            text = rng.choice(["Hi, ", "Hello, ", "Um so ", "Yeah hi "]) + text
        if k == 2 and rng.random() < 0.3 and re.search(r"[a-z]", connector):
            # speech-to-text style, but only where a spoken connector still marks the seam
            text = spoken(text)
        if text not in seen:
            seen.add(text)
            items.append({"text": text, "labels": chosen})
    return items


def write(path: Path, rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")


def main() -> None:
    train, test, multi = build()
    for group in sorted(train):
        base = ROOT / ("meta" if group == "meta" else f"domains/{group}") / "utterances"
        write(base / "train.jsonl", train[group])
        write(base / "test.jsonl", test[group])
        print(f"{base.relative_to(ROOT)}: {len(train[group])} train, {len(test[group])} test")
    write(ROOT / "meta/utterances/multi_intent.jsonl", multi)
    print(f"meta/utterances/multi_intent.jsonl: {len(multi)} items")


if __name__ == "__main__":
    main()
