"""The markup lint: checks that read reference-app markup or wording the PRD does not give."""

from __future__ import annotations

import copy

import yaml
from typer.testing import CliRunner

from asuka.benchmark.lint_markup import (
    eval_names,
    lint_bench_task,
    lint_task,
    selector_names,
    summary_line,
    wordy,
)
from asuka.benchmark.loading import load_bench
from asuka.cli import app
from asuka.schema import Task
from tests.builders import FIXTURES, TASK, write_bench

PRD = """# Loan calculator

Inputs: **Loan amount**, Annual interest rate, a "Scenario name" input and a search box with
placeholder "Search scenarios". Results: a **Summary** section and a Calculate button.

The chart is an SVG with id `chart`; each year column is a region with data-year attributes.
Bars are `rect.seg`. The total has `data-testid="total"`. A Remove button (labelled
"Remove <title>") on each saved scenario. Empty state: "No saved scenarios yet".
"""


def task(*checks: list, data: list[str] | None = None) -> Task:
    """A task with one evaluation task whose criteria run the given checks."""
    return Task.model_validate({
        "id": "loan", "title": "Loan", "category": "utility", "query": "A loan calculator.",
        "data": data or [],
        "eval_tasks": [{"id": "t0", "summary": "s", "type": "presence", "weight": 1,
                        "criteria": [{"id": f"t0.c{i}", "text": "x", "check": c}
                                     for i, c in enumerate(checks)]}]})


def lint(*checks: list, prd: str = PRD, data: dict[str, str] | None = None):
    return lint_task(task(*checks), prd, data)


def warned(*checks: list, **kw) -> list[tuple[str, int, tuple[str, ...]]]:
    return [(f.criterion, f.step, f.subjects) for f in lint(*checks, **kw)
            if f.severity == "warning"]


# ------------------------------------------------------------------ markup

def test_css_id_class_and_data_attribute_unbacked_vs_backed():
    assert warned([{"expect_visible": {"css": "#chart [data-year='2027'] rect.seg"}}]) == []
    step = {"expect_visible": {"css": "#ranking-table tr.c-avg[data-st]"}}
    assert warned([{"goto": "/"}, step]) == [("t0.c0", 1,
                                              ("#ranking-table", ".c-avg", "[data-st]"))]
    (f,) = lint([{"expect_count": {"css": ".kpi-value", "count": 3}}])
    assert f.kind == "class" and f.via == "css" and "prds/loan.md" in f.reason
    assert str(f).startswith("tasks/loan/task.yaml: t0.c0 check[0]: "
                             "css '.kpi-value' reads .kpi-value")


def test_nested_within_is_read_too():
    check = [{"expect_text": {"text": "2027", "within": {"css": "#chart-wrap"}, "value": "2027"}}]
    assert warned(check) == [("t0.c0", 0, ("#chart-wrap",))]
    ok = [{"expect_text": {"role": "img", "within": {"css": "#chart"}, "value": "2027"}}]
    assert warned(ok) == []


def test_testid():
    assert warned([{"expect_text": {"testid": "total", "value": "$1,798.65"}}]) == []
    (f,) = lint([{"click": {"testid": "calc-btn"}}])
    assert f.kind == "testid" and f.subjects == ("calc-btn",)


def test_eval_getelementbyid_and_queryselector():
    js = ("const c = document.getElementById('chart'); "
          "return c.querySelectorAll('[data-year]').length === 30")
    assert warned([{"eval": js}]) == []
    js = ("return document.getElementById('summary-card').textContent.includes('$') && "
          "[...document.querySelectorAll('#chart .bar-hit[data-k=\"' + k + '\"]')].length > 0 && "
          "document.querySelector('li').dataset.rowIndex")
    f, note = lint([{"eval": js}])
    assert f.via == "eval" and f.subjects == ("#summary-card", ".bar-hit", "[data-k]",
                                              "[data-row-index]")
    assert (note.severity, note.subjects) == ("note", ("li",))
    assert warned([{"eval": "localStorage.clear() || true"}]) == []
    (f,) = lint([{"eval": "localStorage.setItem('loan.v2', '{oops') || true"}])
    assert f.kind == "storage" and "storage key 'loan.v2'" in f.reason


def test_selector_and_eval_names():
    names = selector_names("#a > .b.c[data-x='1' i] td:nth-child(2):not(.d), input[type=checkbox]")
    assert names == {"id": {"a"}, "class": {"b", "c", "d"}, "attribute": {"data-x"},
                     "tag": {"td", "input"}}
    assert eval_names("el.closest(`#row-${i} .cell`)")["id"] == {"row-"}
    assert eval_names("x.classList.contains('open')")["class"] == {"open"}


def test_structure_is_a_note_unless_the_prd_names_the_element():
    fs = lint([{"expect_count": {"css": "tbody tr", "count": 3}}])
    assert [(f.severity, f.kind, f.subjects) for f in fs] == [("note", "structure",
                                                               ("tbody", "tr"))]
    assert lint([{"expect_count": {"css": "tbody tr", "count": 3}}],
                prd=PRD + "\nThe schedule is a table.\n") == []
    assert lint([{"expect_text": {"css": "body", "value": "Summary"}}]) == []


# ------------------------------------------------------------------ wording

def test_exact_wording_backed_and_unbacked():
    assert warned([{"expect_text": {"css": "body", "value": "No saved scenarios yet"}}]) == []
    (f,) = lint([{"expect_text": {"role": "region", "name": "Summary",
                                  "value": "Nothing here yet", "contains": False}}])
    assert f.kind == "wording" and "exactly 'Nothing here yet'" in f.reason
    (f,) = lint([{"expect_visible": {"text": "/no schedule yet/i"}}])
    assert f.kind == "name" and f.via == "text" and f.subjects == ("no schedule yet",)
    # case and whitespace do not matter; markdown emphasis in the PRD neither
    assert warned([{"expect_visible": {"label": "loan   AMOUNT"}}]) == []


def test_regex_names_backed_by_a_prd_phrase():
    assert warned([{"click": {"role": "button", "name": "/^calculate$/i"}},
                   {"expect_visible": {"role": "region", "name": "/summary/i"}},
                   {"expect_visible": {"label": "/annual interest( rate)?/i"}},
                   {"click": {"role": "button", "name": "/save scenario|store scenario/i"}}],
                  prd=PRD + "\nA Store scenario button.\n") == []
    (f,) = lint([{"expect_visible": {"label": "/loan product/i"}}])
    assert (f.via, f.subjects) == ("label", ("loan product",))
    (f,) = lint([{"expect_visible": {"role": "heading", "name": "/your loan|loan details/i"}}])
    assert f.subjects == ("your loan | loan details",)


def test_numbers_money_dates_counts_and_codes_are_not_wording():
    for value in ("$1,798.65", "360", "Dec 2054", "KB-101", "2025 Q2", "97.1%", "12 items",
                  "/monthly payment[^\\d]{0,24}1,798\\.65/i"):
        step = {"expect_text": {"role": "region", "name": "Summary", "value": value,
                                "contains": False}}
        assert warned([step], prd=PRD + "\nIt shows the monthly payment.\n") == [], value
    assert not wordy("£175.50") and not wordy("Tue 10 Mar 2026") and wordy("Completed")
    assert wordy("over your £175.50 budget by £28.93") and not wordy("3 days")


def test_values_from_the_data_or_typed_by_the_task_are_backed():
    data = {"data/products.json": '{"products": [{"name": "30-Year Fixed Mortgage"}]}'}
    checks = [{"select": {"label": "Loan amount", "option": "30-Year Fixed Mortgage"}},
              {"fill": {"label": "Scenario name", "value": "Starter home"}},
              {"expect_text": {"css": "body", "value": "Starter home"}},
              {"expect_visible": {"role": "button", "name": "Remove Starter home"}},
              {"expect_text": {"css": "body", "value": "30-Year Fixed Mortgage"}}]
    assert warned(checks, data=data) == []
    assert warned([{"expect_text": {"css": "body", "value": "Starter home"}}]) \
        == [("t0.c0", 0, ("Starter home",))]
    # the intents type and choose values too
    assert warned([{"set": {"label": "Scenario name", "value": "Starter home"}},
                   {"choose": {"label": "Loan amount", "option": "Cozy cabin"}},
                   {"expect_visible": {"role": "button", "name": "Remove Starter home"}},
                   {"expect_text": {"css": "body", "value": "Cozy cabin"}}]) == []


def test_phrases_with_other_numbers_and_placeholders():
    prd = PRD + '\nThe counter reads "N habit(s) done, 3 left" and "Budget over by £X".\n'
    assert warned([{"expect_text": {"css": "body", "value": "2 habits done, 1 left"}},
                   {"expect_text": {"css": "body", "value": "Budget over by £4.43"}}],
                  prd=prd) == []


def test_placeholder_only_where_the_prd_speaks_of_one():
    assert warned([{"fill": {"placeholder": "/search scenarios/i", "value": "a"}}]) == []
    (f,) = lint([{"fill": {"placeholder": "/scenario name/i", "value": "a"}}])
    assert f.via == "placeholder" and "not as a placeholder" in f.reason
    assert warned([{"fill": {"label": "/scenario name/i", "value": "a"}}]) == []


# ------------------------------------------------------------------ on disk and in the CLI

def _bench(tmp_path):
    t = copy.deepcopy(TASK)
    t["eval_tasks"][0]["criteria"][0]["check"] = [
        {"goto": "/"}, {"expect_visible": {"role": "heading", "name": "Counter"}},
        {"expect_text": {"css": "#count-badge", "value": "0"}},
        {"expect_text": {"role": "status", "name": "Counter", "value": "Ready to count"}}]
    return write_bench(tmp_path, task=t, prd="# PRD\n\nA Counter heading and a button.\n")


def test_findings_carry_file_and_line(tmp_path):
    root = _bench(tmp_path)
    (bt,), problems = load_bench(root)
    assert not problems
    fs = lint_bench_task(bt)
    assert [(f.criterion, f.step, f.kind) for f in fs] == [("t0.c0", 2, "id"),
                                                          ("t0.c0", 3, "wording")]
    lines = (root / "tasks/mini/task.yaml").read_text().splitlines()
    assert lines[fs[0].line - 1].strip() == "- expect_text:"    # the step's first line
    assert "#count-badge" in lines[fs[0].line]
    assert str(fs[0]).startswith(f"tasks/mini/task.yaml:{fs[0].line}: t0.c0 check[2]: ")
    assert summary_line(fs).startswith("markup 2 finding(s) of checks reading markup or wording "
                                       "the PRD does not give: mini 2;")


def test_cli_warns_by_default_and_fails_with_strict(tmp_path):
    root = _bench(tmp_path)
    res = CliRunner().invoke(app, ["validate", "--bench", str(root)])
    assert res.exit_code == 0, res.output
    out = " ".join(res.output.split())
    assert "1 task(s) valid" in out and "markup 2 finding(s)" in out and "mini 2" in out
    assert "#count-badge" not in out  # the list only with --lint-markup

    res = CliRunner().invoke(app, ["validate", "--bench", str(root), "--lint-markup"])
    assert res.exit_code == 0
    out = " ".join(res.output.split())
    assert "warning tasks/mini/task.yaml:" in out and "css '#count-badge' reads #count-badge" in out
    assert "expect_text 'Ready to count': wording not in prds/mini.md" in out
    assert "mini 2 warning(s) (css 1, expect_text 1)" in out

    res = CliRunner().invoke(app, ["validate", "--bench", str(root), "--strict-markup"])
    assert res.exit_code == 1
    out = " ".join((res.output + (res.stderr if res.stderr_bytes is not None else "")).split())
    assert "error tasks/mini/task.yaml:" in out and "2 markup problem(s)" in out


def test_cli_clean_bench_passes_strict(tmp_path):
    root = write_bench(tmp_path)
    res = CliRunner().invoke(app, ["validate", "--bench", str(root), "--strict-markup"])
    assert res.exit_code == 0, res.output
    assert "markup no check reads markup or wording the PRD does not give" in \
        " ".join(res.output.split())


def test_bundled_fixture_bench_reads_markup(tmp_path):
    """The loop's own fixture task looks up #list/#count, which its PRD does not name."""
    from pathlib import Path

    (bt,), _ = load_bench(FIXTURES / "bench")
    subjects = {s for f in lint_bench_task(bt) for s in f.subjects}
    assert {"#list", "#count"} <= subjects
    assert yaml.safe_load((Path(bt.root) / "task.yaml").read_text())["id"] == bt.id
