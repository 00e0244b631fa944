"""Experiment files, the grid, `asuka sweep` (local and Ray), `asuka reeval`, the LLM example.

The runs use the mini benchmark (tests/fixtures/bench) with real Chromium. To keep the suite
short, the end-to-end sweeps share one run directory: identical cells of different experiments
are the same cell, so later experiments resume the cells earlier ones finished."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from asuka.benchmark.features import materialize
from asuka.benchmark.loading import load_tasks
from asuka.cli import app
from asuka.log.scoring import dag_gap, round_metrics
from asuka.log.store import RunStore
from asuka.loop.experiments import (
    REPEAT_STRIDE,
    ExperimentError,
    expand,
    load_experiment,
    parse_experiment,
)
from asuka.report.data import load_run
from tests.builders import FIXTURES
from tests.llm_server import (
    ScriptedLLMServer,
    llm_server,  # noqa: F401 - fixture
    text,
    tool_calls,
)

ROOT = Path(__file__).resolve().parents[2]
MINI = ROOT / "tests" / "fixtures" / "bench"
EXPERIMENTS = ROOT / "experiments"
OFFLINE = ["demo", "paper-main", "threshold-sweep", "dag-vs-flat", "prd-vs-ambiguous",
           "saturation"]
AGENT = {"saturation": "sim-strong"}  # the others all have a sim-weak agent
runner = CliRunner()


@pytest.fixture(scope="module")
def mini():
    return load_tasks(MINI, ["mini-todo"])


def _asuka(*args: str) -> tuple[int, str]:
    res = runner.invoke(app, [str(a) for a in args], catch_exceptions=False)
    return res.exit_code, res.output


def _parse(text_: str, source: str = "exp.yaml"):
    return parse_experiment(yaml.safe_load(text_), source, yaml.compose(text_))


def _tree_digest(root: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        if p.is_file() and p.name not in ("index.sqlite", "index.sqlite-wal", "index.sqlite-shm"):
            h.update(p.relative_to(root).as_posix().encode() + p.read_bytes())
    return h.hexdigest()


# ------------------------------------------------------------ files and the grid

def test_bundled_experiments_expand(mini):
    shapes = {}
    bundled = None
    for path in sorted(EXPERIMENTS.glob("*.yaml")):
        exp = load_experiment(path)
        if isinstance(exp.tasks, list):  # names bundled tasks: expanded on the real benchmark
            from asuka.benchmark.loading import load_bench

            bundled = bundled or load_bench()[0]
            cells = expand(exp, bundled)
        else:
            cells = expand(exp, mini)
        assert cells and len({c.cell_id for c in cells}) == len(cells), path.name
        shapes[path.stem] = cells
    assert set(OFFLINE) | {"llm-example"} <= set(shapes)
    assert {(c.agent_label, c.rounds) for c in shapes["demo"]} == {("sim-weak", 3),
                                                                   ("sim-strong", 3)}
    assert len(shapes["paper-main"]) == 3
    assert {(c.protocol, c.threshold) for c in shapes["threshold-sweep"]} == {
        ("dag", 0.5), ("dag", 1.0), ("full", 0.5)}
    assert {c.protocol for c in shapes["dag-vs-flat"]} == {"dag", "flat"}
    assert {(c.start, c.rounds) for c in shapes["prd-vs-ambiguous"]} == {("prd", 1),
                                                                         ("query", 3)}
    assert [c.rounds for c in shapes["saturation"]] == [8]
    repeats = shapes["contracts-repeats"]  # 7 contract tasks x 2 agents x 3 repeats
    assert len(repeats) == 42 and {c.seed for c in repeats} == {0, REPEAT_STRIDE,
                                                               2 * REPEAT_STRIDE}
    conditions = {(c.feedback, c.routing) for c in shapes["feedback"]}
    assert conditions == {("none", "always"), ("failures", "always"),
                          ("failures+probes", "always"), ("failures+probes", "by-self-fix"),
                          ("probes", "always"), ("probes", "by-self-fix")}
    assert len(shapes["feedback"]) == 2 * 4 * 6  # agents x tasks x conditions
    (llm,) = shapes["llm-example"]
    assert llm.agent == "llm" and llm.agent_options["model"].startswith("openai:")
    assert llm.user == "llm" and llm.user_options["verbosity"] == "low"


def test_grid_axes_repeats_blocks_and_overrides(mini):
    exp = _parse("""
name: grid
agents: [{backend: sim, profile: weak}, {backend: sim, profile: strong, label: S}]
rounds: [1, 2]
thresholds: [0.5, 1.0]
protocols: [dag, flat]
verbosity: [low, high]
seeds: [0, 7]
repeats: 2
""")
    cells = expand(exp, mini)
    # dag: 2 T; flat ignores T -> 1; x 2 agents x 2 budgets x 2 verbosities x 4 seeds
    assert len(cells) == (2 + 1) * 2 * 2 * 2 * 4
    assert {c.seed for c in cells} == {0, 7, REPEAT_STRIDE, 7 + REPEAT_STRIDE}
    assert {c.user_options["verbosity"] for c in cells} == {"low", "high"}
    assert {c.agent_label for c in cells} == {"sim:weak", "S"}
    few = expand(exp, mini, agent_labels=["S"], max_rounds=1, concurrency=1)
    assert {c.agent_label for c in few} == {"S"} and {c.rounds for c in few} == {1}
    assert {c.concurrency for c in few} == {1}
    with pytest.raises(ExperimentError, match="no agent labelled nobody"):
        expand(exp, mini, agent_labels=["nobody"])
    cats = _parse("name: c\nagents: [{backend: sim}]\ntasks: {categories: [social]}\n")
    with pytest.raises(ExperimentError, match="selects no task"):
        expand(cats, mini)
    assert [c.task for c in expand(cats, mini, task_ids=["mini-todo"])] == ["mini-todo"]


@pytest.mark.parametrize("body, where, reason", [
    ("agents: [{backend: sim, profil: weak}]", "exp.yaml:2: agents[0].profil", "unknown field"),
    ("agents: [{backend: sim}]\nthresholds: [0.5, 1.5]", "exp.yaml:3: thresholds[1]",
     "between 0 and 1, got 1.5"),
    ("agents: [{backend: sim}]\nprotocols: [dag, gated]", "exp.yaml:3: protocols[1]",
     "unknown value 'gated'"),
    ("agents: [{backend: sim}]\nstarts: [query, vague]", "exp.yaml:3: starts[1]",
     "unknown value 'vague'"),
    ("agents: [{backend: sim}]\nrounds: 0", "exp.yaml:3: rounds[0]", "must be >= 1"),
    ("agents: [{backend: magic}]", "exp.yaml:2: agents[0]", "unknown agent backend 'magic'"),
    ("agents: [{backend: sim, profile: genius}]", "agents[0]", "unknown sim profile"),
    ("agents: [{backend: llm}]", "agents[0]", "needs a model"),
    ("agents: [{backend: sim}]\nui: nope", "exp.yaml:3: ui", "unknown backend 'nope'"),
    ("agents: [{backend: sim}, {backend: sim, profile: medium}]", "exp.yaml",
     "distinct label"),
    ("agents: []", "agents", "at least 1"),
    ("agents: [{backend: sim}]\ncells: 0", "exp.yaml:3: cells", "greater than or equal to 1"),
    ("agents: [{backend: sim}]\ncells: many", "exp.yaml:3: cells", "'auto'"),
])
def test_validation_errors_name_file_field_and_reason(body, where, reason):
    with pytest.raises(ExperimentError) as info:
        _parse(f"name: bad\n{body}\n")
    msg = str(info.value)
    assert where in msg and reason in msg, msg


def test_cells_at_once_default_to_the_machine() -> None:
    """``cells: auto`` (the default of experiments and of ``asuka run``): one cell per core,
    no more than memory carries at about 1 GiB a cell, no more than there are cells."""
    from asuka.loop.executor import cells_at_once, machine_cells, parse_cells

    assert _parse("name: x\nagents: [{backend: sim}]\n").cells == "auto"
    assert machine_cells(12, cpus=2, available_gib=20) == 2
    assert machine_cells(12, cpus=8, available_gib=3.5) == 3       # memory-bound
    assert machine_cells(1, cpus=8, available_gib=20) == 1          # one cell
    assert machine_cells(12, cpus=4, available_gib=0.3) == 1        # never none
    assert 1 <= cells_at_once("auto", 12) <= 12 and cells_at_once(3, 12) == 3
    assert parse_cells("auto") == "auto" and parse_cells("2") == 2
    for bad in ("0", "two"):
        with pytest.raises(ValueError, match="--cells"):
            parse_cells(bad)


def test_unknown_task_and_yaml_errors_in_files(tmp_path, mini):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: bad\nagents: [{backend: sim}]\ntasks:\n  - mini-todo\n  - nope\n")
    with pytest.raises(ExperimentError) as info:
        expand(load_experiment(bad), mini)
    assert f"{bad}:5: tasks[1]: unknown task 'nope'" in str(info.value)
    broken = tmp_path / "broken.yaml"
    broken.write_text("name: x\nagents: [{backend: sim}\n")
    with pytest.raises(ExperimentError, match=r"broken.yaml:\d+: -: YAML syntax error"):
        load_experiment(broken)
    # the command reports every problem with the file and exits 1
    multi = tmp_path / "multi.yaml"
    multi.write_text("name: m\nagents: [{backend: sim, colour: red}]\nthresholds: 2\n")
    code, out = _asuka("sweep", multi, "--bench", MINI, "--out", tmp_path)
    assert code == 1
    assert "multi.yaml:2: agents[0].colour: unknown field" in out
    assert "multi.yaml:3: thresholds[0]" in out
    code, out = _asuka("sweep", bad, "--bench", MINI, "--out", tmp_path)
    assert code == 1 and "tasks[1]: unknown task 'nope'" in out


# ------------------------------------------------------------ running

@pytest.fixture(scope="module")
def shared_run(tmp_path_factory, mini):
    """Every offline experiment, reduced to one agent, the mini task and one round, into one
    run: 6 distinct cells (weak: dag T=0.5, dag T=1.0, full, flat, PRD-1R; strong: dag)."""
    out = tmp_path_factory.mktemp("runs")
    logs = {}
    for name in OFFLINE:
        code, log = _asuka("sweep", EXPERIMENTS / f"{name}.yaml", "--bench", MINI, "--task",
                           "mini-todo", "--agent", AGENT.get(name, "sim-weak"), "--max-rounds",
                           "1", "--cells",
                           "3", "--out", out, "--run-id", "shared")
        assert code == 0, log
        logs[name] = log
    return out / "shared", logs


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.timeout(1800)  # the shared run's set-up: 6 rounds (about a minute on an idle box)
def test_offline_experiments_run_end_to_end(shared_run, mini):
    run_dir, logs = shared_run
    store = RunStore(run_dir)
    for name in OFFLINE:
        specs = expand(load_experiment(EXPERIMENTS / f"{name}.yaml"), mini,
                       agent_labels=[AGENT.get(name, "sim-weak")], max_rounds=1)
        for s in specs:
            assert store.is_finished(s.cell_id), (name, s.cell_id)
            assert (store.round_dir(s.cell_id, 1) / "verdicts.json").exists()
    assert len(store.cells()) == 6
    # not a terminal: a line per finished cell, no progress bar drawn into the log
    assert "cell 1/1 done in" in logs["demo"] and "eta" not in logs["demo"]
    # a log (not a terminal) gets a line per finished cell
    assert re.search(r"cell \d+/\d+ done in \d+s: sim-weak_mini-todo_", logs["demo"]), \
        logs["demo"]
    # later experiments found their cells already finished (resume by run id)
    assert "1 cell(s) were already finished" in logs["paper-main"]
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["failed_cells"] == [] and len(summary["cells"]) == 6
    settings = {(c["agent"], c["protocol"], c["threshold"], c["start"])
                for c in summary["cells"]}
    assert settings == {("sim-weak", "dag", 0.5, "query"), ("sim-weak", "dag", 1.0, "query"),
                        ("sim-weak", "full", 0.5, "query"), ("sim-weak", "flat", 0.5, "query"),
                        ("sim-weak", "dag", 0.5, "prd"), ("sim-strong", "dag", 0.5, "query")}


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_reeval_scores_the_same_artifacts_under_another_protocol(shared_run, tmp_path):
    run_dir, _ = shared_run
    # a one-cell source run: the dag T=0.5 query cell of the shared run
    src = tmp_path / "src"
    src.mkdir()
    (cell,) = [p.parent for p in run_dir.glob("sim-weak*/cell.json")
               if re.search(r"_query_dag-T0.5_", p.parent.name)]
    shutil.copytree(cell, src / cell.name)
    shutil.copy(run_dir / "run.json", src / "run.json")
    before = _tree_digest(src)
    code, out = _asuka("reeval", src, "--protocol", "full", "--threshold", "1.0",
                       "--out", "src-full")
    assert code == 0, out
    assert _tree_digest(src) == before, "the source run was modified"
    new = tmp_path / "src-full"
    (new_cell,) = [p.parent for p in new.glob("*/cell.json")]
    spec = json.loads((new_cell / "cell.json").read_text())
    assert spec["protocol"] == "full" and spec["threshold"] == 1.0
    assert spec["reeval_of"] == {"run": "src", "cell": cell.name}
    old_r1, new_r1 = cell / "round-1", new_cell / "round-1"
    assert (new_r1 / "DONE").exists() and list((new_r1 / "evidence").glob("*.png"))
    assert (new_r1 / "feedback.md").read_text() == (old_r1 / "feedback.md").read_text()
    assert (new_r1 / "workspace" / "index.html").read_bytes() == \
        (old_r1 / "workspace" / "index.html").read_bytes()
    verdicts = json.loads((new_r1 / "verdicts.json").read_text())
    assert verdicts["protocol"] == "full" and verdicts["gated"] is not None
    assert all(r["status"] != "skipped" for r in verdicts["results"].values())
    # the DAG gap on the re-evaluated artifacts, as the report computes it
    run = load_run(new)
    (c,) = run.cells
    gap = dag_gap(round_metrics(c.shape, c.ungated)[-1].task_pass_rate,
                  round_metrics(c.shape, c.gated)[-1].task_pass_rate)
    assert gap >= 0
    # a second call resumes: nothing is evaluated again
    stamp = (new_r1 / "DONE").read_text()
    code, out = _asuka("reeval", src, "--protocol", "full", "--threshold", "1.0",
                       "--out", "src-full")
    assert code == 0 and (new_r1 / "DONE").read_text() == stamp
    # never into the source, never over another re-evaluation
    code, out = _asuka("reeval", src, "--protocol", "dag", "--threshold", "0.5", "--out", "src")
    assert code == 1 and "new run id" in out
    code, out = _asuka("reeval", src, "--protocol", "dag", "--out", "src-full")
    assert code == 1 and "another re-evaluation" in out


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.timeout(900)
def test_llm_example_against_the_scripted_server(llm_server: ScriptedLLMServer,  # noqa: F811
                                                 monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.openai_base_url)
    ref = materialize(MINI / "tasks" / "mini-todo" / "reference", tmp_path / "ref",
                      {name: "ok" for name in ("heading", "validate", "add", "complete",
                                               "filter")})
    app_html = (ref / "index.html").read_text()

    def user_or_agent(rec):  # the LLM user echoes the references; the agent just finishes
        if "tools" in rec.body:
            return tool_calls(("finish", {"summary": "nothing more to do"}))
        refs = re.findall(r"task \d+ / crit \d+", json.dumps(rec.body))
        return text("Problems I found:\n" + "\n".join(f"- {r}: does not work" for r in refs))

    llm_server.script(
        tool_calls(("write_file", {"path": "index.html", "content": "<h1>Todos</h1>"})),
        tool_calls(("finish", {"summary": "a heading"})),
        user_or_agent,                                               # the LLM user, round 1
        tool_calls(("write_file", {"path": "index.html", "content": app_html})),
        tool_calls(("finish", {"summary": "the whole app"})),
        *[user_or_agent] * 6,  # only used if a loaded machine makes a check time out
    )
    # the bundled file judges with grounded hybrid; this script plays the code agent and the
    # user, so the checks here are the scripted ones
    exp = yaml.safe_load((EXPERIMENTS / "llm-example.yaml").read_text())
    assert exp["ui"]["backend"] == "hybrid" and exp["ui"]["options"]["grounding"] == "llm"
    exp["ui"] = "scripted"
    (tmp_path / "llm-example.yaml").write_text(yaml.safe_dump(exp))
    code, out = _asuka("sweep", tmp_path / "llm-example.yaml", "--bench", MINI,
                       "--out", tmp_path, "--run-id", "llm")
    assert code == 0, out
    (cell,) = [p.parent for p in (tmp_path / "llm").glob("*/cell.json")]
    result = json.loads((cell / "result.json").read_text())
    assert result["rounds_run"] >= 2
    fb = (cell / "round-1" / "feedback.md").read_text()
    assert "task 0 / crit 1" in fb and "does not work" in fb  # written by the LLM user
    guard = json.loads((cell / "round-1" / "user.json").read_text())["guard"]
    assert guard["round"] == 1 and not guard["fired"]  # every failure was named: no retry
    second = json.dumps(llm_server.requests[3].body)
    assert "task 0 / crit 1" in second  # round 2 of the agent got the user's feedback
    assert (cell / "round-2" / "workspace" / "index.html").read_text() == app_html
    r2 = json.loads((cell / "round-2" / "verdicts.json").read_text())
    assert sum(r["status"] == "passed" for r in r2["results"].values()) >= 3
    usage = json.loads((cell / "round-1" / "usage.json").read_text())
    assert {u["role"] for u in usage} >= {"code-agent", "user"}
    assert sum(u["input_tokens"] for u in usage if u["role"] == "code-agent") > 0


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.timeout(900)
def test_ray_executor(tmp_path):
    import ray  # noqa: F401 - a test dependency: a missing Ray must fail, not skip
    code, out = _asuka("sweep", EXPERIMENTS / "demo.yaml", "--bench", MINI, "--agent",
                       "sim-strong", "--max-rounds", "1", "--executor", "ray",
                       "--ray-address", "local", "--out", tmp_path, "--run-id", "ray")
    assert code == 0, out
    (cell,) = [p.parent for p in (tmp_path / "ray").glob("*/cell.json")]
    assert (cell / "result.json").exists() and (cell / "round-1" / "DONE").exists()


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.timeout(900)
def test_ray_executor_reports_failures_per_cell(tmp_path, mini):
    """A local Ray instance: the JSON hand-over to the worker, a failing cell reported with its
    error while the other finishes, and Ray shut down afterwards."""
    import ray

    from asuka.log.cellspec import CellSpec
    from asuka.loop.sweep import run_sweep

    good = CellSpec(task="mini-todo", agent_options={"profile": "perfect"}, rounds=1)
    bad = CellSpec(task="mini-todo", agent_options={"profile": "no-such-profile"}, rounds=1)
    store = RunStore(tmp_path / "run")
    done = []
    summary = run_sweep([good, bad], {"mini-todo": mini[0]}, store, cells=2, executor="ray",
                        ray_address="local",
                        on_done=lambda s, e: done.append((s.cell_id, e)))
    assert not ray.is_initialized()
    assert store.is_finished(good.cell_id) and not store.is_finished(bad.cell_id)
    assert dict(done)[good.cell_id] is None and "no-such-profile" in dict(done)[bad.cell_id]
    assert len(summary["failed_cells"]) == 1 and summary["skipped_cells"] == 0


def test_ray_missing_is_a_clear_error(tmp_path, monkeypatch):
    import builtins

    real = builtins.__import__

    def no_ray(name, *a, **kw):
        if name == "ray":
            raise ImportError("no ray")
        return real(name, *a, **kw)

    monkeypatch.setattr(builtins, "__import__", no_ray)
    code, out = _asuka("sweep", EXPERIMENTS / "demo.yaml", "--bench", MINI, "--agent",
                       "sim-strong", "--max-rounds", "1", "--executor", "ray",
                       "--out", tmp_path, "--run-id", "noray")
    assert code == 1 and "pip install 'asuka[ray]'" in out


def test_asuka_run_is_an_experiment_of_one_setting() -> None:
    """`asuka run` expands its options as `asuka sweep` expands a grid: bad settings are named
    by the option that gave them, before anything runs."""
    bench = str(FIXTURES / "bench")
    runner = CliRunner()
    res = runner.invoke(app, ["run", "--bench", bench, "--protocol", "bogus"])
    assert res.exit_code == 2 and "--protocol: unknown value 'bogus'" in res.output, res.output
    res = runner.invoke(app, ["run", "--bench", bench, "--profile", "nope"])
    assert res.exit_code == 2 and "unknown sim profile 'nope'" in res.output, res.output
    res = runner.invoke(app, ["run", "--bench", bench, "--agent", "llm"])
    assert res.exit_code == 2 and "an llm agent needs a model" in res.output, res.output
