"""Loading and validating a benchmark directory (tasks/, prds/, dags/).

Every problem is reported with the file, the field and the reason, and loading goes on past
problems so that one run of ``asuka validate`` lists them all.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from asuka.benchmark.features import MarkerError, features_in
from asuka.benchmark.lint import dangling_lookups
from asuka.dag import CriterionDag, CycleError
from asuka.schema import BenchTask, DagSpec, Task


@dataclass(frozen=True)
class Problem:
    file: str
    field: str
    reason: str
    line: int | None = None

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.field or '-'}: {self.reason}"


class BenchError(Exception):
    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


BUNDLED = "_bench"  # where a wheel carries the benchmark inside the package (setup.py)


def bundled_dir() -> Path:
    """The benchmark that ships with Asuka: inside the installed package (a wheel), else the
    source tree's root (a checkout), where tasks/, prds/, dags/ and the templates live."""
    packaged = Path(__file__).resolve().parents[1] / BUNDLED
    return packaged if packaged.is_dir() else Path(__file__).resolve().parents[2]


def default_bench_dir() -> Path:
    """ASUKA_BENCH, else the bundled benchmark."""
    env = os.environ.get("ASUKA_BENCH")
    return Path(env) if env else bundled_dir()


def templates_dir() -> Path:
    """The template user's and the probes' Jinja2 templates (feedback_templates/)."""
    return bundled_dir() / "feedback_templates"


def task_ids(bench: Path) -> list[str]:
    tasks = bench / "tasks"
    return sorted(p.name for p in tasks.iterdir() if (p / "task.yaml").exists()) \
        if tasks.is_dir() else []


# ------------------------------------------------------------ YAML with line numbers

_SAFE: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _read_yaml(path: Path, rel: str, problems: list[Problem]) -> tuple[Any, yaml.Node | None]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        problems.append(Problem(rel, "", f"cannot read: {exc.strerror or exc}"))
        return None, None
    try:
        # libyaml's loader where PyYAML has it (about ten times faster over 37 tasks)
        return yaml.load(text, Loader=_SAFE), yaml.compose(text, Loader=_SAFE)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        problems.append(Problem(rel, "", f"YAML syntax error: {exc.problem or exc}", line))
    except yaml.YAMLError as exc:
        problems.append(Problem(rel, "", f"YAML error: {exc}"))
    return None, None


def _line_of(node: yaml.Node | None, loc: tuple[Any, ...]) -> int | None:
    """Line (1-based) of the deepest YAML node on the path ``loc``."""
    line = node.start_mark.line + 1 if node is not None else None
    for key in loc:
        if isinstance(node, yaml.MappingNode):
            nxt = next((v for k, v in node.value if k.value == key), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) \
                and key < len(node.value):
            nxt = node.value[key]
        else:
            nxt = None
        if nxt is None:
            break
        node, line = nxt, nxt.start_mark.line + 1
    return line


def _field(loc: tuple[Any, ...], data: Any) -> str:
    """pydantic location -> 'eval_tasks[3](t3).criteria[0].check[1]'."""
    out, cur = "", data
    for key in loc:
        if isinstance(key, int):
            out += f"[{key}]"
            cur = cur[key] if isinstance(cur, list) and key < len(cur) else None
            if isinstance(cur, dict) and isinstance(cur.get("id"), str):
                out += f"({cur['id']})"
        else:
            out += f".{key}" if out else str(key)
            cur = cur.get(key) if isinstance(cur, dict) else None
    return out


def _pydantic_problems(exc: ValidationError, rel: str, data: Any,
                       node: yaml.Node | None) -> list[Problem]:
    out = []
    for err in exc.errors():
        loc = tuple(x for x in err["loc"] if not (isinstance(x, str) and x.startswith("function")))
        msg = err["msg"].removeprefix("Value error, ")
        if err["type"] == "literal_error":
            msg = f"unknown value {err.get('input')!r}: {msg}"
        out.append(Problem(rel, _field(loc, data), msg, _line_of(node, loc)))
    return out


# ------------------------------------------------------------ one task

def _check_task(task: Task, bench: Path, rel: str, problems: list[Problem]) -> None:
    folder = bench / "tasks" / task.id
    et_ids = Counter(et.id for et in task.eval_tasks)
    for et_id, n in et_ids.items():
        if n > 1:
            problems.append(Problem(rel, f"eval_tasks({et_id})",
                                    f"duplicate evaluation task id {et_id!r}"))
    crit_ids = Counter(c.id for et in task.eval_tasks for c in et.criteria)
    for c, n in crit_ids.items():
        if n > 1:
            problems.append(Problem(rel, f"criteria({c})", f"duplicate criterion id {c!r}"))
    _check_contracts(task, rel, problems)
    _check_pairwise(task, rel, problems)
    for i, d in enumerate(task.data):
        if not (folder / d).is_file():
            problems.append(Problem(rel, f"data[{i}]", f"data file not found: tasks/{task.id}/{d}"))
    for name, feat in task.features.items():
        for key, ids in (("tasks", feat.tasks), ("broken", feat.broken or [])):
            for t in ids:
                if t not in et_ids:
                    problems.append(Problem(rel, f"features.{name}.{key}",
                                            f"unknown evaluation task {t!r}"))
    if task.reference and task.features:
        ref = folder / task.reference
        if not ref.is_dir():
            problems.append(Problem(rel, "reference", f"reference app not found: {ref.name}/"))
            return
        try:
            marked = features_in(ref)
        except MarkerError as exc:
            problems.append(Problem(rel, "reference", f"bad feature markers: {exc}"))
            return
        for name in task.features:
            if name not in marked:
                problems.append(Problem(rel, f"features.{name}",
                                        "no '@feature' marker of that name in the reference app"))
            elif task.features[name].broken and "broken" not in marked[name]:
                problems.append(Problem(rel, f"features.{name}.broken",
                                        "no '@broken' variant of that feature in the reference app"))
            elif "broken" in marked[name]:
                for file, dangling in dangling_lookups(ref, name).items():
                    problems.append(Problem(
                        rel, f"features.{name}",
                        f"the broken variant looks up "
                        f"{', '.join('#' + i for i in sorted(dangling))} "
                        f"in {task.reference}/{file}, which nothing defines once the feature is "
                        "broken (repeat the feature's markup inside an '@broken' block)"))
        for name in sorted(set(marked) - set(task.features)):
            problems.append(Problem(rel, "features",
                                    f"feature {name!r} is marked in the reference app but not mapped"))
        covered = {t for f in task.features.values() for t in f.tasks}
        for et in task.eval_tasks:
            if et.id not in covered:
                problems.append(Problem(rel, f"eval_tasks({et.id})",
                                        "not served by any feature (the simulator cannot fail it)"))


def _check_contracts(task: Task, rel: str, problems: list[Problem]) -> None:
    """A task that declares an acceptance contract (a core task or a mandatory criterion) has
    at least one core task, each core task at least one mandatory criterion, and no mandatory
    criterion outside a core task (it would decide nothing)."""
    cores = [et for et in task.eval_tasks if et.core]
    mandatory = [(et, c) for et in task.eval_tasks for c in et.criteria if c.mandatory]
    if not cores and not mandatory:
        return
    if not cores:
        problems.append(Problem(rel, "eval_tasks", "mandatory criteria but no core task: "
                                                   "application success needs one"))
    for et in cores:
        if not any(c.mandatory for c in et.criteria):
            problems.append(Problem(rel, f"eval_tasks({et.id}).core",
                                    "a core task needs at least one mandatory criterion"))
    for et, c in mandatory:
        if not et.core:
            problems.append(Problem(rel, f"criteria({c.id}).mandatory",
                                    f"mandatory, but {et.id} is not a core task"))


def _check_pairwise(task: Task, rel: str, problems: list[Problem]) -> None:
    """Pairwise presentation tasks compare with the reference app (which the task must have)
    and are named apart from the evaluation tasks."""
    if not task.pairwise:
        return
    if not task.reference:
        problems.append(Problem(rel, "pairwise", "pairwise tasks compare with the reference "
                                                 "app, and this task has none"))
    seen = {et.id for et in task.eval_tasks}
    for i, p in enumerate(task.pairwise):
        if p.id in seen:
            problems.append(Problem(rel, f"pairwise[{i}].id",
                                    f"{p.id!r} is already the id of another task"))
        seen.add(p.id)


def _load_dag(task: Task, bench: Path, problems: list[Problem]) -> DagSpec | None:
    rel = f"dags/{task.id}.yaml"
    path = bench / rel
    if not path.is_file():
        problems.append(Problem(rel, "", "DAG file not found (use 'edges: []' for none)"))
        return None
    data, node = _read_yaml(path, rel, problems)
    if data is None and node is None:
        return None
    try:
        spec = DagSpec.model_validate(data or {})
    except ValidationError as exc:
        problems.extend(_pydantic_problems(exc, rel, data, node))
        return None
    known = {et.id for et in task.eval_tasks}
    bad = False
    for key in ("edges", "semantic_edges"):
        for i, (a, b) in enumerate(getattr(spec, key)):
            for end in (a, b):
                if end not in known:
                    bad = True
                    problems.append(Problem(rel, f"{key}[{i}]",
                                            f"edge {a} -> {b}: unknown evaluation task {end!r}",
                                            _line_of(node, (key, i))))
    if not bad:
        try:
            CriterionDag.of(task, spec)
        except CycleError as exc:
            problems.append(Problem(rel, "edges", f"the DAG has a {exc}"))
            return None
    return None if bad else spec


QUERIES_FILE = "queries.yaml"  # a task's query variants, beside its task.yaml


def load_task(bench: Path, task_id: str, problems: list[Problem]) -> BenchTask | None:
    """Load one task with its PRD and DAG, appending every problem found."""
    rel = f"tasks/{task_id}/task.yaml"
    path = bench / rel
    if not path.is_file():
        problems.append(Problem(rel, "", f"unknown task id {task_id!r}: no such file"))
        return None
    before = len(problems)
    data, node = _read_yaml(path, rel, problems)
    if len(problems) > before:
        return None
    prd_rel = f"prds/{task_id}.md"
    prd_path = bench / prd_rel
    prd = prd_path.read_text(encoding="utf-8") if prd_path.is_file() else None
    if prd is None:
        problems.append(Problem(prd_rel, "", "PRD file not found"))
    elif not prd.strip():
        problems.append(Problem(prd_rel, "", "PRD is empty"))
    variants = bench / "tasks" / task_id / QUERIES_FILE
    if variants.is_file() and isinstance(data, dict):
        # the requester/granularity rewrites `asuka author rewrite` keeps beside task.yaml
        extra, _ = _read_yaml(variants, f"tasks/{task_id}/{QUERIES_FILE}", problems)
        if isinstance(extra, dict):
            clash = sorted(set(extra) & set(data.get("queries") or {}))
            if clash:
                problems.append(Problem(f"tasks/{task_id}/{QUERIES_FILE}", "",
                                        f"{', '.join(clash)} also in task.yaml's queries"))
            data = {**data, "queries": {**extra, **(data.get("queries") or {})}}
    try:
        task = Task.model_validate(data if data is not None else {})
    except ValidationError as exc:
        problems.extend(_pydantic_problems(exc, rel, data, node))
        raw_data = data.get("data") if isinstance(data, dict) else None
        for i, d in enumerate(raw_data if isinstance(raw_data, list) else []):
            if isinstance(d, str) and not (bench / "tasks" / task_id / d).is_file():
                problems.append(Problem(rel, f"data[{i}]",
                                        f"data file not found: tasks/{task_id}/{d}"))
        return None
    if task.id != task_id:
        problems.append(Problem(rel, "id", f"id {task.id!r} differs from its folder {task_id!r}",
                                _line_of(node, ("id",))))
    _check_task(task, bench, rel, problems)
    dag = _load_dag(task, bench, problems)
    if len(problems) > before or prd is None or dag is None:
        return None
    return BenchTask(task=task, prd=prd, dag=dag, root=str(bench / "tasks" / task_id))


def load_bench(bench: Path | None = None, ids: list[str] | None = None, *,
               drafts: bool = False) -> tuple[list[BenchTask], list[Problem]]:
    """Load (and validate) the given tasks, or all of them. "All" leaves out tasks with
    ``status: draft`` unless ``drafts``; a task named in ``ids`` is loaded whatever its status."""
    bench = Path(bench) if bench else default_bench_dir()
    problems: list[Problem] = []
    if not (bench / "tasks").is_dir():
        return [], [Problem(str(bench), "", "not a benchmark directory (no tasks/ folder)")]
    wanted = list(ids) if ids else task_ids(bench)
    for i, n in Counter(wanted).items():
        if n > 1:
            problems.append(Problem("<arguments>", "", f"task id {i!r} given {n} times"))
    tasks = [t for t in (load_task(bench, i, problems) for i in dict.fromkeys(wanted)) if t]
    if not ids and not drafts:
        tasks = [t for t in tasks if t.task.status != "draft"]
    return tasks, problems


def load_tasks(bench: Path | None = None, ids: list[str] | None = None) -> list[BenchTask]:
    """Like load_bench, but raise BenchError on any problem."""
    tasks, problems = load_bench(bench, ids)
    if problems:
        raise BenchError(problems)
    return tasks
