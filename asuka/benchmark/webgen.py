"""WebGen-Bench as a benchmark source (``asuka import webgen-bench FILE``): each line of its
``data/test.jsonl`` (``id``, ``instruction``, ``application_type``, ``Category``, and
``ui_instruct``: test cases, each a ``task`` to carry out and its ``expected_result``) becomes
one Asuka task ``wg-<id>``: the instruction is the query (and the PRD, WebGen-Bench has no
other), each test case an evaluation task with one criterion in the test case's own words, no
check steps and no DAG edges (WebGen-Bench's test cases are independent).

A criterion without check steps is the LLM judge's: the scripted UI agent records it as
``unverifiable``; ``--ui browser-use`` (or ``hybrid``) carries the test case out in the browser
and judges the expected result, as WebGen-Bench's own UI agent does. Such tasks have no
reference app (``asuka validate`` lists them as unproven). A line that cannot be read is left
out with its line number and reason, never dropped silently."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from asuka.schema import Category

PREFIX = "wg-"
MAX_SUMMARY = 300

# WebGen-Bench's application types, placed in Asuka's six categories
CATEGORY_OF: dict[str, Category] = {
    "Analytics Platforms/Dashboards": "data-visualization",
    "E-commerce Web Applications": "e-commerce",
    "Travel Booking Portals": "e-commerce",
    "Discussion Forums": "social",
    "Social Media Platforms": "social",
    "Publishing/Blogging Platforms": "social",
    "Personal Blog Sites": "social",
    "Streaming and Interactive Platforms": "social",
    "Company Brochure Sites": "marketing",
    "Personal Portfolio Sites": "marketing",
    "News and Information Sites": "marketing",
    "CRM Systems": "management",
    "ERP Platforms": "management",
    "Project Management Tools": "management",
    "Internal Tools": "management",
    "Job Search Platforms": "management",
}
# a test case's kind (its ``task_category.primary_category``) as an evaluation task's type
TYPE_OF = {"Functional Testing": "functionality", "Data Display Testing": "presence",
           "Design Validation Testing": "presence"}


class WebGenError(ValueError):
    """The file cannot be imported at all."""


@dataclass
class ImportedCase:
    task_id: str
    test_cases: int
    category: str


@dataclass
class WebGenImport:
    imported: list[ImportedCase] = field(default_factory=list)
    left_out: list[tuple[str, str]] = field(default_factory=list)  # (line or id, reason)


def _text(row: dict[str, Any], key: str, where: str) -> str:
    value = row.get(key)
    if not isinstance(value, str) or not value.strip():
        raise WebGenError(f"{where}: `{key}` must be a non-empty string")
    return " ".join(value.split())


def task_of(row: dict[str, Any], where: str) -> dict[str, Any]:
    """The task.yaml content of one line of test.jsonl."""
    raw_id = row.get("id")
    if not isinstance(raw_id, (str, int)) or not str(raw_id).strip():
        raise WebGenError(f"{where}: no `id`")
    task_id = PREFIX + re.sub(r"[^A-Za-z0-9_.\-]", "-", str(raw_id).strip())
    instruction = _text(row, "instruction", where)
    cases = row.get("ui_instruct")
    if not isinstance(cases, list) or not cases:
        raise WebGenError(f"{where}: `ui_instruct` must be a non-empty list of test cases")
    eval_tasks = []
    for i, case in enumerate(cases):
        at = f"{where}: ui_instruct[{i}]"
        if not isinstance(case, dict):
            raise WebGenError(f"{at}: a test case is an object with `task` and "
                              f"`expected_result`")
        action, expected = _text(case, "task", at), _text(case, "expected_result", at)
        kind = (case.get("task_category") or {}).get("primary_category") if isinstance(
            case.get("task_category"), dict) else None
        eval_tasks.append({
            "id": f"t{i}", "summary": action[:MAX_SUMMARY],
            "type": TYPE_OF.get(str(kind), "functionality"), "weight": 1,
            "criteria": [{"id": f"t{i}.c0", "text": f"{action} Expected: {expected}"}]})
    app_type = str(row.get("application_type") or "")
    category = CATEGORY_OF.get(app_type, "utility")
    title = instruction.split(".")[0][:80]
    return {
        "id": task_id, "title": f"WebGen-Bench {raw_id}: {title}", "category": category,
        "query": instruction, "origin": f"webgen-bench:{raw_id}", "reference": None,
        "notes": (f"Imported from WebGen-Bench's test set ({app_type or 'no application type'}; "
                  f"{len(eval_tasks)} UI test cases, each judged by the LLM UI agent: run "
                  f"with --ui browser-use or hybrid)."),
        "eval_tasks": eval_tasks}


def import_webgen(source: Path, bench: Path, ids: list[str] | None = None,
                  limit: int | None = None) -> WebGenImport:
    """Import the lines of WebGen-Bench's ``test.jsonl`` (``source``; or those ``ids``, at most
    ``limit``) into the benchmark ``bench``; a line that cannot be read is left out with its
    reason."""
    try:
        lines = Path(source).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise WebGenError(f"{source}: cannot be read ({exc})") from None
    out = WebGenImport()
    wanted = {str(i).removeprefix(PREFIX) for i in ids} if ids else None
    seen: set[str] = set()
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{source}:{n}"
        try:
            row = json.loads(line)
        except ValueError as exc:
            out.left_out.append((where, f"not JSON ({exc})"))
            continue
        if not isinstance(row, dict):
            out.left_out.append((where, "not a JSON object"))
            continue
        if wanted is not None and str(row.get("id")) not in wanted:
            continue
        seen.add(str(row.get("id")))
        if limit is not None and len(out.imported) >= limit:
            break
        try:
            task = task_of(row, where)
        except WebGenError as exc:
            out.left_out.append((where, str(exc).removeprefix(f"{where}: ")))
            continue
        _write(bench, task)
        out.imported.append(ImportedCase(task["id"], len(task["eval_tasks"]), task["category"]))
    for missing in sorted((wanted or set()) - seen):
        out.left_out.append((missing, f"no line of {source} has this id"))
    return out


def _write(bench: Path, task: dict[str, Any]) -> None:
    folder = Path(bench) / "tasks" / task["id"]
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "task.yaml").write_text(
        "# Imported by `asuka import webgen-bench`; re-import rather than edit.\n"
        + yaml.safe_dump(task, sort_keys=False, allow_unicode=True, width=100),
        encoding="utf-8")
    for sub, name, text in (
            ("prds", f"{task['id']}.md", f"# {task['title']}\n\n{task['query']}\n"),
            ("dags", f"{task['id']}.yaml", yaml.safe_dump(
                {"edges": [], "notes": "WebGen-Bench's test cases are independent"},
                sort_keys=False))):
        (Path(bench) / sub).mkdir(parents=True, exist_ok=True)
        (Path(bench) / sub / name).write_text(text, encoding="utf-8")
