"""The lint over tasks: a ``Finding`` per unbacked read, collected per step of every check of a task
(with its task.yaml line) and over a bench, and the console text (``summary_line``,
``per_task_lines``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import yaml

from asuka.benchmark.lint_markup._backing import Backing, Typed
from asuka.benchmark.lint_markup._markup import markup_findings
from asuka.benchmark.lint_markup._wording import wording_findings
from asuka.schema import BenchTask, CheckStep, Task


@dataclass(frozen=True)
class Finding:
    task: str
    criterion: str
    step: int       # index of the step in the criterion's check (as Verdict.step)
    kind: str       # id | class | attribute | storage | testid | wording | name | structure
    via: str        # css | eval | testid | expect_attr | expect_text | label | role name | ...
    subjects: tuple[str, ...]    # what is not backed
    reason: str
    file: str
    line: int | None = None
    severity: str = "warning"    # warning | note (structure only; never an error)

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.criterion} check[{self.step}]: {self.reason}"


# steps that type or choose a value (its words are the check's own data, not the app's)
TYPING_OPS = frozenset({"fill", "select", "set", "choose"})


def _typed(step: CheckStep) -> list[str]:
    out = [step.params.get("value"), step.params.get("option")] if step.op in TYPING_OPS \
        else []
    return [str(v) for v in out if v is not None]


def lint_task(task: Task, prd: str, data: dict[str, str] | None = None, *,
              file: str | None = None, node: yaml.Node | None = None) -> list[Finding]:
    """Findings of one task's checks against its PRD (and query and mock data: {name: text})."""
    from asuka.benchmark.loading import _line_of

    file = file or f"tasks/{task.id}/task.yaml"
    prd_name = f"prds/{task.id}.md"
    back = Backing(prd, task.query, data)
    out: list[Finding] = []
    for i, et in enumerate(task.eval_tasks):
        typed = Typed([v for c in et.criteria for s in c.check or [] for v in _typed(s)])
        for j, crit in enumerate(et.criteria):
            for k, step in enumerate(crit.check or []):
                line = _line_of(node, ("eval_tasks", i, "criteria", j, "check", k)) \
                    if node is not None else None

                def add(kind: str, via: str, subjects: list[str], reason: str,
                        severity: str = "warning") -> None:
                    out.append(Finding(task.id, crit.id, k, kind, via, tuple(subjects), reason,
                                       file, line, severity))

                for f in markup_findings(step, back, prd_name):
                    add(*f)
                for f in wording_findings(step, back, typed, prd_name):
                    add(*f)
    return out


def read_data(bt: BenchTask) -> dict[str, str]:
    """{path relative to the task: text} of the task's mock data: the files it hands to the code
    agent and everything else under data/ (files the checks upload)."""
    root = Path(bt.root)
    paths = [root / rel for rel in bt.task.data]
    if (root / "data").is_dir():
        paths += sorted(p for p in (root / "data").rglob("*") if p.is_file())
    out: dict[str, str] = {}
    for path in dict.fromkeys(paths):
        try:
            if path.stat().st_size <= 4_000_000:
                out[path.relative_to(root).as_posix()] = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError, ValueError):
            continue
    return out


def lint_bench_task(bt: BenchTask) -> list[Finding]:
    """lint_task for a loaded task, with its mock data and task.yaml line numbers."""
    path = Path(bt.root) / "task.yaml"
    try:
        node = yaml.compose(path.read_text(encoding="utf-8"),
                            Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (OSError, yaml.YAMLError):
        node = None
    return lint_task(bt.task, bt.prd, read_data(bt), file=f"tasks/{bt.id}/task.yaml", node=node)


def lint_tasks(tasks: list[BenchTask]) -> list[Finding]:
    return [f for t in tasks for f in lint_bench_task(t)]


def counts(findings: list[Finding], severity: str = "warning") -> Counter[str]:
    """Findings of one severity per task."""
    return Counter(f.task for f in findings if f.severity == severity)


# ------------------------------------------------------------------ console text

HINT = "asuka validate --lint-markup"


def summary_line(findings: list[Finding]) -> str:
    """One line: the warnings per task (what `asuka validate` prints without --lint-markup)."""
    per_task = counts(findings)
    if not per_task:
        return "markup no check reads markup or wording the PRD does not give"
    tasks = ", ".join(f"{t} {n}" for t, n in sorted(per_task.items(), key=lambda x: (-x[1], x[0])))
    return (f"markup {sum(per_task.values())} finding(s) of checks reading markup or wording the "
            f"PRD does not give: {tasks}; list them with `{HINT}`")


def per_task_lines(findings: list[Finding]) -> list[str]:
    """A line per task with findings: warnings by what reads them, then the structure notes."""
    by_task: dict[str, list[Finding]] = {}
    for f in findings:
        by_task.setdefault(f.task, []).append(f)
    width = max((len(t) for t in by_task), default=0)
    lines = []
    for task, fs in sorted(by_task.items(), key=lambda x: (-len(x[1]), x[0])):
        warn = Counter(f.via for f in fs if f.severity == "warning")
        notes = sum(f.severity == "note" for f in fs)
        kinds = ", ".join(f"{via} {n}" for via, n in warn.most_common())
        lines.append(f"  {task:<{width}}  {sum(warn.values()):>4} warning(s)"
                     + (f" ({kinds})" if kinds else "")
                     + (f", {notes} structure note(s)" if notes else ""))
    return lines
