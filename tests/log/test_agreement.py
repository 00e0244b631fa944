"""Agreement statistics on worked examples computed by hand (asuka.log.agreement)."""

from __future__ import annotations

import math

import pytest

from asuka.log.agreement import (
    accuracy,
    agreement_report,
    cohen_kappa,
    gwet_ac1,
    label_scores,
    macro_f1,
    pearson,
    percent_agreement,
    spearman,
)


def table(yy: int, yn: int, ny: int, nn: int) -> tuple[list[str], list[str]]:
    """Two judges' labels from a 2x2 table (first letter: judge A's label)."""
    a = ["yes"] * (yy + yn) + ["no"] * (ny + nn)
    b = ["yes"] * yy + ["no"] * yn + ["yes"] * ny + ["no"] * nn
    return a, b


def test_cohen_kappa_textbook_example() -> None:
    """50 items: 20 both yes, 5 A yes/B no, 10 A no/B yes, 15 both no. p_o = 35/50 = 0.7;
    A says yes 25/50, B 30/50: p_e = 0.5 * 0.6 + 0.5 * 0.4 = 0.5; kappa = 0.2 / 0.5 = 0.4.
    AC1: pi_yes = 55/100, p_e = 2 * 0.55 * 0.45 = 0.495; (0.7 - 0.495) / 0.505."""
    a, b = table(20, 5, 10, 15)
    assert percent_agreement(a, b) == pytest.approx(0.7)
    assert cohen_kappa(a, b) == pytest.approx(0.4)
    assert gwet_ac1(a, b) == pytest.approx(0.205 / 0.505)


def test_the_kappa_paradox_and_ac1() -> None:
    """High agreement on a skewed prevalence (118 both yes, 5 and 2 disagreements, 0 both no):
    p_o = 118/125 = 0.944; kappa's p_e = (123/125)(120/125) + (2/125)(5/125) = 0.94528, so
    kappa = (0.944 - 0.94528) / 0.05472 < 0; AC1's pi_yes = 243/250 = 0.972, p_e = 2 * 0.972
    * 0.028 = 0.054432, AC1 = 0.889568 / 0.945568."""
    a, b = table(118, 5, 2, 0)
    assert cohen_kappa(a, b) == pytest.approx((0.944 - 0.94528) / 0.05472)
    assert round(cohen_kappa(a, b), 4) == -0.0234
    assert gwet_ac1(a, b) == pytest.approx(0.889568 / 0.945568)
    assert round(gwet_ac1(a, b), 4) == 0.9408


def test_against_a_reference_precision_recall_f1() -> None:
    truth = ["pass", "pass", "pass", "fail", "fail", "fail", "fail", "pass"]
    pred = ["pass", "pass", "fail", "fail", "fail", "pass", "fail", "pass"]
    # pass: tp 3, fp 1, fn 1 -> P = R = F1 = 0.75; fail: tp 3, fp 1, fn 1 -> the same
    s = label_scores(pred, truth, "pass")
    assert (s.precision, s.recall, s.f1, s.support) == (0.75, 0.75, 0.75, 4)
    assert accuracy(pred, truth) == 0.75 and macro_f1(pred, truth) == pytest.approx(0.75)
    # a label never predicted nor true is left out; one predicted but never true has F1 0
    skewed = label_scores(["x", "pass"], ["pass", "pass"], "x")
    assert skewed.f1 == 0.0 and math.isnan(skewed.recall)


def test_correlations() -> None:
    assert pearson([1, 2, 3, 4, 5], [2, 4, 6, 8, 10]) == pytest.approx(1.0)
    # no ties: rho = 1 - 6 sum d^2 / (n (n^2 - 1)) = 1 - 6 * 4 / 120
    assert spearman([1, 2, 3, 4, 5], [2, 1, 4, 3, 5]) == pytest.approx(0.8)
    assert math.isnan(pearson([1, 1, 1], [1, 2, 3]))  # a constant side: undefined


def test_undefined_cases_are_nan_and_lengths_must_match() -> None:
    assert math.isnan(percent_agreement([], []))
    assert math.isnan(cohen_kappa(["a", "a"], ["a", "a"]))   # p_e = 1
    assert math.isnan(gwet_ac1(["a", "a"], ["a", "a"]))      # one category only
    assert gwet_ac1(["a", "a"], ["a", "a"], labels=["a", "b"]) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="differ in length"):
        cohen_kappa(["a"], ["a", "b"])
    report = agreement_report(*table(20, 5, 10, 15))
    assert report["n"] == 50 and report["cohen_kappa"] == pytest.approx(0.4)
