"""Named task subsets of a benchmark (``subsets.yaml`` beside ``tasks/``).

The main job runs the ``main`` subset, so that it stays minutes long however many tasks the
benchmark grows to; ``asuka run --all`` runs every task. A subset says how it was chosen; one
marked ``stratified`` must hold at least one task of every category the benchmark has (checked
by ``asuka validate``), so its numbers are not those of one kind of app.

    main:
      description: one or two tasks per category, ...
      stratified: true
      tasks: [kanban-board, loan-calculator, ...]
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from asuka.benchmark.loading import Problem, _pydantic_problems, _read_yaml
from asuka.schema import BenchTask

SUBSETS_FILE = "subsets.yaml"
MAIN = "main"


class Subset(BaseModel):
    model_config = ConfigDict(extra="forbid")

    description: str
    stratified: bool = False
    tasks: list[str] = Field(min_length=1)


def load_subsets(bench: Path) -> tuple[dict[str, Subset], list[Problem]]:
    """The subsets declared in ``bench``/subsets.yaml ({} without the file)."""
    path = Path(bench) / SUBSETS_FILE
    problems: list[Problem] = []
    if not path.exists():
        return {}, problems
    data, node = _read_yaml(path, SUBSETS_FILE, problems)
    if data is None:
        return {}, problems
    if not isinstance(data, dict):
        return {}, [Problem(SUBSETS_FILE, "", "expected a mapping of subset name -> subset")]
    subsets: dict[str, Subset] = {}
    for name, body in data.items():
        try:
            subsets[str(name)] = Subset.model_validate(body)
        except ValidationError as exc:
            sub = next((v for k, v in node.value if k.value == str(name)), None) \
                if isinstance(node, yaml.MappingNode) else None
            problems += [Problem(p.file, f"{name}.{p.field}" if p.field else str(name),
                                 p.reason, p.line)
                         for p in _pydantic_problems(exc, SUBSETS_FILE, body, sub)]
    return subsets, problems


def check_subsets(subsets: dict[str, Subset], tasks: list[BenchTask]) -> list[Problem]:
    """Unknown or repeated task ids, and stratified subsets missing a category."""
    known = {t.id: t for t in tasks}
    categories = sorted({t.task.category for t in tasks})
    problems: list[Problem] = []
    for name, subset in subsets.items():
        for tid in sorted(set(subset.tasks) - set(known)):
            problems.append(Problem(SUBSETS_FILE, f"{name}.tasks", f"unknown task {tid!r}"))
        for tid, n in Counter(subset.tasks).items():
            if n > 1:
                problems.append(Problem(SUBSETS_FILE, f"{name}.tasks",
                                        f"task {tid!r} listed {n} times"))
        if subset.stratified:
            have = {known[t].task.category for t in subset.tasks if t in known}
            missing = [c for c in categories if c not in have]
            if missing:
                problems.append(Problem(SUBSETS_FILE, f"{name}.tasks",
                                        f"stratified, but no task of {', '.join(missing)}"))
    return problems


def subset_tasks(bench: Path, name: str) -> list[str]:
    """The task ids of subset ``name``; ValueError naming the file when it is not declared."""
    subsets, problems = load_subsets(bench)
    if problems:
        raise ValueError("; ".join(str(p) for p in problems))
    if name not in subsets:
        declared = ", ".join(sorted(subsets)) or "none"
        raise ValueError(f"{Path(bench) / SUBSETS_FILE}: no subset {name!r} (declared: "
                         f"{declared})")
    return list(subsets[name].tasks)
