"""Web-Bench as a benchmark source (``asuka import web-bench PATH``): each project of a local
checkout (``projects/<name>/`` with ``tasks.jsonl``, ``src-init/``, ``src/``, ``test/*.spec.js``)
becomes one Asuka task whose evaluation tasks are the project's tasks in order (``init`` first
when it has one), chained in its DAG, each decided by its own spec file's tests through
Playwright Test (``EvalTask.spec``, ``Criterion.test``: one criterion per test).

The DAG's chain gates as Web-Bench's cumulative rule does: task k is judged only once tasks
1..k-1 pass, each on its own tests. The project's ``src-init/`` is the workspace before round 1
(``initial``), its ``src/`` the reference app, its package.json kept for WatchPoint's project
class. Nothing is executed while importing."""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from asuka.schema import ID_PATTERN

TEST_CALL = re.compile(r"(?<![.\w])test\(\s*(['\"`])((?:\\.|(?!\1).)*?)\1", re.S)
PREFIX = "wb-"
MAX_SUMMARY = 300


@dataclass
class Imported:
    task_id: str
    project: str
    eval_tasks: int
    criteria: int
    skipped: list[str] = field(default_factory=list)  # Web-Bench tasks without tests


class WebBenchError(ValueError):
    """A project that cannot be imported: which file, and why."""


def titles_of(spec: Path) -> list[str]:
    """The titles of a spec file's ``test(...)`` calls (not ``test.beforeEach`` and kin), in
    order, each once."""
    seen: list[str] = []
    for m in TEST_CALL.finditer(spec.read_text(encoding="utf-8")):
        title = m.group(2).replace(f"\\{m.group(1)}", m.group(1))
        if title not in seen:
            seen.append(title)
    return seen


def projects_of(source: Path) -> list[Path]:
    """The project folders of a checkout (or ``source`` itself when it is one project)."""
    source = Path(source)
    if (source / "tasks.jsonl").is_file():
        return [source]
    root = source / "projects" if (source / "projects").is_dir() else source
    return sorted(p for p in root.iterdir() if (p / "tasks.jsonl").is_file())


def read_tasks(project: Path) -> list[dict]:
    out = []
    path = project / "tasks.jsonl"
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError as exc:
            raise WebBenchError(f"{path}:{n}: not JSON ({exc})") from None
        if not isinstance(row, dict) or not row.get("id") or not row.get("description"):
            raise WebBenchError(f"{path}:{n}: a task needs an id and a description")
        if not re.match(ID_PATTERN, str(row["id"])):
            raise WebBenchError(f"{path}:{n}: task id {row['id']!r} is not a valid id")
        out.append(row)
    if not out:
        raise WebBenchError(f"{path}: no tasks")
    return out


def import_project(project: Path, bench: Path) -> Imported:
    """Write ``tasks/wb-<name>/``, ``prds/`` and ``dags/`` entries for one project."""
    name = re.sub(r"[^A-Za-z0-9_.\-]", "-", project.name)
    task_id = PREFIX + name
    rows = read_tasks(project)
    folder = Path(bench) / "tasks" / task_id
    if folder.exists():
        shutil.rmtree(folder)
    (folder / "webbench" / "test").mkdir(parents=True)
    eval_tasks, skipped = [], []
    for row in rows:
        tid = str(row["id"])
        spec = project / "test" / f"{tid}.spec.js"
        titles = titles_of(spec) if spec.is_file() else []
        if not titles:
            skipped.append(tid)
            continue
        shutil.copy2(spec, folder / "webbench" / "test" / spec.name)
        description = " ".join(str(row["description"]).split())
        eval_tasks.append({
            "id": tid, "summary": description[:MAX_SUMMARY],
            "type": "presence" if tid == "init" else "functionality", "weight": 1,
            "spec": f"webbench/test/{spec.name}",
            "criteria": [{"id": f"{tid}.t{i}", "text": title, "test": title}
                         for i, title in enumerate(titles)]})
    if not eval_tasks:
        raise WebBenchError(f"{project}: no task has a spec with tests under test/")
    if (project / "package.json").is_file():
        shutil.copy2(project / "package.json", folder / "webbench" / "package.json")
    initial = project / "src-init"
    if initial.is_dir():
        shutil.copytree(initial, folder / "initial")
    if (project / "src").is_dir():
        shutil.copytree(project / "src", folder / "reference")
    steps = "\n".join(f"{i}. {r['description'].strip()}" for i, r in enumerate(rows, 1))
    task = {
        "id": task_id, "title": f"Web-Bench: {project.name}", "category": "utility",
        "query": f"Build this project step by step:\n{steps}",
        "origin": f"web-bench:{project.name}",
        "notes": (f"Imported from the Web-Bench project {project.name} ({len(rows)} tasks, "
                  f"{len(eval_tasks)} with tests): each evaluation task is decided by its "
                  f"Playwright Test spec; the DAG is the chain."),
        "reference": "reference" if (project / "src").is_dir() else None,
        "initial": "initial" if initial.is_dir() else None,
        "eval_tasks": eval_tasks}
    (folder / "task.yaml").write_text(
        "# Imported by `asuka import web-bench`; re-import rather than edit.\n"
        + yaml.safe_dump(task, sort_keys=False, allow_unicode=True, width=100),
        encoding="utf-8")
    for sub, text in (("prds", _prd(project.name, rows)), ("dags", yaml.safe_dump(
            {"edges": [[a["id"], b["id"]] for a, b in zip(eval_tasks, eval_tasks[1:])],
             "notes": "Web-Bench's sequential chain"}, sort_keys=False))):
        (Path(bench) / sub).mkdir(parents=True, exist_ok=True)
        ext = "md" if sub == "prds" else "yaml"
        (Path(bench) / sub / f"{task_id}.{ext}").write_text(text, encoding="utf-8")
    return Imported(task_id, project.name, len(eval_tasks),
                    sum(len(e["criteria"]) for e in eval_tasks), skipped)


def _prd(name: str, rows: list[dict]) -> str:
    lines = [f"# {name} (Web-Bench)", "", "The project's tasks, in the order they are built:", ""]
    for r in rows:
        level = f" ({r['level']})" if r.get("level") else ""
        lines.append(f"- **{r['id']}**{level}: {' '.join(str(r['description']).split())}")
    return "\n".join(lines) + "\n"


def import_webbench(source: Path, bench: Path, names: list[str] | None = None
                    ) -> list[Imported]:
    """Import every project of ``source`` (or those ``names``) into the benchmark ``bench``."""
    projects = projects_of(Path(source))
    if names:
        unknown = sorted(set(names) - {p.name for p in projects})
        if unknown:
            raise WebBenchError(f"no project {', '.join(unknown)} in {source}")
        projects = [p for p in projects if p.name in names]
    if not projects:
        raise WebBenchError(f"no Web-Bench project (a folder with tasks.jsonl) in {source}")
    return [import_project(p, Path(bench)) for p in projects]
