"""A held-out split that keeps near-duplicate phrasings on the same side.

Labelled intent data is often written as a few base phrasings with variants ("refund me",
"refund me please", "refnd me"). A random split puts variants of one phrasing on both
sides, so validation looks easier than real callers and the thresholds chosen on it are
too permissive. Grouping near-duplicates (character n-gram cosine within a label) and
holding out whole groups measures what matters: new wording.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.feature_extraction.text import TfidfVectorizer

from callcenter.routing.features import normalize

SIMILAR = 0.6  # cosine of char n-grams above which two phrasings count as variants


def _groups(vectors, idx: list[int]) -> list[list[int]]:
    """Connected components of the "is a variant of" graph among ``idx`` (union-find)."""
    x = vectors[idx]
    sim = (x @ x.T).toarray()
    parent = list(range(len(idx)))

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    rows, cols = np.nonzero(np.triu(sim, 1) >= SIMILAR)
    for a, b in zip(rows.tolist(), cols.tolist(), strict=True):
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    comps: dict[int, list[int]] = {}
    for j in range(len(idx)):
        comps.setdefault(find(j), []).append(idx[j])
    return list(comps.values())


def _by_label(
    pairs: list[tuple[str, str]], vectors: sp.csr_matrix | None
) -> tuple[dict[str, list[int]], sp.csr_matrix]:
    """The indices of each label, and character n-gram rows to group variants by (any
    L2-normalised ones will do: built here when the caller has none)."""
    by_label: dict[str, list[int]] = {}
    for i, (_, lab) in enumerate(pairs):
        by_label.setdefault(lab, []).append(i)
    if vectors is None:
        vec = TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 4), sublinear_tf=True, dtype=np.float32)
        vectors = vec.fit_transform([normalize(t) for t, _ in pairs]).tocsr()
    return by_label, vectors


def holdout(
    pairs: list[tuple[str, str]],
    seed: int,
    frac: float = 0.2,
    *,
    vectors: sp.csr_matrix | None = None,
) -> tuple[list[int], list[int]]:
    """Seeded, stratified, near-duplicate-aware split -> (fit indices, validation indices).

    Labels with fewer than 5 examples stay entirely in training. When one group of variants
    would cover most of a label, that label falls back to a plain random split.
    """
    rng = np.random.default_rng(seed)
    by_label, vectors = _by_label(pairs, vectors)
    fit_idx: list[int] = []
    val_idx: list[int] = []
    for lab in sorted(by_label):
        idx = by_label[lab]
        if len(idx) < 5:
            fit_idx.extend(idx)
            continue
        want = max(1, int(round(frac * len(idx))))
        groups = _groups(vectors, idx) if len(idx) <= 3000 else [[i] for i in idx]
        if max(len(g) for g in groups) > len(idx) // 2:
            groups = [[i] for i in idx]
        taken: list[int] = []
        for g in rng.permutation(len(groups)):
            if len(taken) >= want:
                break
            if len(taken) + len(groups[g]) <= want * 1.5:
                taken.extend(groups[g])
        if not taken:  # every group was too large: take the smallest
            taken = min(groups, key=len)
        chosen = set(taken)
        val_idx.extend(i for i in idx if i in chosen)
        fit_idx.extend(i for i in idx if i not in chosen)
    return sorted(fit_idx), sorted(val_idx)


def folds(
    pairs: list[tuple[str, str]],
    seed: int,
    k: int = 5,
    *,
    vectors: sp.csr_matrix | None = None,
) -> list[list[int]]:
    """Seeded, stratified, near-duplicate-aware ``k``-fold partition -> ``k`` lists of indices.

    Every example with a label of at least 5 examples lands in exactly one fold, whole groups
    of variants together, each label spread evenly over the folds (a group goes to the fold
    holding the fewest of its label so far). Rarer labels are left out of every fold: they
    always train, as in `holdout`.
    """
    rng = np.random.default_rng(seed)
    by_label, vectors = _by_label(pairs, vectors)
    out: list[list[int]] = [[] for _ in range(k)]
    for lab in sorted(by_label):
        idx = by_label[lab]
        if len(idx) < 5:
            continue
        groups = _groups(vectors, idx) if len(idx) <= 3000 else [[i] for i in idx]
        if max(len(g) for g in groups) > len(idx) // k:
            groups = [[i] for i in idx]  # one group would unbalance the folds
        sizes = [0] * k
        for g in rng.permutation(len(groups)):
            f = min(range(k), key=lambda j: (sizes[j], j))
            out[f].extend(groups[g])
            sizes[f] += len(groups[g])
    return [sorted(f) for f in out]
