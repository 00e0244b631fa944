"""Agreement between two judges of the same items (two evaluators on the same artifacts, an
evaluator against human labels), as pure functions on two equally long label sequences.

- percent agreement p_o: the share of items given the same label;
- Cohen's kappa: (p_o - p_e) / (1 - p_e), with p_e = sum_k p_A(k) p_B(k) from each judge's own
  label shares;
- Gwet's AC1: (p_o - p_e) / (1 - p_e), with p_e = 1/(q - 1) sum_k pi_k (1 - pi_k), pi_k the
  share of label k over both judges and q the number of labels (stable where kappa is not: a
  skewed prevalence, the "kappa paradox");
- against a reference (``truth``): accuracy, per-label precision / recall / F1 and macro-F1
  (the unweighted mean of per-label F1 over the labels present);
- Pearson and Spearman correlation of paired scores (scipy.stats).

Undefined values (no items, a constant sequence, 1 - p_e = 0) are ``nan``, never a silent 0 or 1.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from scipy import stats

NAN = math.nan


def _check(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    if len(a) != len(b):
        raise ValueError(f"label sequences differ in length: {len(a)} vs {len(b)}")
    return len(a)


def percent_agreement(a: Sequence[Hashable], b: Sequence[Hashable]) -> float:
    n = _check(a, b)
    return sum(x == y for x, y in zip(a, b)) / n if n else NAN


def cohen_kappa(a: Sequence[Hashable], b: Sequence[Hashable]) -> float:
    n = _check(a, b)
    if not n:
        return NAN
    po = percent_agreement(a, b)
    ca, cb = Counter(a), Counter(b)
    pe = sum(ca[k] * cb[k] for k in set(ca) | set(cb)) / (n * n)
    return (po - pe) / (1 - pe) if pe < 1 else NAN


def gwet_ac1(a: Sequence[Hashable], b: Sequence[Hashable],
             labels: Sequence[Hashable] | None = None) -> float:
    """``labels``: every category the judges could give (default: those they gave; with one
    alone the coefficient is undefined)."""
    n = _check(a, b)
    cats = list(labels) if labels is not None else sorted(set(a) | set(b), key=str)
    if not n or len(cats) < 2:
        return NAN
    po = percent_agreement(a, b)
    both = Counter(a) + Counter(b)
    pe = sum((both[k] / (2 * n)) * (1 - both[k] / (2 * n)) for k in cats) / (len(cats) - 1)
    return (po - pe) / (1 - pe) if pe < 1 else NAN


@dataclass(frozen=True)
class LabelScores:
    precision: float
    recall: float
    f1: float
    support: int          # items the reference gives this label


def label_scores(pred: Sequence[Hashable], truth: Sequence[Hashable], label: Hashable
                 ) -> LabelScores:
    _check(pred, truth)
    tp = sum(p == label and t == label for p, t in zip(pred, truth))
    fp = sum(p == label and t != label for p, t in zip(pred, truth))
    fn = sum(p != label and t == label for p, t in zip(pred, truth))
    precision = tp / (tp + fp) if tp + fp else NAN
    recall = tp / (tp + fn) if tp + fn else NAN
    if tp == 0:
        f1 = 0.0 if (tp + fp + fn) else NAN
    else:
        f1 = 2 * precision * recall / (precision + recall)
    return LabelScores(precision, recall, f1, tp + fn)


def accuracy(pred: Sequence[Hashable], truth: Sequence[Hashable]) -> float:
    return percent_agreement(pred, truth)


def macro_f1(pred: Sequence[Hashable], truth: Sequence[Hashable]) -> float:
    """The mean of per-label F1 over every label either side used."""
    labels = sorted(set(pred) | set(truth), key=str)
    scores = [label_scores(pred, truth, k).f1 for k in labels]
    scores = [s for s in scores if not math.isnan(s)]
    return sum(scores) / len(scores) if scores else NAN


def pearson(x: Sequence[float], y: Sequence[float]) -> float:
    n = _check(x, y)
    if n < 2 or len(set(x)) < 2 or len(set(y)) < 2:
        return NAN
    return float(stats.pearsonr(x, y).statistic)


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    n = _check(x, y)
    if n < 2 or len(set(x)) < 2 or len(set(y)) < 2:
        return NAN
    return float(stats.spearmanr(x, y).statistic)


def agreement_report(a: Sequence[Hashable], b: Sequence[Hashable]) -> dict[str, float | int]:
    """Everything symmetric at once, for two judges (``b`` need not be a reference)."""
    return {"n": _check(a, b), "percent_agreement": percent_agreement(a, b),
            "cohen_kappa": cohen_kappa(a, b), "gwet_ac1": gwet_ac1(a, b),
            "macro_f1": macro_f1(a, b)}
