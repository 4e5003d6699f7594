"""Measure a trained router on a labelled test set: the numbers of ``callcenter router eval``.

Definitions (all on the test set):

- ``accuracy`` / ``macro_f1``: top-1 over in-scope items, choosing among in-scope labels only
  (no rejection); macro-F1 averages per-label F1 over the gold in-scope labels.
- ``domain_accuracy``: the top-1 label's domain (the part before ``/``) equals the gold one.
- ``accuracy_with_rejection``: in-scope items whose *decision* (with the out-of-scope rule)
  is the gold label, so a wrongly rejected item counts as an error.
- ``coverage`` / ``selective_accuracy``: share of in-scope items decided on the fast path
  (in scope and confidence >= the router's threshold) and the accuracy among them.
- ``ece``: expected calibration error of the top-1 confidence, 15 equal-width bins.
- ``oos_precision`` / ``oos_recall``: for the ``oos`` decision, when the test set has ``oos`` items.
- ``latency_ms_p50`` / ``_p95``: wall time of one ``classify`` call, one utterance at a time.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

from callcenter.routing.calibration import OOS
from callcenter.routing.classifier import IntentRouter


def _domain(label: str) -> str:
    return label.split("/", 1)[0] if "/" in label else label


def expected_calibration_error(conf: np.ndarray, correct: np.ndarray, bins: int = 15) -> float:
    if len(conf) == 0:
        return 0.0
    edges = np.linspace(0.0, 1.0, bins + 1)
    ece = 0.0
    for lo, hi in zip(edges[:-1], edges[1:], strict=True):
        sel = (conf > lo) & (conf <= hi) if lo > 0 else (conf >= lo) & (conf <= hi)
        if sel.any():
            ece += sel.mean() * abs(float(correct[sel].mean()) - float(conf[sel].mean()))
    return float(ece)


def macro_f1(gold: Sequence[str], pred: Sequence[str]) -> float:
    labels = sorted(set(gold))
    if not labels:
        return 0.0
    tp: Counter[str] = Counter()
    fp: Counter[str] = Counter()
    fn: Counter[str] = Counter()
    for g, p in zip(gold, pred, strict=True):
        if g == p:
            tp[g] += 1
        else:
            fp[p] += 1
            fn[g] += 1
    scores = []
    for lab in labels:
        denom = 2 * tp[lab] + fp[lab] + fn[lab]
        scores.append(2 * tp[lab] / denom if denom else 0.0)
    return float(np.mean(scores))


def measure_latency(router: IntentRouter, texts: Sequence[str], limit: int = 1000) -> list[float]:
    """Milliseconds per ``classify`` call over up to ``limit`` texts (after a short warm-up)."""
    sample = list(texts[:limit])
    for text in sample[:20]:
        router.classify(text)
    out: list[float] = []
    for text in sample:
        start = time.perf_counter()
        router.classify(text)
        out.append((time.perf_counter() - start) * 1000.0)
    return out


def evaluate(
    router: IntentRouter,
    test: Sequence[tuple[str, str]],
    *,
    multi: Sequence[tuple[str, list[str]]] | None = None,
    latency_samples: int = 1000,
    top_confusions: int = 10,
) -> dict[str, Any]:
    """All metrics as one JSON-ready dict (see the module docstring for definitions)."""
    if not test:
        raise ValueError("empty test set")
    texts = [t for t, _ in test]
    gold = [g for _, g in test]
    labels = router.labels
    probs, decisions = router.decisions(texts)
    inscope_cols = np.array([lab != OOS for lab in labels])
    masked = np.where(inscope_cols[None, :], probs, -1.0)
    top1 = [labels[i] for i in masked.argmax(axis=1)]
    top1_conf = masked.max(axis=1)

    ins = np.array([g != OOS for g in gold])
    ins_idx = np.flatnonzero(ins)
    g_in = [gold[i] for i in ins_idx]
    p_in = [top1[i] for i in ins_idx]
    correct = np.array([a == b for a, b in zip(g_in, p_in, strict=True)], dtype=bool)
    d_in = [decisions[i] for i in ins_idx]
    conf_in = top1_conf[ins_idx]
    covered = np.array(
        [d != OOS and c >= router.threshold for d, c in zip(d_in, conf_in, strict=True)], dtype=bool
    )
    dec_correct = np.array([d == g for d, g in zip(d_in, g_in, strict=True)], dtype=bool)

    per_domain: dict[str, float] = {}
    for dom in sorted({_domain(g) for g in g_in}):
        sel = [i for i, g in enumerate(g_in) if _domain(g) == dom]
        per_domain[dom] = round(float(np.mean([_domain(p_in[i]) == dom for i in sel])), 4)

    confusions = Counter((g, p) for g, p in zip(g_in, p_in, strict=True) if g != p)
    result: dict[str, Any] = {
        "n_test": len(test),
        "n_in_scope": int(ins.sum()),
        "n_oos": int((~ins).sum()),
        "labels": len([lab for lab in labels if lab != OOS]),
        "threshold": router.threshold,
        "oos_threshold": router.oos_threshold,
        "oos_temperature": router.oos_temperature,
        "accuracy": _r(correct.mean()) if len(correct) else None,
        "macro_f1": _r(macro_f1(g_in, p_in)) if g_in else None,
        "domain_accuracy": _r(np.mean([_domain(a) == _domain(b) for a, b in zip(g_in, p_in, strict=True)]))
        if g_in
        else None,
        "per_domain_accuracy": per_domain,
        "accuracy_with_rejection": _r(dec_correct.mean()) if len(dec_correct) else None,
        "ece": _r(expected_calibration_error(conf_in, correct)),
        "coverage": _r(covered.mean()) if len(covered) else None,
        "selective_accuracy": _r(dec_correct[covered].mean()) if covered.any() else None,
        "confusions": [
            {"gold": g, "predicted": p, "count": n} for (g, p), n in confusions.most_common(top_confusions)
        ],
    }
    if (~ins).any():
        is_oos_pred = np.array([d == OOS for d in decisions])
        tp = int((is_oos_pred & ~ins).sum())
        result["oos_recall"] = _r(tp / int((~ins).sum()))
        result["oos_precision"] = _r(tp / int(is_oos_pred.sum())) if is_oos_pred.any() else None
        # turns that would be fast-pathed although they are out of scope
        result["oos_false_accept"] = _r(
            float(np.mean([not is_oos_pred[i] and probs[i].max() >= router.threshold for i in np.flatnonzero(~ins)]))
        )
    if multi:
        result.update(evaluate_multi(router, multi))
    lat = measure_latency(router, texts, latency_samples)
    result["latency_ms_p50"] = _r(np.percentile(lat, 50), 3)
    result["latency_ms_p95"] = _r(np.percentile(lat, 95), 3)
    return result


def evaluate_multi(router: IntentRouter, items: Sequence[tuple[str, list[str]]]) -> dict[str, Any]:
    """Multi-intent detection: exact set match, and label-level precision/recall."""
    exact = tp = n_pred = n_gold = 0
    for text, gold in items:
        found = [i.label for i in router.detect(text)]
        exact += set(found) == set(gold)
        tp += len(set(found) & set(gold))
        n_pred += len(set(found))
        n_gold += len(set(gold))
    return {
        "multi_n": len(items),
        "multi_exact": _r(exact / len(items)) if items else None,
        "multi_precision": _r(tp / n_pred) if n_pred else None,
        "multi_recall": _r(tp / n_gold) if n_gold else None,
    }


def _r(x: float | np.floating, nd: int = 4) -> float:
    return round(float(x), nd)


def format_report(m: dict[str, Any]) -> str:
    """Human-readable summary of ``evaluate``'s dict."""

    def pct(key: str) -> str:
        v = m.get(key)
        return "n/a" if v is None else f"{100 * v:.2f}%"

    lines = [
        f"test items        {m['n_test']} ({m['n_in_scope']} in scope, {m['n_oos']} out of scope), "
        f"{m['labels']} labels",
        f"accuracy (top-1)  {pct('accuracy')}    macro-F1 {pct('macro_f1')}",
        f"domain accuracy   {pct('domain_accuracy')}   "
        + "  ".join(f"{d}={100 * a:.1f}%" for d, a in m["per_domain_accuracy"].items()),
        f"calibration (ECE) {m['ece']:.4f}",
        f"threshold {m['threshold']:.2f}    coverage {pct('coverage')}    "
        f"selective accuracy {pct('selective_accuracy')}",
        f"oos threshold {m['oos_threshold']:.3f} (at T={m['oos_temperature']:.2f})  accuracy with rejection {pct('accuracy_with_rejection')}",
    ]
    if "oos_recall" in m:
        lines.append(
            f"out of scope      recall {pct('oos_recall')}    precision {pct('oos_precision')}"
            f"    fast-pathed by mistake {pct('oos_false_accept')}"
        )
    if "multi_exact" in m:
        lines.append(
            f"multi-intent      exact {pct('multi_exact')} of {m['multi_n']}    "
            f"precision {pct('multi_precision')}    recall {pct('multi_recall')}"
        )
    lines.append(f"latency           p50 {m['latency_ms_p50']:.3f} ms    p95 {m['latency_ms_p95']:.3f} ms")
    if m["confusions"]:
        lines.append("top confusions (gold -> predicted: count)")
        lines += [f"  {c['gold']} -> {c['predicted']}: {c['count']}" for c in m["confusions"]]
    return "\n".join(lines)
