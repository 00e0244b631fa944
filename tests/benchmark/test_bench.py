"""`asuka validate` on a valid benchmark and on one broken fixture per kind of problem."""

from __future__ import annotations

import copy

import pytest
from typer.testing import CliRunner

from asuka.benchmark.loading import load_bench
from asuka.cli import app
from tests.builders import FIXTURES, TASK, write_bench

runner = CliRunner()


def validate(root, *ids):
    res = runner.invoke(app, ["validate", "--bench", str(root), *ids])
    return res.exit_code, res.output + (res.stderr if res.stderr_bytes is not None else "")


def broken(**changes):
    t = copy.deepcopy(TASK)
    for path, value in changes.items():
        cur = t
        keys = path.split("__")
        for k in keys[:-1]:
            cur = cur[int(k)] if k.isdigit() else cur[k]
        last = keys[-1]
        if value is DELETE:
            del cur[int(last) if last.isdigit() else last]
        else:
            cur[int(last) if last.isdigit() else last] = value
    return t


DELETE = object()


def test_valid_bench_passes(tmp_path):
    code, out = validate(write_bench(tmp_path))
    assert code == 0, out
    assert "1 task(s) valid" in out


def test_yaml_syntax_error_has_line_number(tmp_path):
    text = "id: mini\ntitle: x\neval_tasks:\n  - id: t0\n    summary: [unclosed\n"
    code, out = validate(write_bench(tmp_path, task_text=text))
    assert code == 1
    assert "tasks/mini/task.yaml:5" in out or "tasks/mini/task.yaml:6" in out
    assert "YAML syntax error" in out


def test_unknown_task_id(tmp_path):
    code, out = validate(write_bench(tmp_path), "nope")
    assert code == 1
    assert "unknown task id 'nope'" in out


def test_duplicate_eval_task_id(tmp_path):
    t = broken(eval_tasks__2__id="t1", eval_tasks__2__criteria__0__id="t2.c0")
    code, out = validate(write_bench(tmp_path, task=t, dag={"edges": [["t0", "t1"]]}))
    assert code == 1
    assert "duplicate evaluation task id 't1'" in out


def test_duplicate_criterion_id(tmp_path):
    t = broken(eval_tasks__1__criteria__0__id="t0.c0")
    code, out = validate(write_bench(tmp_path, task=t))
    assert code == 1
    assert "duplicate criterion id 't0.c0'" in out


def test_id_must_match_folder(tmp_path):
    root = write_bench(tmp_path)
    (root / "tasks" / "mini" / "task.yaml").write_text(
        (root / "tasks" / "mini" / "task.yaml").read_text().replace("id: mini", "id: other", 1))
    code, out = validate(root)
    assert code == 1
    assert "differs from its folder" in out


def test_cycle_is_named(tmp_path):
    dag = {"edges": [["t0", "t1"], ["t1", "t2"], ["t2", "t1"]]}
    code, out = validate(write_bench(tmp_path, dag=dag))
    assert code == 1
    assert "cycle: t1 -> t2 -> t1" in out or "cycle: t2 -> t1 -> t2" in out
    assert "dags/mini.yaml" in out


def test_edge_to_unknown_eval_task(tmp_path):
    code, out = validate(write_bench(tmp_path, dag={"edges": [["t0", "t9"]]}))
    assert code == 1
    assert "dags/mini.yaml" in out and "edges[0]" in out and "unknown evaluation task 't9'" in out


def test_weight_out_of_range(tmp_path):
    code, out = validate(write_bench(tmp_path, task=broken(eval_tasks__1__weight=7)))
    assert code == 1
    assert "eval_tasks[1](t1).weight" in out
    assert "less than or equal to 5" in out


def test_weight_zero(tmp_path):
    code, out = validate(write_bench(tmp_path, task=broken(eval_tasks__0__weight=0)))
    assert code == 1
    assert "eval_tasks[0](t0).weight" in out and "greater than or equal to 1" in out


def test_unknown_task_type(tmp_path):
    code, out = validate(write_bench(tmp_path, task=broken(eval_tasks__2__type="security")))
    assert code == 1
    assert "eval_tasks[2](t2).type" in out and "unknown value 'security'" in out
    assert "task.yaml:" in out  # with the line of the offending field


def test_eval_task_without_criteria(tmp_path):
    code, out = validate(write_bench(tmp_path, task=broken(eval_tasks__1__criteria=[])))
    assert code == 1
    assert "eval_tasks[1](t1).criteria" in out and "at least 1" in out


def test_missing_prd(tmp_path):
    code, out = validate(write_bench(tmp_path, prd=None))
    assert code == 1
    assert "prds/mini.md" in out and "PRD file not found" in out


def test_missing_data_file(tmp_path):
    code, out = validate(write_bench(tmp_path, task=broken(data=["data/seed.json", "data/x.csv"])))
    assert code == 1
    assert "data[1]" in out and "data file not found: tasks/mini/data/x.csv" in out


def test_bad_check_step(tmp_path):
    t = broken(eval_tasks__0__criteria__0__check=[{"clik": {"role": "button"}}])
    code, out = validate(write_bench(tmp_path, task=t))
    assert code == 1
    assert "eval_tasks[0](t0).criteria[0](t0.c0).check[0]" in out
    assert "unknown check step 'clik'" in out


def test_acceptance_contracts_are_checked(tmp_path):
    # a core task without a mandatory criterion; a mandatory criterion outside a core task
    t = broken(eval_tasks__0__core=True, eval_tasks__1__criteria__0__mandatory=True)
    code, out = validate(write_bench(tmp_path / "a", task=t))
    assert code == 1
    assert "eval_tasks(t0).core: a core task needs at least one mandatory criterion" in out
    assert "mandatory, but t1 is not a core task" in out
    t = broken(eval_tasks__1__criteria__0__mandatory=True)
    code, out = validate(write_bench(tmp_path / "b", task=t))
    assert "mandatory criteria but no core task" in out
    t = broken(eval_tasks__0__core=True, eval_tasks__0__criteria__0__mandatory=True,
               eval_tasks__0__capability="state-management",
               eval_tasks__0__criteria__0__source_verifiable=True)
    code, out = validate(write_bench(tmp_path / "c", task=t))
    assert code == 0, out
    t = broken(eval_tasks__0__capability="speed")
    code, out = validate(write_bench(tmp_path / "d", task=t))
    assert code == 1 and "unknown value 'speed'" in out and "state-management" in out


def test_all_problems_reported_in_one_run(tmp_path):
    t = broken(eval_tasks__1__weight=9, eval_tasks__2__type="x", data=["data/none.json"])
    code, out = validate(write_bench(tmp_path, task=t, prd=None))
    assert code == 1
    for needle in ("weight", "unknown value 'x'", "data file not found", "PRD file not found"):
        assert needle in out
    assert out.count("error") >= 2


def test_load_bench_api(tmp_path):
    tasks, problems = load_bench(write_bench(tmp_path))
    assert not problems
    assert tasks[0].task.id == "mini" and tasks[0].dag.edges == [("t0", "t1"), ("t1", "t2")]


@pytest.mark.parametrize("ids", [[], ["supplier-scorecard"]])
def test_bundled_benchmark_is_valid(ids):
    tasks, problems = load_bench(None, ids or None)
    if not tasks and not problems:
        pytest.skip("no bundled tasks yet")
    assert not problems, "\n".join(map(str, problems))


def test_every_ready_bundled_task_is_proven():
    """A task leaves draft only with a current proof.json (docs/authoring-tasks.md): an edit to a
    ready task's checks, reference or data without re-proving it shows up here."""
    from asuka.benchmark.proof import proof_state

    tasks, problems = load_bench(None)
    assert not problems, "\n".join(map(str, problems))
    states = {t.id: proof_state(t) for t in tasks if t.task.status == "ready"}
    assert states and {i: s for i, s in states.items() if s != "proven"} == {}


def test_every_ready_bundled_task_declares_its_contract():
    """Issue #16: every bundled task carries an acceptance contract (core tasks, each with a
    mandatory criterion, as validate checks) and a capability label on every evaluation task,
    and its criteria are independent test cases unless a task says it is a flow (#14)."""
    tasks, problems = load_bench(None)
    assert not problems, "\n".join(map(str, problems))
    without = [t.id for t in tasks if not any(et.core for et in t.task.eval_tasks)]
    unlabelled = {t.id: [et.id for et in t.task.eval_tasks if et.capability is None]
                  for t in tasks}
    assert without == [] and {i: v for i, v in unlabelled.items() if v} == {}
    assert [t.id for t in tasks if t.task.shared_context] == []


def test_draft_tasks_are_left_out_of_all_but_load_when_named(tmp_path):
    import shutil

    from typer.testing import CliRunner

    from asuka.benchmark.loading import load_bench
    from asuka.cli import app

    bench = tmp_path / "bench"
    shutil.copytree(FIXTURES / "bench", bench)
    shutil.copytree(bench / "tasks" / "mini-todo", bench / "tasks" / "mini-draft")
    shutil.copy(bench / "prds" / "mini-todo.md", bench / "prds" / "mini-draft.md")
    shutil.copy(bench / "dags" / "mini-todo.yaml", bench / "dags" / "mini-draft.yaml")
    y = bench / "tasks" / "mini-draft" / "task.yaml"
    y.write_text(y.read_text().replace("id: mini-todo", "id: mini-draft") + "status: draft\n")
    everything, problems = load_bench(bench)
    assert not problems and [t.id for t in everything] == ["mini-todo"]
    with_drafts, _ = load_bench(bench, drafts=True)
    assert [t.id for t in with_drafts] == ["mini-draft", "mini-todo"]
    (named,), _ = load_bench(bench, ["mini-draft"])
    assert named.task.status == "draft"
    res = CliRunner().invoke(app, ["validate", "--bench", str(bench)])
    assert res.exit_code == 0 and "2 task(s) valid" in res.output
    assert "1 draft: mini-draft" in " ".join(res.output.split())
    res = CliRunner().invoke(app, ["stats", "--bench", str(bench), "--per-task"])
    assert res.exit_code == 0 and "mini-draft" not in res.output
    assert "│              1 │" in res.output  # one task counted
    res = CliRunner().invoke(app, ["stats", "--bench", str(bench), "--per-task", "--drafts"])
    rows = [line.split() for line in res.output.splitlines() if line.strip().startswith("mini-")]
    assert rows == [["mini-draft", "utility", "draft", "5", "11", "2.80", "4", "L1", "unproven"],
                    ["mini-todo", "utility", "ready", "5", "11", "2.80", "4", "L1", "unproven"]], \
        res.output
    y.write_text(y.read_text().replace("status: draft", "status: sketch"))
    res = CliRunner().invoke(app, ["validate", "--bench", str(bench)])
    assert res.exit_code == 1 and "status" in res.output


def test_stats_count_contracts_and_capabilities(tmp_path):
    from asuka.benchmark.stats import bench_stats

    t = broken(eval_tasks__0__core=True, eval_tasks__0__criteria__0__mandatory=True,
               eval_tasks__0__capability="state-management",
               eval_tasks__1__capability="data-exchange")
    tasks, problems = load_bench(write_bench(tmp_path, task=t))
    assert problems == []
    s = bench_stats(tasks)
    assert (s.tasks_with_contracts, s.core_tasks, s.mandatory_criteria) == (1, 1, 1)
    assert s.capabilities["state-management"] == s.capabilities["data-exchange"] == 0.5
    assert s.capabilities["visual-quality"] == 0
    res = runner.invoke(app, ["stats", "--bench", str(tmp_path)])
    assert res.exit_code == 0 and "30.6% (JoyFrontBench)" in res.output, res.output


def test_bundled_yaml_reads_the_same_without_libyaml():
    """The loader takes libyaml's parser where PyYAML has it; a PyYAML built without it must
    read every bundled file the same (libyaml takes `name: Is it free?}` in a flow mapping, the
    pure-Python parser refuses it: quote such names)."""
    import yaml

    from asuka.benchmark.loading import bundled_dir

    root = bundled_dir()
    files = sorted([*root.glob("tasks/*/task.yaml"), *root.glob("dags/*.yaml"),
                    root / "subsets.yaml"])
    assert len(files) > 2
    fast = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    differ = []
    for f in files:
        text = f.read_text(encoding="utf-8")
        try:
            same = yaml.load(text, Loader=yaml.SafeLoader) == yaml.load(text, Loader=fast)
        except yaml.YAMLError as exc:
            same = False
            differ.append(f"{f.relative_to(root)}: {str(exc).splitlines()[-1].strip()}")
            continue
        if not same:
            differ.append(f"{f.relative_to(root)}: reads differently")
    assert differ == []
