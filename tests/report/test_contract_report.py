"""The acceptance-contract diagnostics of a run (failure composition, tau sensitivity, CapScore,
repeated-run shares, pass^k, flip rate), on a run built by hand, against values computed by
hand here."""

from __future__ import annotations

import json
import re

import pytest

from asuka.benchmark.loading import load_tasks
from asuka.log.store import RunStore
from asuka.report import aggregate, build_report, load_run
from asuka.report.summary import summarize
from tests.builders import TASKS, cell_spec, copy_bench, evaluation, record_cell


def contract_bench(root):
    """mini-todo with a contract: core t1 (t1.c0 mandatory) and t3 (t3.c1 mandatory); t0 is
    component completeness, t1 state management, the rest unlabelled."""
    bench = copy_bench(root)
    y = bench / "tasks" / "mini-todo" / "task.yaml"
    text = y.read_text()
    for tid, extra in (("t0", "capability: component-completeness"),
                       ("t1", "core: true\n    capability: state-management"),
                       ("t3", "core: true")):
        text = re.sub(rf"(\n  - id: {tid}\n)", rf"\1    {extra}\n", text, count=1)
    for cid in ("t1.c0", "t3.c1"):
        text = text.replace(f"      - id: {cid}\n", f"      - id: {cid}\n        mandatory: true\n")
    y.write_text(text)
    return bench


@pytest.fixture
def run(tmp_path):
    """Five run slots (seeds) of mini-todo. In the evaluation helper a task that is not passed
    keeps its first criterion only: t1 failing = mandatory kept, A = 1/2 (a completion
    failure); t3 failing = its mandatory c1 lost."""
    bench = contract_bench(tmp_path / "bench")
    tasks = {bt.id: bt for bt in load_tasks(bench, list(TASKS))}
    bt = tasks["mini-todo"]
    store = RunStore(tmp_path / "run")
    last = [evaluation(bt, {"t1", "t3"}),         # success
            evaluation(bt, {"t1"}),               # mandatory-only (t3)
            evaluation(bt, {"t3"}),               # completion-only (t1)
            evaluation(bt, set()),                # both
            evaluation(bt, set(), deploy_ok=False)]   # not operable
    for seed, ev in enumerate(last):
        record_cell(store, bt, cell_spec("mini-todo", seed, "low"), [evaluation(bt, set()), ev])
    return bench, store, tasks


def test_contract_block_of_the_summary(run):
    bench, store, tasks = run
    summary = summarize(store, tasks)
    assert summary["tau"] == 0.8
    (group,) = summary["groups"]
    c = group["contract"]
    assert c["runs"] == 5 and c["slots"] == 5
    assert c["failure_composition"] == {"unsuccessful": 4, "mandatory-only": 1,
                                        "completion-only": 1, "both": 1, "not-operable": 1,
                                        "high_ats_unsuccessful": 0}
    # per slot C = 1, 1/2, 1/2, 0, 0 and S = 1, 0, 0, 0, 0 at tau 0.8 (one problem: n = 1)
    assert c["at_tau"]["0.8"]["ctpr"]["mean"] == pytest.approx(0.4)
    assert c["at_tau"]["0.8"]["asr"]["mean"] == pytest.approx(0.2)
    # both core tasks have two criteria: 1/2 < 0.75, so every tau listed forces both
    assert c["tau_forces_every_criterion"] == {"0.75": 1.0, "0.8": 1.0, "0.9": 1.0}
    # CapScore: t0 (3 criteria, keeps 1 when failing) 1/3 in four slots, 0 when not operable;
    # t1: 1, 1, 1/2, 1/2, 0
    assert c["capabilities"] == pytest.approx({"component-completeness": (4 / 3) / 5,
                                               "state-management": 3 / 5})
    assert c["repeats"] == {"all_success": 0.0, "all_failure": 0.0, "mixed": 1.0}
    # pass^k with c = 1 success of n = 5: C(1, k) / C(5, k); no slot completed the project
    assert c["pass_k"]["asr"] == pytest.approx({"1": 0.2, "2": 0.0, "3": 0.0, "4": 0.0,
                                                "5": 0.0})
    assert c["pass_k"]["project"]["1"] == 0.0
    # flips: t1 and t3 pass in 2 of 5 slots (2 * 3 / C(5, 2) = 0.6), t0, t2, t4 never
    assert c["flip_rate"] == pytest.approx((0.6 + 0.6) / 5)
    # the per-round ASR of the last round is the same number
    assert group["rounds"][-1]["asr.same-artifact"]["mean"] == pytest.approx(0.2)
    from asuka.report.summary import summary_footer

    (why,) = [x for x in summary_footer(summary) if x.startswith("Why applications")]
    assert ("1 mandatory-only, 1 completion-only, 1 both, 1 not-operable") in why


def test_tau_is_the_runs_or_the_callers(run):
    bench, store, tasks = run
    data = load_run(store.root, bench)
    agg = aggregate(data, tau=0.5)
    (g,) = agg.groups
    # at 0.5 the completion-only slot's t1 (A = 1/2, mandatory kept) passes: S = 1, 0, 1, 0, 0
    contract = g.families["contracts"]
    assert contract.at_tau["0.5"]["asr"].mean == pytest.approx(0.4)
    assert contract.failures["completion-only"] == 0
    assert contract.forced_share["0.5"] == 0.0
    assert g.rounds[-1].metrics["asr.same-artifact"].mean == pytest.approx(0.4)
    data.meta["tau"] = 0.9  # what an experiment's `tau:` writes into run.json
    assert aggregate(data).tau == 0.9


def test_the_report_shows_the_contract_table(run, tmp_path):
    bench, store, _ = run
    written = build_report(store.root, ("md", "csv"), tmp_path / "out", bench)
    md = (tmp_path / "out" / "report.md").read_text()
    assert "Acceptance contracts" in md
    rows = (tmp_path / "out" / "contracts.csv").read_text().splitlines()
    head, row = rows[0].split(","), rows[1].split(",")
    got = dict(zip(head, row))
    assert float(got["ASR"]) == pytest.approx(0.2) and float(got["CTPR"]) == pytest.approx(0.4)
    assert got["mandatory-only"] == "1" and got["not operable"] == "1"
    assert any(p.name == "contracts.csv" for p in written["csv"])


def test_report_tau_option_and_experiment_field(run, tmp_path):
    from typer.testing import CliRunner

    from asuka.cli import app
    from asuka.loop.experiments import ExperimentError, load_experiment

    bench, store, _ = run
    res = CliRunner().invoke(app, ["report", str(store.root), "--bench", str(bench), "-f", "csv",
                                   "--out", str(tmp_path / "o"), "--tau", "0.5"])
    assert res.exit_code == 0, res.output
    head, row = [r.split(",") for r in (tmp_path / "o" / "contracts.csv").read_text()
                 .splitlines()[:2]]
    assert float(dict(zip(head, row))["ASR"]) == pytest.approx(0.4)
    exp = tmp_path / "e.yaml"
    exp.write_text("name: e\nagents: [{backend: sim}]\ntau: 0.9\n")
    assert load_experiment(exp).tau == 0.9
    exp.write_text("name: e\nagents: [{backend: sim}]\ntau: 1.5\n")
    with pytest.raises(ExperimentError, match="tau"):
        load_experiment(exp)


def test_a_hand_built_run_with_audited_records(tmp_path):
    """Issue #16's run by hand: three slots of mini-todo whose t1 (core; t1.c0 mandatory) comes
    from the real record auditor. Slot 0: both criteria first come back without evidence and a
    remediation round backs both; slot 1: the remediation backs t1.c0 only, t1.c1 stays
    unbacked (an error after three rounds, scored 0); slot 2: the deploy failed. Every other
    task passes where the app deployed."""
    import asyncio

    from asuka.protocol.audit import audited
    from asuka.schema import EvalTaskResult, Verdict

    bench = contract_bench(tmp_path / "bench")
    tasks = {bt.id: bt for bt in load_tasks(bench, list(TASKS))}
    bt = tasks["mini-todo"]

    def judged(cid: str, backed: bool) -> Verdict:
        return Verdict(criterion_id=cid, status="pass", backend="browser-use",
                       reason="saw it" if backed else "",
                       snapshot=f"{cid}.aria.txt" if backed else None)

    def t1(backs_c1: bool) -> EvalTaskResult:
        calls = 0

        async def evaluator(et):
            nonlocal calls
            calls += 1
            first = calls == 1
            return EvalTaskResult(eval_task_id="t1", status="passed", verdicts=[
                judged(c.id, backed=not first and (c.id == "t1.c0" or backs_c1))
                for c in et.criteria])

        return asyncio.run(audited(evaluator)(bt.task.eval_task("t1")))

    store = RunStore(tmp_path / "run")
    others = {"t0", "t2", "t3", "t4"}
    slots = []
    for backs_c1 in (True, False):
        ev = evaluation(bt, others)
        ev.results["t1"] = t1(backs_c1)
        slots.append(ev)
    slots.append(evaluation(bt, set(), deploy_ok=False))
    cells = [record_cell(store, bt, cell_spec("mini-todo", seed, "low"), [ev])
             for seed, ev in enumerate(slots)]

    fixed, unfixed = (store.load_round(c, 1).evaluation.results["t1"] for c in cells[:2])
    assert [v.status for v in fixed.verdicts] == ["pass", "pass"] and not fixed.audit.unresolved
    assert len(fixed.audit.remediations) == 1
    assert [v.status for v in unfixed.verdicts] == ["pass", "error"]
    assert unfixed.audit.unresolved == ["t1.c1"]

    (group,) = summarize(store, tasks)["groups"]
    c = group["contract"]
    # by hand, per slot: ATS 1, (4 + 1/2) / 5 = 0.9, 0; CTPR 1, 1/2, 0; S 1, 0, 0; B 1, 1, 0
    assert group["rounds"][-1]["ats.same-artifact"]["mean"] == pytest.approx((1 + 0.9) / 3)
    assert c["at_tau"]["0.8"]["ctpr"]["mean"] == pytest.approx(0.5)
    assert c["at_tau"]["0.8"]["asr"]["mean"] == pytest.approx(1 / 3)
    assert c["failure_composition"] == {"unsuccessful": 2, "mandatory-only": 0,
                                        "completion-only": 1, "both": 0, "not-operable": 1,
                                        "high_ats_unsuccessful": 1}
    # pass^k with one success of three slots: C(1, k) / C(3, k)
    assert c["pass_k"]["asr"] == pytest.approx({"1": 1 / 3, "2": 0.0, "3": 0.0})
    # CapScore: t0 1, 1, 0; t1 1, 1/2, 0
    assert c["capabilities"] == pytest.approx({"component-completeness": 2 / 3,
                                               "state-management": 1 / 2})
    # t1 passes in one slot of three, the others in two: 1 * 2 / C(3, 2) = 2 * 1 / C(3, 2)
    assert c["flip_rate"] == pytest.approx(2 / 3)
    # the audit is in the viewer's round page
    build_report(store.root, ("html",), tmp_path / "out", bench)
    page = next((tmp_path / "out").rglob(f"cells/{cells[1]}/round-1.html")).read_text()
    assert "record audit" in page and "unresolved: t1.c1" in page


@pytest.mark.browser
def test_a_demo_sweep_with_repeats_reports_contracts_and_pass_k(tmp_path):
    """Issue #16's done-when: `asuka sweep` with `repeats: 3`, offline, then `asuka report`
    shows the contract table with the repeated-run shares and pass^k."""
    from typer.testing import CliRunner

    from asuka.cli import app

    bench = contract_bench(tmp_path / "bench")
    exp = tmp_path / "demo.yaml"
    exp.write_text("name: demo\ntasks: [mini-todo]\nagents:\n"
                   "  - {backend: sim, profile: medium, label: sim-medium}\n"
                   "rounds: 1\nrepeats: 3\ntau: 0.8\ncells: 2\n")
    runner = CliRunner()
    res = runner.invoke(app, ["sweep", str(exp), "--bench", str(bench), "--out",
                              str(tmp_path / "runs"), "--run-id", "demo"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["report", str(tmp_path / "runs" / "demo"), "--bench", str(bench),
                              "-f", "md", "--out", str(tmp_path / "rep")])
    assert res.exit_code == 0, res.output
    md = (tmp_path / "rep" / "report.md").read_text()
    section = md[md.index("Acceptance contracts"):]
    head = section.splitlines()[2]
    for column in ("ATS", "CTPR", "ASR", "pass^2", "pass^3", "mixed", "flip rate"):
        assert column in head, head
    summary = RunStore(tmp_path / "runs" / "demo").root / "summary.json"
    c = json.loads(summary.read_text())["groups"][0]["contract"]
    assert c["slots"] == 3 and set(c["pass_k"]["asr"]) == {"1", "2", "3"}
    assert sum(c["repeats"].values()) == pytest.approx(1.0)
