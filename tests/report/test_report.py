"""`asuka report` and `asuka export` on a real run of two mini tasks; the HTML viewer in Chromium.

The report's numbers are checked against asuka.log.scoring applied directly to the run store."""

from __future__ import annotations

import csv
import html
import json
import math
import re
import shutil
from collections import defaultdict
from pathlib import Path

import pytest
from typer.testing import CliRunner

from asuka.benchmark.loading import load_tasks
from asuka.cli import app
from asuka.dag import CriterionDag, apply_gating, feedback_view
from asuka.log.scoring import (
    Shape,
    by_type,
    dag_gap,
    mean_ci,
    passed_tasks,
    round_metrics,
    status_counts,
)
from asuka.log.store import VERDICTS_FILE, RunStore, read_json
from asuka.report import build_report
from asuka.report.data import load_run
from asuka.report.export import COLUMNS
from asuka.report.html import workspace_diff
from asuka.report.svg import COLORS, dag_svg
from asuka.schema import DagSpec, Task

ROOT = Path(__file__).resolve().parents[2]
MINI = ROOT / "tests" / "fixtures" / "bench"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
runner = CliRunner()

EXPERIMENT = """
name: report-fixture
agents: [{backend: sim, profile: weak, label: weak}]
rounds: 2
thresholds: 0.5
blocks:
  - {protocols: [full, flat]}
  - {starts: [prd], rounds: [1], protocols: [dag]}
"""


def _asuka(*args) -> tuple[int, str]:
    res = runner.invoke(app, [str(a) for a in args], catch_exceptions=False)
    return res.exit_code, res.output


@pytest.fixture(scope="module")
def bench(tmp_path_factory) -> Path:
    """The mini benchmark with a second copy of its task, so that CIs have two projects."""
    root = tmp_path_factory.mktemp("bench") / "bench"
    shutil.copytree(MINI, root)
    src = root / "tasks" / "mini-todo"
    shutil.copytree(src, root / "tasks" / "mini-todo-2")
    y = root / "tasks" / "mini-todo-2" / "task.yaml"
    y.write_text(y.read_text().replace("id: mini-todo", "id: mini-todo-2", 1))
    for d, ext in (("prds", "md"), ("dags", "yaml")):
        shutil.copy(root / d / f"mini-todo.{ext}", root / d / f"mini-todo-2.{ext}")
    return root


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory, bench) -> Path:
    d = tmp_path_factory.mktemp("report")
    exp = d / "exp.yaml"
    exp.write_text(EXPERIMENT)
    code, out = _asuka("sweep", exp, "--bench", bench, "--out", d / "runs", "--run-id", "r",
                       "--cells", "3")
    assert code == 0, out
    return d / "runs" / "r"


# ------------------------------------------------------------ the numbers, recomputed here

def _cells(run_dir: Path, bench: Path) -> list[dict]:
    """Every cell with its padded gated / ungated rounds, straight from the store."""
    store = RunStore(run_dir)
    out = []
    for cid in store.cells():
        spec = read_json(store.cell_dir(cid) / "cell.json")
        (bt,) = load_tasks(bench, [spec["task"]])
        recs = store.load_rounds(cid)
        pad = max(0, spec["rounds"] - len(recs)) if store.is_finished(cid) else 0
        gated = [feedback_view(r.evaluation) for r in recs]
        raw = [r.evaluation.results for r in recs]
        out.append({"id": cid, "spec": spec, "bt": bt, "recs": recs, "shape": Shape.of(bt.task),
                    "gated": gated + gated[-1:] * pad, "raw": raw + raw[-1:] * pad})
    return out


def _groups(cells: list[dict]) -> dict[tuple, list[dict]]:
    g = defaultdict(list)
    for c in cells:
        s = c["spec"]
        g[(s["label"], s["start"], s["protocol"], str(s["rounds"]))].append(c)
    return g


def _estimate(cells: list[dict], fn):
    by_task = defaultdict(list)
    for c in cells:
        v = fn(c)
        if v is not None:
            by_task[c["spec"]["task"]].append(v)
    return mean_ci([sum(v) / len(v) for _, v in sorted(by_task.items())])


def _read_csv(path: Path) -> list[dict]:
    with path.open() as f:
        return list(csv.DictReader(f))


def _row_key(row: dict) -> tuple:
    return (row["agent"], row.get("start", "query"), row.get("protocol", ""),
            row.get("rounds", "").rstrip("R"))


def _close(got: str, want: float) -> None:
    if math.isnan(want):
        assert got in ("nan", ""), got
    else:
        assert float(got) == pytest.approx(want, abs=1e-12), (got, want)


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.timeout(1800)  # includes the run's set-up: 10 rounds (1-2 minutes on an idle box)
def test_report_numbers_equal_scoring_on_the_store(run_dir, bench, tmp_path):
    out = tmp_path / "rep"
    written = build_report(run_dir, ["md", "csv", "latex"], out)
    assert {"md", "csv", "latex"} <= set(written)
    cells = _cells(run_dir, bench)
    groups = _groups(cells)
    assert len(groups) == 3 and {len(v) for v in groups.values()} == {2}

    t1 = _read_csv(out / "table1.csv")
    assert len(t1) == 3
    for row in t1:
        members = groups[_row_key(row)]
        n = min(len(c["gated"]) for c in members)
        assert int(row["n"]) == 2
        for k in range(n):
            e = _estimate(members, lambda c, k=k: round_metrics(
                c["shape"], c["gated"])[k].task_pass_rate)
            _close(row[f"R{k + 1}"], e.mean)
            _close(row[f"R{k + 1}_pm"], e.half_width)
        pcr = _estimate(members, lambda c: round_metrics(c["shape"], c["gated"])[n - 1]
                        .completion)
        crit = _estimate(members, lambda c: round_metrics(c["shape"], c["gated"])[n - 1]
                         .criteria_pass_rate)
        _close(row["PCR"], pcr.mean)
        _close(row["Criteria"], crit.mean)
        _close(row["Criteria_pm"], crit.half_width)

    # Table 2: full minus gated on the same verdicts, for T = 0.5 and 1.0
    (t2,) = [r for r in _read_csv(out / "table2.csv") if r["agent"] != "Mean"]
    full = groups[("weak", "query", "full", "2")]

    def rate(c, rounds):
        return round_metrics(c["shape"], rounds)[-1].task_pass_rate

    _close(t2["Full"], _estimate(full, lambda c: rate(c, c["raw"])).mean)
    for t in (0.5, 1.0):
        def gap(c, t=t):
            dag = CriterionDag.of(c["bt"].task, c["bt"].dag)
            return dag_gap(rate(c, c["raw"]),
                           rate(c, [apply_gating(r, dag, t) for r in c["raw"]]))
        _close(t2[f"Gap T={t:g}"], _estimate(full, gap).mean)
    # at the cell's own threshold the re-gated view is the recorded one
    for c in full:
        dag = CriterionDag.of(c["bt"].task, c["bt"].dag)
        assert [apply_gating(r, dag, 0.5) for r in c["raw"]] == c["gated"]

    # Table 3: fix rates and evaluation cost
    for row in _read_csv(out / "table3.csv"):
        members = groups[_row_key(row)]
        executed = sum(status_counts(r.evaluation.results)["criteria_executed"]
                       for c in members for r in c["recs"])
        assert int(row["criteria executed"]) == executed
        if "Fix R2 task" in row and row["Fix R2 task"]:
            e = _estimate(members, lambda c: round_metrics(c["shape"], c["gated"])[1]
                          .task_fix_rate)
            _close(row["Fix R2 task"], e.mean)

    # per type
    for row in _read_csv(out / "by_type.csv"):
        members = groups[_row_key(row)]
        n = min(len(c["gated"]) for c in members)
        for typ in ("presence", "functionality", "robustness"):
            def share(c, typ=typ):
                passed = set().union(*(passed_tasks(r) for r in c["gated"][:n]))
                return by_type(c["bt"].task, passed)[typ][0]
            _close(row[typ], _estimate(members, share).mean)

    md = (out / "report.md").read_text()
    assert "### Main results" in md and "±" in md and "![Project completion rate" in md
    assert "(paper, Figure 4)" in md and "figure4" not in md
    assert (out / "figures" / "fig4_rounds.png").stat().st_size > 1000
    assert (out / "figures" / "fig5_prd_vs_ambiguous.png").exists()
    assert (out / "figures" / "fig6_implemented_vs_pass.png").exists()
    tex = (out / "table1.tex").read_text()
    assert r"\begin{tabular}" in tex and r"$_{\pm" in tex


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.timeout(1800)
async def test_html_viewer_in_chromium(run_dir, tmp_path):
    from playwright.async_api import async_playwright

    build_report(run_dir, ["html"], tmp_path / "rep")
    index = tmp_path / "rep" / "html" / "index.html"
    run = load_run(run_dir)
    remote: list[str] = []
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                          args=CHROMIUM_ARGS)
        page = await browser.new_page()
        page.on("request", lambda r: remote.append(r.url)
                if not r.url.startswith(("file:", "data:", "about:")) else None)
        await page.goto(index.as_uri())
        rows = page.locator("table[data-name=table1] tbody tr")
        assert await rows.count() == 3
        assert "weak" in await rows.first.inner_text()
        # leaderboard -> cell
        await page.locator("tr.cell-row a").first.click()
        await page.wait_for_load_state()
        assert "/cells/" in page.url
        assert await page.locator("tr.round-row").count() >= 1
        cell_id = page.url.split("/cells/")[1].split("/")[0]
        cell = next(c for c in run.cells if c.cell_id == cell_id)
        # cell -> round 1
        await page.locator("tr.round-row a").first.click()
        await page.wait_for_load_state()
        assert page.url.endswith("round-1.html")
        rec = cell.records[0]
        reasons = [v.reason for r in rec.evaluation.results.values() for v in r.verdicts
                   if v.reason]
        body = await page.locator("main").inner_text()
        for reason in reasons[:5]:
            assert reason.splitlines()[0][:60] in body
        assert await page.locator("tr.verdict").count() == sum(
            len(r.verdicts) for r in rec.evaluation.results.values())
        # the DAG: one node per evaluation task, filled with its status colour
        nodes = page.locator("svg.dag g.node")
        assert await nodes.count() == len(cell.bt.task.eval_tasks)
        for et_id, res in rec.evaluation.results.items():
            fill = await page.locator(f"svg.dag g.node[data-id='{et_id}'] rect") \
                .get_attribute("fill")
            assert fill == COLORS[res.status], (et_id, res.status, fill)
        assert await page.locator("svg.dag path.edge").count() == len(cell.bt.dag.edges)
        # screenshots load from the viewer's own folder
        imgs = page.locator("img.shot")
        assert await imgs.count() >= 1
        widths = await imgs.evaluate_all("els => els.map(e => e.complete && e.naturalWidth)")
        assert all(w and w > 0 for w in widths), widths
        if rec.feedback.strip():
            first = rec.feedback.strip().splitlines()[0]
            assert first in await page.locator("pre.feedback").inner_text()
        assert await page.locator("pre.diff span.add").count() > 0
        await browser.close()
    assert remote == [], f"the viewer fetched external resources: {remote}"
    assert list((tmp_path / "rep" / "html" / "figures").glob("*.png"))


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_export_rows_and_the_commands(run_dir, tmp_path):
    run = load_run(run_dir)
    expected = sum(len(cr.criteria) for c in run.cells for _ in c.records
                   for cr in c.bt.task.eval_tasks)
    code, out = _asuka("export", run_dir, "--format", "csv", "--out", tmp_path / "v.csv")
    assert code == 0, out
    rows = _read_csv(tmp_path / "v.csv")
    assert tuple(rows[0]) == COLUMNS and len(rows) == expected
    c0 = run.cells[0]
    v = c0.records[0].evaluation.results["t0"].verdicts[0]
    (row,) = [r for r in rows if r["cell"] == c0.cell_id and r["round"] == "1"
              and r["criterion"] == v.criterion_id]
    assert row["status"] == v.status and row["reason"] == v.reason
    assert row["agent"] == "weak" and row["type"] == "presence" and row["weight"] == "2"
    code, out = _asuka("export", run_dir, "--format", "jsonl", "--out", tmp_path / "v.jsonl")
    assert code == 0
    lines = (tmp_path / "v.jsonl").read_text().splitlines()
    assert len(lines) == expected and json.loads(lines[0])["run"] == run_dir.name
    try:
        import pyarrow.parquet as pq
    except ImportError:
        code, out = _asuka("export", run_dir, "--format", "parquet")
        assert code == 1 and "pyarrow" in out and "asuka[parquet]" in out
    else:
        code, out = _asuka("export", run_dir, "--format", "parquet", "--out",
                           tmp_path / "v.parquet")
        assert code == 0 and pq.read_table(tmp_path / "v.parquet").num_rows == expected
    code, out = _asuka("report", run_dir, "--format", "md,csv", "--out", tmp_path / "cli")
    assert code == 0 and (tmp_path / "cli" / "table1.csv").exists(), out
    assert not (tmp_path / "cli" / "html").exists()
    code, out = _asuka("report", run_dir, "--format", "pdf")
    assert code == 1 and "unknown format" in out
    code, out = _asuka("report", tmp_path / "nothing")
    assert code == 1 and "not a run directory" in out


# ------------------------------------------------------------ pure parts

def test_dag_svg_layout_by_generation():
    task = Task.model_validate({
        "id": "x", "title": "x", "category": "utility", "query": "q",
        "eval_tasks": [{"id": i, "summary": i, "type": "presence", "weight": 1,
                        "criteria": [{"id": f"{i}.c0", "text": "t"}]}
                       for i in ("a", "b", "c", "d")]})
    dag = CriterionDag.of(task, DagSpec(edges=[("a", "b"), ("a", "c"), ("b", "d")]))
    svg = dag_svg(dag, {"a": "passed", "b": "failed", "c": "skipped"}, {"a": "root"},
                  gated={"b": "skipped"})
    assert svg.count('class="edge"') == 3 and svg.count("<g class=\"node") == 4
    assert f'fill="{COLORS["passed"]}"' in svg and f'fill="{COLORS["failed"]}"' in svg
    assert 'data-status=""' in svg and "stroke-dasharray" in svg  # d not run; b gated
    xs = {m[0]: float(m[1]) for m in re.findall(
        r'data-id="(\w)"[^>]*><title>[^<]*</title><rect x="([\d.]+)"', svg)}
    assert xs["a"] < xs["b"] == xs["c"] < xs["d"]


def test_workspace_diff(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    (a / "index.html").write_text("<h1>One</h1>\n<p>same</p>\n")
    (b / "index.html").write_text("<h1>Two</h1>\n<p>same</p>\n")
    (b / "app.js").write_text("console.log(1)\n")
    (b / "img.png").write_bytes(b"\x89PNG\0\0binary")
    lines = workspace_diff(a, b)
    text = "\n".join(line for _, line in lines)
    assert ("del", "-<h1>One</h1>") in lines and ("add", "+<h1>Two</h1>") in lines
    assert "+console.log(1)" in text and "binary or large file changed: img.png" in text
    assert workspace_diff(a, a) == []


def _first_round_verdicts(run_dir, tmp_path):
    """A copy of the run, its first cell, that cell's round-1 verdicts file and content."""
    run = tmp_path / "run"
    shutil.copytree(run_dir, run)
    store = RunStore(run)
    cell = sorted(store.cells())[0]
    path = store.round_dir(cell, 1) / VERDICTS_FILE
    return run, cell, path, json.loads(path.read_text())


def test_html_viewer_shows_groundings(run_dir, tmp_path):
    """A grounded verdict's page says what decided it, which locator missed, what the grounding
    answered (and at what cost), and a wording judgement, each in the verdict's row."""
    run, cell, path, ev = _first_round_verdicts(run_dir, tmp_path)
    res = next(r for r in ev["results"].values() if r["verdicts"])
    v = res["verdicts"][0]
    v.update(status="pass", decided_by="grounded", locator="{role: button, name: /^calculate$/i}",
             groundings=[{"kind": "locator", "step": 2, "original": "{label: /loan amount/i}",
                          "grounded": "{label: /amount borrowed/i}", "reason": "same field",
                          "model": "openai:fake-grounder", "tokens": 812, "cached": False,
                          "outcome": "matched"},
                         {"kind": "wording", "step": 4, "expected": "/no scenarios yet/i",
                          "observed": "Nothing saved so far", "passed": True,
                          "reason": "an empty state", "model": "openai:fake-grounder",
                          "tokens": 95, "cached": True},
                         {"kind": "relaxed", "step": 1, "original": "click [role='link' "
                          "name='Orders']", "taken": 'link "Work orders"'},
                         {"kind": "adapted", "step": 3, "original": "fill [label='Month']",
                          "taken": "set combobox \"Month\" to month 2"},
                         {"kind": "replan", "step": 5, "steps": ["goto '/'", "click [text="
                          "'Actions']"], "reason": "behind a disclosure", "model": "file:x",
                          "tokens": 0, "cached": True, "outcome": "re-run: pass"}])
    path.write_text(json.dumps(ev))
    build_report(run, ["html"], tmp_path / "rep")
    page = (tmp_path / "rep" / "html" / "cells" / cell / "round-1.html").read_text()
    text = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))
    for shown in ("grounded", "{label: /loan amount/i}", "{label: /amount borrowed/i}",
                  "matched: same field", "openai:fake-grounder", "812", "resolution ladder (5)",
                  'link "Work orders"', 'set combobox "Month" to month 2',
                  "click [text='Actions']", "re-run: pass: behind a disclosure",
                  "observed Nothing saved so far : satisfies the criterion", "cached",
                  "locator that matched nothing: {role: button, name: /^calculate$/i}"):
        assert shown in text, shown


def test_html_viewer_shows_the_record_audit(run_dir, tmp_path):
    """An audited task's page lists the findings, each remediation round and the verdicts as
    first returned."""
    run, cell, path, ev = _first_round_verdicts(run_dir, tmp_path)
    res = next(r for r in ev["results"].values() if r["verdicts"])
    cid = res["verdicts"][0]["criterion_id"]
    res["audit"] = {
        "findings": [{"criterion_id": cid, "defect": "evidence",
                      "detail": "no evidence: no browser action recorded"}],
        "original": [{"criterion_id": cid, "status": "pass", "backend": "browser-use"}],
        "remediations": [{"attempt": 1, "criteria": [cid], "verdicts": [
            {"criterion_id": cid, "status": "fail", "backend": "browser-use"}]}],
        "unresolved": []}
    path.write_text(json.dumps(ev))
    build_report(run, ["html"], tmp_path / "rep")
    page = (tmp_path / "rep" / "html" / "cells" / cell / "round-1.html").read_text()
    text = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))
    for shown in ("record audit: 1 finding(s), 1 remediation round(s)",
                  f"{cid} evidence: no evidence: no browser action recorded",
                  f"remediation 1: re-ran {cid} on the same deployment → {cid} fail",
                  f"as first returned: {cid} pass"):
        assert shown in text, shown


def test_numbers_are_rounded_to_what_they_can_mean():
    """A jury's points once read '44.1266 ±1.48041': rates get one decimal of a percent, other
    numbers one decimal from 1 up and three significant digits below, whole numbers none."""
    from asuka.log.scoring import Estimate
    from asuka.report.render import fmt

    assert fmt(Estimate(44.1266, 44.1266 - 1.48041, 44.1266 + 1.48041, 5), pct=False) \
        == "44.1 ±1.5"
    assert fmt(Estimate(0.41266, 0.40, 0.42532, 5), pct=True) == "41.3 ±1.3"
    assert fmt(0.85312, pct=False) == "0.853" and fmt(12.0, pct=False) == "12"
    assert fmt(7, pct=False) == "7" and fmt(float("nan"), pct=False) == "–"
