"""Named task subsets: the main job's tasks, validated like the rest of the benchmark."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from asuka.benchmark.loading import load_tasks
from asuka.benchmark.subsets import check_subsets, load_subsets, subset_tasks
from asuka.cli import app
from asuka.cli.run import choose_tasks

ROOT = Path(__file__).resolve().parents[2]
MINI = ROOT / "tests" / "fixtures" / "bench"


@pytest.fixture
def bench(tmp_path: Path) -> Path:
    dest = tmp_path / "bench"
    shutil.copytree(MINI, dest)
    return dest


def test_the_bundled_main_subset_is_stratified_and_known() -> None:
    subsets, problems = load_subsets(ROOT)
    assert problems == [] and subsets["main"].stratified
    tasks = load_tasks(ROOT)
    assert check_subsets(subsets, tasks) == []
    categories = {t.task.category for t in tasks}
    chosen = {t.task.category for t in tasks if t.id in subsets["main"].tasks}
    assert chosen == categories


def test_problems_name_the_file_the_field_and_the_line(bench: Path) -> None:
    (bench / "subsets.yaml").write_text(
        "main:\n  description: d\n  stratified: true\n  tasks: [mini-todo, nope, mini-todo]\n"
        "broken:\n  description: d\n  tasks: []\n  colour: red\n")
    subsets, problems = load_subsets(bench)
    shown = [str(p) for p in problems]
    assert any(s.startswith("subsets.yaml:7: broken.tasks:") for s in shown), shown
    assert any("broken.colour" in s and "xtra" in s for s in shown), shown
    found = [str(p) for p in check_subsets(subsets, load_tasks(bench))]
    assert "subsets.yaml: main.tasks: unknown task 'nope'" in found
    assert "subsets.yaml: main.tasks: task 'mini-todo' listed 2 times" in found


def test_a_stratified_subset_must_hold_every_category(bench: Path) -> None:
    other = bench / "tasks" / "mini-todo-2"
    shutil.copytree(bench / "tasks" / "mini-todo", other)
    y = (other / "task.yaml").read_text().replace("id: mini-todo", "id: mini-todo-2", 1)
    (other / "task.yaml").write_text(y.replace("category: utility", "category: social", 1))
    for d in ("prds", "dags"):
        for f in (bench / d).glob("mini-todo.*"):
            shutil.copy(f, f.with_name(f.name.replace("mini-todo", "mini-todo-2")))
    (bench / "subsets.yaml").write_text(
        "main:\n  description: d\n  stratified: true\n  tasks: [mini-todo]\n")
    result = CliRunner().invoke(app, ["validate", "--bench", str(bench)])
    assert result.exit_code == 1
    assert "main.tasks: stratified, but no task of social" in result.output


def test_run_chooses_the_main_subset_unless_told_otherwise(bench: Path) -> None:
    assert choose_tasks(bench, None, None, False) is None  # no subsets.yaml: every task
    (bench / "subsets.yaml").write_text(
        "main:\n  description: d\n  tasks: [mini-todo]\nsmall:\n  description: d\n"
        "  tasks: [mini-todo]\n")
    assert choose_tasks(bench, None, None, False) == ["mini-todo"]
    assert choose_tasks(bench, None, None, True) is None
    assert choose_tasks(bench, ["x"], None, False) == ["x"]
    assert subset_tasks(bench, "small") == ["mini-todo"]
    with pytest.raises(ValueError, match="no subset 'huge' \\(declared: main, small\\)"):
        choose_tasks(bench, None, "huge", False)
    with pytest.raises(ValueError, match="--subset and --all are alternatives"):
        choose_tasks(bench, None, "small", True)
